// Limits in Redis (src/limits/redis.ts) against a real redis-server: the GCRA script answers exactly as
// the store's token bucket, leases cap concurrency and expire, and a Redis that dies or hangs falls back
// to in-process limits and comes back by itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { createRedisLimiter, type LimiterState } from '../src/limits/redis.ts';
import { createLocalLimiter } from '../src/limits/local.ts';
import { startRedis, type RedisProcess } from './helpers/redis.ts';
import { tempDataDir, removeDataDir } from './helpers/server.ts';

/** Long enough that a loaded test machine does not trip the breaker by itself. */
const TIMEOUT_MS = 1000;

let redis: RedisProcess;

before(async () => { redis = await startRedis(); });
after(async () => { await redis.stop(); });

/** A seeded generator, so a failing sequence can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

test('the GCRA script gives the same answers and waits as the SQLite bucket for the same takes at the same times', async () => {
  const dir = tempDataDir();
  const store = openSqliteStore(dir);
  const limiter = createRedisLimiter({ url: redis.url, timeoutMs: 1000, share: 1, prefix: `eq${Date.now()}:` });
  const local = createLocalLimiter();
  try {
    const limits = [{ rate: 2, burst: 2 }, { rate: 0.1, burst: 3 }, { rate: 3, burst: 5 }, { rate: 50, burst: 100 }, { rate: 7, burst: 1 }, { rate: 0.5, burst: 10 }];
    let compared = 0;
    let refused = 0;
    for (const [i, limit] of limits.entries()) {
      const account = (await store.createKey(1, true)).account;
      const next = random(i + 1);
      let t = 1_700_000_000_000 + i;
      const seen: string[] = [];
      for (let n = 0; n < 400; n++) {
        // Bursts at one instant, small steps, and pauses long enough to refill.
        const r = next();
        t += r < 0.4 ? 0 : r < 0.8 ? Math.floor(next() * 1000 / limit.rate) : Math.floor(next() * 3000 * limit.burst / limit.rate);
        const [sqlite, inRedis, inProcess] = [await store.takeToken(account.id, limit, t), await limiter.take(String(account.id), limit, t), await local.take(String(account.id), limit, t)];
        seen.push(`${t}:${sqlite}`);
        assert.equal(inRedis, sqlite, `rate ${limit.rate}, burst ${limit.burst}, take ${n} at ${t}: Redis waits ${inRedis} s, SQLite ${sqlite} s (before: ${seen.slice(-5).join(' ')})`);
        assert.equal(inProcess, sqlite, `in-process GCRA, take ${n}`);
        compared++;
        if (sqlite > 0) refused++;
      }
    }
    assert.equal(limiter.state(), 'redis');
    assert.ok(refused > compared / 10 && refused < compared * 0.9, `both answers were exercised (${refused} of ${compared} refused)`);
  } finally {
    await limiter.close();
    await store.close();
    removeDataDir(dir);
  }
});

test('leases: at most N per key across limiters on one Redis, released or expired', async () => {
  const prefix = `lease${Date.now()}:`;
  const one = createRedisLimiter({ url: redis.url, timeoutMs: 1000, share: 2, prefix });
  const two = createRedisLimiter({ url: redis.url, timeoutMs: 1000, share: 2, prefix });
  try {
    const t = 1_000_000;
    const a = await one.lease('7', 2, 5000, t);
    const b = await two.lease('7', 2, 5000, t + 1);
    assert.ok(a && b);
    assert.equal(await one.lease('7', 2, 5000, t + 2), null, 'two held on the other limiter count too');
    assert.ok(await one.lease('8', 2, 5000, t + 2), 'another key has its own leases');
    await b.release();
    const c = await one.lease('7', 2, 5000, t + 3);
    assert.ok(c, 'a released lease frees its place');
    assert.equal(await two.lease('7', 2, 5000, t + 4), null);
    assert.ok(await two.lease('7', 2, 5000, t + 5001), 'an unreleased lease expires at its TTL (its process died)');
    assert.equal(one.state(), 'redis');
  } finally {
    await one.close();
    await two.close();
  }
});

test('in-process leases: at most N, released or expired', async () => {
  const local = createLocalLimiter();
  const a = await local.lease('k', 1, 100, 0);
  assert.ok(a);
  assert.equal(await local.lease('k', 1, 100, 50), null);
  assert.ok(await local.lease('k', 1, 100, 100), 'expired at its TTL');
  const b = await local.lease('j', 1, 100, 0);
  await b!.release();
  assert.ok(await local.lease('j', 1, 100, 1));
});

test('Redis killed, then paused: calls fall back at once to limit ÷ share, and Redis is used again when it answers', async () => {
  const states: LimiterState[] = [];
  const limiter = createRedisLimiter({ url: redis.url, timeoutMs: TIMEOUT_MS, share: 4, retryMs: 200, prefix: `fault${Date.now()}:`, onState: (s) => states.push(s) });
  const limit = { rate: 1, burst: 8 };
  try {
    assert.equal(await limiter.take('1', limit), 0);
    assert.equal(limiter.state(), 'redis');

    await redis.kill();
    let started = performance.now();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) waits.push(await limiter.take('1', limit));
    assert.ok(performance.now() - started < TIMEOUT_MS, 'a dead Redis refuses at once: no call waits for a timeout');
    assert.equal(limiter.state(), 'fallback');
    assert.deepEqual(waits, [0, 0, 4, 4], 'the fallback holds a quarter of the limit: burst 8 ÷ 4 = 2, rate 1/s ÷ 4, so 4 s to wait');

    await redis.restart();
    await waitFor(() => limiter.state() === 'redis', 'back on Redis after restart');
    assert.equal(await limiter.take('1', limit), 0, 'a restarted Redis starts with full buckets');

    redis.pause();
    started = performance.now();
    const paused: number[] = [];
    for (let i = 0; i < 20; i++) paused.push(await limiter.take('2', limit));
    const elapsed = performance.now() - started;
    assert.equal(limiter.state(), 'fallback');
    assert.ok(elapsed < 2 * TIMEOUT_MS, `a hanging Redis costs one timeout, then the breaker is open (${Math.round(elapsed)} ms for 20 takes; each would wait ${TIMEOUT_MS} ms)`);
    assert.deepEqual(paused.slice(0, 2), [0, 0]);
    redis.resume();
    await waitFor(() => limiter.state() === 'redis', 'back on Redis after SIGCONT');
    assert.deepEqual(states, ['fallback', 'redis', 'fallback', 'redis']);
  } finally {
    redis.resume();
    await limiter.close();
  }
});

async function waitFor(check: () => boolean, what: string, ms = 10_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('settings: --redis takes a redis:// URL (flag or SIGHTLINE_REDIS_URL), --instances and --key-concurrency whole numbers', async () => {
  const { resolveConfig, ConfigError } = await import('../src/server/config.ts');
  const base = resolveConfig({}, {});
  assert.deepEqual([base.redisUrl, base.instances, base.keyConcurrency, base.redisTimeoutMs], ['', 1, 0, 200], 'the embedded default: no Redis, no concurrency cap');
  assert.equal(resolveConfig({}, { SIGHTLINE_REDIS_URL: 'redis://10.0.0.5:6379/2' }).redisUrl, 'redis://10.0.0.5:6379/2');
  assert.equal(resolveConfig({ redis: 'rediss://u:p@h:6380' }, { SIGHTLINE_REDIS_URL: 'redis://other' }).redisUrl, 'rediss://u:p@h:6380', 'the flag wins');
  assert.throws(() => resolveConfig({ redis: 'http://h:6379' }, {}), ConfigError);
  assert.throws(() => resolveConfig({ instances: '0' }, {}), ConfigError);
  assert.throws(() => resolveConfig({ 'key-concurrency': '1.5' }, {}), ConfigError);
  assert.equal(resolveConfig({}, { SIGHTLINE_INSTANCES: '3', SIGHTLINE_KEY_CONCURRENCY: '8' }).instances, 3);
});
