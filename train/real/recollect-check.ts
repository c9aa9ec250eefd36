// Checks recollect.ts's remap rule against element identity. Each WCXB page of the goal set is rendered again
// (renderOffline, the current collector); on the same DOM the collector that made the pages before the
// re-collection runs too (its source from git, its own id registry: train/a11y/pair-ids.ts), and every old
// id is paired with the new id of the very element it came from. For every goal target this prints whether
// the rule's id (the goal files as they are now) is that element's. Reads the pages and goal files as they
// were at BEFORE from git; writes nothing.
// Run: WCXB_DIR=<wcxb checkout> node --import tsx train/real/recollect-check.ts   (after `node scripts/build.js`)
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { launch } from '../../test/helpers/browser.ts';
import { renderOffline, type RealPage } from './collect-real.ts';
import { oldCollector, ROOT } from '../a11y/pair-ids.ts';
import type { GoalFile } from './check-goals.ts';
import type { CollectedElement } from '../../src/collect/types.ts';
import { wcxbPage } from '../../bench/read/wcxb-eval.ts';

/** The commit before the re-collection, and the commit that collected each stored file. */
const BEFORE = 'f7993ec';
const COLLECTED_BY: Record<string, string> = { 'pages.json.gz': '698f5d5', 'pages-more.json.gz': '7dd0347' };
const OLD_KEY = '__sightlineRegistryOld';

const git = (path: string) => execFileSync('git', ['-C', ROOT, 'show', `${BEFORE}:${path}`], { maxBuffer: 256 << 20 });
const PAIR = `(oldIds) => {
  const N = window.__sightlineRegistry, O = window.${OLD_KEY}, out = {};
  for (const id of oldIds) { const el = O.nodes.get(id) && O.nodes.get(id).deref(); out[id] = el ? (N.ids.get(el) ?? null) : null; }
  return JSON.stringify(out);
}`;

const now = new Map<string, GoalFile>(readdirSync(new URL('./goals/', import.meta.url)).filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(new URL(`./goals/${f}`, import.meta.url), 'utf8'))]));
const browser = await launch();
const tally = { pages: 0, reproduced: 0, sameCollection: 0, targets: 0, agree: 0, differ: 0, unpaired: 0 };
const differ: string[] = [];
for (const [file, commit] of Object.entries(COLLECTED_BY)) {
  const bundle = await oldCollector(commit);
  const stored = (JSON.parse(gunzipSync(git(`train/real/${file}`)).toString()) as { pages: RealPage[] }).pages.filter((p) => p.source === 'wcxb-dev');
  const current = new Map((JSON.parse(gunzipSync(readFileSync(new URL(`./${file}`, import.meta.url))).toString()) as { pages: RealPage[] }).pages.map((p) => [p.id, p]));
  for (const page of stored) {
    const { url, html } = wcxbPage(page.id.replace(/^wcxb-/, ''));
    let again: CollectedElement[] = [], pairs: Record<number, number | null> = {};
    const request = await renderOffline(browser, url, html, async (p) => {
      await p.evaluate(bundle);
      again = JSON.parse(await p.evaluate('JSON.stringify(window.__sightlineOld.collect({}).raw_elements)') as string);
      pairs = JSON.parse(await p.evaluate(`(${PAIR})(${JSON.stringify(again.map((e) => e.id))})`) as string);
    });
    tally.pages++;
    if (JSON.stringify(request) === JSON.stringify(current.get(page.id)?.request)) tally.sameCollection++;
    const againById = new Map(again.map((e) => [e.id, e]));
    const reproduced = (e: CollectedElement) => { const a = againById.get(e.id); return !!a && a.tag === e.tag && a.text === e.text; };
    if (again.length === page.request.raw_elements.length && page.request.raw_elements.every(reproduced)) tally.reproduced++;
    for (const [goalFile, goals] of now) {
      const before = (JSON.parse(git(`train/real/goals/${goalFile}`).toString()) as GoalFile).pages[page.id];
      if (!before) continue;
      before.forEach((g, i) => g.targets.forEach((old, k) => {
        tally.targets++;
        const oldEl = page.request.raw_elements.find((e) => e.id === old)!;
        const paired = reproduced(oldEl) ? pairs[old] : null;
        if (goals.pages[page.id][i]?.goal !== g.goal) throw new Error(`${page.id}: goal ${i} is not "${g.goal}" now`);
        const rule = goals.pages[page.id][i].targets[k];
        if (paired === null || paired === undefined) tally.unpaired++;
        else if (paired === rule) tally.agree++;
        else { tally.differ++; differ.push(`${page.split} ${page.id} old ${old} ${oldEl.tag} "${oldEl.text.slice(0, 40)}": rule ${rule}, element ${paired}`); }
      }));
    }
    process.stderr.write(`\r${tally.pages} pages`);
  }
}
await browser.close();
console.log(`\n${JSON.stringify(tally)}`);
for (const d of differ) console.log(d);
