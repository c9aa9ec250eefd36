// Scores goal-less importance (issue 20) on the a11y evaluation (train/a11y/README.md): per split, the
// top-50 coverage of each page's visible named controls (pooled, and the lowest page), the pages below
// 85%, the primary action in the top 10, and the share of the top 50 inside the viewport. "before" is
// the ranking recorded in before.json (the core before issue 20, by record-before.ts), "previous" the one
// in previous.json (the core after issue 20's first round, c314c1f); "now" is this checkout's core. The test split is frozen: its numbers are reported, never tuned on, and its pages
// are never listed. dev2 (dev2.json.gz, marks in primary-dev2.json) is the blind development set:
// further tune-side pages whose primary actions were marked from full control listings before any
// ranking of them was seen. dev3 (dev3.json.gz, marks in primary-dev3.json) is an independent blind set
// of real product pages (collect-products.ts), split by shop into dev3 (tune) and dev3-test (frozen:
// measured once, never listed, and only when asked by `--split dev3-test`). dev4 / dev4-test are the same for
// real news pages (collect-articles.ts, marks in primary-dev4.json), dev5 / dev5-test for form-centred pages of
// Formasaurus (collect-forms.ts, marks in primary-dev5.json, made blind before any ranking of them), dev6 / dev6-test for
// purchase pages of WCXB shops no other set holds (collect-dev6.ts, marks in primary-dev6.json; ranking-only: in the read
// split's frozen part). `--fold a|b` keeps one half of the tune
// split, or of dev2 / dev3 / dev4 / dev5 / dev6, by site (foldOf); it never applies to a frozen split (test, dev3-test,
// dev4-test, dev5-test, dev6-test): causes are looked for on fold a (`--list`), and a change is kept only if fold b's aggregates
// improve or hold.
// Run: npm run eval:importance [-- --backend js] [-- --split tune|dev2|dev3|dev4|dev5|dev6|test|dev3-test|dev4-test|dev5-test|dev6-test] [-- --fold a|b] [-- --list]
// (lists tune, dev2, dev3, dev4, dev5 or dev6 pages only)
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Ranker } from '../../src/rank/ranker.ts';
import { loadWasmCore } from '../../src/rank/load-node.ts';
import { jsBackend } from '../../src/rank/core-js.ts';
import { hash } from '../../src/rank/goal.ts';
import type { A11yPage, A11ySplit } from './collect-a11y.ts';
import { wilson } from '../../bench/stats.ts';
import { ROLES, resolveRole } from '../../src/rank/roles.ts';
import { Band } from '../../assembly/layout.ts';
import { CONSENT } from '../../src/collect/overlay-words.ts';

export const TOP = 50;
export const PRIMARY_TOP = 10;
export const PAGE_FLOOR = 0.85;

export interface PrimaryMark { ids: number[]; action: string; reason: string }
export interface Metrics {
  pages: number; controls: number; hits: number; pooled: number; min: number; below: string[];
  primaryPages: number; primaryTop10: number; primaryUncollected: number; primaryMisses: string[]; inViewShare: number;
  /** Non-interactive (static band) elements in the top 50, pooled over the pages (issue 38). */
  staticTop: number;
  /** Pages with a layer over them (a detected modal or a consent banner: layerIds) and how many of them do not
   *  rank one of its controls first (issue 38). */
  layerPages: number; layerNotFirst: number; layerMisses: string[];
}

type Raw = A11yPage['request']['raw_elements'][number];
/** The role band of a collected element, as the encoder resolves it (src/rank/roles.ts). */
export function bandOf(e: Raw): number {
  const a = (e.attributes ?? {}) as Record<string, string | undefined>;
  const tag = e.tag ? e.tag.toLowerCase() : '';
  return ROLES[resolveRole(tag, (a.input_type ?? a.type_ ?? '').toLowerCase(), a.role ?? '', a.inferred_role ?? '', !!a.href)].band;
}
/** Content, not something to click: the core's rule (score.ts `clickable`): static band, no pointer cursor, not a <details>. */
export const nonInteractive = (e: Raw) => bandOf(e) === Band.STATIC && e.styles?.cursor !== 'pointer' && e.tag?.toLowerCase() !== 'details';
const zOf = (e: Raw) => { const z = Number(e.styles?.z_index); return Number.isFinite(z) ? z : 0; };
const drawn = (e: Raw) => e.rect.width > 0 && e.rect.height > 0 && e.styles?.display !== 'none' && e.styles?.visibility !== 'hidden' && Number(e.styles?.opacity ?? 1) !== 0;
/**
 * The controls of a layer over the page, defined from the payload alone (so every recorded ranking is judged
 * alike): the modals the core detects (a positioned element, z-index > 0, over at least 30% of the viewport:
 * its `modal_grids`) that cover a control, and a consent banner's controls (z-index > 0, speaking of cookies or
 * consent in their words, section or nearby text). A layer's control is a drawn link, control or field in the
 * viewport, not occluded, whose centre is inside such a modal, or a consent banner's.
 */
export function layerIds(p: A11yPage, modals: { bounds: { x: number; y: number; width: number; height: number }; blocks_interaction: boolean }[]): Set<number> {
  const ids = new Set<number>();
  for (const e of p.request.raw_elements) {
    if (!e.in_viewport || e.is_occluded || !drawn(e) || bandOf(e) === Band.STATIC) continue;
    const a = (e.attributes ?? {}) as Record<string, string | undefined>;
    if (a.a11y_hidden === 'true') continue;
    const cx = e.rect.x + e.rect.width / 2, cy = e.rect.y + e.rect.height / 2;
    const inModal = modals.some((m) => m.blocks_interaction && cx >= m.bounds.x && cy >= m.bounds.y && cx < m.bounds.x + m.bounds.width && cy < m.bounds.y + m.bounds.height);
    const consent = zOf(e) > 0 && (CONSENT.test(a.section ?? '') || CONSENT.test(a.nearby_text ?? '') || CONSENT.test(e.text ?? ''));
    if (inModal || consent) ids.add(e.id);
  }
  return ids;
}

/** The tune split's halves, by a seeded hash of the site (all pages of one site in one fold). */
export const foldOf = (site: string): 'a' | 'b' => ((hash(`a11y-fold-2026-11:${site}`) >>> 0) % 2) === 0 ? 'a' : 'b';

/** The evaluation's page sets: the WCXB tune and frozen test splits, the blind development set dev2,
 *  the product pages of dev3, the news pages of dev4, the form pages of dev5 and the purchase pages of dev6, each with its
 *  frozen half (dev3-test, dev4-test, dev5-test, dev6-test),
 *  test2: more pages of the WCXB test split's sites, marked blind by other hands (stop 34), frozen; and test3: pages of
 *  sites no other set holds, marked blind by a helper that never saw the ranker (issue 38), frozen. */
export type EvalSplit = A11ySplit | 'dev2' | 'dev3' | 'dev3-test' | 'dev4' | 'dev4-test' | 'dev5' | 'dev5-test' | 'dev6' | 'dev6-test' | 'test2' | 'test3';
/** Ranked by record-before.ts and the parity test. */
export const SPLITS: readonly EvalSplit[] = ['tune', 'dev2', 'dev3', 'dev4', 'dev5', 'dev6', 'test', 'dev3-test', 'dev4-test', 'dev5-test', 'dev6-test', 'test2', 'test3'];
/** The development sets besides tune: the only ones ever listed. */
const DEV_SPLITS: readonly EvalSplit[] = ['dev2', 'dev3', 'dev4', 'dev5', 'dev6'];
/** Measured when no split is asked for: dev3-test, dev4-test, dev5-test, dev6-test, test2 and test3 only by name (each is
 *  measured once a round). */
const DEFAULT_SPLITS: readonly EvalSplit[] = ['tune', 'dev2', 'dev3', 'dev4', 'dev5', 'dev6', 'test'];
const FROZEN: readonly EvalSplit[] = ['test', 'dev3-test', 'dev4-test', 'dev5-test', 'dev6-test', 'test2', 'test3'];
/** The sets stored with both halves in one file, each page carrying its half. */
const HALVED = /^(dev3|dev4|dev5|dev6)(-test)?$/;

export function loadSplit(split: EvalSplit): A11yPage[] {
  const halved = HALVED.exec(split);
  const file = halved ? halved[1] : split;
  const pages = (JSON.parse(gunzipSync(readFileSync(new URL(`./${file}.json.gz`, import.meta.url))).toString()) as { pages: A11yPage[] }).pages;
  return halved ? pages.filter((p) => p.split === (halved[2] ? 'test' : 'tune')) : pages;
}
/** Primary-action marks of every page: primary.json (tune and test), primary-dev2.json (dev2),
 *  primary-dev3.json, primary-dev4.json, primary-dev5.json and primary-dev6.json (both halves), primary-test2.json (test2),
 *  primary-test3.json (test3), the last seven marked blind (a file not yet written is skipped). */
export function loadMarks(): Record<string, PrimaryMark | null> {
  const read = (file: string) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')).pages as Record<string, PrimaryMark | null>;
  const blind = ['./primary-dev2.json', './primary-dev3.json', './primary-dev4.json', './primary-dev5.json', './primary-dev6.json', './primary-test2.json', './primary-test3.json'].filter((f) => existsSync(new URL(f, import.meta.url)));
  return Object.assign(read('./primary.json'), ...blind.map(read));
}

/** Distinct ids of a page's visible named controls that matched a collected element. */
export function visibleIds(p: A11yPage): number[] {
  const collected = new Set(p.request.raw_elements.map((e) => e.id));
  return [...new Set(p.controls.filter((c) => c.visible && c.id !== null && collected.has(c.id)).map((c) => c.id as number))];
}

/** An element's box intersects the viewport (page coordinates at scroll 0, as collected). */
export function inView(p: A11yPage, id: number, byId: Map<number, A11yPage['request']['raw_elements'][number]>): boolean {
  const e = byId.get(id);
  if (!e) return false;
  const { width, height } = p.request.viewport;
  const r = e.rect;
  return r.width > 0 && r.height > 0 && r.x < width && r.x + r.width > 0 && r.y < height && r.y + r.height > 0;
}

/** Metrics of one split given each page's ranked ids (best first). */
export function measure(pages: A11yPage[], ranked: Map<string, number[]>, marks: Record<string, PrimaryMark | null>, layers?: Map<string, Set<number>>): Metrics {
  const m: Metrics = { pages: 0, controls: 0, hits: 0, pooled: 0, min: 1, below: [], primaryPages: 0, primaryTop10: 0, primaryUncollected: 0, primaryMisses: [], inViewShare: 0,
    staticTop: 0, layerPages: 0, layerNotFirst: 0, layerMisses: [] };
  let top = 0, topIn = 0;
  for (const p of pages) {
    const ids = ranked.get(p.id) ?? [];
    const top50 = new Set(ids.slice(0, TOP));
    const wanted = visibleIds(p);
    const byId = new Map(p.request.raw_elements.map((e) => [e.id, e]));
    for (const id of top50) { top++; if (inView(p, id, byId)) topIn++; const e = byId.get(id); if (e && nonInteractive(e)) m.staticTop++; }
    const layer = layers?.get(p.id);
    if (layer && layer.size) {
      m.layerPages++;
      if (!layer.has(ids[0])) { m.layerNotFirst++; m.layerMisses.push(`${p.id} (first: ${ids[0]}, layer controls at ${ids.flatMap((id, k) => layer.has(id) ? [k + 1] : []).slice(0, 5).join(', ') || 'none in the top 50'})`); }
    }
    const mark = marks[p.id];
    if (mark && !mark.ids.length) m.primaryUncollected++;
    else if (mark) {
      m.primaryPages++;
      if (ids.slice(0, PRIMARY_TOP).some((id) => mark.ids.includes(id))) m.primaryTop10++;
      else m.primaryMisses.push(`${p.id} (${mark.action}: best at ${Math.min(...mark.ids.map((id) => ids.indexOf(id)).filter((i) => i >= 0)) + 1})`);
    }
    if (!wanted.length) continue;
    const hits = wanted.filter((id) => top50.has(id)).length;
    const denominator = Math.min(TOP, wanted.length);
    m.pages++; m.controls += denominator; m.hits += hits;
    const cov = hits / denominator;
    if (cov < m.min) m.min = cov;
    if (cov < PAGE_FLOOR) m.below.push(`${p.id} ${(cov * 100).toFixed(0)}% (${hits}/${denominator}, ${wanted.length} visible)`);
  }
  m.pooled = m.hits / Math.max(1, m.controls);
  m.inViewShare = topIn / Math.max(1, top);
  return m;
}

/** Ranks every page; `layers`, when given, receives each page's layer controls (layerIds, from the modals
 *  the core detects: its occlusion pass, which issue 38 did not change, so every ranking is judged alike). */
export async function rankAll(pages: A11yPage[], backend?: 'wasm' | 'js', layers?: Map<string, Set<number>>): Promise<Map<string, number[]>> {
  const ranker = new Ranker(backend === 'js' ? jsBackend() : await loadWasmCore());
  return new Map(pages.map((p) => {
    const r = ranker.rank({ ...p.request, options: { limit: TOP } });
    layers?.set(p.id, layerIds(p, r.modal_grids ?? []));
    return [p.id, r.elements.map((e) => e.id)];
  }));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
/** The 95% Wilson interval of a share: 84 of 92 pages is compatible with anything from about 84% to 96%. */
const interval = (k: number, n: number) => { const [lo, hi] = wilson(k, n); return `${(lo * 100).toFixed(0)}–${(hi * 100).toFixed(0)}%`; };
export function row(name: string, m: Metrics): string {
  return `| ${name} | ${m.pages} | ${pct(m.pooled)} | ${pct(m.min)} | ${m.below.length} | ${m.primaryTop10}/${m.primaryPages} = ${pct(m.primaryTop10 / Math.max(1, m.primaryPages))} (${interval(m.primaryTop10, m.primaryPages)}) | ${m.primaryUncollected} | ${pct(m.inViewShare)} | ${m.staticTop} | ${m.layerNotFirst}/${m.layerPages} |`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const backend = process.argv.includes('--backend') ? process.argv[process.argv.indexOf('--backend') + 1] as 'wasm' | 'js' : undefined;
  const marks = loadMarks();
  const beforeFile = new URL('./before.json', import.meta.url);
  const before = existsSync(beforeFile) ? JSON.parse(readFileSync(beforeFile, 'utf8')) as Record<string, number[]> : null;
  const previousFile = new URL('./previous.json', import.meta.url);
  const previous = existsSync(previousFile) ? JSON.parse(readFileSync(previousFile, 'utf8')) as Record<string, number[]> : null;
  // `--recorded file.json[,file2.json]`: further recorded rankings (record-before.ts) printed beside these, e.g.
  // the core at a round's start, so before and after come from one run.
  const recordedArg = process.argv.includes('--recorded') ? process.argv[process.argv.indexOf('--recorded') + 1] : '';
  const recorded = recordedArg.split(',').filter(Boolean).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(`./${f}`, import.meta.url), 'utf8')) as Record<string, number[]>] as const);
  const lines = ['| split, ranking | pages | top-50 coverage pooled | lowest page | pages < 85% | primary action in top 10 | primary not collected | top 50 in viewport | non-interactive in top 50 | layer pages, a layer control not first |', '|---|---|---|---|---|---|---|---|---|---|'];
  const results: Record<string, Metrics> = {};
  const fold = process.argv.includes('--fold') ? process.argv[process.argv.indexOf('--fold') + 1] : undefined;
  if (fold !== undefined && fold !== 'a' && fold !== 'b') throw new Error('--fold takes a or b');
  const asked = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] as EvalSplit : undefined;
  if (asked !== undefined && !SPLITS.includes(asked)) throw new Error(`--split takes ${SPLITS.join(', ')}`);
  if (fold && asked && FROZEN.includes(asked)) throw new Error(`${asked} is frozen: it has no folds`);
  const only = asked ?? (fold ? 'tune' : undefined);
  for (const split of only ? [only] : DEFAULT_SPLITS) {
    const pages = loadSplit(split).filter((p) => !fold || foldOf(p.site) === fold);
    const label = fold ? `${split} fold ${fold}` : split;
    const layers = new Map<string, Set<number>>();
    const now = await rankAll(pages, backend, layers);
    // A recorded ranking that holds none of these pages (a set added after it was recorded) prints no row.
    const holds = (r: Record<string, number[]>) => pages.some((p) => p.id in r);
    if (before && holds(before)) lines.push(row(`${label}, before`, results[`${split}-before`] = measure(pages, new Map(Object.entries(before)), marks, layers)));
    if (previous && holds(previous)) lines.push(row(`${label}, previous`, results[`${split}-previous`] = measure(pages, new Map(Object.entries(previous)), marks, layers)));
    for (const [name, ranking] of recorded) if (holds(ranking)) lines.push(row(`${label}, ${name}`, results[`${split}-${name}`] = measure(pages, new Map(Object.entries(ranking)), marks, layers)));
    lines.push(row(`${label}, now`, results[split] = measure(pages, now, marks, layers)));
  }
  console.log(lines.join('\n'));
  if (process.argv.includes('--list')) {
    // Only a development split's pages are ever listed; never the test split's.
    const split = only && DEV_SPLITS.includes(only) ? only : 'tune';
    const t = results[split];
    if (!t) process.exit(0);
    const label = `${split}${fold ? ` fold ${fold}` : ''}`;
    console.log(`\n${label} pages below 85%:\n${t.below.join('\n') || '(none)'}\n\n${label} primary actions outside the top 10:\n${t.primaryMisses.join('\n') || '(none)'}\n\n${label} layer pages whose first is not a layer control:\n${t.layerMisses.join('\n') || '(none)'}`);
  }
}
