// Prometheus metrics (prom-client), all defined here and fed from the places that already log: the
// router's access log line (requests, latency, body sizes, refusals), the credit reserve and refund of
// each paid route, observe's modes, the egress guard, read-mode extraction and ranking. Gauges for the
// browser and extraction pools are read from their counters when /metrics is scraped. One registry per
// serving unit; with `--workers N` the supervisor sums every worker's registry (workers.ts).
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { SightlineError } from '../schema/errors.ts';
import type { PoolStats } from '../observe/browser/browser-pool.ts';
import type { ExtractStats } from '../observe/worker/extract-pool.ts';
import type { Route } from './http.ts';

export const METRICS_PATH = '/metrics';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds: from a snapshot's milliseconds to a slow precision load near the deadline. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds spent in the core or an extraction thread (mostly well under a second). */
const WORK_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Bytes: an empty GET to a 32 MiB snapshot body. */
const SIZE_BUCKETS = [0, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216, 33_554_432];

export interface RequestSample {
  /** The route pattern (`/v1/snapshot`, `/v1/screenshots/*`), or `unmatched`: never the raw path. */
  route: string;
  method: string;
  status: number;
  /** The error_code of an error answer, '' for a success. */
  errorCode: string;
  seconds: number;
  bytesIn: number;
  bytesOut: number;
}

export type PaidRoute = 'snapshot' | 'observe';

export interface Metrics {
  registry: Registry;
  request(sample: RequestSample): void;
  /** One observe request's work, by mode and engine (read: `fetch` or `browser`), and how it ended. */
  observe(mode: string, engine: string, outcome: string, seconds: number): void;
  charged(route: PaidRoute, credits: number): void;
  refunded(route: PaidRoute, credits: number): void;
  egressRefused(reason: string): void;
  extraction(seconds: number): void;
  ranking(route: PaidRoute, seconds: number): void;
  /** A cached read (options.max_age_s) found a stored result (hit) or did the work (miss). */
  cache(mode: string, hit: boolean): void;
  /** Per-key limits moved to the in-process fallback (true) or back to Redis (false). */
  limitsFallback(active: boolean): void;
  /** Pool counters to read at each scrape (the browser pool exists once a page needed it). */
  watchPools(browser: () => (PoolStats & { crashes: number }) | null, extract: () => ExtractStats): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const counter = <L extends string>(name: string, help: string, labelNames: L[] = []) => new Counter({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: L[] = []) =>
    new Histogram({ name, help, buckets, labelNames, registers: [registry] });

  const requests = counter('sightline_http_requests_total', 'HTTP requests answered, by route pattern, method, status and error_code', ['route', 'method', 'status', 'error_code']);
  const latency = histogram('sightline_http_request_duration_seconds', 'Time from a request\'s body to its answer, by route pattern', LATENCY_BUCKETS, ['route']);
  const bodyIn = histogram('sightline_http_request_body_bytes', 'Request body sizes, by route pattern', SIZE_BUCKETS, ['route']);
  const bodyOut = histogram('sightline_http_response_body_bytes', 'Response body sizes, by route pattern', SIZE_BUCKETS, ['route']);
  const rateLimited = counter('sightline_rate_limited_total', 'Requests refused 429 by a key\'s rate limit, by route pattern', ['route']);
  const observeTime = histogram('sightline_observe_duration_seconds', 'Observe requests by mode, engine and outcome (ok or the error_code)', LATENCY_BUCKETS, ['mode', 'engine', 'outcome']);
  const charged = counter('sightline_credits_charged_total', 'Credits reserved by paid requests (refunds are counted apart)', ['route']);
  const refunded = counter('sightline_credits_refunded_total', 'Credits given back: failed work, or a request answered at its deadline', ['route']);
  const egress = counter('sightline_egress_refusals_total', 'Outbound connections the egress guard refused, by reason', ['reason']);
  const extraction = histogram('sightline_extraction_duration_seconds', 'Read mode: time in an extraction thread per page, queue wait included', WORK_BUCKETS);
  const fallback = new Gauge({ name: 'sightline_limits_fallback', help: 'Whether per-key limits are decided in process because Redis is away (1) or in Redis / the store (0)', registers: [registry] });
  fallback.set(0);
  const fallbacks = counter('sightline_limits_fallbacks_total', 'Times per-key limits fell back from Redis to in-process limits (the circuit breaker opened)');
  const ranking = histogram('sightline_ranking_duration_seconds', 'Time in the rank core per request (encode, rank, decode)', WORK_BUCKETS, ['route']);
  const cache = counter('sightline_observe_cache_total', 'Observe requests with options.max_age_s, by mode and result (hit: a stored result answered; miss: the page was loaded and stored)', ['mode', 'result']);
  const cacheCounts = { hit: 0, miss: 0 };
  new Gauge({
    name: 'sightline_observe_cache_hit_ratio', help: 'Share of cache-eligible observe requests answered from the cache since start (with --workers, the workers\' average; the counters above are exact)',
    registers: [registry], aggregator: 'average',
    collect() { const all = cacheCounts.hit + cacheCounts.miss; this.set(all ? cacheCounts.hit / all : 0); },
  });

  let browser: () => (PoolStats & { crashes: number }) | null = () => null;
  let extract: () => ExtractStats | null = () => null;
  const gauge = (name: string, help: string, read: () => number | undefined) => new Gauge({
    name, help, registers: [registry],
    collect() { const v = read(); if (v !== undefined) this.set(v); },
  });
  gauge('sightline_browser_pages_open', 'Browser pages rendering now', () => browser()?.open ?? 0);
  gauge('sightline_browser_queued', 'Requests waiting for a browser page', () => browser()?.queued ?? 0);
  gauge('sightline_browser_contexts', 'Browser contexts open (one per request)', () => browser()?.contexts ?? 0);
  // The pool keeps running totals; they are counters to Prometheus (rate() works on them).
  const running = (name: string, help: string, read: () => number | undefined) => {
    let seen = 0;
    return new Counter({
      name, help, registers: [registry],
      collect() { const v = read() ?? seen; if (v > seen) { this.inc(v - seen); seen = v; } },
    });
  };
  running('sightline_browser_launches_total', 'Chromium launches (the first, and each relaunch after a crash)', () => browser()?.launches);
  running('sightline_browser_crashes_total', 'Browsers that disconnected while the pool was open', () => browser()?.crashes);
  gauge('sightline_extract_workers', 'Read-mode extraction processes', () => extract()?.workers);
  gauge('sightline_extract_busy', 'Extraction processes working on a page', () => extract()?.busy);
  gauge('sightline_extract_queued', 'Pages waiting for an extraction process', () => extract()?.queued);
  gauge('sightline_extract_memory_bytes', 'Resident memory of the extraction processes, summed', () => extract()?.memoryBytes);
  running('sightline_extract_replaced_total', 'Extraction processes replaced (a page over its time or memory, a cancelled page, or a process that died)', () => extract()?.replaced);
  running('sightline_extract_recycled_total', 'Extraction processes recycled after a page left them above half their memory limit', () => extract()?.recycled);
  running('sightline_extract_memory_killed_total', 'Extraction processes killed for passing their memory limit on a page', () => extract()?.memoryKilled);

  return {
    registry,
    request(s) {
      const status = String(s.status);
      // A client picks the method: only the standard ones become label values.
      const method = METHODS.has(s.method) ? s.method : 'other';
      requests.inc({ route: s.route, method, status, error_code: s.errorCode });
      latency.observe({ route: s.route }, s.seconds);
      bodyIn.observe({ route: s.route }, s.bytesIn);
      bodyOut.observe({ route: s.route }, s.bytesOut);
      if (s.errorCode === 'rate_limited') rateLimited.inc({ route: s.route });
    },
    observe: (mode, engine, outcome, seconds) => observeTime.observe({ mode, engine, outcome }, seconds),
    charged: (route, credits) => charged.inc({ route }, credits),
    refunded: (route, credits) => refunded.inc({ route }, credits),
    egressRefused: (reason) => egress.inc({ reason }),
    extraction: (seconds) => extraction.observe(seconds),
    ranking: (route, seconds) => ranking.observe({ route }, seconds),
    cache(mode, hit) {
      cache.inc({ mode, result: hit ? 'hit' : 'miss' });
      cacheCounts[hit ? 'hit' : 'miss']++;
    },
    limitsFallback(active) {
      fallback.set(active ? 1 : 0);
      if (active) fallbacks.inc();
    },
    watchPools(b, e) { browser = b; extract = e; },
  };
}

export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];

/** Every worker's registry summed into one exposition (counters and histograms add; so do the pool
 *  gauges, each worker having its own pools). */
export async function aggregateText(snapshots: MetricsSnapshot[]): Promise<{ text: string; contentType: string }> {
  const merged = AggregatorRegistry.aggregate(snapshots as Parameters<typeof AggregatorRegistry.aggregate>[0]);
  return { text: await merged.metrics(), contentType: merged.contentType };
}

const isLoopback = (address: string) => {
  const ip = address.replace(/^::ffff:/i, '');
  return isIP(ip) === 4 ? ip.startsWith('127.') : ip === '::1';
};

/**
 * GET /metrics. With a token (`--metrics-token`), only `Authorization: Bearer <token>`; without one,
 * only callers on loopback (a reverse proxy on the same host is loopback too: set a token there).
 * `gather` gives the text to serve: this unit's registry, or every worker's summed.
 */
export function metricsRoute(token: string, gather: () => Promise<{ text: string; contentType: string }>): Route {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (req) => {
    if (token) {
      const given = Buffer.from(req.authorization.trim());
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new SightlineError('unauthorized', 'Metrics need "Authorization: Bearer <metrics token>" (the --metrics-token setting)');
      }
    } else if (!isLoopback(req.remoteAddress)) {
      throw new SightlineError('forbidden', 'Metrics answer only on loopback unless --metrics-token is set');
    }
    const { text, contentType } = await gather();
    return { status: 200, body: text, contentType, headers: { 'cache-control': 'no-store' } };
  };
}
