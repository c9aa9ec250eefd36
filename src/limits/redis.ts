// Limits shared by every instance through Redis: the rate limit as one atomic GCRA script, leases as
// one script over a sorted set. Redis down or hanging (a SIGSTOPped server accepts writes and never
// answers) must not stop the service: each call has a short timeout, and the first failure opens a
// circuit breaker; while it is open every call goes to an in-process limiter holding this process's
// share of the limits (limit ÷ share), and a probe (PING) every `retryMs` closes it again when Redis
// answers (half-open). docs/decisions.md "Redis limits".
import { createHash, randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { concurrencyShare, shareOf, type Lease, type Limiter, type RateLimit } from './limiter.ts';
import { createLocalLimiter } from './local.ts';

/** Lua: `now` in ms from ARGV[i], or Redis's own clock when it is '' (so instances on machines with
 *  skewed clocks agree). */
const nowFrom = (i: number) => `local now = tonumber(ARGV[${i}])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end
`;

/** GCRA (limiter.ts `gcra`, the same arithmetic). KEYS[1]: the key's tat; ARGV: the emission interval
 *  (ms per token), the burst, and `now` (nowFrom). The tat is written with 17 digits: Lua's default 14
 *  would round it. The key expires once the bucket is full again, which is the same as no key. */
const TAKE = `
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
${nowFrom(3)}local stored = redis.call('GET', KEYS[1])
local tat = now
if stored then tat = tonumber(stored) end
local ahead = math.max(0, tat - now)
local allowed = (burst - 1) * interval
if ahead <= allowed then
  local nextTat = math.max(tat, now) + interval
  redis.call('SET', KEYS[1], string.format('%.17g', nextTat), 'PX', math.ceil(nextTat - now) + 1000)
  return 0
end
return math.max(1, math.ceil((ahead - allowed) / 1000))
`;

/** Leases: a sorted set of lease ids scored by expiry. Expired ones are dropped, then one is added if
 *  fewer than ARGV[1] remain. ARGV: max, ttl ms, lease id, now ('' for Redis's clock). */
const LEASE = `
local max = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
${nowFrom(4)}redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.17g', now))
if redis.call('ZCARD', KEYS[1]) >= max then return 0 end
redis.call('ZADD', KEYS[1], string.format('%.17g', now + ttl), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

export type LimiterState = 'redis' | 'fallback';

export interface RedisLimiterOptions {
  url: string;
  /** Longest wait for one Redis call before it counts as a failure. */
  timeoutMs: number;
  /** How many in-process limiters share the limits while Redis is away (instances × serving threads). */
  share: number;
  /** How long the breaker stays open before a probe. */
  retryMs?: number;
  /** Told when the limits move to the fallback (with the failure) and back to Redis. */
  onState?: (state: LimiterState, err?: unknown) => void;
  /** Prefix of every Redis key (several deployments on one Redis). */
  prefix?: string;
}

export interface RedisLimiter extends Limiter {
  /** Where limits are decided now. */
  state(): LimiterState;
}

export class RedisTimeoutError extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeoutError(`Redis did not answer within ${ms} ms`)), ms);
  });
  work.catch(() => { /* a late failure after the timeout is already handled */ });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

export function createRedisLimiter(options: RedisLimiterOptions): RedisLimiter {
  const { timeoutMs, share, retryMs = 1000, onState, prefix = 'sightline:' } = options;
  const client = createClient({
    url: options.url,
    // Fail at once while disconnected instead of queueing: the breaker decides, not a growing queue.
    disableOfflineQueue: true,
    socket: { connectTimeout: Math.max(timeoutMs, 1000), reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, retryMs) },
  });
  client.on('error', () => { /* every failure reaches a call, which opens the breaker and is logged there */ });
  const connecting = client.connect().catch(() => { /* reconnects by itself; calls fall back meanwhile */ });
  const local = createLocalLimiter();

  let state: LimiterState = 'redis';
  let probing = false;
  let prober: NodeJS.Timeout | undefined;

  // Half-open: while the breaker is open, one PING every `retryMs` (traffic or not); the first answer
  // closes it.
  const probe = () => {
    if (probing) return;
    probing = true;
    withTimeout(client.ping(), timeoutMs).then(() => {
      if (state === 'redis') return;
      clearInterval(prober);
      state = 'redis';
      onState?.('redis');
    }, () => { /* still away */ }).finally(() => { probing = false; });
  };
  const trip = (err: unknown) => {
    if (state === 'fallback') return;
    state = 'fallback';
    onState?.('fallback', err);
    prober = setInterval(probe, retryMs);
    prober.unref();
  };
  async function guarded<T>(inRedis: () => Promise<T>, inProcess: () => Promise<T>): Promise<T> {
    if (state === 'fallback') return inProcess();
    try {
      // Before the first connection the call waits for it (within the timeout): a server starting
      // beside its Redis should not begin on the fallback.
      return await withTimeout(connecting.then(inRedis), timeoutMs);
    } catch (err) {
      trip(err);
      return inProcess();
    }
  }
  /** EVALSHA, loading the script with EVAL when Redis does not know it yet (a restarted Redis). */
  async function script(source: string, hash: string, keys: string[], args: string[]): Promise<number> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await client.sendCommand(['EVALSHA', hash, ...tail]) as number;
    } catch (err) {
      if (!String((err as Error).message).startsWith('NOSCRIPT')) throw err;
      return await client.sendCommand(['EVAL', source, ...tail]) as number;
    }
  }
  const takeHash = sha1(TAKE);
  const leaseHash = sha1(LEASE);

  return {
    state: () => state,
    take(key: string, limit: RateLimit, nowMs?: number) {
      return guarded(
        () => script(TAKE, takeHash, [`${prefix}rate:${key}`], [String(1000 / limit.rate), String(limit.burst), nowMs === undefined ? '' : String(nowMs)]),
        () => local.take(key, shareOf(limit, share), nowMs),
      );
    },
    lease(key: string, max: number, ttlMs: number, nowMs?: number): Promise<Lease | null> {
      const id = randomUUID();
      const set = `${prefix}lease:${key}`;
      return guarded(
        async () => {
          const got = await script(LEASE, leaseHash, [set], [String(max), String(ttlMs), id, nowMs === undefined ? '' : String(nowMs)]);
          if (!got) return null;
          // A release that cannot reach Redis leaves the lease to expire at its TTL.
          return { release: async () => { await withTimeout(client.zRem(set, id), timeoutMs).catch(() => {}); } };
        },
        () => local.lease(key, concurrencyShare(max, share), ttlMs, nowMs),
      );
    },
    async close() {
      clearInterval(prober);
      await local.close();
      const ready = client.isReady;
      if (ready) await withTimeout(client.close(), timeoutMs).catch(() => {});
      try { client.destroy(); } catch { /* already closed */ }
      await connecting;
    },
  };
}
