// Cached reads (options.max_age_s; docs/decisions.md, "Cached reads"): observe read results, and map
// results without a goal, kept in the configured store (SQLite or the Postgres every instance shares),
// a large one's JSON in the blob store beside screenshots (files or S3). The key is the request's page
// and every option that shapes the result, never the caller: a page read without credentials is the
// same for everyone. Requests with cookies, headers or storage state are never read from or written to
// the cache (the route decides). Entries live CACHE_MAX_AGE_S; the store's sweep drops them.
import { createHash } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { ScreenshotStore } from './screenshots.ts';

/** The oldest result a request may ask for, and how long entries are kept. */
export const CACHE_MAX_AGE_S = 86_400;
/** Results larger than this go to the blob store; the row keeps the reference. */
export const CACHE_INLINE_MAX_BYTES = 64 * 1024;

/** Fields of a result that belong to the request that made it, not to the page. */
const PER_REQUEST = ['credits_used', 'credits_remaining', 'cached', 'cached_at'] as const;

export interface CachedResult { result: Record<string, unknown>; storedMs: number }

export interface ObserveCache {
  get(key: string, maxAgeS: number): Promise<CachedResult | undefined>;
  /** Stores a fresh result; a failure of the store is the caller's to ignore (the answer stands). */
  put(key: string, result: object): Promise<void>;
}

/** JSON with object keys sorted and nulls left out (absent and null options mean the same). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v != null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The cache key of an observe request: mode, the URL as parsed, the format and the options that shape the
 * result. Not max_age_s; nor, for read, max_tokens: read stores the whole content and cuts each answer to
 * its budget (map stores its answer as budgeted, the budget being applied to the page's elements).
 */
export function cacheKey(mode: string, url: string, format: string, options: Record<string, unknown> = {}): string {
  const shaping = Object.fromEntries(Object.entries(options).filter(([k]) => k !== 'max_age_s' && !(mode === 'read' && k === 'max_tokens')));
  return createHash('sha256').update(canonical({ mode, url: new URL(url).href, format, options: shaping })).digest('hex');
}

export function openObserveCache(store: Store, blobs: Pick<ScreenshotStore, 'putBlob' | 'getBlob'>): ObserveCache {
  return {
    async get(key, maxAgeS) {
      const now = Date.now();
      const entry = await store.cacheGet(key, now - maxAgeS * 1000, now);
      if (!entry) return undefined;
      const json = entry.body ?? (entry.blob ? (await blobs.getBlob(entry.blob))?.toString('utf8') : undefined);
      if (json === undefined) return undefined; // its blob expired or went away: a miss
      return { result: JSON.parse(json) as Record<string, unknown>, storedMs: entry.storedMs };
    },
    async put(key, result) {
      const kept = { ...result } as Record<string, unknown>;
      for (const field of PER_REQUEST) delete kept[field];
      const json = JSON.stringify(kept);
      const storedMs = Date.now();
      const large = Buffer.byteLength(json) > CACHE_INLINE_MAX_BYTES;
      const blob = large ? await blobs.putBlob(Buffer.from(json), CACHE_MAX_AGE_S) : null;
      await store.cachePut(key, { body: large ? null : json, blob, storedMs }, storedMs + CACHE_MAX_AGE_S * 1000);
    },
  };
}
