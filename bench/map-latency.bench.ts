// Map latency (issue 19): map with the performance engine, one request at a time, `--map-path fast`
// against `--map-path legacy` (the path before issue 19) in the same run, on the fixture pages and on 20
// real pages (WCXB development pages of the tune part, served offline from localhost: bench/wcxb-pages.ts;
// skipped with a line saying so when no WCXB checkout is present, as in CI).
// Part 1: two real `sightline serve` processes (built CLI) started together, rounds alternating between
// them (order rotating), back to back and paced 500 ms apart; latency as the caller sees it, p50 and p95,
// fixtures and real pages separately.
// Part 2: where the time goes, in process (the same pool, egress proxy, Wasm ranker and mapPage the
// server runs, without HTTP): each awaited step timed with performance.now (MapJob.trace), both paths
// interleaved request by request on one browser each (fixtures only).
// Run: npm run bench:map-latency. Writes bench/results/map-latency.json and .md.
import { writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { serveFixtures } from '../test/helpers/fixtures.ts';
import { startServer, createKey, removeDataDir, type ServerProcess } from '../test/helpers/server.ts';
import { createEgressGuard } from '../src/observe/egress/egress.ts';
import { startEgressProxy } from '../src/observe/egress/egress-proxy.ts';
import { BrowserPool } from '../src/observe/browser/browser-pool.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { Ranker } from '../src/rank/ranker.ts';
import { mapPage } from '../src/observe/browser/map.ts';
import { MAP_MAX_LIMIT } from '../src/schema/observe.ts';
import { serveRealPages, type RealPageServer } from './wcxb-pages.ts';
import { wcxbAvailable, WCXB_DIR } from './read/wcxb-eval.ts';
import { quantile as pct } from './stats.ts';

const PAGES = ['search', 'login', 'shop', 'shadow', 'frames', 'long', 'captcha', 'consent', 'big'];
const ROUNDS = Number(process.env.BENCH_MAP_ROUNDS ?? 6);
/** Rounds over the 20 real pages (each round: 20 pages x 2 paths x 2 spacings). */
const REAL_ROUNDS = Number(process.env.BENCH_MAP_REAL_ROUNDS ?? 3);
const TRACE_ROUNDS = Number(process.env.BENCH_MAP_TRACE_ROUNDS ?? 4);
const PATHS = ['legacy', 'fast'] as const;
const GAPS = [{ name: 'back to back', gapMs: 0 }, { name: 'paced (500 ms apart)', gapMs: 500 }];

const median = (xs: number[]) => pct(xs, 0.5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => loadavg()[0];

const fx = await serveFixtures();
let real: RealPageServer | undefined;
const realSkipped = wcxbAvailable() ? undefined : `real pages skipped: no WCXB checkout at ${WCXB_DIR}/dev (set WCXB_DIR)`;
if (realSkipped) console.log(realSkipped);
else real = await serveRealPages();
const SETS = [
  { name: 'fixtures', rounds: ROUNDS, urls: PAGES.map((p) => `${fx.url}/${p}.html`) },
  ...(real ? [{ name: 'real pages', rounds: REAL_ROUNDS, urls: real.urls.map((u) => u.url) }] : []),
];
const flags = (path: string) => ['--egress-allow', '127.0.0.1/32', '--rate-limit', '10000', '--rate-burst', '10000', '--log-level', 'warn', '--map-path', path];

// ---- Part 1: through HTTP ----
const servers: Record<string, ServerProcess> = {};
const keys: Record<string, string> = {};
const latency: Record<string, number[]> = {};
const other: Record<string, number[]> = {};
const loads: Record<string, number[]> = {};
try {
  for (const path of PATHS) servers[path] = await startServer(flags(path));
  for (const path of PATHS) keys[path] = await createKey(servers[path].dataDir, 1_000_000);
  async function map(path: string, url: string) {
    const t0 = performance.now();
    const res = await fetch(`${servers[path].url}/v1/observe`, { method: 'POST', headers: { authorization: `Bearer ${keys[path]}`, 'content-type': 'application/json' }, body: JSON.stringify({ url, mode: 'map' }) });
    const body = await res.json() as { timings_ms?: { total: number } };
    if (res.status !== 200) throw new Error(`${path} ${url}: ${res.status} ${JSON.stringify(body)}`);
    const ms = performance.now() - t0;
    return { ms, server: body.timings_ms?.total ?? 0 };
  }
  // Warm both: Chromium launched, the JIT warm on both sides.
  for (const path of PATHS) for (const url of SETS[0].urls.slice(0, 3)) await map(path, url);
  for (const set of SETS) {
    for (let round = 0; round < set.rounds; round++) {
      (loads[set.name] ??= []).push(load());
      for (const g of GAPS) {
        const order = round % 2 ? [...PATHS].reverse() : [...PATHS];
        for (const path of order) {
          for (const url of set.urls) {
            if (g.gapMs) await sleep(g.gapMs);
            const r = await map(path, url);
            (latency[`${set.name}|${path}|${g.name}`] ??= []).push(r.ms);
            (other[`${set.name}|${path}|${g.name}`] ??= []).push(r.ms - r.server);
          }
        }
      }
      process.stderr.write(`\r${set.name}: http round ${round + 1}/${set.rounds}   `);
    }
    loads[set.name].push(load());
  }
  process.stderr.write('\n');
} finally {
  for (const s of Object.values(servers)) { await s.stop(); removeDataDir(s.dataDir); }
  await real?.close();
}

// ---- Part 2: where the time goes, in process ----
const guard = createEgressGuard(['127.0.0.1/32']);
const proxy = await startEgressProxy(guard, () => undefined);
const ranker = new Ranker(await loadWasmCore(), { limitCap: MAP_MAX_LIMIT });
const pools = {
  legacy: new BrowserPool({ executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', proxyUrl: proxy.url, size: 4, maxQueue: 16, closeBeforeAnswer: true }),
  fast: new BrowserPool({ executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', proxyUrl: proxy.url, size: 4, maxQueue: 16 }),
};
/** Steps in the order they happen; MapJob.trace names each step as it ends. */
const STEPS: [string, string][] = [
  ['check-url', 'URL check (egress guard)'],
  ['context+page', 'wait for a fresh context and page'],
  ['route', 'route + settle watcher setup'],
  ['goto', 'navigation to DOM ready'],
  ['settle-wait', 'settle wait (fast: with the collector injected alongside)'],
  ['overlays', 'inject + overlays (legacy)'],
  ['collect', 'collection (fast: overlays and title alongside)'],
  ['title', 'title (legacy)'],
  ['rank', 'rank (Wasm core)'],
  ['after-return', 'close the context (fast: after the answer) and release'],
];
const steps: Record<string, Record<string, number[]>> = { legacy: {}, fast: {} };
const totals: Record<string, number[]> = { legacy: [], fast: [] };
try {
  const once = async (path: 'legacy' | 'fast', page: string, keep: boolean) => {
    const t0 = performance.now();
    let last = t0;
    const seen: [string, number][] = [];
    const trace = (s: string) => { const now = performance.now(); seen.push([s, now - last]); last = now; };
    await mapPage(pools[path], guard, ranker, { url: `${fx.url}/${page}.html`, engine: 'performance', limit: 50, selectors: false, screenshot: false, annotate: false,
      dismissOverlays: false, deadlineMs: 15_000, trace, settle: path === 'legacy' ? 'fixed' : 'adaptive' });
    trace('after-return');
    if (!keep) return;
    for (const [s, ms] of seen) (steps[path][s] ??= []).push(ms);
    totals[path].push(performance.now() - t0);
  };
  for (const page of PAGES.slice(0, 3)) for (const path of PATHS) await once(path, page, false);
  // Back to back per path (a path's requests follow each other), paths alternating every page.
  for (let round = 0; round < TRACE_ROUNDS; round++) {
    for (const path of round % 2 ? [...PATHS].reverse() : PATHS) for (const page of PAGES) await once(path, page, true);
    process.stderr.write(`\rtrace round ${round + 1}/${TRACE_ROUNDS}`);
  }
  process.stderr.write('\n');
} finally {
  await pools.legacy.close();
  await pools.fast.close();
  await proxy.close();
  await fx.close();
}

const f0 = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(0));
const rows = SETS.flatMap((set) => GAPS.flatMap((g) => PATHS.map((path) => {
  const xs = latency[`${set.name}|${path}|${g.name}`];
  return { set: set.name, gap: g.name, path, n: xs.length, p50: pct(xs, 0.5), p95: pct(xs, 0.95), other: median(other[`${set.name}|${path}|${g.name}`]) };
})));
const ratio = (set: string, g: string) => rows.find((r) => r.set === set && r.gap === g && r.path === 'legacy')!.p50 / rows.find((r) => r.set === set && r.gap === g && r.path === 'fast')!.p50;
const loadRange = (set: string) => `${Math.min(...loads[set]).toFixed(1)}–${Math.max(...loads[set]).toFixed(1)}`;
const mean = (xs: number[] | undefined) => (xs?.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);
const md = [
  ...SETS.flatMap((set) => [
    `Map (performance engine) on ${set.urls.length} ${set.name === 'fixtures' ? 'fixture pages' : 'real pages (WCXB development pages of the tune part, served offline from localhost)'}, ${set.rounds} rounds per setting (${set.rounds * set.urls.length} requests per row), one request at a time; \`--map-path legacy\` and \`fast\` served by two servers running at once, alternating; latency as the caller sees it, ms; load average ${loadRange(set.name)} (1 min, 2 cores).`,
    '',
    '| pages | requests | --map-path | p50 | p95 | outside the server\'s phases (p50: context wait, close, HTTP, JSON) | legacy p50 / fast p50 |',
    '|---|---|---|---|---|---|---|',
    ...rows.filter((r) => r.set === set.name).map((r) => `| ${r.set} | ${r.gap} | ${r.path} | **${f0(r.p50)}** | ${f0(r.p95)} | ${f0(r.other)} | ${r.path === 'fast' ? `${ratio(r.set, r.gap).toFixed(2)}×` : ''} |`),
    '',
  ]),
  ...(realSkipped ? [realSkipped, ''] : []),
  `Where the time goes, in process (no HTTP), back to back, ${TRACE_ROUNDS} rounds × ${PAGES.length} pages per path, mean ms per request (median in brackets):`,
  '',
  '| step | legacy | fast |',
  '|---|---|---|',
  ...STEPS.map(([s, label]) => `| ${label} | ${PATHS.map((p) => (steps[p][s] ? `${f0(mean(steps[p][s]))} (${f0(median(steps[p][s]))})` : '–')).join(' | ')} |`),
  `| **total** | ${PATHS.map((p) => `**${f0(mean(totals[p]))}** (${f0(median(totals[p]))})`).join(' | ')} |`,
  '',
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/map-latency.json', import.meta.url), JSON.stringify({
  date: new Date().toISOString(), rounds: ROUNDS, realRounds: REAL_ROUNDS, traceRounds: TRACE_ROUNDS, pages: PAGES, realPages: real?.urls.map(({ id, type }) => ({ id, type })) ?? null, realSkipped: realSkipped ?? null, loadavg: loads, rows,
  ratios: Object.fromEntries(SETS.map((set) => [set.name, { backToBack: ratio(set.name, GAPS[0].name), paced: ratio(set.name, GAPS[1].name) }])),
  steps: Object.fromEntries(PATHS.map((p) => [p, Object.fromEntries(Object.entries(steps[p]).map(([s, xs]) => [s, { mean: mean(xs), median: median(xs) }]))])),
}, null, 2) + '\n');
writeFileSync(new URL('./results/map-latency.md', import.meta.url), md.join('\n'));
console.log(md.join('\n'));
