// One serving unit: store + Wasm ranker + routes + a transport, listening on one port. `--workers N`
// runs N of these in worker threads (workers.ts); each opens its own connection to the shared store.
import type { Logger } from 'pino';
import { loadWasmCore } from '../rank/load-node.ts';
import { Ranker } from '../rank/ranker.ts';
import { openStore } from '../store/open.ts';
import type { Store } from '../store/store.ts';
import type { ServerConfig } from './config.ts';
import { createRouter, type Router, type Routes } from './router.ts';
import { snapshotRoute } from './routes/snapshot.ts';
import { healthRoute } from './routes/health.ts';
import { usageRoute } from './routes/usage.ts';
import { observeRoute } from './routes/observe.ts';
import { createEgressGuard, EgressError, type EgressGuard } from '../observe/egress/egress.ts';
import { createMetrics, metricsRoute, METRICS_PATH, type Metrics } from './metrics.ts';
import { pageRoutes } from './pages.ts';
import { AlternatingBrowsers, BrowserPool, CHROMIUM_FLAGS, type PageRunner } from '../observe/browser/browser-pool.ts';
import { renderChromium } from '../observe/browser/render-chromium.ts';
import { BrowserFleet } from '../observe/browser/browser-fleet.ts';
import { mcpRoute } from './routes/mcp.ts';
import { ExtractPool, defaultExtractWorkers } from '../observe/worker/extract-pool.ts';
import { startEgressProxy, logBlocked, type EgressProxy } from '../observe/egress/egress-proxy.ts';
import { openApiDocument } from './openapi.ts';
import { openScreenshotStore, SCREENSHOT_PATH } from './screenshots.ts';
import { openObserveCache } from './observe-cache.ts';
import { MAP_MAX_LIMIT } from '../schema/observe.ts';
import { json } from './reply.ts';
import { loadUws, serveUws, type Listening } from './uws.ts';
import { serveNodeHttp } from './node-http.ts';
import { VERSION } from './version.ts';
import { startSweeper } from './holds.ts';
import { keyLimitsFor } from './limits.ts';

export interface RunningServer {
  port: number;
  backend: string;
  /** This unit's metrics (a serving worker hands them to the supervisor, which sums them). */
  metrics?: Metrics;
  /** Graceful: stop accepting, finish in-flight requests, close connections and the store. */
  close(): Promise<void>;
}

export interface Built { router: Router; metrics: Metrics; /** `METHOD /path` of every route. */ routes: string[]; dispose(): Promise<void> }

/** What GET /metrics serves: this unit's registry, or (in a worker) every worker's, summed. */
export type GatherMetrics = () => Promise<{ text: string; contentType: string }>;

/** The guard with each refusal counted by its reason. A name that does not resolve is not a refusal
 *  (the page is unreachable, and the browser's own background lookups land there too). */
function countedGuard(guard: EgressGuard, metrics: Metrics): EgressGuard {
  const count = (err: unknown): never => {
    if (err instanceof EgressError && err.reason !== 'unresolvable') metrics.egressRefused(err.reason);
    throw err;
  };
  return { refuse: guard.refuse, resolve: (host) => guard.resolve(host).catch(count), check: (raw) => guard.check(raw).catch(count) };
}

/**
 * The browser, started the first time a page needs rendering: Chromium launched here behind our egress
 * proxy, or the browser hosts of --browser-ws (each fenced by its own proxy).
 */
function lazyBrowser(config: ServerConfig, guard: EgressGuard, logger: Logger) {
  // The egress proxy, started when the local pool or an MCP session first needs it.
  let proxyStarted: Promise<EgressProxy> | undefined;
  const proxy = () => (proxyStarted ??= startEgressProxy(guard, logBlocked(logger)));
  let started: Promise<PageRunner> | undefined;
  let poolRef: PageRunner | undefined;
  const start = async (): Promise<PageRunner> => {
    if (config.browserWs.length) {
      return new BrowserFleet({ endpoints: config.browserWs, token: config.browserToken, size: config.browserPages, maxQueue: config.browserQueue,
        spares: config.mapSpares, closeBeforeAnswer: config.mapPath === 'legacy', log: (event, fields) => logger.warn(fields, event) });
    }
    const options = { executablePath: renderChromium(config.renderChromium, config.chromium), proxyUrl: (await proxy()).url, size: config.browserPages, maxQueue: config.browserQueue, closeBeforeAnswer: config.mapPath === 'legacy', spares: config.mapSpares };
    // One browser per page slot at most: a second browser for one slot would only wait for it.
    const browsers = Math.min(config.mapBrowsers, config.browserPages);
    return browsers > 1 && config.mapPath !== 'legacy' ? new AlternatingBrowsers(options, browsers) : new BrowserPool(options);
  };
  return {
    /** The egress proxy's URL, for MCP sessions' own browsers (the pool costs nothing until used). */
    proxyUrl: async () => (await proxy()).url,
    get: async () => {
      started ??= start();
      poolRef = await started;
      return poolRef;
    },
    /** Pool counters once it has started (health checks and tests watch for leaked contexts). */
    stats: () => poolRef?.stats() ?? null,
    async dispose() {
      if (started) await (await started).close();
      if (proxyStarted) await (await proxyStarted).close();
    },
  };
}

export async function buildRouter(config: ServerConfig, store: Store, logger: Logger, backend: string, worker: number, gather?: GatherMetrics): Promise<Built> {
  const metrics = createMetrics();
  const core = await loadWasmCore();
  const ranker = new Ranker(core, { limitCap: config.limitCap });
  const screenshots = await openScreenshotStore(config);
  const guard = countedGuard(createEgressGuard(config.egressAllow), metrics);
  const browser = lazyBrowser(config, guard, logger);
  // Warm from the start: read mode's first request should not pay for loading linkedom in a thread.
  const extract = new ExtractPool({
    size: config.extractWorkers || defaultExtractWorkers(config.workers), maxQueue: config.extractQueue,
    timeoutMs: config.extractTimeoutMs, maxNodes: config.extractMaxNodes,
    maxMemoryBytes: config.extractMemoryMb * 1024 * 1024, maxDecodedBytes: 8 * config.maxPageBytes,
  });
  const limits = keyLimitsFor(config, store, logger, metrics);
  const mcp = mcpRoute({
    store, limits, holdTtlMs: config.holdTtlMs, chromium: config.chromium,
    proxy: { url: browser.proxyUrl, flags: CHROMIUM_FLAGS },
    checkUrl: async (url) => { try { await guard.check(url); } catch (err) { throw err instanceof EgressError ? new Error(`navigation refused: ${err.message}`) : err; } },
    idleMs: config.mcpIdleS * 1000, maxSessions: config.mcpSessions, maxSessionsPerKey: config.mcpSessionsPerKey, version: VERSION,
  });
  const openapi = JSON.stringify(openApiDocument(config, VERSION));
  const routes: Routes = {
    'POST /v1/snapshot': snapshotRoute({ store, ranker, limits, holdTtlMs: config.holdTtlMs, metrics }),
    'POST /v1/observe': observeRoute({
      store, limits, holdTtlMs: config.holdTtlMs, browser: browser.get, extract,
      ranker: new Ranker(core, { limitCap: MAP_MAX_LIMIT }), screenshots, publicUrl: config.publicUrl, metrics, mapPath: config.mapPath,
      cache: openObserveCache(store, screenshots),
      fetch: { guard, deadlineMs: config.pageTimeoutMs, maxBytes: config.maxPageBytes },
    }),
    'POST /mcp': mcp.route,
    'DELETE /mcp': mcp.route,
    'GET /v1/usage': usageRoute({ store, limits }),
    [`GET ${SCREENSHOT_PATH}*`]: screenshots.route,
    'GET /healthz': healthRoute({ store, backend, worker, version: VERSION, browser: browser.stats, extract: () => extract.stats() }),
    'GET /openapi.json': () => ({ ...json(200, null), body: openapi }),
    [`GET ${METRICS_PATH}`]: metricsRoute(config.metricsToken, gather ?? (async () => ({ text: await metrics.registry.metrics(), contentType: metrics.registry.contentType }))),
    ...pageRoutes({ publicUrl: config.publicUrl }),
  };
  metrics.watchPools(browser.stats, () => extract.stats());
  const idempotency = { store, lockMs: config.holdTtlMs, routes: ['POST /v1/snapshot', 'POST /v1/observe'] };
  return { router: createRouter({ routes, store, logger, deadlineMs: config.deadlineMs, metrics, idempotency }), metrics, routes: Object.keys(routes), dispose: async () => { screenshots.close(); await mcp.close(); await Promise.all([browser.dispose(), extract.close()]); } };
}

export async function startServer(config: ServerConfig, logger: Logger, options: { worker?: number; gather?: GatherMetrics } = {}): Promise<RunningServer> {
  const loaded = config.http === 'uws' ? loadUws(config.allowUwsFallback) : undefined;
  const backend = loaded?.backend ?? 'node-http';
  if (backend === 'uws-fallback') logger.warn('uWebSockets.js native binary did not load: serving on its slow JavaScript fallback');
  const store = await openStore(config);
  let listening: Listening;
  let built: Built;
  try {
    built = await buildRouter(config, store, logger, backend, options.worker ?? 0, options.gather);
    const router = built.router;
    const transportOptions = { host: config.host, port: config.port, maxBodyBytes: config.maxBodyBytes, bodyTimeoutMs: config.bodyTimeoutMs };
    listening = loaded ? await serveUws(loaded, transportOptions, router) : await serveNodeHttp(transportOptions, router);
  } catch (err) {
    await store.close();
    throw err;
  }
  // One sweeper per server: worker 0's (every worker shares the store).
  const stopSweeper = (options.worker ?? 0) === 0 ? startSweeper(store, config.sweepIntervalMs, logger) : () => {};
  let closing: Promise<void> | undefined;
  return {
    port: listening.port,
    backend,
    metrics: built.metrics,
    close() {
      stopSweeper();
      closing ??= listening.close(config.shutdownGraceMs).then(() => built.dispose()).finally(() => store.close());
      return closing;
    },
  };
}
