// From request bytes to the core's columns (issue 19, "Less work per snapshot request"): today's JSON
// body against the columnar body (application/vnd.sightline.columns, src/rank/columns.ts), in one run.
//   1. In process: the whole /v1/snapshot route (auth, limits, parse, validate, charge, rank, serialise)
//      and the parse step alone, old vs new, interleaved, at 50, 1,000 and 5,000 elements.
//   2. Bytes on the wire for a 1,000-element snapshot (JSON and columns, plain, gzip, br) and the
//      server's cost to read each (decode the coding, parse, validate).
//   3. Over HTTP: the real `sightline serve` process (one worker: requests/s per serving core) under
//      autocannon, uWS and node:http with the same handler, JSON vs columns bodies, interleaved rounds.
// Run: npm run bench:snapshot-parse. Writes bench/results/snapshot-parse.{json,md}.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { parseJsonBody, readSnapshotBody } from '../src/server/body.ts';
import type { HttpRequest } from '../src/server/http.ts';
import { encodeColumns, readColumns, COLUMNS_TYPE } from '../src/rank/columns.ts';
import { payload } from './payloads.ts';
import { inProcessRouter } from './in-process.ts';
import { startBenchServer } from './serve-cli.ts';

const SIZES = [50, 1000, 5000];
const DURATION_S = Number(process.env.BENCH_HTTP_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
/** Few connections: a 5,000-element request takes a while on a busy 2-core machine (timeout 60 s). */
const CONNECTIONS = 8;
const SLICE_MS = 150;
const SLICES = Number(process.env.BENCH_SLICES ?? 9);

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** ms per call of each function, interleaved slice by slice (alternating which goes first); medians. */
async function interleaved(fns: Record<string, () => unknown>): Promise<Record<string, number>> {
  const names = Object.keys(fns);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) for (let i = 0; i < 5; i++) await fns[n]();
  for (let s = 0; s < SLICES; s++) {
    for (const n of s % 2 ? [...names].reverse() : names) {
      let calls = 0;
      const t0 = performance.now();
      let t = t0;
      do { await fns[n](); calls++; t = performance.now(); } while (t - t0 < SLICE_MS);
      samples[n].push((t - t0) / calls);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

// ---- 1. In process: the route and the parse step ----
const { router, ranker, snapshot: request, close } = await inProcessRouter();

interface InProcess { elements: number; jsonBytes: number; columnsBytes: number; routeJsonMs: number; routeColumnsMs: number; parseJsonMs: number; parseColumnsMs: number; rankMs: number }
const inProcess: InProcess[] = [];
for (const n of SIZES) {
  const p = payload(n);
  const json = Buffer.from(JSON.stringify(p));
  const columns = Buffer.from(encodeColumns(p)!);
  const oldReq = request(json, 'application/json'), newReq = request(columns, COLUMNS_TYPE);
  const check = async (r: HttpRequest) => { const a = await router.handle(r); if (a.status !== 200) throw new Error(`status ${a.status}: ${String(a.body).slice(0, 200)}`); };
  const parsed = ranker.validate(JSON.parse(json.toString('utf8')));
  const ms = await interleaved({
    routeJson: () => check(oldReq),
    routeColumns: () => check(newReq),
    // The old path: parseJsonBody (UTF-8 decode + JSON.parse) and the typebox validation.
    parseJson: () => ranker.validate(parseJsonBody(oldReq)),
    parseColumns: () => readSnapshotBody(newReq, ranker),
    rank: () => ranker.rank(parsed, true),
  });
  inProcess.push({ elements: n, jsonBytes: json.length, columnsBytes: columns.length, routeJsonMs: ms.routeJson, routeColumnsMs: ms.routeColumns, parseJsonMs: ms.parseJson, parseColumnsMs: ms.parseColumns, rankMs: ms.rank });
  console.error(`in process, ${n} elements: route JSON ${ms.routeJson.toFixed(3)} ms, columns ${ms.routeColumns.toFixed(3)} ms (${(ms.routeJson / ms.routeColumns).toFixed(2)}x); parse+validate JSON ${ms.parseJson.toFixed(3)} ms, columns ${ms.parseColumns.toFixed(3)} ms; rank ${ms.rank.toFixed(3)} ms`);
}
await close();

// ---- 2. Bytes on the wire at 1,000 elements, and the server's cost to read each ----
const p1k = payload(1000);
const json1k = Buffer.from(JSON.stringify(p1k));
const cols1k = Buffer.from(encodeColumns(p1k)!);
const br = (b: Buffer, text: boolean) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_MODE]: text ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC } });
const gz = (b: Buffer) => zlib.gzipSync(b, { level: 4 });
const readJson = (b: Buffer) => ranker.validate(JSON.parse(b.toString('utf8')));
const readCols = (b: Buffer) => { const { request: r, typed } = readColumns(b); return ranker.validate(r, typed); };
const wire = [
  { body: 'JSON', coding: 'none', bytes: json1k, read: () => readJson(json1k) },
  { body: 'JSON', coding: 'gzip -4', bytes: gz(json1k), read: (b: Buffer) => readJson(zlib.gunzipSync(b)) },
  { body: 'JSON', coding: 'br 3', bytes: br(json1k, true), read: (b: Buffer) => readJson(zlib.brotliDecompressSync(b)) },
  { body: 'columns', coding: 'none', bytes: cols1k, read: () => readCols(cols1k) },
  { body: 'columns', coding: 'gzip -4', bytes: gz(cols1k), read: (b: Buffer) => readCols(zlib.gunzipSync(b)) },
  { body: 'columns', coding: 'br 3', bytes: br(cols1k, false), read: (b: Buffer) => readCols(zlib.brotliDecompressSync(b)) },
];
const wireMs = await interleaved(Object.fromEntries(wire.map((w) => [`${w.body} ${w.coding}`, () => w.read(w.bytes)])));
const wireRows = wire.map((w) => ({ body: w.body, coding: w.coding, bytes: w.bytes.length, readMs: wireMs[`${w.body} ${w.coding}`] }));
for (const w of wireRows) console.error(`wire, 1,000 elements: ${w.body} ${w.coding}: ${w.bytes} bytes, read ${w.readMs.toFixed(3)} ms`);

// ---- 3. Over HTTP ----
const start = startBenchServer;
const load = (url: string, k: string, body: Buffer, type: string, seconds: number, amount?: number) => autocannon({
  url: `${url}/v1/snapshot`, method: 'POST', body, connections: CONNECTIONS, timeout: 60, ...(amount ? { amount } : { duration: seconds }),
  headers: { authorization: `Bearer ${k}`, 'content-type': type },
});
/** Requests each body gets before any is measured: the JIT and the Wasm tiers warm on both paths, so the
 *  first one measured on a fresh server does not pay for the other's warm-up. */
const warmRequests = (n: number) => (n <= 50 ? 400 : n <= 1000 ? 80 : 24);

/** CPU seconds the process has used (all its threads): /proc/PID/stat utime + stime. Requests per CPU
 *  second of the server is its requests/s per core, whatever else the shared machine runs meanwhile. */
const TICK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK; // fields 14 and 15 of stat(5), after pid and comm
};

interface HttpRow { elements: number; server: string; body: string; bytes: number; rps: number[]; perCpuS: number[]; p50: number[]; p99: number[]; non2xx: number }
const httpRows: HttpRow[] = [];
const SERVERS = [{ name: 'uWS', flags: ['--workers', '1'] }, { name: 'node:http', flags: ['--http', 'node'] }];
const t0 = performance.now();
for (const n of SIZES) {
  const p = payload(n);
  const bodies = [{ name: 'JSON', bytes: Buffer.from(JSON.stringify(p)), type: 'application/json' }, { name: 'columns', bytes: Buffer.from(encodeColumns(p)!), type: COLUMNS_TYPE }];
  const rows = new Map<string, HttpRow>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const srv of round % 2 ? [...SERVERS].reverse() : SERVERS) {
      const server = await start(srv.flags);
      for (const b of bodies) await load(server.url, server.key, b.bytes, b.type, 0, warmRequests(n));
      for (const b of round % 2 ? [...bodies].reverse() : bodies) {
        const cpu0 = cpuSeconds(server.proc.pid!);
        const r = await load(server.url, server.key, b.bytes, b.type, DURATION_S * (n >= 5000 ? 2 : 1));
        const perCpuS = r.requests.total / (cpuSeconds(server.proc.pid!) - cpu0);
        const id = `${srv.name} ${b.name}`;
        const row = rows.get(id) ?? { elements: n, server: srv.name, body: b.name, bytes: b.bytes.length, rps: [], perCpuS: [], p50: [], p99: [], non2xx: 0 };
        row.rps.push(r.requests.average); row.perCpuS.push(perCpuS); row.p50.push(r.latency.p50); row.p99.push(r.latency.p99); row.non2xx += r.non2xx + r.errors;
        rows.set(id, row);
        console.error(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${n} elements, round ${round + 1}/${ROUNDS}, ${id}: ${r.requests.average.toFixed(0)} req/s, ${perCpuS.toFixed(0)} per server CPU-second, p50 ${r.latency.p50} ms${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`);
      }
      server.proc.kill('SIGTERM');
      await new Promise((done) => server.proc.once('exit', done));
      rmSync(server.dir, { recursive: true, force: true });
    }
  }
  httpRows.push(...rows.values());
}

// ---- Report ----
const kib = (b: number) => `${(b / 1024).toFixed(b < 10240 ? 1 : 0)} KiB`;
const md: string[] = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}.`,
  '',
  `In process (no sockets), ms per request, medians of ${SLICES} interleaved slices of ${SLICE_MS} ms:`,
  '',
  '| elements | JSON body | columns body | route, JSON | route, columns | route: columns vs JSON | parse + validate, JSON | parse + validate, columns | rank() |',
  '|---|---|---|---|---|---|---|---|---|',
  ...inProcess.map((r) => `| ${r.elements} | ${kib(r.jsonBytes)} | ${kib(r.columnsBytes)} | ${r.routeJsonMs.toFixed(3)} | ${r.routeColumnsMs.toFixed(3)} | ${(r.routeJsonMs / r.routeColumnsMs).toFixed(2)}x | ${r.parseJsonMs.toFixed(3)} | ${r.parseColumnsMs.toFixed(3)} | ${r.rankMs.toFixed(3)} |`),
  '',
  'Bytes on the wire for a 1,000-element snapshot, and the server\'s cost to read them (decode the coding, parse, validate), ms:',
  '',
  '| body | Content-Encoding | bytes | vs plain JSON | read ms |',
  '|---|---|---|---|---|',
  ...wireRows.map((w) => `| ${w.body} | ${w.coding} | ${w.bytes.toLocaleString('en')} | ${(json1k.length / w.bytes).toFixed(1)}x smaller | ${w.readMs.toFixed(3)} |`),
  '',
  `Over HTTP: \`sightline serve\` with one serving thread, autocannon (${CONNECTIONS} connections) on the same machine; mean of ${ROUNDS} interleaved rounds (a fresh server each, both bodies warmed first, the order alternating) of ${DURATION_S} s (5,000 elements: ${2 * DURATION_S} s). ` +
    'Requests per server CPU-second (completed requests over the CPU time the server process used, all threads) is requests/s per core, ' +
    'steady whatever else the shared machine runs; wall-clock req/s is shown beside it:',
  '',
  '| elements | server | body | req per server CPU-s | columns vs JSON | vs node:http, same body | req/s (wall) | p50 ms | p99 ms | non-2xx |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...httpRows.map((r) => {
    const per = mean(r.perCpuS);
    const twin = httpRows.find((o) => o.elements === r.elements && o.server === r.server && o.body === 'JSON')!;
    const node = httpRows.find((o) => o.elements === r.elements && o.server === 'node:http' && o.body === r.body)!;
    return `| ${r.elements} | ${r.server} | ${r.body} (${kib(r.bytes)}) | ${per.toFixed(0)} | ${(per / mean(twin.perCpuS)).toFixed(2)}x | ${(per / mean(node.perCpuS)).toFixed(2)}x | ` +
      `${mean(r.rps).toFixed(0)} | ${mean(r.p50).toFixed(1)} | ${mean(r.p99).toFixed(1)} | ${r.non2xx} |`;
  }),
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/snapshot-parse.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, inProcess, wire: wireRows, http: httpRows }, null, 2) + '\n');
writeFileSync(new URL('./results/snapshot-parse.md', import.meta.url), md.join('\n') + '\n');
console.log(md.join('\n'));
