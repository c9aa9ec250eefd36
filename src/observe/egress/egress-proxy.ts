// The forward proxy every browser request goes through (plain HTTP and CONNECT tunnels, which carry
// HTTPS and WebSockets): each host is resolved once by the egress guard and the connection goes to
// the checked address. Chromium is started with --proxy-bypass-list=<-loopback> so even loopback
// requests come here. Refusals answer 403 and are reported to `onBlocked`.
import { createServer, request as httpRequest, type OutgoingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { EgressError, EgressGuard } from './egress.ts';

export const BLOCKED_HEADER = 'x-sightline-blocked';

export interface EgressProxy {
  url: string;
  close(): Promise<void>;
}

/** Why the proxy refused: a name that does not resolve, or an address the guard refuses. */
export type BlockedKind = 'unresolvable' | 'refused';
const kindOf = (err: Error): BlockedKind => ((err as EgressError).reason === 'unresolvable' ? 'unresolvable' : 'refused');

/**
 * The log line of a refusal. An address the guard refuses (private, loopback, metadata) is a warning:
 * someone's page reached for the inside. A name that does not resolve is debug: most of them are
 * Chromium's own background calls (update.googleapis.com, accounts.google.com) on a host without
 * outside DNS, not about any request; a page's own refusals are in its answer's `blocked:` warnings.
 */
export function logBlocked(logger: { warn(o: object, msg: string): void; debug(o: object, msg: string): void }) {
  return (target: string, reason: string, kind: BlockedKind) => {
    if (kind === 'unresolvable') logger.debug({ target, reason }, 'egress: name not resolved (browser)');
    else logger.warn({ target, reason }, 'egress refused (browser)');
  };
}

export function startEgressProxy(guard: EgressGuard, onBlocked: (target: string, reason: string, kind: BlockedKind) => void): Promise<EgressProxy> {
  const server: Server = createServer((req, res) => {
    const target = req.url ?? '';
    guard.check(target).then(({ url, address }) => {
      const headers: OutgoingHttpHeaders = { ...req.headers, host: url.host };
      delete headers['proxy-connection'];
      delete headers['proxy-authorization'];
      const upstream = httpRequest({ host: address, port: url.port || 80, method: req.method, path: url.pathname + url.search, headers }, (up) => {
        up.on('error', () => res.destroy()); // the page server reset mid-body
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => { if (!res.headersSent) res.writeHead(502); res.end(); });
      req.on('error', () => upstream.destroy()); // the browser went away (context closed)
      req.pipe(upstream);
    }).catch((err: Error) => {
      onBlocked(target, err.message, kindOf(err));
      res.writeHead(403, { 'content-type': 'text/plain', [BLOCKED_HEADER]: '1' });
      res.end(`Blocked by the Sightline egress guard: ${err.message}`);
    });
  });
  server.on('connect', (req, client, head) => {
    // The socket is ours from here: an unhandled reset (the browser closing a context) would crash.
    client.on('error', () => client.destroy());
    const target = req.url ?? '';
    const [host, port] = target.startsWith('[') ? [target.slice(1, target.indexOf(']')), target.slice(target.indexOf(']') + 2)] : target.split(':');
    guard.resolve(host).then(({ address }) => {
      const upstream = connect(Number(port) || 443, address, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      const drop = () => { upstream.destroy(); client.destroy(); };
      upstream.on('error', drop);
      client.on('error', drop);
      client.on('close', () => upstream.destroy());
    }, (err: Error) => {
      onBlocked(target, err.message, kindOf(err));
      client.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: 1\r\n\r\n`);
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
  })));
}
