// The service's transport: uWebSockets.js. Request fields are read synchronously, onAborted is attached
// before anything async, body chunks are copied as they arrive, and late writes are corked
// (DESIGN "Server"). `readBody` is the only code that touches raw chunks; it hands them to body.ts.
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import type { HttpRequest as UwsRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { SightlineError } from '../schema/errors.ts';
import type { IncomingRequest, Router } from './router.ts';
import { RequestBody, codingOf } from './body.ts';
import { REQUEST_ID_HEADER, IDEMPOTENCY_KEY_HEADER, MCP_HEADERS, bodyErrors, framingError, requestIdFrom, statusLine, type Reply } from './http.ts';

type Uws = typeof import('uWebSockets.js');
const require = createRequire(import.meta.url);

export interface LoadedUws {
  uws: Uws;
  backend: 'uws-native' | 'uws-fallback';
}

/**
 * Loads the native binary directly: the package would silently fall back to a slow ws-based server,
 * which we refuse unless explicitly allowed.
 */
export function loadUws(allowFallback = false): LoadedUws {
  const binary = `uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  try {
    return { uws: require(binary) as Uws, backend: 'uws-native' };
  } catch (err) {
    if (!allowFallback) {
      throw new Error(`uWebSockets.js native binary did not load (${binary}: ${(err as Error).message.split('\n')[0]}). ` +
        'This build supports Node 16, 18 and 20 on glibc >= 2.36 (x64, arm64). ' +
        'To serve anyway on the slow JavaScript fallback, set SIGHTLINE_ALLOW_UWS_FALLBACK=true.');
    }
    process.env.UWS_USE_FALLBACK = 'true';
    return { uws: require('uWebSockets.js') as Uws, backend: 'uws-fallback' };
  }
}

export interface TransportOptions {
  host: string;
  port: number;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
}

export interface Listening {
  port: number;
  /** Stops accepting, lets in-flight requests finish (at most graceMs), then closes every connection. */
  close(graceMs: number): Promise<void>;
}

interface RequestState {
  aborted: boolean;
  onAbort?: () => void;
}

const EMPTY = Buffer.alloc(0);
/** Pause between the last response and closing every connection at shutdown. */
const FLUSH_MS = 50;
/** Rejection for a client that went away: nothing to answer. */
const ABORTED = Symbol('aborted');

/** Feeds uWS's body chunks to `body` (body.ts decodes and caps them) under the body timeout. */
function readBody(res: HttpResponse, state: RequestState, body: RequestBody, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => settle(() => { body.destroy(); reject(bodyErrors.tooSlow(timeoutMs)); }), timeoutMs);
    state.onAbort = () => settle(() => { body.destroy(); reject(ABORTED); });
    body.result.then((bytes) => settle(() => resolve(bytes)), (err) => settle(() => reject(err)));
    res.onData((chunk, isLast) => {
      if (settled) return;
      body.write(new Uint8Array(chunk), true); // copied if kept: uWS reuses the chunk's memory after this callback
      if (isLast) body.end();
    });
  });
}

function send(res: HttpResponse, state: RequestState, reply: Reply, closeConnection: boolean): void {
  if (state.aborted) return;
  res.cork(() => {
    res.writeStatus(statusLine(reply.status));
    res.writeHeader('content-type', reply.contentType);
    for (const [name, value] of Object.entries(reply.headers ?? {})) {
      if (name !== 'connection') res.writeHeader(name, value);
    }
    res.end(reply.body, closeConnection || reply.headers?.connection === 'close');
  });
}

/** Path and query. The native getUrl() is the path alone; the JS fallback's includes the query, and its
 *  getQuery() throws on a relative URL. */
function target(req: UwsRequest): { path: string; query: string } {
  const url = req.getUrl();
  const at = url.indexOf('?');
  if (at >= 0) return { path: url.slice(0, at), query: url.slice(at + 1) };
  let query = '';
  try { query = req.getQuery() ?? ''; } catch { /* fallback without a query */ }
  return { path: url, query };
}

/** The peer's address as text; '' where the JS fallback cannot say (then /metrics needs its token). */
function remoteAddress(res: HttpResponse): string {
  try {
    const raw = res.getRemoteAddressAsText() as ArrayBuffer | string | undefined;
    return typeof raw === 'string' ? raw : raw ? Buffer.from(raw).toString() : '';
  } catch {
    return '';
  }
}

export function serveUws({ uws, backend }: LoadedUws, options: TransportOptions, router: Router): Promise<Listening> {
  // The JS fallback runs on node:http, whose parser enforces the framing rules itself (and it has no forEach).
  const checkFraming = backend === 'uws-native';
  const app: TemplatedApp & { close(): void } = uws.App() as TemplatedApp & { close(): void };
  let inflight = 0;
  let draining = false;
  let drained: (() => void) | undefined;

  app.any('/*', (res, req) => {
    const { path, query } = target(req);
    const incoming: IncomingRequest = {
      method: req.getMethod().toUpperCase(),
      path,
      query,
      host: req.getHeader('host'),
      authorization: req.getHeader('authorization'),
      contentType: req.getHeader('content-type'),
      acceptEncoding: req.getHeader('accept-encoding'),
      requestId: requestIdFrom(req.getHeader(REQUEST_ID_HEADER), randomUUID),
      remoteAddress: remoteAddress(res),
      mcpHeaders: Object.fromEntries(MCP_HEADERS.map((h) => [h, req.getHeader(h)])),
      body: EMPTY,
    };
    const lengthHeader = req.getHeader('content-length');
    const encodingHeader = req.getHeader('content-encoding');
    const state: RequestState = { aborted: false };
    const closed = new AbortController();
    incoming.clientClosed = closed.signal;
    res.onAborted(() => {
      state.aborted = true;
      state.onAbort?.();
      closed.abort();
    });
    // getHeader cannot tell an empty Idempotency-Key from none, nor see a second one: the one walk over
    // the fields that framing makes anyway collects it (the fallback, which has no forEach, reads it).
    let idempotencyKey: string | undefined;
    const framing = checkFraming ? framingError((visit) => req.forEach((name, value) => {
      if (name === IDEMPOTENCY_KEY_HEADER) idempotencyKey = idempotencyKey === undefined ? value : `${idempotencyKey}, ${value}`;
      visit(name, value);
    }), incoming.method.length + path.length + query.length + 12) : undefined;
    incoming.idempotencyKey = checkFraming ? idempotencyKey : req.getHeader(IDEMPOTENCY_KEY_HEADER) || undefined;
    if (framing) {
      // Answered after uWS has parsed the rest of this read: while this request is unanswered, uWS
      // closes the connection if it finds another request behind it, which is then never handed to
      // us (answered now, uWS would hand it over as the next request).
      setImmediate(() => send(res, state, router.refuse(incoming, framing), true));
      return;
    }
    if (draining) {
      send(res, state, router.refuse(incoming, new SightlineError('busy', 'Server is shutting down')), true);
      return;
    }
    // An unknown coding is refused once its body is read (as it came, under the cap), so the
    // connection stays usable.
    const { coding, refusal } = codingOf(encodingHeader);
    const body = new RequestBody(options.maxBodyBytes, coding, lengthHeader ? Number(lengthHeader) : NaN);
    inflight++;
    readBody(res, state, body, options.bodyTimeoutMs)
      .then((body) => { if (refusal) return router.refuse(incoming, refusal); incoming.body = body; incoming.contentEncoding = coding; return router.handle(incoming); },
        (err) => err === ABORTED ? undefined : router.refuse(incoming, err as SightlineError))
      .then((reply) => { if (reply) send(res, state, reply, draining); })
      .finally(() => {
        inflight--;
        if (draining && inflight === 0) drained?.();
      });
  });

  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error(`cannot listen on ${options.host}:${options.port} (address in use or not available)`));
      resolve({
        port: uws.us_socket_local_port(socket as never),
        async close(graceMs) {
          draining = true;
          uws.us_listen_socket_close(socket);
          if (inflight > 0) {
            await new Promise<void>((done) => {
              drained = done;
              setTimeout(done, graceMs).unref();
            });
            // Let the loop flush the last responses before every socket is closed.
            await new Promise((flushed) => setTimeout(flushed, FLUSH_MS));
          }
          app.close();
        },
      });
    });
  });
}
