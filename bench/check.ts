// The regression gate: each guarded ratio is measured against its reference in this process, the two
// interleaved round by round (alternating which goes first), until the spread of the rounds is known;
// it fails when a ratio's median falls below its floor in bench/baseline.json by more than that spread.
// Ratios, not times: the machine is shared and noisy, but both sides of a ratio see the same noise.
// One guard (map-warm-vs-cold) starts two real servers and Chromium: it needs `npm run build` first
// (CI runs the gate after `npm test`, which builds).
//   npm run bench:check              check against the floors (CI runs this after the tests)
//   npm run bench:check -- --record  measure and raise each floor to 70% of its median (never lowers one)
//   npm run bench:check -- NAME...   only the guards named
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { jsBackend } from '../src/rank/core-js.ts';
import { readPage } from '../src/observe/read/read.ts';
import { payload, SHARED_DATA } from './payloads.ts';
import { GOALS_50 } from './goals.ts';
import { coreOnly } from './core-only.ts';
import { encodeColumns, readColumns } from '../src/rank/columns.ts';
import { readabilityMarkdown } from './read/readability.ts';
import { barChart } from './chart.ts';
import { median, timeSlice as slice } from './stats.ts';
import { serveFixtures, type FixtureServer } from '../test/helpers/fixtures.ts';
import { startServer, createKey, removeDataDir, type ServerProcess } from '../test/helpers/server.ts';

/**
 * A guarded ratio: how many times faster `subject` is than `reference` (higher is better). Either two
 * synchronous functions timed in slices, or `round`: one interleaved round measured by the guard itself
 * (the ratio of that round; `subjectFirst` alternates), with `setup` before and `close` after.
 */
type Guard = { name: string; what: string } & (
  | { subject: () => unknown; reference: () => unknown }
  | { round: (subjectFirst: boolean) => Promise<number>; setup: () => Promise<void>; close: () => Promise<void>; maxRounds: number }
);

const MIN_ROUNDS = 7;
const MAX_ROUNDS = 25;
/** Time per side per round, ms: long enough to swamp timer noise, short enough for many rounds. */
const SLICE_MS = 60;
/** Stop when the median is known to within this share (95% interval of the median). */
const TARGET_PRECISION = 0.03;
const RECORD_SHARE = 0.7;

const record = process.argv.includes('--record');
const BASELINE = new URL('./baseline.json', import.meta.url);

async function guards(): Promise<Guard[]> {
  const wasmCore = await loadWasmCore(), jsCore = jsBackend();
  const wasm = new Ranker(wasmCore);
  const p1k = payload(1000), p5k = payload(5000);
  const t1k = JSON.stringify(p1k), t5k = JSON.stringify(p5k);
  const goal1k = { ...p1k, goal: 'open the second article about the election results' };
  // A new goal every call: 50 distinct goals in turn (no call repeats the goal before it).
  const fresh1k = GOALS_50.map((goal) => ({ ...p1k, goal }));
  let nextGoal = 0;
  const json1k = Buffer.from(t1k), cols1k = Buffer.from(encodeColumns(p1k)!);
  const articles = JSON.parse(readFileSync(join(SHARED_DATA, 'article-extraction-benchmark', 'ground-truth.json'), 'utf8')) as Record<string, { url: string }>;
  const pages = Object.entries(articles).slice(0, 12).map(([id, t]) => ({ url: t.url, html: gunzipSync(readFileSync(join(SHARED_DATA, 'article-extraction-benchmark', 'html', `${id}.html.gz`))).toString('utf8') }));
  return [
    { name: 'rank-vs-parse-1k', what: 'rank() on the Wasm core vs JSON.parse of the same 1,000-element payload', subject: () => wasm.rank(p1k), reference: () => JSON.parse(t1k) },
    { name: 'rank-vs-parse-5k', what: 'rank() on the Wasm core vs JSON.parse of the same 5,000-element payload', subject: () => wasm.rank(p5k), reference: () => JSON.parse(t5k) },
    {
      name: 'columns-vs-json-1k', what: 'the server\'s work on a 1,000-element snapshot from body bytes to result (parse, validate, rank): columnar body vs JSON',
      subject: () => { const { request, typed } = readColumns(cols1k); return wasm.rank(wasm.validate(request, typed), true); }, reference: () => wasm.rank(wasm.validate(JSON.parse(json1k.toString('utf8'))), true),
    },
    { name: 'core-wasm-vs-js-5k', what: 'the core alone at 5,000 elements: Wasm vs the JS build of the same source', subject: coreOnly(wasmCore, p5k), reference: coreOnly(jsCore, p5k) },
    { name: 'goal-cost-1k', what: 'rank() at 1,000 elements with a goal vs without one (below 1: the goal\'s cost; the same goal and payload every call, so what is kept across requests for a goal counts: docs/rerank.md)', subject: () => wasm.rank(goal1k), reference: () => wasm.rank(p1k) },
    { name: 'goal-new-cost-1k', what: 'rank() at 1,000 elements with a new goal every call (50 distinct goals in turn, bench/goals.ts) vs without one (below 1: the goal\'s cost; only what is kept whatever the goal counts: docs/rerank.md)', subject: () => wasm.rank(fresh1k[nextGoal++ % fresh1k.length]), reference: () => wasm.rank(p1k) },
    mapWarmVsCold(),
    {
      name: 'read-vs-readability', what: 'read mode (linkedom + extraction + turndown) vs jsdom + Readability + turndown on 12 real articles',
      subject: () => pages.forEach((p) => readPage(p.html, p.url, { contentLimit: 500_000 })),
      reference: () => pages.forEach((p) => readabilityMarkdown(p.html, p.url)),
    },
  ];
}

/** Fixture pages the map guard asks for, in turn. */
const MAP_PAGES = ['search', 'login', 'shop'];
/** Pairs of map requests (one per side, same page) per round. */
const MAP_PAIRS = 4;
/** Pause before each map request, ms: an agent's step between two calls, in which a spare gets ready. */
const MAP_GAP_MS = 500;

/**
 * Warm map vs cold map: two real servers (built CLI, `--map-path fast`), one with its prepared spare
 * context(s) (`--map-spares`'s default) and one with none (`--map-spares 0`: every request creates its
 * context and page), map (performance engine) on fixture pages, one request at a time, 500 ms apart.
 * Requests go in pairs, one per side on the same page (which side goes first alternates), so both sides
 * of a pair see the same moment of the machine's load. A round's ratio: the cold side's summed latency
 * over the warm side's, as the caller sees it.
 */
function mapWarmVsCold(): Guard {
  let fx: FixtureServer | undefined;
  const servers: Record<'warm' | 'cold', ServerProcess | undefined> = { warm: undefined, cold: undefined };
  const keys: Record<string, string> = {};
  const flags = ['--egress-allow', '127.0.0.1/32', '--rate-limit', '10000', '--rate-burst', '10000', '--log-level', 'warn', '--map-path', 'fast'];
  let next = 0;
  async function map(side: 'warm' | 'cold', page: string): Promise<number> {
    await new Promise((r) => setTimeout(r, MAP_GAP_MS));
    const t0 = performance.now();
    const res = await fetch(`${servers[side]!.url}/v1/observe`, { method: 'POST', headers: { authorization: `Bearer ${keys[side]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${fx!.url}/${page}.html`, mode: 'map' }), signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`map-warm-vs-cold: ${side} ${page}: ${res.status} ${text.slice(0, 300)}`);
    return performance.now() - t0;
  }
  return {
    name: 'map-warm-vs-cold',
    what: 'map (performance engine, --map-path fast) on 3 fixture pages, requests 500 ms apart: a server with its prepared spare context vs the same server with none (--map-spares 0)',
    maxRounds: 10,
    async setup() {
      fx = await serveFixtures();
      servers.warm = await startServer(flags);
      servers.cold = await startServer([...flags, '--map-spares', '0']);
      for (const s of ['warm', 'cold'] as const) keys[s] = await createKey(servers[s]!.dataDir, 1_000_000);
      // Chromium launched and the JIT warm on both sides.
      for (const s of ['warm', 'cold'] as const) for (const page of MAP_PAGES) await map(s, page);
    },
    async round(subjectFirst) {
      let warm = 0, cold = 0;
      for (let i = 0; i < MAP_PAIRS; i++) {
        const page = MAP_PAGES[next++ % MAP_PAGES.length];
        if (subjectFirst === (i % 2 === 0)) { warm += await map('warm', page); cold += await map('cold', page); } else { cold += await map('cold', page); warm += await map('warm', page); }
      }
      return cold / warm;
    },
    async close() {
      for (const s of Object.values(servers)) if (s) { await s.stop(); removeDataDir(s.dataDir); }
      await fx?.close();
    },
  };
}

/** ms per call of `fn`, over about SLICE_MS by the clock (at least one call). */
const timeSlice = (fn: () => unknown) => slice(fn, SLICE_MS, true);

interface Measured { median: number; noise: number; rounds: number }

/** Ratio reference/subject per round, interleaved; noise: the relative 95% band of the median. */
async function measure(g: Guard): Promise<Measured> {
  if ('round' in g) await g.setup();
  else for (let i = 0; i < 3; i++) { g.subject(); g.reference(); } // warm up the JIT on both sides
  const ratios: number[] = [];
  let noise = Infinity;
  for (let round = 0; round < ('round' in g ? g.maxRounds : MAX_ROUNDS); round++) {
    let ratio: number;
    if ('round' in g) ratio = await g.round(round % 2 === 1);
    else if (round % 2) { const s = timeSlice(g.subject); ratio = timeSlice(g.reference) / s; } else { const r = timeSlice(g.reference); ratio = r / timeSlice(g.subject); }
    ratios.push(ratio);
    process.stderr.write(`\r  ${g.name}: round ${round + 1}, ratio ${ratio.toFixed(3)}   `);
    if (ratios.length >= MIN_ROUNDS) {
      const m = median(ratios);
      const mad = median(ratios.map((x) => Math.abs(x - m)));
      noise = (1.96 * 1.4826 * mad) / Math.sqrt(ratios.length) / m;
      if (noise <= TARGET_PRECISION) break;
    }
  }
  process.stderr.write('\n');
  return { median: median(ratios), noise, rounds: ratios.length };
}

interface Baseline { command: string; recorded: string; node: string; guards: Record<string, { floor: number; measured: number; what: string }> }
const baseline: Baseline = (() => {
  try { return JSON.parse(readFileSync(BASELINE, 'utf8')); } catch { return { command: 'npm run bench:check -- --record', recorded: '', node: '', guards: {} }; }
})();

const t0 = performance.now();
const results: { name: string; what: string; measured: Measured; floor: number | undefined; ok: boolean }[] = [];
// Guard names on the command line measure only those (npm run bench:check -- columns-vs-json-1k).
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const g of (await guards()).filter((x) => only.length === 0 || only.includes(x.name))) {
  let m: Measured;
  try { m = await measure(g); } finally { if ('round' in g) await g.close(); }
  const floor = baseline.guards[g.name]?.floor;
  // Fail only when the ratio is below its floor by more than this run's own noise.
  const ok = floor === undefined || m.median >= floor * (1 - m.noise);
  results.push({ name: g.name, what: g.what, measured: m, floor, ok });
  if (record) {
    const raised = Math.max(floor ?? 0, Math.round(m.median * RECORD_SHARE * 1000) / 1000);
    baseline.guards[g.name] = { floor: raised, measured: Math.round(m.median * 1000) / 1000, what: g.what };
  }
}

const rows = results.map((r) => `| ${r.name} | ${r.measured.median.toFixed(3)}x | ±${(r.measured.noise * 100).toFixed(1)}% (${r.measured.rounds} rounds) | ${r.floor?.toFixed(3) ?? '-'}x | ${r.ok ? 'ok' : '**FAIL**'} |`);
const md = ['| guarded ratio | median | noise | floor | |', '|---|---|---|---|---|', ...rows, ''].join('\n');
console.log(`\n${md}\n(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/check.md', import.meta.url), md);
writeFileSync(new URL('./results/check.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2) + '\n');
writeFileSync(new URL('./results/check.svg', import.meta.url), barChart('Guarded ratios (higher is faster) and their floors', results.map((r) => ({ label: r.name, value: r.measured.median, mark: r.floor }))));
if (record) {
  baseline.recorded = new Date().toISOString();
  baseline.node = process.version;
  writeFileSync(BASELINE, JSON.stringify(baseline, null, 2) + '\n');
  console.log(`floors written to bench/baseline.json (${RECORD_SHARE * 100}% of each median, never lowered)`);
}
const failed = results.filter((r) => !r.ok);
if (failed.length) {
  for (const f of failed) {
    console.error(`bench:check: ${f.name} fell to ${f.measured.median.toFixed(3)}x, below its floor ${f.floor!.toFixed(3)}x by more than the measured noise (±${(f.measured.noise * 100).toFixed(1)}%): ${f.what}`);
  }
  process.exit(1);
}
console.log('bench:check: every guarded ratio is at or above its floor');
