// The same router on node:http. Not used to serve: it is the baseline the benchmark measures uWS
// against, with identical routes, body limits and deadlines.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { SightlineError } from '../schema/errors.ts';
import type { IncomingRequest, Router } from './router.ts';
import { REQUEST_ID_HEADER, bodyErrors, requestIdFrom } from './http.ts';
import type { Listening, TransportOptions } from './uws.ts';

function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const timer = setTimeout(() => reject(bodyErrors.tooSlow(timeoutMs)), timeoutMs);
    if (Number(req.headers['content-length']) > limit) {
      clearTimeout(timer);
      return reject(bodyErrors.tooLarge(limit));
    }
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        clearTimeout(timer);
        reject(bodyErrors.tooLarge(limit));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => { clearTimeout(timer); resolve(Buffer.concat(chunks, received)); });
    req.on('error', (err) => { clearTimeout(timer); reject(err); });
  });
}

export function serveNodeHttp(options: TransportOptions, router: Router): Promise<Listening> {
  const server = createServer({ keepAliveTimeout: 10_000 }, (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const incoming: IncomingRequest = {
      method: req.method ?? 'GET',
      path: url.split('?')[0],
      query: url.includes('?') ? url.slice(url.indexOf('?') + 1) : '',
      host: req.headers.host ?? '',
      authorization: req.headers.authorization ?? '',
      contentType: req.headers['content-type'] ?? '',
      requestId: requestIdFrom(String(req.headers[REQUEST_ID_HEADER] ?? ''), randomUUID),
      body: Buffer.alloc(0),
    };
    readBody(req, options.maxBodyBytes, options.bodyTimeoutMs)
      .then((body) => { incoming.body = body; return router.handle(incoming); },
        (err) => err instanceof SightlineError ? router.refuse(incoming, err) : undefined)
      .then((reply) => {
        if (!reply || res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': reply.contentType, ...reply.headers });
        res.end(reply.body);
      });
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
