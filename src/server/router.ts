// Routing, deadlines, error bodies and the access log: everything between a transport and a route.
import type { Logger } from 'pino';
import { SightlineError } from '../schema/errors.ts';
import type { Store } from '../store/store.ts';
import { errorReply, asSightlineError } from './reply.ts';
import type { HttpRequest, Reply } from './http.ts';
import type { Metrics } from './metrics.ts';

export type Route = (req: HttpRequest) => Reply | Promise<Reply>;
/** Routes by method and path, e.g. `{ 'POST /v1/snapshot': snapshot }`; a path ending in `/*` takes
 *  everything under it. */
export type Routes = Record<string, Route>;

/** What a transport hands over: the request without the router's deadline signal. */
export type IncomingRequest = Omit<HttpRequest, 'signal'>;

export interface RouterDeps {
  routes: Routes;
  store: Store;
  logger: Logger;
  deadlineMs: number;
  /** Fed from the access log line: one sample per answered request. */
  metrics?: Metrics;
}

export interface Router {
  handle(req: IncomingRequest): Promise<Reply>;
  /** A reply for a request the transport refused itself (413, 408, shutting down). */
  refuse(req: IncomingRequest, err: SightlineError): Reply;
}

export function createRouter({ routes, store, logger, deadlineMs, metrics }: RouterDeps): Router {
  const paths = new Map<string, string[]>();
  for (const key of Object.keys(routes)) {
    const [method, path] = key.split(' ');
    paths.set(path, [...(paths.get(path) ?? []), method]);
  }
  const prefixes = [...paths.keys()].filter((p) => p.endsWith('/*')).map((p) => p.slice(0, -1));
  /** The route pattern a path falls under: itself, or the `/*` pattern whose prefix it starts with. */
  const patternOf = (path: string) => paths.has(path) ? path : (prefixes.find((p) => path.startsWith(p) && path.length > p.length) ?? '') + '*';

  function finish(req: IncomingRequest, reply: Reply, started: number, err?: unknown): Reply {
    reply.headers = { ...reply.headers, 'x-request-id': req.requestId };
    const entry = {
      req_id: req.requestId, method: req.method, path: req.path, status: reply.status,
      ms: Math.round((performance.now() - started) * 100) / 100, bytes_in: req.body.length,
      key: req.account?.prefix, credits_used: req.creditsUsed,
    };
    if (reply.status >= 500) logger.error({ ...entry, err }, 'request failed');
    else logger.info(entry, 'request');
    metrics?.request({
      route: paths.has(patternOf(req.path)) ? patternOf(req.path) : 'unmatched', method: req.method || 'unparsed', status: reply.status,
      errorCode: reply.errorCode ?? '', seconds: entry.ms / 1000, bytesIn: req.body.length, bytesOut: Buffer.byteLength(reply.body),
    });
    return reply;
  }

  function errorFor(req: IncomingRequest, thrown: unknown): Reply {
    const err = asSightlineError(thrown);
    let credits: number | undefined;
    if (req.account) {
      try { credits = store.balance(req.account.id); } catch { /* the store failed: the error says enough */ }
    }
    // Observe has its own SPEC error body; everything else answers like snapshot.
    return errorReply(err, credits, req.path.startsWith('/v1/observe') ? 'observe' : 'snapshot');
  }

  async function run(route: Route, req: HttpRequest, controller: AbortController): Promise<Reply> {
    const result = route(req);
    if (!(result instanceof Promise)) return result;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Settle the race first: an aborted route rejects at once, and its error must not win.
        reject(new SightlineError('timeout', `Request timed out after ${deadlineMs} ms`));
        controller.abort();
      }, deadlineMs);
    });
    try {
      return await Promise.race([result, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async handle(incoming) {
      const started = performance.now();
      const controller = new AbortController();
      const req: HttpRequest = { ...incoming, signal: controller.signal };
      const pattern = patternOf(req.path);
      const route = routes[`${req.method} ${pattern}`];
      try {
        if (!route) {
          const allowed = paths.get(pattern);
          if (!allowed) throw new SightlineError('not_found', `No route ${req.method} ${req.path}`);
          const err = new SightlineError('method_not_allowed', `${req.path} accepts ${allowed.join(', ')}, not ${req.method}`);
          return finish(req, { ...errorReply(err), headers: { allow: allowed.join(', ') } }, started);
        }
        return finish(req, await run(route, req, controller), started);
      } catch (err) {
        return finish(req, errorFor(req, err), started, err);
      }
    },
    refuse(req, err) {
      return finish(req, errorFor(req, err), performance.now());
    },
  };
}
