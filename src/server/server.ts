// One serving unit: store + Wasm ranker + routes + a transport, listening on one port. `--workers N`
// runs N of these in worker threads (workers.ts); each opens its own connection to the shared store.
import type { Logger } from 'pino';
import { loadWasmCore } from '../rank/load-node.ts';
import { Ranker } from '../rank/ranker.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import type { ServerConfig } from './config.ts';
import { createRouter, type Router, type Routes } from './router.ts';
import { snapshotRoute } from './routes/snapshot.ts';
import { healthRoute } from './routes/health.ts';
import { observeRoute } from './routes/observe.ts';
import { createEgressGuard } from '../observe/egress.ts';
import { openApiDocument } from './openapi.ts';
import { json } from './reply.ts';
import { loadUws, serveUws, type Listening } from './uws.ts';
import { serveNodeHttp } from './node-http.ts';
import { VERSION } from './version.ts';

export interface RunningServer {
  port: number;
  backend: string;
  /** Graceful: stop accepting, finish in-flight requests, close connections and the store. */
  close(): Promise<void>;
}

export async function buildRouter(config: ServerConfig, store: Store, logger: Logger, backend: string, worker: number): Promise<Router> {
  const ranker = new Ranker(await loadWasmCore(), { limitCap: config.limitCap });
  const openapi = JSON.stringify(openApiDocument(config, VERSION));
  const routes: Routes = {
    'POST /v1/snapshot': snapshotRoute({ store, ranker, rateLimit: config.rateLimit }),
    'POST /v1/observe': observeRoute({
      store, rateLimit: config.rateLimit,
      fetch: { guard: createEgressGuard(config.egressAllow), deadlineMs: config.readTimeoutMs, maxBytes: config.maxPageBytes },
    }),
    'GET /healthz': healthRoute({ store, backend, worker, version: VERSION }),
    'GET /openapi.json': () => ({ ...json(200, null), body: openapi }),
  };
  return createRouter({ routes, store, logger, deadlineMs: config.deadlineMs });
}

export async function startServer(config: ServerConfig, logger: Logger, options: { worker?: number } = {}): Promise<RunningServer> {
  const loaded = config.http === 'uws' ? loadUws(config.allowUwsFallback) : undefined;
  const backend = loaded?.backend ?? 'node-http';
  if (backend === 'uws-fallback') logger.warn('uWebSockets.js native binary did not load: serving on its slow JavaScript fallback');
  const store = openSqliteStore(config.dataDir);
  let listening: Listening;
  try {
    const router = await buildRouter(config, store, logger, backend, options.worker ?? 0);
    const transportOptions = { host: config.host, port: config.port, maxBodyBytes: config.maxBodyBytes, bodyTimeoutMs: config.bodyTimeoutMs };
    listening = loaded ? await serveUws(loaded.uws, transportOptions, router) : await serveNodeHttp(transportOptions, router);
  } catch (err) {
    store.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    port: listening.port,
    backend,
    close() {
      closing ??= listening.close(config.shutdownGraceMs).finally(() => store.close());
      return closing;
    },
  };
}
