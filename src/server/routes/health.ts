// GET /healthz: the store answers, and what is serving (HTTP backend, worker), with the browser and
// extraction pools' counters. A store that cannot be reached (Postgres down) is a 503 store_unavailable,
// so a load balancer takes the instance out; any other store failure is a 500.
import type { Store } from '../../store/store.ts';
import { json } from '../reply.ts';
import type { Route } from '../router.ts';

export function healthRoute(info: { store: Store; backend: string; worker: number; version: string; browser: () => object | null; extract: () => object }): Route {
  const started = Date.now();
  return async () => {
    await info.store.ping();
    return json(200, {
      status: 'ok', version: info.version, http: info.backend, worker: info.worker,
      uptime_s: Math.round((Date.now() - started) / 1000),
      browser: info.browser(),
      extract: info.extract(),
    });
  };
}
