// A browser host (`sightline browser-host`): Debian's Chromium behind Playwright's browser server
// protocol, with the egress proxy beside it, so a remote browser is fenced exactly like a local one
// (CHROMIUM_FLAGS and LEAN_FLAG, every request through the proxy, loopback included). Playwright's server listens on
// loopback under a random path; the host's own port fronts it: GET /healthz reports the load, and a
// WebSocket upgrade is admitted (token, capacity) and then piped to Playwright's server untouched.
// Capacity is in pages: a connection reserves the pages its pool may open (x-sightline-pages, the API's
// --browser-pages), and one that would exceed --pages is refused with 503.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, isIP, type Socket, type AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { chromium, type Browser, type BrowserServer, type CDPSession } from 'playwright-core';
import { CHROMIUM_FLAGS, LEAN_FLAG, launchOptions } from './browser-pool.ts';
import type { EgressGuard } from '../egress/egress.ts';
import { startEgressProxy, type BlockedKind, type EgressProxy } from '../egress/egress-proxy.ts';

/** The header a connection names the pages it reserves with (default 1). */
export const PAGES_HEADER = 'x-sightline-pages';
export const HEALTH_PATH = '/healthz';

export interface BrowserHostOptions {
  host: string;
  port: number;
  pages: number;
  token: string;
  chromium: string;
  guard: EgressGuard;
  onBlocked: (target: string, reason: string, kind: BlockedKind) => void;
  /** Chromium exited on its own: the host cannot serve any more (the command exits non-zero). */
  onBrowserExit: () => void;
  log: (event: string, fields: Record<string, unknown>) => void;
}

export interface HostLoad {
  status: 'ok';
  connections: number;
  /** Pages open in the browser now (every connection's), counted by Chromium; -1 when it did not say in time. */
  pages: number;
  /** Pages the admitted connections reserved. */
  reserved: number;
  capacity: number;
}

export interface BrowserHost {
  port: number;
  /** The endpoint API instances list in --browser-ws. */
  wsEndpoint: string;
  load(): Promise<HostLoad>;
  close(): Promise<void>;
}

/** Loopback, or every name and address, as a NO_PROXY entry may spell them. */
const LOOPBACK_NAME = /^(\*|<local>|localhost|\.?localhost\.?|.*\.localhost|local|\.local)$/i;

/**
 * Why the environment would let the browser's traffic go around the proxy, or null. NO_PROXY/no_proxy
 * naming loopback, a wildcard or any address the guard refuses, and Playwright's switch that stops
 * forcing loopback through the proxy. Chromium started with --proxy-server reads none of them today;
 * the host refuses them anyway, so a launcher or a future version that does cannot open the fence.
 */
export function proxyBypassInEnv(env: NodeJS.ProcessEnv, guard: EgressGuard): string | null {
  if (env.PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK) return 'PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK is set: loopback would bypass the egress proxy';
  for (const name of ['NO_PROXY', 'no_proxy']) {
    for (const raw of (env[name] ?? '').split(/[,\s]+/).filter(Boolean)) {
      // host, host:port, [v6], [v6]:port, v6, CIDR
      const entry = raw.startsWith('[') ? raw.slice(1, raw.indexOf(']')) : raw.split(':').length === 2 ? raw.split(':')[0] : raw;
      const [address] = entry.split('/');
      const why = LOOPBACK_NAME.test(entry) ? 'loopback or every host'
        : isIP(address) ? guard.refuse(address)
        : /^\d+(\.\d+){0,3}\.?\*?$/.test(address) ? 'an address pattern' : null;
      if (why) return `${name} contains "${raw}" (${why}): those requests would bypass the egress proxy; unset it for the browser host`;
    }
  }
  return null;
}

function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A plain HTTP answer on an upgrade socket, then closed. */
function refuse(socket: Socket, status: string, body: string, headers: Record<string, string> = {}): void {
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`);
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const proxy: EgressProxy = await startEgressProxy(options.guard, options.onBlocked);
  const secretPath = `/${randomBytes(16).toString('hex')}`;
  let server: BrowserServer;
  try {
    server = await chromium.launchServer({
      ...launchOptions(options.chromium, [...CHROMIUM_FLAGS, LEAN_FLAG], proxy.url), host: '127.0.0.1', port: 0, wsPath: secretPath,
    });
  } catch (err) {
    await proxy.close();
    throw err;
  }
  const inner = new URL(server.wsEndpoint());
  let closing = false;
  server.on('close', () => { if (!closing) options.onBrowserExit(); });

  // Our own connection to the browser, for counting pages: a browser-wide CDP session sees every target.
  let monitor: Promise<{ browser: Browser; cdp: CDPSession }> | undefined;
  const countPages = async (): Promise<number> => {
    monitor ??= chromium.connect(server.wsEndpoint()).then(async (browser) => ({ browser, cdp: await browser.newBrowserCDPSession() }));
    try {
      const { cdp } = await monitor;
      const { targetInfos } = await cdp.send('Target.getTargets') as { targetInfos: { type: string }[] };
      return targetInfos.filter((t) => t.type === 'page').length;
    } catch {
      monitor = undefined;
      return -1;
    }
  };
  /** -1 when Chromium does not say within a second: the health answer must not wait on a busy browser. */
  const pagesOpen = () => Promise.race([countPages(), new Promise<number>((r) => setTimeout(() => r(-1), 1000).unref())]);

  const sockets = new Set<Socket>();
  let connections = 0;
  let reserved = 0;
  const load = async (): Promise<HostLoad> => ({ status: 'ok', connections, pages: await pagesOpen(), reserved, capacity: options.pages });

  const front: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === HEALTH_PATH) {
      load().then((body) => { res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }); res.end(JSON.stringify(body)); },
        () => { res.writeHead(500); res.end(); });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('A Sightline browser host: connect with Playwright (chromium.connect) or GET /healthz\n');
  });

  front.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (options.token) {
      const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!sameToken(given, options.token)) {
        options.log('connection refused: bad token', { from: socket.remoteAddress });
        return refuse(socket, '401 Unauthorized', 'A valid bearer token is required\n', { 'www-authenticate': 'Bearer' });
      }
    }
    const asked = Number(req.headers[PAGES_HEADER] ?? 1);
    if (!Number.isInteger(asked) || asked < 1) return refuse(socket, '400 Bad Request', `${PAGES_HEADER} must be a positive integer\n`);
    if (reserved + asked > options.pages) {
      options.log('connection refused: at capacity', { asked, reserved, capacity: options.pages });
      return refuse(socket, '503 Service Unavailable', `At capacity: ${reserved} of ${options.pages} pages reserved, ${asked} asked\n`, { 'retry-after': '1' });
    }
    reserved += asked;
    connections++;
    sockets.add(socket);
    let released = false;
    const upstream = connect(Number(inner.port), inner.hostname);
    const release = () => {
      if (released) return;
      released = true;
      reserved -= asked;
      connections--;
      sockets.delete(socket);
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('connect', () => {
      // The same upgrade request, to Playwright's secret path; then bytes both ways.
      const lines = [`${req.method} ${secretPath} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        if (!/^(authorization|host)$/i.test(req.rawHeaders[i])) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      lines.push(`host: ${inner.host}`);
      upstream.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', release);
    upstream.on('close', release);
    socket.on('close', release);
  });
  front.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port, options.host, () => resolve());
  });
  const port = (front.address() as AddressInfo).port;
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    port,
    wsEndpoint: `ws://${shown}:${port}/`,
    load,
    async close() {
      closing = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((done) => { front.closeAllConnections(); front.close(() => done()); });
      await monitor?.then((m) => m.browser.close()).catch(() => undefined);
      await server.close().catch(() => undefined);
      await proxy.close();
    },
  };
}
