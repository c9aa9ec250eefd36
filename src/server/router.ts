// Routing, deadlines, error bodies and the access log: everything between a transport and a route.
import type { Logger } from 'pino';
import { SightlineError } from '../schema/errors.ts';
import type { Store } from '../store/store.ts';
import { errorReply, asSightlineError, compressReply } from './reply.ts';
import type { HttpRequest, Reply, Route } from './http.ts';
import type { Metrics } from './metrics.ts';
import { authenticate } from './auth.ts';
import { checkIdempotencyKey, idempotent, type IdempotencyDeps } from './idempotency.ts';

export type { Route } from './http.ts';
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
  /** Routes (as `POST /v1/snapshot`) that honour Idempotency-Key, and how. */
  idempotency?: IdempotencyDeps & { routes: string[] };
}

export interface Router {
  handle(req: IncomingRequest): Promise<Reply>;
  /** A reply for a request the transport refused itself (413, 408, shutting down). */
  refuse(req: IncomingRequest, err: SightlineError): Reply;
}

/** Observe has its own SPEC error body; everything else answers like snapshot. */
const shapeOf = (path: string) => (path.startsWith('/v1/observe') ? 'observe' : 'snapshot');

export function createRouter({ routes, store, logger, deadlineMs, metrics, idempotency }: RouterDeps): Router {
  const idempotentRoutes = new Set(idempotency?.routes ?? []);
  const paths = new Map<string, string[]>();
  for (const key of Object.keys(routes)) {
    const [method, path] = key.split(' ');
    paths.set(path, [...(paths.get(path) ?? []), method]);
  }
  const prefixes = [...paths.keys()].filter((p) => p.endsWith('/*')).map((p) => p.slice(0, -1));
  /** The route pattern a path falls under: itself, or the `/*` pattern whose prefix it starts with. */
  const patternOf = (path: string) => paths.has(path) ? path : (prefixes.find((p) => path.startsWith(p) && path.length > p.length) ?? '') + '*';

  /** The reply as sent: its request id, compressed when the client accepts it (reply.ts), logged. */
  function finish(req: IncomingRequest, answer: Reply, started: number, err?: unknown): Reply {
    const reply = compressReply({ ...answer, headers: { ...answer.headers, 'x-request-id': req.requestId } }, req.acceptEncoding);
    const entry = {
      req_id: req.requestId, method: req.method, path: req.path, status: reply.status,
      ms: Math.round((performance.now() - started) * 100) / 100, bytes_in: req.body.length, encoding: req.contentEncoding, encoding_out: reply.headers?.['content-encoding'],
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

  async function errorFor(req: IncomingRequest, thrown: unknown): Promise<Reply> {
    const err = asSightlineError(thrown);
    let credits: number | undefined;
    if (req.account) {
      try { credits = (await store.balance(req.account.id)).available; } catch { /* the store failed: the error says enough */ }
    }
    return errorReply(err, credits, shapeOf(req.path));
  }

  /**
   * Runs a route against the deadline. At the deadline the route is told (its signal aborts with reason
   * `deadline`) and its credit hold released before the 504 is answered, so a 504 is never charged; if
   * the hold had just been posted, the work is done and its answer is given instead.
   */
  async function run(route: Route, req: HttpRequest, controller: AbortController): Promise<Reply> {
    const result = Promise.resolve().then(() => route(req));
    result.catch(() => { /* awaited below, or abandoned at the deadline */ }).finally(() => {
      // The work has ended (answered or not): its concurrency lease, if any, goes back. A lease that
      // cannot be given back expires at its TTL.
      req.releaseLease?.().catch(() => {});
    });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'deadline'>((resolve) => { timer = setTimeout(() => resolve('deadline'), deadlineMs); });
    try {
      const first = await Promise.race([result, expired]);
      if (first !== 'deadline') return first;
      controller.abort('deadline');
      if (req.releaseHold && await req.releaseHold('deadline') === 'posted') return await result;
      throw new SightlineError('timeout', `Request timed out after ${deadlineMs} ms`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The route's reply, or the error reply for what it threw (with the error, for the log). */
  async function answer(route: Route, req: HttpRequest, controller: AbortController): Promise<{ reply: Reply; err?: unknown }> {
    try {
      return { reply: await run(route, req, controller) };
    } catch (err) {
      return { reply: await errorFor(req, err), err };
    }
  }

  return {
    async handle(incoming) {
      const started = performance.now();
      const controller = new AbortController();
      const req: HttpRequest = { ...incoming, signal: controller.signal };
      const onClientClosed = () => controller.abort('client_closed');
      incoming.clientClosed?.addEventListener('abort', onClientClosed, { once: true });
      const pattern = patternOf(req.path);
      const routeKey = `${req.method} ${pattern}`;
      const route = routes[routeKey];
      try {
        if (!route) {
          const allowed = paths.get(pattern);
          if (!allowed) throw new SightlineError('not_found', `No route ${req.method} ${req.path}`);
          const err = new SightlineError('method_not_allowed', `${req.path} accepts ${allowed.join(', ')}, not ${req.method}`);
          const reply = errorReply(err, undefined, shapeOf(req.path));
          return finish(req, { ...reply, headers: { ...reply.headers, allow: allowed.join(', ') } }, started);
        }
        if (idempotency && idempotentRoutes.has(routeKey) && req.idempotencyKey !== undefined) {
          const key = checkIdempotencyKey(req.idempotencyKey);
          const account = await authenticate(store, req);
          let routeErr: unknown;
          const reply = await idempotent(idempotency, req, account.id, key, async () => {
            const { reply, err } = await answer(route, req, controller);
            routeErr = err;
            return reply;
          });
          return finish(req, reply, started, routeErr);
        }
        const { reply, err } = await answer(route, req, controller);
        return finish(req, reply, started, err);
      } catch (err) {
        return finish(req, await errorFor(req, err), started, err);
      } finally {
        incoming.clientClosed?.removeEventListener('abort', onClientClosed);
      }
    },
    refuse(req, err) {
      // Refused before the route ran: no key was looked up, so there is no balance to report.
      return finish(req, errorReply(err, undefined, shapeOf(req.path)), performance.now());
    },
  };
}
