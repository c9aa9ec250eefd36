// Observe on a warm pool: the real `sightline serve` (built CLI) reads each fixture page (read mode, no
// browser) or loads it in its Chromium (map, visual), once per request, sequentially. Latency p50/p95 per mode, and where the time goes:
// the server's own `timings_ms` phases, and the rest (context and page creation, HTTP, JSON) as the
// difference to the latency the caller saw.
// Run: npm run bench:observe. Writes bench/results/observe.json and bench/results/observe.md.
import { writeFileSync, mkdirSync } from 'node:fs';
import { serveFixtures } from '../test/helpers/fixtures.ts';
import { startServer, createKey, removeDataDir } from '../test/helpers/server.ts';
import { barChart } from './chart.ts';
import { quantile as pct } from './stats.ts';

const PAGES = ['search', 'login', 'shop', 'shadow', 'frames', 'long', 'captcha', 'consent', 'big'];
const RUNS = Number(process.env.BENCH_OBSERVE_RUNS ?? 12);
// Back to back, every request waits for a new renderer process; paced (as an agent that thinks between
// steps), the pool's spare context is ready when the request arrives.
const MODES = [
  { name: 'read (no browser)', mode: 'read', options: {}, gapMs: 0 },
  { name: 'map, performance', mode: 'map', options: {}, gapMs: 0 },
  { name: 'map, performance, paced', mode: 'map', options: {}, gapMs: 500 },
  { name: 'map, precision', mode: 'map', options: { render_quality: 'precision' }, gapMs: 0 },
  { name: 'visual (url)', mode: 'visual', options: {}, gapMs: 0 },
] as const;
const PHASES = ['navigation', 'settle', 'collection', 'ranking', 'screenshot'] as const;


const fx = await serveFixtures();
const server = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '10000', '--rate-burst', '10000', '--log-level', 'warn']);
const key = createKey(server.dataDir, 1_000_000);

async function observe(url: string, mode: string, options: object) {
  const t0 = performance.now();
  const res = await fetch(`${server.url}/v1/observe`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url, mode, options }) });
  const body = await res.json() as { status: string; timings_ms?: Record<string, number> };
  if (res.status !== 200) throw new Error(`${url} ${mode}: ${res.status} ${JSON.stringify(body)}`);
  // Read mode reports no phases: its time shows as "other" (fetch, extraction, Markdown).
  return { ms: performance.now() - t0, timings: body.timings_ms ?? {} };
}

interface Sample { page: string; ms: number; timings: Record<string, number> }
const results: { mode: string; p50: number; p95: number; byPage: Record<string, number>; shares: Record<string, number> }[] = [];
try {
  // Warm the pool: Chromium launched, the JIT warm on both sides.
  for (const m of MODES) for (const page of PAGES.slice(0, 3)) await observe(`${fx.url}/${page}.html`, m.mode, m.options);
  for (const m of MODES) {
    const samples: Sample[] = [];
    for (let run = 0; run < RUNS; run++) {
      for (const page of PAGES) {
        if (m.gapMs) await new Promise((r) => setTimeout(r, m.gapMs));
        const r = await observe(`${fx.url}/${page}.html`, m.mode, m.options);
        samples.push({ page, ms: r.ms, timings: r.timings });
      }
      process.stderr.write(`\r${m.name}: ${run + 1}/${RUNS}`);
    }
    const all = samples.map((s) => s.ms);
    const sum = (f: (s: Sample) => number) => samples.reduce((t, s) => t + f(s), 0);
    const total = sum((s) => s.ms);
    const shares = Object.fromEntries([...PHASES.map((p) => [p, sum((s) => s.timings[p] ?? 0) / total] as const),
      ['other', sum((s) => s.ms - PHASES.reduce((t, p) => t + (s.timings[p] ?? 0), 0)) / total] as const]);
    const byPage = Object.fromEntries(PAGES.map((p) => [p, pct(samples.filter((s) => s.page === p).map((s) => s.ms), 0.5)]));
    results.push({ mode: m.name, p50: pct(all, 0.5), p95: pct(all, 0.95), byPage, shares });
    process.stderr.write(`\r${m.name}: p50 ${pct(all, 0.5).toFixed(0)} ms, p95 ${pct(all, 0.95).toFixed(0)} ms\n`);
  }
} finally {
  await server.stop();
  removeDataDir(server.dataDir);
  await fx.close();
}

const f0 = (x: number) => x.toFixed(0);
const share = (x: number) => `${(x * 100).toFixed(0)}%`;
const md = [
  `Warm pool (Chromium running; a fresh context per request, as in production), requests one at a time, back to back or (paced) 500 ms apart, ${RUNS} rounds over ${PAGES.length} fixture pages (${RUNS * PAGES.length} requests per mode). Latency as the caller sees it, in ms.`,
  '',
  '| mode | p50 | p95 | ' + PAGES.join(' | ') + ' |',
  '|---|---|---|' + PAGES.map(() => '---|').join(''),
  ...results.map((r) => `| ${r.mode} | **${f0(r.p50)}** | ${f0(r.p95)} | ${PAGES.map((p) => f0(r.byPage[p])).join(' | ')} |`),
  '',
  'Share of the total time (per-page columns above are medians):',
  '',
  '| mode | navigation | settle | collection | ranking | screenshot | other (read: all of it; map: context, HTTP, JSON) |',
  '|---|---|---|---|---|---|---|',
  ...results.map((r) => `| ${r.mode} | ${[...PHASES, 'other'].map((p) => share(r.shares[p])).join(' | ')} |`),
  '',
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/observe.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), runs: RUNS, pages: PAGES, results }, null, 2) + '\n');
writeFileSync(new URL('./results/observe.md', import.meta.url), md.join('\n'));
writeFileSync(new URL('./results/observe.svg', import.meta.url), barChart('Observe latency on a warm pool, ms (p50 and p95)', results.flatMap((r) => [
  { label: `${r.mode}: p50`, value: r.p50, group: 'p50' },
  { label: `${r.mode}: p95`, value: r.p95, group: 'p95' },
]), ' ms'));
console.log(md.join('\n'));
