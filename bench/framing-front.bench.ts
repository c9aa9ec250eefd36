// What answering uWS's framing gaps costs on the hot path (issue 36, docs/decisions.md "HTTP framing
// at the front"): /v1/snapshot (50 elements) on the real `sightline serve` process, straight to uWS,
// behind the smallest JS guard that could see the raw bytes before uWS's parser (a net pass-through
// that only scans each chunk: every guard that reads bytes pays at least this), and behind the shipped
// haproxy with and without the rules that answer the gaps. Interleaved rounds, autocannon.
// Run: npm run bench:framing-front
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startBenchServer } from './serve-cli.ts';
import { payload } from './payloads.ts';
import { startBalancer, HAPROXY_CFG } from '../test/helpers/haproxy.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 32;

const { url: apiUrl, proc, dir, key } = await startBenchServer();
const apiPort = Number(new URL(apiUrl).port);

// The guard's floor, in its own process so its CPU can be counted: every byte through JS once, scanned
// for the end of a head, then on to uWS.
const GUARD = `
const { createServer, connect } = require('node:net');
const guard = createServer((client) => {
  const upstream = connect(${apiPort}, '127.0.0.1');
  let heads = 0;
  client.on('data', (chunk) => { if (chunk.indexOf('\\r\\n\\r\\n') >= 0) heads++; if (!upstream.write(chunk)) client.pause(); });
  upstream.on('drain', () => client.resume());
  upstream.pipe(client);
  const end = () => { client.destroy(); upstream.destroy(); };
  client.on('error', end); upstream.on('error', end); client.on('close', end); upstream.on('close', end);
});
guard.listen(0, '127.0.0.1', () => console.log(guard.address().port));`;
const guardProc = spawn(process.execPath, ['-e', GUARD], { stdio: ['ignore', 'pipe', 'inherit'] });
const guardUrl = await new Promise<string>((resolve) => guardProc.stdout!.once('data', (d) => resolve(`http://127.0.0.1:${String(d).trim()}`)));

/** CPU seconds (user + system, every thread) a process has used so far. */
const cpuOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

// The shipped configuration without the lines that answer the gaps.
const bare = join(dir, 'haproxy-bare.cfg');
writeFileSync(bare, readFileSync(HAPROXY_CFG, 'utf8').split('\n').filter((l) => !/^\s*http-request return /.test(l)).join('\n'));
const api = [`127.0.0.1:${apiPort}`];
const [withRules, withoutRules] = [await startBalancer(api), await startBalancer(api, bare)];

// Each setup's CPU is the API's plus the process in front of it (none, the guard, haproxy).
const setups = [
  { name: 'uWS direct', url: apiUrl, front: undefined },
  { name: 'JS byte guard -> uWS', url: guardUrl, front: guardProc.pid! },
  { name: 'haproxy without the rules -> uWS', url: withoutRules.url, front: withoutRules.proc.pid! },
  { name: 'haproxy, shipped rules -> uWS', url: withRules.url, front: withRules.proc.pid! },
];
const body = JSON.stringify(payload(50));
const run = (url: string, seconds: number) => autocannon({
  url: `${url}/v1/snapshot`, method: 'POST', body, connections: CONNECTIONS, duration: seconds,
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
});
const results = new Map<string, { rps: number[]; p50: number[]; p99: number[]; bad: number; requests: number; apiCpu: number; frontCpu: number }>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const s of setups) {
    await run(s.url, 1);
    const before = [cpuOf(proc.pid!), s.front ? cpuOf(s.front) : 0];
    const r = await run(s.url, SECONDS);
    const after = [cpuOf(proc.pid!), s.front ? cpuOf(s.front) : 0];
    const row = results.get(s.name) ?? { rps: [], p50: [], p99: [], bad: 0, requests: 0, apiCpu: 0, frontCpu: 0 };
    row.rps.push(r.requests.average); row.p50.push(r.latency.p50); row.p99.push(r.latency.p99); row.bad += r.non2xx + r.errors;
    row.requests += r.requests.total; row.apiCpu += after[0] - before[0]; row.frontCpu += after[1] - before[1];
    results.set(s.name, row);
    console.error(`round ${round}, ${s.name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, API ${((after[0] - before[0]) / r.requests.total * 1e6).toFixed(0)} µs CPU/req, front ${((after[1] - before[1]) / r.requests.total * 1e6).toFixed(0)} µs CPU/req`);
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = mean(results.get('uWS direct')!.rps);
console.log(`${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}, autocannon ${CONNECTIONS} connections on the same machine, ${ROUNDS} interleaved rounds of ${SECONDS} s, /v1/snapshot 50 elements\n`);
console.log('| setup | req/s | vs uWS direct | p50 ms | p99 ms | API CPU µs/req | front CPU µs/req | non-2xx |\n|---|---|---|---|---|---|---|---|');
for (const [name, r] of results) {
  console.log(`| ${name} | ${mean(r.rps).toFixed(0)} | ${(mean(r.rps) / base).toFixed(2)}x | ${mean(r.p50).toFixed(1)} | ${mean(r.p99).toFixed(1)} | ` +
    `${(r.apiCpu / r.requests * 1e6).toFixed(0)} | ${(r.frontCpu / r.requests * 1e6).toFixed(0)} | ${r.bad} |`);
}
await Promise.all([withRules.stop(), withoutRules.stop()]);
guardProc.kill();
proc.kill('SIGTERM');
await new Promise((r) => proc.once('exit', r));
rmSync(dir, { recursive: true, force: true });
