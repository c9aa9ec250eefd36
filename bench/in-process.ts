// The server's router in this process, no sockets, on a fresh SQLite store with one key and limits out of
// the way: what the in-process benchmarks (bench:http, bench:snapshot-parse) time the route on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { resolveConfig } from '../src/server/config.ts';
import { buildRouter } from '../src/server/server.ts';
import { createLogger } from '../src/server/logger.ts';
import type { HttpRequest } from '../src/server/http.ts';
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';

export async function inProcessRouter() {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-bench-'));
  const config = resolveConfig({ 'data-dir': dir, 'rate-limit': '1000000000', 'rate-burst': '1000000000' });
  const store = openSqliteStore(dir);
  const { key } = await store.createKey(1_000_000_000, true);
  const { router } = await buildRouter(config, store, createLogger('warn'), 'bench', 0);
  const ranker = new Ranker(await loadWasmCore(), { limitCap: config.limitCap });
  /** A POST /v1/snapshot request as the HTTP layer hands it to the router. */
  const snapshot = (body: Buffer, contentType = 'application/json'): HttpRequest => ({ method: 'POST', path: '/v1/snapshot', query: '', host: 'localhost', authorization: `Bearer ${key}`, contentType, requestId: 'bench', remoteAddress: '127.0.0.1', body } as HttpRequest);
  const close = async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); };
  return { router, ranker, key, snapshot, close };
}
