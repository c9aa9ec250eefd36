// Re-collects every WCXB page of the real goal set (train, dev and test splits alike: all of them come from
// WCXB's `dev/` folder, never its `test/`) with the current collector, exactly as collect-real.ts renders them
// (renderOffline), and carries each goal's target ids over to the new collection (`remap`, below). Readability
// pages stay as stored; every page keeps its site, type, language and split. Writes pages.json.gz and
// pages-more.json.gz (each page's `request` replaced, the collector's commit recorded), rewrites the `targets`
// of goals/*.json (goal text and style untouched), moves a goal none of whose targets survives to
// recollect-lost.json, and writes what happened to recollect-report.json.
// Rendered pages are cached in scratch/real-recollect/ (not committed): a second run only remaps.
// Run: WCXB_DIR=<wcxb checkout> node --import tsx train/real/recollect.ts [--fresh] [--dry]   (after `node scripts/build.js`)
import { readFileSync, writeFileSync, mkdirSync, existsSync, readdirSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { launch } from '../../test/helpers/browser.ts';
import { renderOffline, type RealPage } from './collect-real.ts';
import type { GoalFile, Goal } from './check-goals.ts';
import type { CollectedElement } from '../../src/collect/types.ts';
import { wcxbPage } from '../../bench/read/wcxb-eval.ts';

const CACHE = new URL('../../scratch/real-recollect/', import.meta.url);
const FILES = ['./pages.json.gz', './pages-more.json.gz'].map((f) => new URL(f, import.meta.url));
const GOALS_DIR = new URL('./goals/', import.meta.url);
const LOST = new URL('./recollect-lost.json', import.meta.url);
const REPORT = new URL('./recollect-report.json', import.meta.url);
/** `--dry`: render and remap, write the report only (to scratch/), change nothing in train/real. */
const DRY = process.argv.includes('--dry');

type Request = RealPage['request'];

/** Re-renders one WCXB page from its `dev/` HTML (the page id is `wcxb-<file>`), or reads it from the cache. */
async function rendered(browser: Awaited<ReturnType<typeof launch>> | null, page: RealPage): Promise<Request> {
  const cached = new URL(`${page.id}.json.gz`, CACHE);
  if (existsSync(cached) && !process.argv.includes('--fresh')) return JSON.parse(gunzipSync(readFileSync(cached)).toString());
  const { url, html } = wcxbPage(page.id.replace(/^wcxb-/, ''));
  if (url !== page.request.url && new URL(url).href !== page.request.url) throw new Error(`${page.id}: stored URL ${page.request.url}, WCXB says ${url}`);
  const request = await renderOffline(browser!, url, html);
  writeFileSync(cached, gzipSync(JSON.stringify(request)));
  return request;
}

// ---- The remap rule -------------------------------------------------------------------------------------
// An element of the stored collection is carried to the element of the new one that is the same control.
// Its signature is its tag, text, link (href) and names (aria_label, title, placeholder, name, alt, type,
// role). The layout above an element may have moved (an image's box, a banner): its box is first moved by
// the page's own shift there, the median move of the ANCHORS anchors closest to it down the page (elements
// whose signature is unique in both collections). "Near" is then a box whose centre is within NEAR_PX of
// the moved old one's (document coordinates). In order:
//   1. `exact`: a near element with the same signature (the nearest, so a repeated control such as the
//      "Reply" under every comment keeps its place among its twins);
//   2. a near element of the same tag (the nearest) with
//      a. `href`: the same link (not empty): the collector's text or name for it changed, the link did not;
//      b. `name`: the same accessible name (the collector's `name`, else `aria_label`; not empty): the text
//         changed, the name did not (an icon glyph marked aria-hidden is no longer the button's text);
//      c. `text`: the same text once case and every character but letters and digits are dropped (a `<br>`
//         now parts "See all11" into "See all 11");
//      d. `contains`: text or name of one contains the other's (a name computed from more of the content);
//   3. `lost`: none of these. A goal keeps the targets that are carried over; a goal with none left is
//      moved out of the set (recollect-lost.json), never guessed.
// Nothing here reads a goal's words: the rule looks only at the two collections.
const NAME_KEYS = ['aria_label', 'title', 'placeholder', 'name', 'alt', 'type', 'role'];
const NEAR_PX = 60;
const squash = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
const signature = (e: CollectedElement) => JSON.stringify([e.tag, e.text, e.attributes.href ?? '', ...NAME_KEYS.map((k) => e.attributes[k] ?? '')]);
const distance = (a: CollectedElement, b: CollectedElement) =>
  Math.hypot(a.rect.x + a.rect.width / 2 - (b.rect.x + b.rect.width / 2), a.doc_y + a.rect.height / 2 - (b.doc_y + b.rect.height / 2));
const labelOf = (e: CollectedElement) => squash(e.text || e.attributes.aria_label || e.attributes.name || e.attributes.title || e.attributes.alt || '');
const nameOf = (e: CollectedElement) => e.attributes.name || e.attributes.aria_label || '';

type How = 'exact' | 'href' | 'name' | 'text' | 'contains' | 'lost';
const ANCHORS = 5;
const centre = (e: CollectedElement) => [e.rect.x + e.rect.width / 2, e.doc_y + e.rect.height / 2];
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[s.length >> 1] : 0; };

/** Carries elements of the stored collection `old` over to the new one `now`. */
function remapper(old: CollectedElement[], now: CollectedElement[]) {
  const count = (list: CollectedElement[]) => { const m = new Map<string, CollectedElement[]>(); for (const e of list) m.set(signature(e), [...m.get(signature(e)) ?? [], e]); return m; };
  const was = count(old), is = count(now);
  const anchors = [...was].filter(([sig, list]) => list.length === 1 && is.get(sig)?.length === 1)
    .map(([sig, [a]]) => { const b = is.get(sig)![0]; return { y: centre(a)[1], dx: centre(b)[0] - centre(a)[0], dy: centre(b)[1] - centre(a)[1] }; });
  return (before: CollectedElement): { id: number | null; how: How; moved: number } => {
    const [x, y] = centre(before);
    const close = [...anchors].sort((a, b) => Math.abs(a.y - y) - Math.abs(b.y - y)).slice(0, ANCHORS);
    const [sx, sy] = [x + median(close.map((a) => a.dx)), y + median(close.map((a) => a.dy))];
    const off = (e: CollectedElement) => Math.hypot(centre(e)[0] - sx, centre(e)[1] - sy);
    const near = now.filter((e) => e.tag === before.tag && off(e) <= NEAR_PX);
    const old = labelOf(before);
    const tiers: [How, (e: CollectedElement) => boolean][] = [
      ['exact', (e) => signature(e) === signature(before)],
      ['href', (e) => !!before.attributes.href && e.attributes.href === before.attributes.href],
      ['name', (e) => !!nameOf(before) && nameOf(e) === nameOf(before)],
      ['text', (e) => squash(e.text) === squash(before.text) && (!!squash(e.text) || labelOf(e) === old)],
      ['contains', (e) => { const l = labelOf(e); return !!l && !!old && (l.includes(old) || old.includes(l)); }],
    ];
    for (const [how, ok] of tiers) {
      const hits = near.filter(ok);
      if (hits.length) { const e = hits.reduce((best, h) => (off(h) < off(best) ? h : best)); return { id: e.id, how, moved: Math.hypot(centre(e)[0] - x, centre(e)[1] - y) }; }
    }
    return { id: null, how: 'lost', moved: NaN };
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(CACHE, { recursive: true });
  const stored = FILES.map((url) => ({ url, data: JSON.parse(gunzipSync(readFileSync(url)).toString()) as { pages: RealPage[] } & Record<string, unknown> }));
  const wcxb = stored.flatMap((s) => s.data.pages).filter((p) => p.source === 'wcxb-dev');
  const fresh = new Map<string, Request>();
  const started = Date.now();
  const needsBrowser = wcxb.some((p) => process.argv.includes('--fresh') || !existsSync(new URL(`${p.id}.json.gz`, CACHE)));
  const browser = needsBrowser ? await launch() : null;
  for (const [i, p] of wcxb.entries()) {
    fresh.set(p.id, await rendered(browser, p));
    const s = (Date.now() - started) / 1000;
    process.stderr.write(`\r${i + 1}/${wcxb.length} pages (${p.split}) ${s.toFixed(0)} s, about ${((s / (i + 1)) * (wcxb.length - i - 1)).toFixed(0)} s left   `);
  }
  process.stderr.write('\n');
  await browser?.close();
  const renderSeconds = (Date.now() - started) / 1000;

  // Run again on pages already replaced: nothing to carry over (and the report of the first run stands).
  if (wcxb.every((p) => JSON.stringify(p.request) === JSON.stringify(fresh.get(p.id)))) {
    console.log(`${wcxb.length} WCXB pages: the stored pages are these collections already; nothing written`);
    process.exit(0);
  }
  // Carry every goal's targets over, page by page.
  const pages = new Map(stored.flatMap((s) => s.data.pages).map((p) => [p.id, p]));
  type Tally = Record<How, number> & { goals: number; goalsLost: number; goalsPartial: number; targets: number; sameId: number; shifted: number; merged: number };
  const tally = new Map<string, Tally>();
  const tallyOf = (split: string) => tally.get(split) ?? tally.set(split, { goals: 0, goalsLost: 0, goalsPartial: 0, targets: 0, sameId: 0, exact: 0, href: 0, name: 0, text: 0, contains: 0, lost: 0, shifted: 0, merged: 0 }).get(split)!;
  const lost: { file: string; page: string; split: string; goal: Goal; targets: { id: number; tag: string; text: string; href?: string }[] }[] = [];
  const fallbacks: { page: string; old: [number, string, string]; now: [number, string, string]; how: How; moved: number }[] = [];
  const goalFiles = readdirSync(GOALS_DIR).filter((f) => f.endsWith('.json')).sort();
  const previous = existsSync(LOST) ? JSON.parse(readFileSync(LOST, 'utf8')) as { goals: typeof lost } : { goals: [] };
  for (const name of goalFiles) {
    const text = readFileSync(new URL(name, GOALS_DIR), 'utf8');
    const file = JSON.parse(text) as GoalFile;
    for (const [pageId, goals] of Object.entries(file.pages)) {
      const page = pages.get(pageId);
      const now = fresh.get(pageId);
      if (!page || !now) continue; // a Readability page: stored as it is
      const oldById = new Map(page.request.raw_elements.map((e) => [e.id, e]));
      const carry = remapper(page.request.raw_elements, now.raw_elements);
      const nowById = new Map(now.raw_elements.map((e) => [e.id, e]));
      file.pages[pageId] = goals.filter((g) => {
        const t = tallyOf(page.split);
        t.goals++;
        const kept = new Set<number>();
        let missing = 0;
        for (const id of g.targets) {
          t.targets++;
          const before = oldById.get(id)!;
          const r = carry(before);
          t[r.how]++;
          if (r.id === null) missing++;
          else {
            kept.add(r.id);
            if (r.id === id) t.sameId++;
            if (r.moved > NEAR_PX) t.shifted++;
            if (r.how !== 'exact' || r.moved > NEAR_PX) { const e = nowById.get(r.id)!; fallbacks.push({ page: pageId, old: [id, before.tag, before.text.slice(0, 60)], now: [r.id, e.tag, e.text.slice(0, 60)], how: r.how, moved: Math.round(r.moved) }); }
          }
        }
        if (!kept.size) {
          t.goalsLost++;
          lost.push({ file: name, page: pageId, split: page.split, goal: g, targets: g.targets.map((id) => { const e = oldById.get(id)!; return { id, tag: e.tag, text: e.text.slice(0, 80), ...(e.attributes.href ? { href: e.attributes.href } : {}) }; }) });
          return false;
        }
        if (missing) t.goalsPartial++;
        t.merged += g.targets.length - missing - kept.size; // two old targets became one element
        g.targets = [...kept];
        return true;
      });
    }
    if (!DRY) writeFileSync(new URL(name, GOALS_DIR), JSON.stringify(file, null, 1) + (text.endsWith('\n') ? '\n' : ''));
  }

  // The collector's commit: the last one that changed it (the in-page code and its Playwright driver).
  const commit = execFileSync('git', ['log', '-1', '--format=%h', '--', 'src/collect', 'src/playwright'], { encoding: 'utf8' }).trim();
  for (const { url, data } of DRY ? [] : stored) {
    for (const p of data.pages) { const now = fresh.get(p.id); if (now) p.request = now; }
    data.recollected = { collectorCommit: commit, wcxbPages: data.pages.filter((p) => fresh.has(p.id)).length, note: 'WCXB pages re-collected by train/real/recollect.ts; Readability pages as first collected' };
    writeFileSync(url, gzipSync(JSON.stringify(data), { level: 9 }));
  }
  if (!DRY) writeFileSync(LOST, JSON.stringify({ note: 'Goals whose every target was lost when the pages were re-collected (train/real/recollect.ts): out of the set, kept here as written.', goals: [...previous.goals, ...lost] }, null, 1) + '\n');
  const splits = Object.fromEntries([...tally].sort());
  writeFileSync(DRY ? new URL('report.json', CACHE) : REPORT, JSON.stringify({ collectorCommit: commit, pages: fresh.size, renderSeconds: browser ? Math.round(renderSeconds) : null, bySplit: splits, fallbacks }, null, 1) + '\n');
  console.log(`${fresh.size} WCXB pages re-collected (${browser ? `${renderSeconds.toFixed(0)} s` : 'from the cache'}) at collector commit ${commit}`);
  for (const [split, t] of Object.entries(splits)) {
    console.log(`${split}: ${t.goals} goals, ${t.targets} targets: ${t.exact} exact, ${t.href + t.name + t.text + t.contains} by fallback (href ${t.href}, name ${t.name}, text ${t.text}, contains ${t.contains}), ${t.lost} lost; ${t.sameId} keep their id, ${t.shifted} moved over NEAR_PX with the layout, ${t.merged} merged into another target; ${t.goalsLost} goals lost, ${t.goalsPartial} keep only some targets`);
  }
}
