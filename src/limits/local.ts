// In-process limits: GCRA buckets and lease counts in Maps. The Redis limiter's fallback, and the
// leases of a server without Redis (each serving thread counts its own).
import { randomUUID } from 'node:crypto';
import { gcra, type Lease, type Limiter, type RateLimit } from './limiter.ts';

/** Past this many buckets, full ones (tat in the past: the same as no bucket) are dropped. */
const PRUNE_AT = 10_000;

export function createLocalLimiter(): Limiter {
  const buckets = new Map<string, number>();
  const leases = new Map<string, Map<string, number>>();

  const prune = (now: number) => {
    if (buckets.size > PRUNE_AT) for (const [key, tat] of buckets) if (tat <= now) buckets.delete(key);
    if (leases.size > PRUNE_AT) for (const [key, held] of leases) if (held.size === 0) leases.delete(key);
  };

  return {
    async take(key: string, limit: RateLimit, now = Date.now()) {
      const { wait, tat } = gcra(buckets.get(key), limit, now);
      if (wait === 0) buckets.set(key, tat);
      prune(now);
      return wait;
    },
    async lease(key: string, max: number, ttlMs: number, now = Date.now()): Promise<Lease | null> {
      prune(now);
      let held = leases.get(key);
      if (!held) leases.set(key, held = new Map());
      for (const [id, expires] of held) if (expires <= now) held.delete(id);
      if (held.size >= max) return null;
      const id = randomUUID();
      held.set(id, now + ttlMs);
      const mine = held;
      return { release: async () => { mine.delete(id); } };
    },
    async close() {
      buckets.clear();
      leases.clear();
    },
  };
}
