// /v1/snapshot over HTTP: the real `sightline serve` process under load (autocannon), uWebSockets.js
// against the same routes on node:http, and 1 against 2 worker threads, interleaved in one run.
// Run: npm run bench:http. Writes bench/results/http.json and bench/results/http.md.
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Benchmark from 'benchmark';
import { payload } from './payloads.ts';
import { inProcessRouter } from './in-process.ts';
import { barChart } from './chart.ts';
import { startBenchServer } from './serve-cli.ts';

const DURATION_S = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 2);
const CONNECTIONS = 32;

interface Setup { name: string; flags: string[] }
interface Case { elements: number; setups: Setup[] }
const uws1: Setup = { name: 'uWS, 1 worker', flags: ['--workers', '1'] };
const node1: Setup = { name: 'node:http, 1 worker', flags: ['--http', 'node'] };
const uws2: Setup = { name: 'uWS, 2 workers', flags: ['--workers', '2'] };
const CASES: Case[] = [
  { elements: 1000, setups: [uws1, node1, uws2] },
  { elements: 50, setups: [uws1, node1, uws2] },
];

interface Sample { rps: number; p50: number; p90: number; p99: number; non2xx: number; errors: number }
interface Row { elements: number; bytes: number; setup: string; samples: Sample[] }

const start = startBenchServer;

function load(url: string, key: string, body: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}/v1/snapshot`, method: 'POST', body, connections: CONNECTIONS, duration: seconds,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  });
}

/** In process, no sockets: the whole route (auth, rate limit, parse, validate, charge, rank, serialise)
 *  against its two unavoidable parts, decoding + JSON.parse and rank(), measured in the same run. */
async function handlerCost(elements: number): Promise<{ elements: number; handleMs: number; parseMs: number; rankMs: number }> {
  const { router, ranker, snapshot, close } = await inProcessRouter();
  const body = Buffer.from(JSON.stringify(payload(elements)));
  const parsed = JSON.parse(body.toString('utf8'));
  const req = snapshot(body);
  const ms: Record<string, number> = {};
  const BATCH = 20;
  await new Promise<void>((done) => {
    new Benchmark.Suite()
      // A deferred benchmark.js cycle has its own scheduling cost: amortise it over a batch of requests.
      .add('handle', { defer: true, fn: async (d: { resolve(): void }) => { for (let i = 0; i < BATCH; i++) await router.handle(req); d.resolve(); } })
      .add('parse', () => JSON.parse(body.toString('utf8')))
      .add('rank', () => ranker.rank(parsed))
      .on('cycle', (e: { target: Benchmark }) => { ms[e.target.name!] = e.target.stats.mean * 1000 / (e.target.name === 'handle' ? BATCH : 1); })
      .on('complete', () => done())
      .run();
  });
  await close();
  console.error(`handler, ${elements} elements: route ${ms.handle.toFixed(3)} ms, decode+JSON.parse ${ms.parse.toFixed(3)} ms, rank() ${ms.rank.toFixed(3)} ms`);
  return { elements, handleMs: ms.handle, parseMs: ms.parse, rankMs: ms.rank };
}

const costs = [];
for (const c of CASES) costs.push(await handlerCost(c.elements));

const rows: Row[] = [];
const t0 = performance.now();
for (const c of CASES) {
  const body = JSON.stringify(payload(c.elements));
  const byName = new Map<string, Row>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const setup of c.setups) {
      const server = await start(setup.flags);
      await load(server.url, server.key, body, 1); // warm up: JIT, Wasm tiers, SQLite pages
      const r = await load(server.url, server.key, body, DURATION_S);
      server.proc.kill('SIGTERM');
      await new Promise((done) => server.proc.once('exit', done));
      rmSync(server.dir, { recursive: true, force: true });
      const sample: Sample = { rps: r.requests.average, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
      const row = byName.get(setup.name) ?? { elements: c.elements, bytes: Buffer.byteLength(body), setup: setup.name, samples: [] };
      row.samples.push(sample);
      byName.set(setup.name, row);
      console.error(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${c.elements} elements, round ${round}/${ROUNDS}, ${setup.name}: ${sample.rps.toFixed(0)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms${sample.non2xx || sample.errors ? `, ${sample.non2xx} non-2xx, ${sample.errors} errors` : ''}`);
    }
  }
  rows.push(...byName.values());
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const md: string[] = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load generator (autocannon, ${CONNECTIONS} connections) on the same machine.`,
  `Each cell: mean of ${ROUNDS} interleaved rounds of ${DURATION_S} s after a 1 s warm-up.`,
  '',
  '| elements | payload | setup | req/s | p50 ms | p90 ms | p99 ms | vs node:http | non-2xx |',
  '|---|---|---|---|---|---|---|---|---|',
];
for (const row of rows) {
  const base = rows.find((r) => r.elements === row.elements && r.setup === node1.name)!;
  const rps = mean(row.samples.map((s) => s.rps));
  md.push(`| ${row.elements} | ${Math.round(row.bytes / 1024)} KiB | ${row.setup} | ${rps.toFixed(0)} | ${mean(row.samples.map((s) => s.p50)).toFixed(1)} | ` +
    `${mean(row.samples.map((s) => s.p90)).toFixed(1)} | ${mean(row.samples.map((s) => s.p99)).toFixed(1)} | ` +
    `${(rps / mean(base.samples.map((s) => s.rps))).toFixed(2)}x | ${row.samples.reduce((a, s) => a + s.non2xx + s.errors, 0)} |`);
}
md.push('', 'Handler cost in process (benchmark.js, no sockets), ms per request:', '',
  '| elements | whole route | decode + JSON.parse | rank() | route beyond parse + rank |', '|---|---|---|---|---|',
  ...costs.map((c) => `| ${c.elements} | ${c.handleMs.toFixed(3)} | ${c.parseMs.toFixed(3)} | ${c.rankMs.toFixed(3)} | ` +
    `${(c.handleMs - c.parseMs - c.rankMs).toFixed(3)} (${((c.handleMs / (c.parseMs + c.rankMs) - 1) * 100).toFixed(0)}%) |`));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/http.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, connections: CONNECTIONS, seconds: DURATION_S, rounds: ROUNDS, rows, costs }, null, 2) + '\n');
writeFileSync(new URL('./results/http.md', import.meta.url), md.join('\n') + '\n');
writeFileSync(new URL('./results/http.svg', import.meta.url), barChart('/v1/snapshot over HTTP, requests per second', rows.map((r) => ({ label: `${r.elements} elements: ${r.setup}`, value: r.samples.reduce((a, s) => a + s.rps, 0) / r.samples.length, group: r.setup })), ' req/s'));
console.log(md.join('\n'));
