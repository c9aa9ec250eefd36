// The same router on node:http. Not used to serve: it is the baseline the benchmark measures uWS
// against, with identical routes, body limits and deadlines.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { SightlineError, badRequest } from '../schema/errors.ts';
import type { IncomingRequest, Router } from './router.ts';
import { REQUEST_ID_HEADER, IDEMPOTENCY_KEY_HEADER, MCP_HEADERS, bodyErrors, framingError, requestIdFrom, statusLine, type Reply } from './http.ts';
import type { Listening, TransportOptions } from './uws.ts';
import { RequestBody, codingOf } from './body.ts';

/** Feeds node's body chunks to `body` (body.ts decodes and caps them) under the body timeout. */
function readBody(req: IncomingMessage, body: RequestBody, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => settle(() => { body.destroy(); reject(bodyErrors.tooSlow(timeoutMs)); }), timeoutMs);
    // Refused (413, 400): nothing more is read; the answer closes the connection (reply.ts).
    body.result.then((bytes) => settle(() => resolve(bytes)), (err) => settle(() => { req.pause(); reject(err); }));
    req.on('data', (chunk: Buffer) => body.write(chunk, false));
    req.on('end', () => body.end());
    req.on('error', (err) => settle(() => { body.destroy(); reject(err); }));
  });
}

function send(res: ServerResponse, reply: Reply, close = false): void {
  if (res.destroyed) return;
  res.writeHead(reply.status, {
    'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body), ...reply.headers, ...(close ? { connection: 'close' } : {}),
  });
  res.end(reply.body);
}

/** A request that never reached the handler. */
const unparsed = (): IncomingRequest => ({ method: '', path: '', query: '', host: '', authorization: '', contentType: '', requestId: randomUUID(), remoteAddress: '', body: Buffer.alloc(0) });

export function serveNodeHttp(options: TransportOptions, router: Router): Promise<Listening> {
  // Sockets whose request we refused: llhttp may still report the same framing error afterwards.
  const refused = new WeakSet<object>();
  // Host is checked in framingError, so a missing one gets the SPEC error body too.
  const server = createServer({ keepAliveTimeout: 10_000, requireHostHeader: false }, (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const incoming: IncomingRequest = {
      method: req.method ?? 'GET',
      path: url.split('?')[0],
      query: url.includes('?') ? url.slice(url.indexOf('?') + 1) : '',
      host: req.headers.host ?? '',
      authorization: req.headers.authorization ?? '',
      contentType: req.headers['content-type'] ?? '',
      acceptEncoding: req.headers['accept-encoding'] ?? '',
      requestId: requestIdFrom(String(req.headers[REQUEST_ID_HEADER] ?? ''), randomUUID),
      remoteAddress: req.socket.remoteAddress ?? '',
      // Latin-1: one character per byte, as it came; repeated fields joined with ", ".
      idempotencyKey: req.headers[IDEMPOTENCY_KEY_HEADER] as string | undefined,
      mcpHeaders: Object.fromEntries(MCP_HEADERS.map((h) => [h, String(req.headers[h] ?? '')])),
      body: Buffer.alloc(0),
    };
    const closed = new AbortController();
    incoming.clientClosed = closed.signal;
    res.once('close', () => { if (!res.writableFinished) closed.abort(); });
    const raw = req.rawHeaders;
    const framing = framingError((visit) => { for (let i = 0; i < raw.length; i += 2) visit(raw[i].toLowerCase(), raw[i + 1]); },
      incoming.method.length + url.length + 12, req.httpVersion === '1.0');
    if (framing) {
      refused.add(req.socket);
      return send(res, router.refuse(incoming, framing), true);
    }
    // An unknown coding is refused once its body is read (as it came, under the cap).
    const { coding, refusal } = codingOf(req.headers['content-encoding']);
    const body = new RequestBody(options.maxBodyBytes, coding, Number(req.headers['content-length'] ?? NaN));
    readBody(req, body, options.bodyTimeoutMs)
      .then((body) => { if (refusal) return router.refuse(incoming, refusal); incoming.body = body; incoming.contentEncoding = coding; return router.handle(incoming); },
        (err) => err instanceof SightlineError ? router.refuse(incoming, err) : undefined)
      .then((reply) => { if (reply) send(res, reply); });
  });
  // What llhttp refuses (bad framing, malformed lines, heads over 16 KiB) gets the SPEC error body
  // instead of Node's bare status line.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (refused.has(socket)) return; // answered already; the response closes the connection
    if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const refusal = err.code === 'HPE_HEADER_OVERFLOW' ? new SightlineError('headers_too_large')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new SightlineError('request_timeout')
      : badRequest(`Malformed HTTP request (${(err as { reason?: string }).reason ?? err.code})`);
    const reply = router.refuse(unparsed(), refusal);
    const headers = Object.entries(reply.headers ?? {}).filter(([name]) => name !== 'connection').map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.end(`HTTP/1.1 ${statusLine(reply.status)}\r\ncontent-type: ${reply.contentType}\r\ncontent-length: ${Buffer.byteLength(reply.body)}\r\n${headers}connection: close\r\n\r\n${reply.body}`);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : options.port,
        close: (graceMs) => new Promise<void>((done) => {
          server.close(() => done());
          server.closeIdleConnections();
          setTimeout(() => { server.closeAllConnections(); done(); }, graceMs).unref();
        }),
      });
    });
  });
}
