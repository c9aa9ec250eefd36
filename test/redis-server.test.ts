// Per-key limits through real HTTP: `sightline serve` processes on one redis-server (test/helpers/redis.ts)
// share one key's rate limit and its concurrency leases; Redis killed or paused (SIGSTOP) leaves the
// service answering under in-process limits (limit ÷ instances) with no 5xx and no slow answers, and
// the service goes back to Redis by itself (the metric says so, and the shared limit shows it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, createKey, snapshot, removeDataDir, elements, tempDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { startRedis, type RedisProcess } from './helpers/redis.ts';
import { serveSlowPage, type SlowSite } from './helpers/slow-site.ts';

const page = { url: 'https://example.test/', raw_elements: elements(5) };
const ARTICLE = readFileSync(new URL('./fixtures/read/article.html', import.meta.url), 'utf8');

/** Redis's command timeout in the fault test: an answer slower than this waited on the stopped Redis.
 *  Long enough that a loaded test machine does not trip the breaker by itself. */
const TIMEOUT_MS = 1000;
/** Where Redis is not what is tested: no fallback on a loaded machine. */
const PATIENT = ['--redis-timeout-ms', '5000'];

let redis: RedisProcess;
let site: SlowSite;
const started: ServerProcess[] = [];
const dirs: string[] = [];

before(async () => {
  [redis, site] = await Promise.all([startRedis(), serveSlowPage(ARTICLE)]);
});

after(async () => {
  await Promise.all(started.map((s) => s.stop()));
  dirs.forEach(removeDataDir);
  site.close();
  await redis.stop();
});

/** `sightline serve` processes on one data directory (one store) with the given flags. */
async function servers(n: number, flags: string[], env: NodeJS.ProcessEnv = {}): Promise<{ dataDir: string; list: ServerProcess[] }> {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const list: ServerProcess[] = [];
  for (let i = 0; i < n; i++) list.push(await startServer(flags, { dataDir, env }));
  started.push(...list);
  return { dataDir, list };
}

async function metric(server: ServerProcess, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} is exported`);
  return Number(line.split(' ')[1]);
}

async function until(check: () => Promise<boolean>, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Account ids restart at 1 in each test's store: each test gets its own Redis database. */
let databases = 0;
const freshDb = () => `${redis.url}/${++databases}`;

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

test('two servers on one Redis share one key\'s bucket: the 200s across both add up to the burst', async () => {
  // 0.01 tokens/s: no token comes back within the test's window.
  const { dataDir, list: [a, b] } = await servers(2, [...PATIENT, '--instances', '2', '--rate-limit', '0.01', '--rate-burst', '12'], { SIGHTLINE_REDIS_URL: freshDb() });
  const key = await createKey(dataDir, 100);
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => snapshot((i % 2 ? a : b).url, key, page)));
  assert.deepEqual(statuses(answers), { 200: 12, 429: 28 });
  const refused = answers.find((r) => r.status === 429)!;
  assert.equal(refused.body.error_code, 'rate_limited');
  assert.equal(refused.headers.get('retry-after'), String(Math.ceil(1 / 0.01)), 'Retry-After as the store\'s bucket gives it: one token at 0.01/s');
  for (const s of [a, b]) assert.equal(await metric(s, 'sightline_limits_fallbacks_total'), 0, 'every decision was Redis\'s');
});

test('concurrency leases: at most N requests of one key in progress across two servers, then free again', async () => {
  const { dataDir, list: [a, b] } = await servers(2, ['--redis', freshDb(), ...PATIENT, '--instances', '2', '--key-concurrency', '2', '--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000']);
  const key = await createKey(dataDir, 100);
  const slow = { url: `${site.url}/wait/1500`, mode: 'read', options: { render: 'never' } };
  const answers = await Promise.all([a, b, a, b, a, b].map((s) => observe(s, key, slow)));
  assert.deepEqual(statuses(answers), { 200: 2, 429: 4 });
  const refused = answers.find((r) => r.status === 429)!;
  assert.equal(refused.body.error, 'rate_limited');
  assert.match(refused.body.message, /at most 2 in progress per key/);
  assert.equal(refused.retryAfter, '1');
  // Leases came back when the work ended: two more run at once.
  const again = await Promise.all([a, b].map((s) => observe(s, key, { ...slow, url: `${site.url}/wait/10` })));
  assert.deepEqual(statuses(again), { 200: 2 });
});

test('concurrency leases without Redis: counted in the server process', async () => {
  const { dataDir, list: [a] } = await servers(1, ['--key-concurrency', '1', '--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000']);
  const key = await createKey(dataDir, 100);
  const slow = { url: `${site.url}/wait/1000`, mode: 'read', options: { render: 'never' } };
  const answers = await Promise.all([1, 2, 3].map(() => observe(a, key, slow)));
  assert.deepEqual(statuses(answers), { 200: 1, 429: 2 });
  assert.equal((await observe(a, key, { ...slow, url: `${site.url}/wait/0` })).status, 200);
});

test('Redis killed, then paused: answers keep coming under local limits (÷ instances), fast and without 5xx, and Redis is used again', async () => {
  const { dataDir, list: [server] } = await servers(1, ['--redis', freshDb(), '--redis-timeout-ms', String(TIMEOUT_MS), '--instances', '2', '--rate-limit', '0.01', '--rate-burst', '10']);
  const first = await createKey(dataDir, 100);
  assert.equal((await snapshot(server.url, first, page)).status, 200);
  assert.equal(await metric(server, 'sightline_limits_fallback'), 0);

  await redis.kill();
  const key = await createKey(dataDir, 100);
  const down = [];
  for (let i = 0; i < 8; i++) down.push(await snapshot(server.url, key, page));
  assert.deepEqual(statuses(down), { 200: 5, 429: 3 }, 'this instance holds half the burst (10 ÷ 2)');
  const wait = Number(down[7].headers.get('retry-after'));
  assert.ok(wait > 1 / 0.01 && wait <= 1 / (0.01 / 2), `and half the rate: ${wait} s for a token at 0.005/s (100 s at the full rate)`);
  assert.equal(await metric(server, 'sightline_limits_fallback'), 1);
  assert.equal(await metric(server, 'sightline_limits_fallbacks_total'), 1);
  assert.ok(server.logs.some((l) => l.level === 50 && /falling back to in-process limits/.test(l.msg)), 'an error log line says so');

  await redis.restart();
  await until(async () => await metric(server, 'sightline_limits_fallback') === 0, 'back on Redis after the restart');
  // A restarted Redis is empty: the key's bucket in Redis is full again (10, not the fallback's 5).
  const back = await Promise.all(Array.from({ length: 12 }, () => snapshot(server.url, key, page)));
  assert.deepEqual(statuses(back), { 200: 10, 429: 2 }, JSON.stringify(server.logs.filter((l) => Number(l.level) >= 40)));

  redis.pause();
  try {
    const fresh = await createKey(dataDir, 100);
    const times: number[] = [];
    const paused = [];
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      paused.push(await snapshot(server.url, fresh, page));
      times.push(performance.now() - t);
    }
    assert.deepEqual(statuses(paused), { 200: 5, 429: 3 });
    assert.ok(Math.max(...times) < TIMEOUT_MS + 1500, `no answer waits on the stopped Redis beyond its timeout (slowest ${Math.round(Math.max(...times))} ms)`);
    assert.ok(times.slice(1).every((t) => t < TIMEOUT_MS), `once the breaker is open, answers are quick (${times.map(Math.round).join(', ')} ms)`);
    assert.equal(await metric(server, 'sightline_limits_fallback'), 1);
    assert.equal(await metric(server, 'sightline_limits_fallbacks_total'), 2);
  } finally {
    redis.resume();
  }
  await until(async () => await metric(server, 'sightline_limits_fallback') === 0, 'back on Redis after SIGCONT');
  const after = await createKey(dataDir, 100);
  const resumed = await Promise.all(Array.from({ length: 12 }, () => snapshot(server.url, after, page)));
  assert.deepEqual(statuses(resumed), { 200: 10, 429: 2 }, 'the shared limit (burst 10) is Redis\'s again');
  const all = [...down, ...back, ...resumed];
  assert.ok(all.every((r) => r.status < 500), 'never a 5xx');
});
