// Per-key limits as the server applies them (docs/decisions.md "Redis limits"). Without Redis the rate
// limit is the store's bucket (the embedded default, shared by every worker and process on one store)
// and concurrency leases are counted in process; with `--redis` both live in Redis, and while Redis is
// away both fall back to in-process limits holding this thread's share (÷ instances × workers).
import type { Logger } from 'pino';
import type { Lease, Limiter } from '../limits/limiter.ts';
import { concurrencyShare } from '../limits/limiter.ts';
import { createLocalLimiter } from '../limits/local.ts';
import { createRedisLimiter } from '../limits/redis.ts';
import type { RateLimit, Store } from '../store/store.ts';
import type { ServerConfig } from './config.ts';
import type { Metrics } from './metrics.ts';

export interface KeyLimits {
  rateLimit: RateLimit;
  /** Requests one key may have in progress at once; 0: unlimited. */
  keyConcurrency: number;
  /** One token from the key's bucket: 0 when taken, else whole seconds to wait. */
  take(accountId: number): Promise<number>;
  /** A lease among `keyConcurrency` for the key, or null when they are all held. */
  lease(accountId: number): Promise<Lease | null>;
  close(): Promise<void>;
}

export interface KeyLimitsOptions {
  store: Store;
  rateLimit: RateLimit;
  keyConcurrency?: number;
  /** A lease's life when its request never releases it (its process died): the hold TTL. */
  leaseTtlMs?: number;
  /** `--redis`; empty: the store's bucket and in-process leases. */
  redisUrl?: string;
  redisTimeoutMs?: number;
  /** In-process limiters sharing the limits: instances × serving threads. */
  share?: number;
  logger?: Logger;
  metrics?: Metrics;
}

export function createKeyLimits(options: KeyLimitsOptions): KeyLimits {
  const { store, rateLimit, keyConcurrency = 0, leaseTtlMs = 60_000, share = 1, logger, metrics } = options;
  let limiter: Limiter;
  let take: (accountId: number) => Promise<number>;
  let max: number;
  if (options.redisUrl) {
    const redis = createRedisLimiter({
      url: options.redisUrl, timeoutMs: options.redisTimeoutMs ?? 200, share,
      onState(state, err) {
        metrics?.limitsFallback(state === 'fallback');
        if (state === 'fallback') logger?.error({ err, share }, 'Redis limits unavailable: falling back to in-process limits (limit ÷ share) until Redis answers');
        else logger?.warn('Redis limits answer again: back on Redis');
      },
    });
    limiter = redis;
    take = (id) => redis.take(String(id), rateLimit);
    max = keyConcurrency;
  } else {
    // Leases without Redis are counted per serving thread: each takes its share of the key's leases.
    limiter = createLocalLimiter();
    take = (id) => store.takeToken(id, rateLimit);
    max = keyConcurrency > 0 ? concurrencyShare(keyConcurrency, share) : 0;
  }
  return {
    rateLimit, keyConcurrency, take,
    lease: (id) => limiter.lease(String(id), max, leaseTtlMs),
    close: () => limiter.close(),
  };
}

/** The limits a ServerConfig asks for (`workers` serving threads of `instances` processes). */
export function keyLimitsFor(config: ServerConfig, store: Store, logger: Logger, metrics: Metrics): KeyLimits {
  return createKeyLimits({
    store, rateLimit: config.rateLimit, keyConcurrency: config.keyConcurrency, leaseTtlMs: config.holdTtlMs,
    redisUrl: config.redisUrl, redisTimeoutMs: config.redisTimeoutMs, share: config.instances * config.workers, logger, metrics,
  });
}
