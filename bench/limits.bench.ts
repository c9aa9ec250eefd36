// The per-key rate limit's cost per request, in one run: the store's bucket (SQLite, one conditional
// upsert), the GCRA script in a local redis-server (loopback, one EVALSHA per take), and the in-process
// GCRA (the Redis fallback). Sequential takes give the latency each request pays; 64 takes in flight at
// once give what one connection sustains (Redis pipelines them). Different keys, none refused.
// npm run bench:limits
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { createRedisLimiter } from '../src/limits/redis.ts';
import { createLocalLimiter } from '../src/limits/local.ts';
import { startRedis } from '../test/helpers/redis.ts';

const N = 20_000;
const IN_FLIGHT = 64;
const limit = { rate: 1e6, burst: 1e6 };
const redis = await startRedis();
const dir = mkdtempSync(join(tmpdir(), 'lb-'));
const store = openSqliteStore(dir);
const ids: number[] = [];
for (let i = 0; i < 100; i++) ids.push((await store.createKey(1, true)).account.id);
const inRedis = createRedisLimiter({ url: redis.url, timeoutMs: 5000, share: 1 });
const local = createLocalLimiter();
const takes: Record<string, (i: number) => Promise<number>> = {
  sqlite: (i) => store.takeToken(ids[i % ids.length], limit),
  redis: (i) => inRedis.take(String(ids[i % ids.length]), limit),
  'in-process': (i) => local.take(String(ids[i % ids.length]), limit),
};
await takes.redis(0);
for (let round = 0; round < 2; round++) {
  const line: string[] = [];
  const sequentialUs: Record<string, number> = {};
  for (const [name, take] of Object.entries(takes)) {
    let t = performance.now();
    for (let i = 0; i < N; i++) if (await take(i)) throw new Error('refused');
    sequentialUs[name] = (performance.now() - t) * 1000 / N;
    t = performance.now();
    for (let i = 0; i < N; i += IN_FLIGHT) await Promise.all(Array.from({ length: IN_FLIGHT }, (_, j) => take(i + j)));
    const perSecond = N / ((performance.now() - t) / 1000);
    line.push(`${name} ${sequentialUs[name].toFixed(1)} us/take sequential, ${Math.round(perSecond)} takes/s with ${IN_FLIGHT} in flight`);
  }
  console.log(`round ${round}: ${line.join('; ')}; redis/sqlite sequential ratio ${(sequentialUs.redis / sequentialUs.sqlite).toFixed(2)}`);
}
if (inRedis.state() !== 'redis') throw new Error('the Redis limiter fell back during the run: the numbers are not Redis\'s');
await inRedis.close();
await store.close();
await redis.stop();
rmSync(dir, { recursive: true });
