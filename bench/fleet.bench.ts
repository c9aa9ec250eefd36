// /v1/snapshot requests/s on the embedded default against the fleet setup, in one run on one machine:
// one instance on SQLite; one instance on Postgres + Redis; three instances on Postgres + Redis behind
// the shipped deploy/haproxy.cfg; three on one SQLite file behind it too. Real processes throughout
// (`sightline serve`, a `postgres` 15 and a `redis-server` started by the test helpers, Debian's haproxy),
// loaded with autocannon from the same machine. Every request is charged (one credit) and rate-limited.
// Run: npm run bench:fleet. Writes bench/results/fleet.{json,md}.
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { startServer, createKey, removeDataDir, tempDataDir, type ServerProcess } from '../test/helpers/server.ts';
import { startBalancer } from '../test/helpers/haproxy.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { startRedis } from '../test/helpers/redis.ts';
import { openPostgresStore } from '../src/store/postgres.ts';
import { payload } from './payloads.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const UNLIMITED = ['--rate-limit', '1000000000', '--rate-burst', '1000000000'];
const body = JSON.stringify({ ...payload(50), options: { limit: 20 } });

function load(url: string, key: string): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}/v1/snapshot`, method: 'POST', body, connections: CONNECTIONS, duration: SECONDS,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  });
}

const pgServer = await startPostgres();
const redis = await startRedis();
const pgUrl = await pgServer.createDatabase('fleet');
const pgStore = await openPostgresStore({ url: pgUrl });

interface Setup { name: string; instances: number; start(): Promise<{ url: string; key: string; stop(): Promise<void> }> }
const sqliteSetup = (n: number): Setup => ({
  name: n === 1 ? 'SQLite, 1 instance (the embedded default)' : `SQLite file shared by ${n} instances, haproxy`, instances: n,
  async start() {
    const dataDir = tempDataDir();
    const servers = await Promise.all(Array.from({ length: n }, () => startServer(UNLIMITED, { dataDir })));
    return front(servers, await createKey(dataDir, 1_000_000_000), () => removeDataDir(dataDir));
  },
});
const pgSetup = (n: number): Setup => ({
  name: `Postgres + Redis, ${n} instance${n > 1 ? 's, haproxy' : ''}`, instances: n,
  async start() {
    const dirs = Array.from({ length: n }, () => tempDataDir());
    const servers = await Promise.all(dirs.map((dataDir) => startServer([...UNLIMITED, '--store', pgUrl, '--redis', redis.url, '--instances', String(n)], { dataDir })));
    return front(servers, (await pgStore.createKey(1_000_000_000, true)).key, () => dirs.forEach(removeDataDir));
  },
});

/** One instance is loaded directly; several through haproxy. */
async function front(servers: ServerProcess[], key: string, cleanup: () => void) {
  const lb = servers.length > 1 ? await startBalancer(servers.map((s) => `127.0.0.1:${s.port}`)) : undefined;
  return {
    url: lb?.url ?? servers[0]!.url, key,
    async stop() { await lb?.stop(); await Promise.all(servers.map((s) => s.stop())); cleanup(); },
  };
}

const setups = [sqliteSetup(1), pgSetup(1), pgSetup(3), sqliteSetup(3)];
interface Row { name: string; instances: number; rps: number[]; p50: number[]; p99: number[]; errors: number }
const rows: Row[] = setups.map((s) => ({ name: s.name, instances: s.instances, rps: [], p50: [], p99: [], errors: 0 }));
// Two rounds, setups interleaved, so drift on the shared machine touches every setup alike.
for (let round = 0; round < 2; round++) {
  for (const [i, setup] of setups.entries()) {
    const running = await setup.start();
    await load(running.url, running.key); // warm: JIT, connections, caches
    const r = await load(running.url, running.key);
    await running.stop();
    rows[i]!.rps.push(r.requests.average);
    rows[i]!.p50.push(r.latency.p50);
    rows[i]!.p99.push(r.latency.p99);
    rows[i]!.errors += r.non2xx + r.errors;
    process.stderr.write(`round ${round} ${setup.name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, non-2xx ${r.non2xx}\n`);
  }
}
await pgStore.close();
await redis.stop();
pgServer.destroy();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = mean(rows[0]!.rps);
const md = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Everything on this machine: the instances, postgres, redis-server, haproxy and the load generator (autocannon, ${CONNECTIONS} connections, ${SECONDS} s per measurement after a warm-up, two rounds interleaved). Body: 50 real-client elements, limit 20; one credit charged per request.`,
  '',
  '| setup | instances | requests/s (rounds) | vs SQLite, 1 instance | p50 ms | p99 ms | non-2xx |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.instances} | ${r.rps.map((x) => x.toFixed(0)).join(', ')} | ${(mean(r.rps) / base).toFixed(2)}× | ${mean(r.p50).toFixed(1)} | ${mean(r.p99).toFixed(1)} | ${r.errors} |`),
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/fleet.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, rows }, null, 2) + '\n');
writeFileSync(new URL('./results/fleet.md', import.meta.url), md.join('\n') + '\n');
console.log(md.join('\n'));
