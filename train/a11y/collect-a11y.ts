// Builds the goal-less importance evaluation (issue 20): real pages from the WCXB development split
// (Murrough-Foley/web-content-extraction-benchmark, CC-BY-4.0; `dev/` only, never `test/`) rendered
// offline in Chromium at 1280x800 (the document served from its file at its own URL, every other
// request aborted), collected by our collector, and each page's visible named controls taken from
// Chromium's accessibility tree (CDP Accessibility.getFullAXTree, what Playwright's ariaSnapshot reads)
// and matched to our collected element ids.
//
// A control: a non-ignored AX node with a control role (CONTROL_ROLES) and a non-empty name. Visible:
// its DOM element's border box is wider and taller than 1 px (screen-reader-only
// text is clipped to 1 px) and intersects the viewport (0,0)-(1280,800) at
// load, scroll 0. Matched: the element's own id if the collector returned it, else its nearest collected ancestor (at most
// 3 levels up), else its first collected descendant; unmatched controls are counted, not scored.
//
// Sites go to tune (50%) or test (50%) by a seeded hash of the host (without www.), decided here, before
// any ranking output is seen. Writes train/a11y/tune.json.gz and train/a11y/test.json.gz (the test part
// is frozen: measured, never tuned on), and for marking primary actions a listing per page in
// scratch/a11y/ (not committed). Run: WCXB_DIR=<wcxb checkout> node --import tsx train/a11y/collect-a11y.ts
// `--grow` appends further tune pages (furtherPages('tune')) to tune.json.gz and leaves test.json.gz untouched.
// `--dev2` renders the next such pages (same rules, not in tune.json.gz) into a separate, blind-marked
// development set, train/a11y/dev2.json.gz, and leaves tune.json.gz and test.json.gz untouched.
// `--test2` renders a second frozen set, train/a11y/test2.json.gz: further pages of the test split's sites
// (in the tune part of the WCXB read split, so no page of that split's frozen part; in no a11y file yet),
// up to TEST2_PER_TYPE per type in file order; every other file untouched. Marked blind, measured once.
// `--test3` renders a third frozen set, train/a11y/test3.json.gz, of sites no split holds (test3Pages); every
// other file untouched. Marked blind by helpers that never saw the ranker (issue 38), measured once.
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch } from '../../test/helpers/browser.ts';
import { collectPage, inject } from '../../src/playwright/collect-page.ts';
import { hash } from '../../src/rank/goal.ts';
import type { CollectedElement, CollectResult } from '../../src/collect/types.ts';
import type { Browser, Page } from 'playwright-core';

const WCXB = process.env.WCXB_DIR ?? '/work/wcxb';
const PER_TYPE = Number(process.env.PER_TYPE ?? 34);
const SPLIT_SEED = 'a11y-importance-2026-11';
export const VIEWPORT = { width: 1280, height: 800 };
const SCRATCH = new URL('../../scratch/a11y/', import.meta.url);

export const CONTROL_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch',
  'slider', 'spinbutton', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem']);

export type A11ySplit = 'tune' | 'test';
export interface Control { role: string; name: string; visible: boolean; id: number | null; via: 'self' | 'ancestor' | 'descendant' | null; y: number }
export interface A11yPage {
  id: string; site: string; type: string; split: A11ySplit;
  request: { url: string; viewport: { width: number; height: number }; raw_elements: CollectedElement[] };
  controls: Control[];
}

export const siteOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');
export const splitOf = (site: string): A11ySplit => ((hash(`${SPLIT_SEED}:${site}`) >>> 0) % 100) < 50 ? 'tune' : 'test';

/** The listing primary actions are marked from (scratch/a11y/<name>, not committed): each page's every named
 *  control in page order, visible ones flagged; `tag` says what the page header shows after the id. */
export function writeControlListing(name: string, pages: A11yPage[], tag: (p: A11yPage) => string): void {
  mkdirSync(SCRATCH, { recursive: true });
  writeFileSync(new URL(name, SCRATCH), pages.map((p) => `## ${p.id} ${tag(p)} ${p.request.url}\n` + [...p.controls].sort((a, b) => a.y - b.y)
    .map((c) => `${c.id ?? '-'} ${c.visible ? 'V' : ' '} y=${c.y} ${c.role} ${JSON.stringify(c.name.slice(0, 70))}`).join('\n')).join('\n\n') + '\n');
}

/** Renders an independent set (dev3, dev4, dev5) into train/a11y/<name>.json.gz, both halves in one file (each page
 *  with its half, by `splitOf` of its site), and writes the listing(s) its primary actions are marked from
 *  (`listings`; by default one file of both halves). */
export async function renderSet(name: string, seed: string, sources: (Source & { site: string })[], splitOf: (site: string) => A11ySplit,
  listings = (pages: A11yPage[]) => writeControlListing(`${name}-controls.txt`, pages, (p) => p.split)): Promise<A11yPage[]> {
  const browser = await launch();
  const pages: A11yPage[] = [];
  for (const [k, s] of sources.entries()) {
    const got = await renderPage(browser, s, undefined, undefined, s.site, splitOf(s.site));
    if (got) pages.push(got);
    if ((k + 1) % 20 === 0) process.stderr.write(`${k + 1}/${sources.length} pages\n`);
  }
  await browser.close();
  writeFileSync(new URL(`./${name}.json.gz`, import.meta.url), gzipSync(JSON.stringify({ splitSeed: seed, pages })));
  listings(pages);
  return pages;
}
/** "<n> pages from <m> sites" of one half of a set. */
export const halfSummary = (pages: A11yPage[], split: A11ySplit, sites = 'sites'): string =>
  `${pages.filter((p) => p.split === split).length} from ${new Set(pages.filter((p) => p.split === split).map((p) => p.site)).size} ${sites}`;

export interface Source { id: string; url: string; type: string; html: string }
export interface Truth { file: string; url: string; type: string; site: string }
export function wcxbTruths(): Truth[] {
  const dir = join(WCXB, 'dev');
  const out: Truth[] = [];
  for (const file of readdirSync(join(dir, 'ground-truth')).sort()) {
    const truth = JSON.parse(readFileSync(join(dir, 'ground-truth', file), 'utf8'));
    if (!/^https?:\/\//.test(truth.url ?? '')) continue;
    out.push({ file, url: truth.url, type: truth._internal?.page_type?.primary ?? 'unknown', site: siteOf(truth.url) });
  }
  return out;
}
export const sourceOf = (t: Truth): Source => ({ id: `wcxb-${t.file.replace('.json', '')}`, url: t.url, type: t.type,
  html: gunzipSync(readFileSync(join(WCXB, 'dev', 'html', t.file.replace('.json', '.html.gz')))).toString('utf8') });

/** The first collection: up to PER_TYPE pages of each type, one page per site, in file order. */
function wcxbPages(): Source[] {
  const byType = new Map<string, Source[]>();
  const seen = new Set<string>();
  for (const t of wcxbTruths()) {
    const list = byType.get(t.type) ?? [];
    if (seen.has(t.site) || list.length >= PER_TYPE) continue;
    seen.add(t.site);
    list.push(sourceOf(t));
    byType.set(t.type, list);
  }
  return [...byType.values()].flat();
}

/**
 * Further WCXB dev pages of one side of the a11y split (`splitOf`), in the tune part of the WCXB read split
 * (bench/read/wcxb-split.json, so no page of its frozen part is rendered or listed), in none of `have`; up to
 * `perType` per page type, in file order (several pages of one site allowed). The tune side grows the tune
 * split and made dev2 (train/a11y/README.md); the test side made test2, a second frozen set.
 */
function furtherPages(side: A11ySplit, have: Set<string>, perType: number): Source[] {
  const readTune = new Set<string>(JSON.parse(readFileSync(new URL('../../bench/read/wcxb-split.json', import.meta.url), 'utf8')).tune);
  const byType = new Map<string, Source[]>();
  for (const t of wcxbTruths()) {
    const id = t.file.replace('.json', '');
    if (splitOf(t.site) !== side || !readTune.has(id) || have.has(`wcxb-${id}`)) continue;
    const list = byType.get(t.type) ?? [];
    if (list.length >= perType) continue;
    list.push(sourceOf(t));
    byType.set(t.type, list);
  }
  return [...byType.values()].flat();
}

/**
 * Pages of sites no set holds (issue 38): WCXB dev pages in the tune part of the WCXB read split (so no page of its
 * frozen part), whose site is in no a11y file (every train/a11y/*.json.gz, by its `site` and its URL's host) and in
 * no train/real page; one page per site, up to `perType` per page type, in file order.
 */
function test3Pages(perType: number): Source[] {
  const readTune = new Set<string>(JSON.parse(readFileSync(new URL('../../bench/read/wcxb-split.json', import.meta.url), 'utf8')).tune);
  const held = new Set<string>();
  const files = [...readdirSync(new URL('./', import.meta.url)).filter((f) => f.endsWith('.json.gz') && f !== 'test3.json.gz').map((f) => new URL(`./${f}`, import.meta.url)),
    new URL('../real/pages.json.gz', import.meta.url)];
  for (const file of files) {
    for (const p of (JSON.parse(gunzipSync(readFileSync(file)).toString()) as { pages: { site: string; request: { url: string } }[] }).pages) {
      held.add(p.site);
      held.add(siteOf(p.request.url));
    }
  }
  const byType = new Map<string, Source[]>();
  const taken = new Set<string>();
  for (const t of wcxbTruths()) {
    if (!readTune.has(t.file.replace('.json', '')) || held.has(t.site) || taken.has(t.site)) continue;
    const list = byType.get(t.type) ?? [];
    if (list.length >= perType) continue;
    taken.add(t.site);
    list.push(sourceOf(t));
    byType.set(t.type, list);
  }
  return [...byType.values()].flat();
}

/** Runs in the page on one AX node's element (a string, so no transform touches it): its collected id,
 *  or a near one, and its box. */
const LOCATE = `function () {
  const s = window.__sightline;
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el) return 'null';
  const r = el.getBoundingClientRect();
  const collected = window.__a11yCollected;
  const idOf = (e) => { const v = s.idOf(e); return typeof v === 'number' && collected.has(v) ? v : undefined; };
  let id = idOf(el);
  let via = id === undefined ? null : 'self';
  for (let p = el.parentElement, k = 0; id === undefined && p && k < 3; p = p.parentElement, k++) {
    id = idOf(p);
    if (id !== undefined) via = 'ancestor';
  }
  if (id === undefined) {
    for (const d of el.querySelectorAll('*')) { id = idOf(d); if (id !== undefined) { via = 'descendant'; break; } }
  }
  return JSON.stringify({ id: id === undefined ? null : id, via, box: { x: r.x, y: r.y, w: r.width, h: r.height } });
}`;

/** Renders one page as this file collects it (offline, VIEWPORT, every other request aborted), collects it
 *  with the current collector and reads its visible named controls. `after`, when given, runs in the
 *  loaded page right after the collection (recollect.ts runs an older collector there, on the same DOM).
 *  `site` and `split` default to the WCXB sets' rules. Null when the page failed (its error on stderr, under `label`). */
export async function renderPage(browser: Browser, s: Source, after?: (page: Page, collected: CollectResult) => Promise<void>, label = s.id,
  site = siteOf(s.url), split: A11ySplit = splitOf(site)): Promise<A11yPage | null> {
  let out: A11yPage | null = null;
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block', acceptDownloads: false });
  const page = await context.newPage();
  await page.route('**/*', (route) => route.request().isNavigationRequest() && route.request().url() === new URL(s.url).href
    ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: s.html })
    : route.abort('blockedbyclient'));
  try {
    await page.goto(s.url, { waitUntil: 'load', timeout: 20_000 });
    await page.waitForTimeout(300);
    await page.evaluate(() => window.scrollTo(0, 0));
    await inject(page.mainFrame());
    const collected = await collectPage(page);
    if (after) await after(page, collected);
    const raw = collected.raw_elements; // as a client sends them (class included: the core reads primary hints from it)
    // idOf numbers any element it is asked about: only ids the collector returned count as matched.
    await page.evaluate((ids) => { (window as unknown as { __a11yCollected: Set<number> }).__a11yCollected = new Set(ids); }, raw.map((e) => e.id));
    const cdp = await context.newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree') as { nodes: { ignored: boolean; role?: { value: string }; name?: { value: string }; backendDOMNodeId?: number }[] };
    const candidates = nodes.filter((n) => !n.ignored && CONTROL_ROLES.has(n.role?.value ?? '') && String(n.name?.value ?? '').trim() && n.backendDOMNodeId !== undefined);
    // All at once: CDP pipelines the calls, one round trip each would cost seconds on a large page.
    const located = await Promise.all(candidates.map(async (n) => {
      const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: n.backendDOMNodeId }).catch(() => ({ object: null as null | { objectId?: string } }));
      if (!object?.objectId) return null;
      const res = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: LOCATE, returnByValue: true });
      if (res.exceptionDetails) throw new Error(res.exceptionDetails.exception?.description ?? res.exceptionDetails.text);
      return JSON.parse(String(res.result.value ?? 'null')) as { id: number | null; via: Control['via']; box: { x: number; y: number; w: number; h: number } } | null;
    }));
    const controls: Control[] = [];
    candidates.forEach((n, k) => {
      const got = located[k];
      if (!got) return;
      const b = got.box;
      const visible = b.w > 1 && b.h > 1 && b.x < VIEWPORT.width && b.x + b.w > 0 && b.y < VIEWPORT.height && b.y + b.h > 0;
      controls.push({ role: n.role!.value, name: String(n.name!.value).trim().slice(0, 120), visible, id: got.id, via: got.via, y: Math.round(b.y) });
    });
    await cdp.detach();
    out = { id: s.id, site, type: s.type, split, request: { url: page.url(), viewport: collected.viewport, raw_elements: raw }, controls };
  } catch (err) {
    process.stderr.write(`${label}: ${(err as Error).message.split('\n')[0]}\n`);
  }
  await context.close();
  return out;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--test2')) {
  const have = new Set<string>();
  for (const f of ['tune', 'test', 'dev2']) {
    for (const p of (JSON.parse(gunzipSync(readFileSync(new URL(`./${f}.json.gz`, import.meta.url))).toString()) as { pages: A11yPage[] }).pages) have.add(p.id);
  }
  const sources = furtherPages('test', have, Number(process.env.TEST2_PER_TYPE ?? 25));
  const browser = await launch();
  const pages: A11yPage[] = [];
  for (const [k, s] of sources.entries()) {
    const got = await renderPage(browser, s);
    if (got) pages.push(got);
    if ((k + 1) % 20 === 0) process.stderr.write(`${k + 1}/${sources.length} pages\n`);
  }
  await browser.close();
  if (pages.some((p) => p.split !== 'test')) throw new Error('a test2 page is not on the test side');
  writeFileSync(new URL('./test2.json.gz', import.meta.url), gzipSync(JSON.stringify({ splitSeed: SPLIT_SEED, pages })));
  writeControlListing('test2-controls.txt', pages, (p) => p.type);
  console.log(`${pages.length} of ${sources.length} pages rendered (${halfSummary(pages, 'test')})`);
} else if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--test3')) {
  const sources = test3Pages(Number(process.env.TEST3_PER_TYPE ?? 100));
  const browser = await launch();
  const pages: A11yPage[] = [];
  for (const [k, s] of sources.entries()) {
    // Frozen, whatever side `splitOf` would give its site: no split has held it.
    const got = await renderPage(browser, s, undefined, s.id, siteOf(s.url), 'test');
    if (got) pages.push(got);
    if ((k + 1) % 20 === 0) process.stderr.write(`${k + 1}/${sources.length} pages\n`);
  }
  await browser.close();
  writeFileSync(new URL('./test3.json.gz', import.meta.url), gzipSync(JSON.stringify({ splitSeed: SPLIT_SEED, pages })));
  writeControlListing('test3-controls.txt', pages, (p) => p.type);
  const byType = new Map<string, number>();
  for (const p of pages) byType.set(p.type, (byType.get(p.type) ?? 0) + 1);
  console.log(`${pages.length} of ${sources.length} pages rendered (${halfSummary(pages, 'test')}): ${[...byType].map(([t, n]) => `${n} ${t}`).join(', ')}`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  // `--grow`: render only furtherPages('tune') and append them to tune.json.gz; test.json.gz is not written.
  // `--dev2`: render the next furtherPages('tune') (not in tune.json.gz; up to DEV2_PER_TYPE per type) into
  // dev2.json.gz; neither tune.json.gz nor test.json.gz is written.
  const dev2 = process.argv.includes('--dev2');
  const grow = process.argv.includes('--grow') || dev2;
  const loadPart = (split: A11ySplit) => (JSON.parse(gunzipSync(readFileSync(new URL(`./${split}.json.gz`, import.meta.url))).toString()) as { pages: A11yPage[] }).pages;
  const kept = grow ? loadPart('tune') : [];
  const sources = dev2 ? furtherPages('tune', new Set(kept.map((p) => p.id)), Number(process.env.DEV2_PER_TYPE ?? 100))
    : grow ? furtherPages('tune', new Set(kept.map((p) => p.id)), Number(process.env.GROW_PER_TYPE ?? 40)) : wcxbPages();
  mkdirSync(SCRATCH, { recursive: true });
  const browser = await launch();
  const pages: A11yPage[] = [];
  let done = 0;
  for (const s of sources) {
    const got = await renderPage(browser, s);
    if (got) pages.push(got);
    if (++done % 20 === 0) process.stderr.write(`${done}/${sources.length} pages\n`);
  }
  await browser.close();
  if (grow && pages.some((p) => p.split !== 'tune')) throw new Error('a grown page is not in the tune split');
  for (const split of grow ? ['tune'] as const : ['tune', 'test'] as const) {
    const part = pages.filter((p) => p.split === split);
    const file = dev2 ? 'dev2' : split;
    writeFileSync(new URL(`./${file}.json.gz`, import.meta.url), gzipSync(JSON.stringify({ splitSeed: SPLIT_SEED, pages: [...(split === 'tune' && !dev2 ? kept : []), ...part] })));
    // Of the new pages only when growing.
    writeControlListing(`${dev2 ? 'dev2' : split}${grow && !dev2 ? '-grown' : ''}-controls.txt`, part, (p) => p.type);
  }
  const named = pages.reduce((n, p) => n + p.controls.filter((c) => c.visible).length, 0);
  console.log(`${pages.length} pages (tune ${pages.filter((p) => p.split === 'tune').length}, test ${pages.filter((p) => p.split === 'test').length}), ${named} visible named controls`);
}
