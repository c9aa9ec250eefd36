// The limiter interface: one token per request from a key's bucket, and a lease per request working
// for a key. Two implementations: in process (local.ts) and Redis (redis.ts, falling back to local).

/** The documented token bucket: `rate` tokens per second, at most `burst` held. */
export interface RateLimit {
  rate: number;
  burst: number;
}

/** A request's place among a key's concurrent requests; released when its work ends, or expired. */
export interface Lease {
  release(): Promise<void>;
}

export interface Limiter {
  /** Takes one token from `key`'s bucket. Resolves 0 when taken, else whole seconds (≥ 1) until one is
   *  there: the same numbers as the store's bucket (`Store.takeToken`). */
  take(key: string, limit: RateLimit, nowMs?: number): Promise<number>;
  /** A lease among at most `max` for `key`, or null when `max` are held. It expires after `ttlMs` when
   *  nobody releases it (its process died). */
  lease(key: string, max: number, ttlMs: number, nowMs?: number): Promise<Lease | null>;
  close(): Promise<void>;
}

/**
 * GCRA, the token bucket written as one number: `tat`, the time at which the bucket is full again.
 * A bucket holding `tokens` at time `u` has `tat = u + (burst - tokens) / rate`. A take at `now` is
 * allowed when `tat - now ≤ (burst - 1) / rate` (at least one token), and then `tat = max(tat, now) +
 * 1 / rate`. The wait when refused is the time until that inequality holds, in whole seconds, at least
 * 1: `ceil((1 - tokens) / rate)`, as the store's bucket answers. redis.ts runs the same arithmetic in Lua.
 */
export function gcra(tat: number | undefined, limit: RateLimit, now: number): { wait: number; tat: number } {
  const interval = 1000 / limit.rate;
  const ahead = Math.max(0, (tat ?? now) - now);
  const allowedAhead = (limit.burst - 1) * interval;
  if (ahead <= allowedAhead) return { wait: 0, tat: Math.max(tat ?? now, now) + interval };
  return { wait: Math.max(1, Math.ceil((ahead - allowedAhead) / 1000)), tat: tat! };
}

/** A limit shared by `share` in-process limiters (the Redis fallback: each instance takes its part). */
export function shareOf(limit: RateLimit, share: number): RateLimit {
  return { rate: limit.rate / share, burst: Math.max(1, Math.floor(limit.burst / share)) };
}

export const concurrencyShare = (max: number, share: number) => Math.max(1, Math.floor(max / share));
