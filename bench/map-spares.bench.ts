// Warm spares for map (issue 19): the same map calls (performance engine, fast path, in process: the
// pool, egress proxy, Wasm ranker and mapPage the server runs, no HTTP) on pools that differ only in
// their spare contexts: none, one made after each answer (the default), two replaced after the answer
// and two replaced as soon as one is taken; all with lean renderers (LEAN_FLAG) but the row marked
// "before", one spare on Chromium's own renderers (an omnibox WebUI renderer per context, a spare
// renderer per page); and two Chromiums with one spare each (AlternatingBrowsers). Pools interleaved round by round, each on its own Chromium; back to back and
// paced 500 ms apart; each awaited step timed (MapJob.trace).
// Run: npm run bench:map-spares. Writes bench/results/map-spares.json and .md.
import { writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { serveFixtures } from '../test/helpers/fixtures.ts';
import { createEgressGuard } from '../src/observe/egress/egress.ts';
import { startEgressProxy } from '../src/observe/egress/egress-proxy.ts';
import { AlternatingBrowsers, BrowserPool, type PageRunner, type PoolOptions } from '../src/observe/browser/browser-pool.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { Ranker } from '../src/rank/ranker.ts';
import { mapPage } from '../src/observe/browser/map.ts';
import { MAP_MAX_LIMIT } from '../src/schema/observe.ts';
import { quantile as pct } from './stats.ts';

const PAGES = ['search', 'login', 'shop', 'shadow', 'frames', 'long', 'captcha', 'consent', 'big'];
const ROUNDS = Number(process.env.BENCH_MAP_ROUNDS ?? 4);
const GAPS = [{ name: 'back to back', gapMs: 0 }, { name: 'paced (500 ms apart)', gapMs: 500 }];
const SETUPS: { name: string; pool: Partial<PoolOptions>; browsers?: number }[] = [
  { name: 'no spare', pool: { spares: 0 } },
  { name: '1 spare, Chromium\'s own renderers (before)', pool: { spares: 1, leanRenderers: false } },
  { name: '1 spare, made after the answer', pool: { spares: 1, spareRefill: 'answered' as const } },
  { name: '2 spares, replaced when taken', pool: { spares: 2, spareRefill: 'taken' as const } },
  { name: '2 spares, replaced after the answer', pool: { spares: 2 } },
  { name: '2 Chromiums, 1 spare each, alternating', pool: { spares: 1 }, browsers: 2 },
].filter((s) => !process.env.BENCH_MAP_SETUPS || process.env.BENCH_MAP_SETUPS.split(',').some((k) => s.name.startsWith(k)));
const STEPS: [string, string][] = [
  ['context+page', 'wait for a fresh context and page'],
  ['route', 'route + settle watcher setup'],
  ['goto', 'navigation to DOM ready'],
  ['settle-wait', 'settle wait (collector injected alongside)'],
  ['collect', 'collection (overlays and title alongside)'],
  ['rank', 'rank (Wasm core)'],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f0 = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(0));

const fx = await serveFixtures();
const guard = createEgressGuard(['127.0.0.1/32']);
const proxy = await startEgressProxy(guard, () => undefined);
const ranker = new Ranker(await loadWasmCore(), { limitCap: MAP_MAX_LIMIT });
const poolOf = (o: Partial<PoolOptions>, size: number): PageRunner => new BrowserPool({ executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', proxyUrl: proxy.url, size, maxQueue: 16, ...o });
const pools: PageRunner[] = SETUPS.map((s) => (s.browsers
  ? new AlternatingBrowsers({ executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', proxyUrl: proxy.url, size: 4, maxQueue: 16, ...s.pool }, s.browsers)
  : poolOf(s.pool, 4)));
const totals: Record<string, number[]> = {};
const steps: Record<string, Record<string, number[]>> = {};
const loads: number[] = [];
try {
  const once = async (i: number, page: string, gap: string | null) => {
    const t0 = performance.now();
    let last = t0;
    const seen: [string, number][] = [];
    const trace = (s: string) => { const now = performance.now(); seen.push([s, now - last]); last = now; };
    await mapPage(pools[i], guard, ranker, { url: `${fx.url}/${page}.html`, engine: 'performance', limit: 50, selectors: false, screenshot: false, annotate: false,
      dismissOverlays: false, deadlineMs: 15_000, trace });
    if (gap === null) return;
    const key = `${i}|${gap}`;
    (totals[key] ??= []).push(performance.now() - t0);
    for (const [s, ms] of seen) ((steps[key] ??= {})[s] ??= []).push(ms);
  };
  // Warm: each Chromium launched, the JIT warm, spares made.
  for (let i = 0; i < pools.length; i++) for (const page of PAGES.slice(0, 3)) await once(i, page, null);
  for (let round = 0; round < ROUNDS; round++) {
    for (const g of GAPS) {
      const order = pools.map((_, i) => (i + round) % pools.length);
      for (const i of order) {
        await sleep(600); // every setup starts from the same idle state
        for (const page of PAGES) {
          if (g.gapMs) await sleep(g.gapMs);
          await once(i, page, g.name);
        }
      }
    }
    loads.push(loadavg()[0]);
    process.stderr.write(`\rround ${round + 1}/${ROUNDS}, load average ${loadavg()[0].toFixed(1)}`);
  }
  process.stderr.write('\n');
} finally {
  for (const p of pools) await p.close();
  await proxy.close();
  await fx.close();
}

const rows = GAPS.flatMap((g) => SETUPS.map((s, i) => {
  const xs = totals[`${i}|${g.name}`];
  const step = (name: string) => pct(steps[`${i}|${g.name}`][name] ?? [0], 0.5);
  return { gap: g.name, setup: s.name, n: xs.length, p50: pct(xs, 0.5), p95: pct(xs, 0.95), steps: Object.fromEntries(STEPS.map(([k]) => [k, step(k)])) };
}));
const base = (g: string) => rows.find((r) => r.gap === g && r.setup.includes('(before)'))?.p50;
const md = [
  `Map (performance engine, fast path) in process on ${PAGES.length} fixture pages, ${ROUNDS} rounds (${ROUNDS * PAGES.length} requests per row), one request at a time, setups interleaved; load average during the run ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on 2 cores; ms.`,
  '',
  `| requests | spares | p50 | p95 | before p50 / this p50 | ${STEPS.map(([, l]) => `${l} (p50)`).join(' | ')} |`,
  `|---|---|---|---|---|${STEPS.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.gap} | ${r.setup} | **${f0(r.p50)}** | ${f0(r.p95)} | ${base(r.gap) ? `${(base(r.gap)! / r.p50).toFixed(2)}×` : ''} | ${STEPS.map(([k]) => f0(r.steps[k])).join(' | ')} |`),
  '',
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/map-spares.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, pages: PAGES, loads, rows }, null, 2) + '\n');
writeFileSync(new URL('./results/map-spares.md', import.meta.url), md.join('\n'));
console.log(md.join('\n'));
