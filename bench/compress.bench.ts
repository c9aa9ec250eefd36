// Compressed bodies (issue 19), in one run: bytes on the wire for a 1,000-element snapshot request and
// its answer in plain JSON, gzip and br at several levels, with what each costs to compress, to decode
// (the server's own streaming decoder, body.ts) and to decode + JSON.parse; the route's cost in process
// with and without compression both ways; then the real server under autocannon load, plain against
// compressed requests and answers, interleaved round by round.
// Run: npm run bench:compress. Writes bench/results/compress.json and bench/results/compress.md.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { startBenchServer } from './serve-cli.ts';
import { resolveConfig } from '../src/server/config.ts';
import { buildRouter } from '../src/server/server.ts';
import { createLogger } from '../src/server/logger.ts';
import { RequestBody } from '../src/server/body.ts';
import { BROTLI_QUALITY, GZIP_LEVEL } from '../src/server/reply.ts';
import type { IncomingRequest } from '../src/server/router.ts';
import { payload } from './payloads.ts';
import { barChart } from './chart.ts';

const DURATION_S = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 2);
const CONNECTIONS = 32;
const SLICE_MS = 60;
const TIMING_ROUNDS = 9;

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/** CPU ms this process has used, every thread (zlib's thread pool included). CPU time, not wall time:
 *  on a machine shared with other work, a slice's wall time counts the time others ran. */
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

/** CPU ms per call, over about SLICE_MS of CPU. */
function slice(fn: () => unknown): number {
  let calls = 0;
  const t0 = cpuMs();
  let t = t0;
  do { fn(); calls++; t = cpuMs(); } while (t - t0 < SLICE_MS);
  return (t - t0) / calls;
}
async function sliceAsync(fn: () => Promise<unknown>): Promise<number> {
  let calls = 0;
  const t0 = cpuMs();
  let t = t0;
  do { await fn(); calls++; t = cpuMs(); } while (t - t0 < SLICE_MS);
  return (t - t0) / calls;
}

/** CPU seconds a process has used (utime + stime from /proc, in clock ticks of 10 ms). */
function processCpuS(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Medians of several functions' ms per call, measured round-robin so noise hits each alike. */
async function interleaved(fns: Record<string, () => unknown>): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (const fn of Object.values(fns)) await fn(); // warm up
  for (let round = 0; round < TIMING_ROUNDS; round++) {
    for (const [name, fn] of Object.entries(fns)) {
      const probe = fn();
      if (probe instanceof Promise) { await probe; samples[name].push(await sliceAsync(fn as () => Promise<unknown>)); } else samples[name].push(slice(fn));
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

const C = zlib.constants;
const br = (q: number) => (b: Buffer | string) => zlib.brotliCompressSync(b, { params: { [C.BROTLI_PARAM_QUALITY]: q, [C.BROTLI_PARAM_MODE]: C.BROTLI_MODE_TEXT, [C.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(b) } });
const gz = (level: number) => (b: Buffer | string) => zlib.gzipSync(b, { level });
const CODECS: { name: string; coding: 'gzip' | 'br'; encode: (b: Buffer | string) => Buffer }[] = [
  { name: 'gzip 1', coding: 'gzip', encode: gz(1) }, { name: 'gzip 4', coding: 'gzip', encode: gz(4) },
  { name: 'gzip 6', coding: 'gzip', encode: gz(6) }, { name: 'gzip 9', coding: 'gzip', encode: gz(9) },
  { name: 'br 1', coding: 'br', encode: br(1) }, { name: 'br 3', coding: 'br', encode: br(3) },
  { name: 'br 4', coding: 'br', encode: br(4) }, { name: 'br 5', coding: 'br', encode: br(5) },
  { name: 'br 6', coding: 'br', encode: br(6) },
];

/** The server's decoder (body.ts), fed in 64 KiB pieces as a socket would. */
function serverDecode(coding: string | undefined, bytes: Buffer): Promise<Buffer> {
  const body = new RequestBody(64 * 1024 * 1024, coding, coding ? NaN : bytes.length);
  for (let at = 0; at < bytes.length; at += 65536) body.write(bytes.subarray(at, at + 65536), false);
  body.end();
  return body.result;
}

interface WireRow { body: string; codec: string; bytes: number; ratio: number; compressMs: number; decodeMs: number; decodeParseMs: number }

async function wire(label: string, text: string): Promise<WireRow[]> {
  const plain = Buffer.from(text);
  const encoded = Object.fromEntries(CODECS.map((c) => [c.name, c.encode(plain)]));
  const fns: Record<string, () => unknown> = { 'plain parse': () => JSON.parse(plain.toString('utf8')), 'plain decode+parse': async () => JSON.parse((await serverDecode(undefined, plain)).toString('utf8')) };
  for (const c of CODECS) {
    fns[`${c.name} compress`] = () => c.encode(plain);
    fns[`${c.name} decode+parse`] = async () => JSON.parse((await serverDecode(c.coding, encoded[c.name])).toString('utf8'));
  }
  const ms = await interleaved(fns);
  const rows: WireRow[] = [{ body: label, codec: 'plain JSON', bytes: plain.length, ratio: 1, compressMs: 0, decodeMs: ms['plain decode+parse'] - ms['plain parse'], decodeParseMs: ms['plain decode+parse'] }];
  for (const c of CODECS) {
    rows.push({ body: label, codec: c.name, bytes: encoded[c.name].length, ratio: plain.length / encoded[c.name].length, compressMs: ms[`${c.name} compress`], decodeMs: ms[`${c.name} decode+parse`] - ms['plain parse'], decodeParseMs: ms[`${c.name} decode+parse`] });
  }
  for (const r of rows) console.error(`${label}, ${r.codec}: ${r.bytes} bytes (${r.ratio.toFixed(1)}x), compress ${r.compressMs.toFixed(3)} ms, decode ${r.decodeMs.toFixed(3)} ms, decode+parse ${r.decodeParseMs.toFixed(3)} ms`);
  return rows;
}

interface RouteRow { elements: number; setup: string; ms: number; vsPlain: number; responseBytes: number }

/** The whole route in process (no sockets): plain, and with a compressed request and/or answer. */
async function routeCost(elements: number): Promise<RouteRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-bench-'));
  const config = resolveConfig({ 'data-dir': dir, 'rate-limit': '1000000000', 'rate-burst': '1000000000' });
  const store = openSqliteStore(dir);
  const { key } = await store.createKey(1_000_000_000, true);
  const { router } = await buildRouter(config, store, createLogger('warn'), 'bench', 0);
  const text = JSON.stringify(payload(elements));
  const plain = Buffer.from(text);
  const brBody = br(BROTLI_QUALITY)(plain);
  const base: IncomingRequest = { method: 'POST', path: '/v1/snapshot', query: '', host: 'localhost', authorization: `Bearer ${key}`, contentType: 'application/json', requestId: 'bench', remoteAddress: '127.0.0.1', body: plain };
  const setups: Record<string, { coding?: string; bytes: Buffer; accept?: string }> = {
    'plain request, plain answer': { bytes: plain },
    'plain request, br answer': { bytes: plain, accept: 'br' },
    'plain request, gzip answer': { bytes: plain, accept: 'gzip' },
    'br request, plain answer': { coding: 'br', bytes: brBody },
    'br request, br answer': { coding: 'br', bytes: brBody, accept: 'br' },
  };
  const sizes: Record<string, number> = {};
  const BATCH = 10;
  const fns = Object.fromEntries(Object.entries(setups).map(([name, s]) => [name, async () => {
    for (let i = 0; i < BATCH; i++) {
      const body = await serverDecode(s.coding, s.bytes);
      const reply = await router.handle({ ...base, body, acceptEncoding: s.accept });
      sizes[name] = Buffer.byteLength(reply.body);
    }
  }]));
  const ms = await interleaved(fns);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const plainMs = ms['plain request, plain answer'] / BATCH;
  return Object.keys(setups).map((setup) => {
    const row = { elements, setup, ms: ms[setup] / BATCH, vsPlain: plainMs / (ms[setup] / BATCH), responseBytes: sizes[setup] };
    console.error(`route, ${elements} elements, ${setup}: ${row.ms.toFixed(3)} ms (${row.vsPlain.toFixed(2)}x of plain), answer ${row.responseBytes} bytes`);
    return row;
  });
}

interface Setup { name: string; coding?: 'br' | 'gzip'; accept?: string }
const SETUPS: Setup[] = [
  { name: 'plain request, plain answer' },
  { name: 'br request, plain answer', coding: 'br' },
  { name: 'plain request, br answer', accept: 'br' },
  { name: 'br request, br answer', coding: 'br', accept: 'br' },
  { name: 'gzip request, gzip answer', coding: 'gzip', accept: 'gzip' },
];
interface LoadRow { elements: number; setup: string; requestBytes: number; rps: number[]; perCpuS: number[]; p50: number[]; p99: number[]; answerBytes: number[]; non2xx: number }

const start = () => startBenchServer();

function load(url: string, key: string, setup: Setup, body: Buffer, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}/v1/snapshot`, method: 'POST', body, connections: CONNECTIONS, duration: seconds,
    headers: {
      authorization: `Bearer ${key}`, 'content-type': 'application/json',
      ...(setup.coding ? { 'content-encoding': setup.coding } : {}), ...(setup.accept ? { 'accept-encoding': setup.accept } : {}),
    },
  });
}

const t0 = performance.now();
const requestText = JSON.stringify(payload(1000));
const wireRows = await wire('1,000-element request', requestText);
// The answer the server sends for it (options.limit 50), taken from the route itself.
const routeRows = [...await routeCost(1000), ...await routeCost(50)];
const answerRows = await (async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-bench-'));
  const config = resolveConfig({ 'data-dir': dir });
  const store = openSqliteStore(dir);
  const { key } = await store.createKey(10, true);
  const { router } = await buildRouter(config, store, createLogger('warn'), 'bench', 0);
  const reply = await router.handle({ method: 'POST', path: '/v1/snapshot', query: '', host: 'localhost', authorization: `Bearer ${key}`, contentType: 'application/json', requestId: 'bench', remoteAddress: '127.0.0.1', body: Buffer.from(requestText) });
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return wire('its answer (limit 50)', String(reply.body));
})();

const loadRows: LoadRow[] = [];
for (const elements of [1000, 50]) {
  const plain = Buffer.from(JSON.stringify(payload(elements)));
  const bodies = { br: br(BROTLI_QUALITY)(plain), gzip: gz(GZIP_LEVEL)(plain) };
  const setups = elements === 1000 ? SETUPS : SETUPS.filter((s) => !s.coding || s.accept);
  const rows = new Map<string, LoadRow>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const setup of setups) {
      const body = setup.coding ? bodies[setup.coding] : plain;
      const server = await start();
      await load(server.url, server.key, setup, body, 1);
      const cpu0 = processCpuS(server.proc.pid!);
      const r = await load(server.url, server.key, setup, body, DURATION_S);
      const cpuS = processCpuS(server.proc.pid!) - cpu0;
      server.proc.kill('SIGTERM');
      await new Promise((done) => server.proc.once('exit', done));
      rmSync(server.dir, { recursive: true, force: true });
      const row = rows.get(setup.name) ?? { elements, setup: setup.name, requestBytes: body.length, rps: [], perCpuS: [], p50: [], p99: [], answerBytes: [], non2xx: 0 };
      row.rps.push(r.requests.average); row.perCpuS.push(r.requests.total / cpuS); row.p50.push(r.latency.p50); row.p99.push(r.latency.p99);
      row.answerBytes.push(r.throughput.total / Math.max(1, r.requests.total)); row.non2xx += r.non2xx + r.errors;
      rows.set(setup.name, row);
      console.error(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${elements} elements, round ${round}/${ROUNDS}, ${setup.name}: ${r.requests.average.toFixed(0)} req/s, ${(r.requests.total / cpuS).toFixed(0)} per server CPU-second, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`);
    }
  }
  loadRows.push(...rows.values());
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const md: string[] = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Server levels: br quality ${BROTLI_QUALITY}, gzip level ${GZIP_LEVEL}.`,
  '',
  'Bytes on the wire and their cost, CPU ms per body (medians of interleaved rounds; decode is the server\'s streaming decoder, body.ts, thread pool included; decode is decode + JSON.parse less JSON.parse alone):',
  '',
  '| body | encoding | bytes | smaller by | compress ms | decode ms | decode + JSON.parse ms |',
  '|---|---|---|---|---|---|---|',
  ...[...wireRows, ...answerRows].map((r) => `| ${r.body} | ${r.codec} | ${kib(r.bytes)} | ${r.ratio.toFixed(1)}x | ${r.compressMs.toFixed(2)} | ${r.decodeMs.toFixed(2)} | ${r.decodeParseMs.toFixed(2)} |`),
  '',
  'The whole route in process (no sockets; decoding the request included), CPU ms per request:',
  '',
  '| elements | setup | ms | speed vs plain | answer bytes |',
  '|---|---|---|---|---|',
  ...routeRows.map((r) => `| ${r.elements} | ${r.setup} | ${r.ms.toFixed(3)} | ${r.vsPlain.toFixed(2)}x | ${kib(r.responseBytes)} |`),
  '',
  `The real server (uWS, 1 worker) under autocannon, ${CONNECTIONS} connections, mean of ${ROUNDS} interleaved rounds of ${DURATION_S} s; requests per CPU-second the server process used (its threads together) is the figure that holds on a shared machine:`,
  '',
  '| elements | setup | request bytes | answer bytes (with headers) | req/s | req per server CPU-second | vs plain (per CPU-second) | p50 ms | p99 ms | non-2xx |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...loadRows.map((r) => {
    const base = loadRows.find((b) => b.elements === r.elements && b.setup === SETUPS[0].name)!;
    return `| ${r.elements} | ${r.setup} | ${kib(r.requestBytes)} | ${kib(mean(r.answerBytes))} | ${mean(r.rps).toFixed(0)} | ${mean(r.perCpuS).toFixed(0)} | ${(mean(r.perCpuS) / mean(base.perCpuS)).toFixed(2)}x | ${mean(r.p50).toFixed(1)} | ${mean(r.p99).toFixed(1)} | ${r.non2xx} |`;
  }),
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/compress.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, brotliQuality: BROTLI_QUALITY, gzipLevel: GZIP_LEVEL, wire: [...wireRows, ...answerRows], route: routeRows, load: loadRows }, null, 2) + '\n');
writeFileSync(new URL('./results/compress.md', import.meta.url), md.join('\n') + '\n');
writeFileSync(new URL('./results/compress.svg', import.meta.url), barChart('1,000-element snapshot request: bytes on the wire', wireRows.map((r) => ({ label: r.codec, value: r.bytes / 1024, group: r.codec.split(' ')[0] })), ' KiB'));
console.log(md.join('\n'));
