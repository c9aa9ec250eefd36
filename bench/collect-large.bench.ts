// The collector on large pages, before and after the speed work, in the same run: the collector as of
// BEFORE_COMMIT (built from git, test/helpers/collector-before.ts) and the current one, in the same
// Chromium on the same pages: generated pages with 5,000 and 20,000 interactive elements
// (test/helpers/big-page.ts) and the WCXB development sample rendered offline (documents from
// localhost, every other request aborted).
//
// In-page time = collect() plus JSON.stringify of its result (what crosses to Node), timed inside the
// page (cross-origin isolated: 5 µs timer). "First" is the first collection on a freshly loaded page
// (what observe map does: one collection per page); "again" is a later one on the same page (the
// client library in a loop). The two collectors alternate which goes first.
// The phase breakdown comes from a CDP CPU profile (100 µs sampling) of first collections: each sample
// is charged to the innermost function on its stack that names a phase (PHASES below).
//
// Run: npm run bench:collect-large. Env: BENCH_WCXB_STRIDE (every Nth WCXB page, default 1: all 315),
// BENCH_BIG_RUNS (first collections per side on the generated pages, default 3).
// Writes bench/results/collect-large.{json,md,svg}.
import { writeFileSync, mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launch } from '../test/helpers/browser.ts';
import { serveLargePages, goOffline, settle, wcxbIds } from '../test/helpers/large-pages.ts';
import { beforeCollectorSource, BEFORE_COMMIT } from '../test/helpers/collector-before.ts';
import { inject } from '../src/playwright/collect-page.ts';
import { barChart } from './chart.ts';
import { quantile } from './stats.ts';

const WCXB_STRIDE = Number(process.env.BENCH_WCXB_STRIDE ?? 1);
const BIG_RUNS = Number(process.env.BENCH_BIG_RUNS ?? 3);
const AGAIN_RUNS = 3;
type Side = 'before' | 'after';
const SIDES: Side[] = ['before', 'after'];

/** Phase of a profile sample: the innermost function on its stack found here. */
const PHASES: Record<string, string> = {
  serialise: 'serialise (JSON)',
  kindOf: 'classify (tag, attributes, cursor)', closest: 'classify (tag, attributes, cursor)',
  styleOf: 'computed style', getComputedStyle: 'computed style', upward: 'computed style', styles: 'computed style',
  getBoundingClientRect: 'boxes (getBoundingClientRect)', toTop: 'boxes (getBoundingClientRect)', boxesOf: 'boxes (getBoundingClientRect)',
  checkVisibility: 'visibility and clipping', clippedAway: 'visibility and clipping',
  occluded: 'occlusion (elementFromPoint)', clearAt: 'occlusion (elementFromPoint)', elementFromPoint: 'occlusion (elementFromPoint)', composedContains: 'occlusion (elementFromPoint)',
  visibleText: 'text and names', accessibleName: 'text and names', nearbyText: 'text and names', clean: 'text and names', isSecret: 'text and names', labelsOf: 'text and names',
  sectionOf: 'grouping (sections)', labelledAncestor: 'grouping (sections)', openingHeading: 'grouping (sections)', headingsOf: 'grouping (sections)', noteHeading: 'grouping (sections)', compareDocumentPosition: 'grouping (sections)',
  idOf: 'ids and diagnostics', prune: 'ids and diagnostics', detectCaptcha: 'ids and diagnostics', clientMetrics: 'ids and diagnostics',
  describe: 'attributes (describe)',
  '(garbage collector)': 'garbage collection',
};
const PHASE_ORDER = [...new Set(Object.values(PHASES)), 'walk and other'];


interface Shot { ms: number; bytes: number; elements: number; nodes: number }

/** One collection inside the page by one side, serialisation included. A string, not a function: tsx
 *  would add its name helper to a function's source, which the page does not have. */
const COLLECT_ONCE = `(side) => {
  const c = window[side === 'before' ? '__sightlineBefore' : '__sightline'];
  function serialise(r) { return JSON.stringify(r); }
  const t0 = performance.now();
  const r = c.collect();
  const json = serialise(r);
  const ms = performance.now() - t0;
  return { ms, bytes: json.length, elements: r.raw_elements.length, nodes: r.client_metrics.node_count };
}`;

async function collectOnce(page: Page, side: Side): Promise<Shot> {
  return page.evaluate(`(${COLLECT_ONCE})(${JSON.stringify(side)})`) as Promise<Shot>;
}

let beforeSource = '';
async function load(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await settle(page);
  await inject(page.mainFrame());
  await page.evaluate(beforeSource);
}

type Profile = { nodes: { id: number; parent?: number; callFrame: { functionName: string } }[]; samples: number[]; timeDeltas: number[] };

/** ms per phase from a CPU profile, counting only samples under collect() or serialise(). */
function phases(profile: Profile): Record<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of (n as unknown as { children?: number[] }).children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string | null>();
  const phaseOf = (id: number): string | null => {
    if (memo.has(id)) return memo.get(id)!;
    let phase: string | null = null, inside = false;
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const name = byId.get(n)!.callFrame.functionName;
      if (phase === null && PHASES[name]) phase = PHASES[name];
      if (name === 'collect' || name === 'serialise') inside = true;
    }
    const result = inside || phase === 'garbage collection' ? phase ?? 'walk and other' : null;
    memo.set(id, result);
    return result;
  };
  const out: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const p = phaseOf(id);
    if (p) out[p] = (out[p] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
  });
  return out;
}

async function profiled(browser: Browser, url: string, side: Side): Promise<Record<string, number>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await goOffline(page, new URL(url).origin);
    await load(page, url);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await collectOnce(page, side);
    const { profile } = await cdp.send('Profiler.stop') as unknown as { profile: Profile };
    return phases(profile);
  } finally {
    await context.close();
  }
}

/** First collections (a fresh context and load per collection) and later ones, per side. */
async function measurePage(browser: Browser, url: string, firsts: number, order: number) {
  const first: Record<Side, number[]> = { before: [], after: [] }, again: Record<Side, number[]> = { before: [], after: [] };
  let elements = 0, nodes = 0;
  for (let run = 0; run < firsts; run++) {
    for (const side of (run + order) % 2 ? [...SIDES].reverse() : SIDES) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        await goOffline(page, new URL(url).origin);
        await load(page, url);
        const shot = await collectOnce(page, side);
        first[side].push(shot.ms);
        elements = shot.elements; nodes = shot.nodes;
        if (run === 0) {
          for (let i = 0; i < AGAIN_RUNS; i++) {
            for (const s of (i + order) % 2 ? [...SIDES].reverse() : SIDES) again[s].push((await collectOnce(page, s)).ms);
          }
        }
      } finally {
        await context.close();
      }
    }
  }
  return { first, again, elements, nodes };
}

beforeSource = await beforeCollectorSource();
const large = await serveLargePages();
const browser = await launch();
const t0 = performance.now();
const med = (xs: number[]) => quantile(xs, 0.5);

interface BigRow { page: string; nodes: number; elements: number; first: Record<Side, number>; again: Record<Side, number>; phases: Record<Side, Record<string, number>> }
const bigRows: BigRow[] = [];
for (const n of [5000, 20000]) {
  const url = `${large.url}/big-${n}.html`;
  const m = await measurePage(browser, url, BIG_RUNS, 0);
  const ph = { before: await profiled(browser, url, 'before'), after: await profiled(browser, url, 'after') };
  const row = { page: `generated, ${n.toLocaleString('en')} interactive`, nodes: m.nodes, elements: m.elements, first: { before: med(m.first.before), after: med(m.first.after) }, again: { before: med(m.again.before), after: med(m.again.after) }, phases: ph };
  bigRows.push(row);
  console.error(`big-${n}: ${m.elements} elements of ${m.nodes} nodes; first ${row.first.before.toFixed(0)} -> ${row.first.after.toFixed(0)} ms; again ${row.again.before.toFixed(0)} -> ${row.again.after.toFixed(0)} ms`);
}

const ids = wcxbIds().filter((_, i) => i % WCXB_STRIDE === 0);
const wcxb: { id: string; nodes: number; elements: number; first: Record<Side, number>; again: Record<Side, number> }[] = [];
for (const [i, id] of ids.entries()) {
  const m = await measurePage(browser, `${large.url}/wcxb/${id}.html`, 1, i);
  wcxb.push({ id, nodes: m.nodes, elements: m.elements, first: { before: m.first.before[0], after: m.first.after[0] }, again: { before: med(m.again.before), after: med(m.again.after) } });
  if (i % 20 === 0) console.error(`wcxb ${i + 1}/${ids.length} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}
// The phase breakdown on WCXB: the 10 pages with the most nodes, summed.
const heavy = [...wcxb].sort((a, b) => b.nodes - a.nodes).slice(0, 10);
const wcxbPhases: Record<Side, Record<string, number>> = { before: {}, after: {} };
for (const p of heavy) {
  for (const side of SIDES) {
    const ph = await profiled(browser, `${large.url}/wcxb/${p.id}.html`, side);
    for (const [k, v] of Object.entries(ph)) wcxbPhases[side][k] = (wcxbPhases[side][k] ?? 0) + v / heavy.length;
  }
}
const version = browser.version();
await browser.close();
await large.close();

const f = (x: number) => x >= 100 ? x.toFixed(0) : x.toFixed(1);
const ratio = (b: number, a: number) => `${(b / a).toFixed(1)}×`;
const wq = (side: Side, key: 'first' | 'again', q: number) => quantile(wcxb.map((r) => r[key][side]), q);
const ratios = wcxb.map((r) => r.first.before / r.first.after);
const md = [
  `Chromium ${version}, viewport 1280×800, 2 shared cores. Before: the collector at ${BEFORE_COMMIT.slice(0, 7)} (built from git); after: this tree. In-page ms = collect() + JSON.stringify of its result. First: the first collection on a freshly loaded page (median of ${BIG_RUNS} loads per side on the generated pages, one per side per WCXB page); again: a later collection on the same page (median of ${AGAIN_RUNS}).`,
  '',
  '| page | DOM nodes | elements listed | first, before | first, after | speed-up | again, before | again, after | speed-up |',
  '|---|---|---|---|---|---|---|---|---|',
  ...bigRows.map((r) => `| ${r.page} | ${r.nodes} | ${r.elements} | ${f(r.first.before)} | **${f(r.first.after)}** | ${ratio(r.first.before, r.first.after)} | ${f(r.again.before)} | **${f(r.again.after)}** | ${ratio(r.again.before, r.again.after)} |`),
  `| WCXB sample, ${wcxb.length} pages, p50 | ${quantile(wcxb.map((r) => r.nodes), 0.5)} | ${quantile(wcxb.map((r) => r.elements), 0.5)} | ${f(wq('before', 'first', 0.5))} | **${f(wq('after', 'first', 0.5))}** | ${ratio(wq('before', 'first', 0.5), wq('after', 'first', 0.5))} | ${f(wq('before', 'again', 0.5))} | **${f(wq('after', 'again', 0.5))}** | ${ratio(wq('before', 'again', 0.5), wq('after', 'again', 0.5))} |`,
  `| WCXB sample, ${wcxb.length} pages, p95 | ${quantile(wcxb.map((r) => r.nodes), 0.95)} | ${quantile(wcxb.map((r) => r.elements), 0.95)} | ${f(wq('before', 'first', 0.95))} | **${f(wq('after', 'first', 0.95))}** | ${ratio(wq('before', 'first', 0.95), wq('after', 'first', 0.95))} | ${f(wq('before', 'again', 0.95))} | **${f(wq('after', 'again', 0.95))}** | ${ratio(wq('before', 'again', 0.95), wq('after', 'again', 0.95))} |`,
  '',
  `Per WCXB page, first collection, before ÷ after: median ${quantile(ratios, 0.5).toFixed(2)}×, p5 ${quantile(ratios, 0.05).toFixed(2)}×, p95 ${quantile(ratios, 0.95).toFixed(2)}×.`,
  '',
  'Where the time goes (first collection, ms from a CPU profile at 100 µs sampling; profiling adds some overhead):',
  '',
  `| phase | ${bigRows.map((r) => `${r.page}: before | after`).join(' | ')} | WCXB 10 largest, mean: before | after |`,
  `|---|${bigRows.map(() => '---|---').join('|')}|---|---|`,
  ...PHASE_ORDER.map((p) => `| ${p} | ${bigRows.map((r) => `${f(r.phases.before[p] ?? 0)} | ${f(r.phases.after[p] ?? 0)}`).join(' | ')} | ${f(wcxbPhases.before[p] ?? 0)} | ${f(wcxbPhases.after[p] ?? 0)} |`),
  `| total | ${bigRows.map((r) => `${f(Object.values(r.phases.before).reduce((a, b) => a + b, 0))} | ${f(Object.values(r.phases.after).reduce((a, b) => a + b, 0))}`).join(' | ')} | ${f(Object.values(wcxbPhases.before).reduce((a, b) => a + b, 0))} | ${f(Object.values(wcxbPhases.after).reduce((a, b) => a + b, 0))} |`,
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/collect-large.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), chromium: version, before: BEFORE_COMMIT, big: bigRows, wcxb, wcxbPhases }, null, 2) + '\n');
writeFileSync(new URL('./results/collect-large.md', import.meta.url), md.join('\n') + '\n');
writeFileSync(new URL('./results/collect-large.svg', import.meta.url), barChart('Collector in-page ms, first collection: before and after', [
  ...bigRows.flatMap((r) => SIDES.map((s) => ({ label: `${r.page}: ${s}`, value: r.first[s], group: s }))),
  ...SIDES.map((s) => ({ label: `WCXB p50: ${s}`, value: wq(s, 'first', 0.5), group: s })),
  ...SIDES.map((s) => ({ label: `WCXB p95: ${s}`, value: wq(s, 'first', 0.95), group: s })),
], ' ms'));
console.log(md.join('\n'));
console.error(`(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
