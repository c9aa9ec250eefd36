// Serves test/fixtures over HTTP on 127.0.0.1, reachable also as http://localhost:<port> (another
// origin for the browser), which `{{OTHER_ORIGIN}}` in a page stands for.
import { createServer, type Server, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launch } from './browser.ts';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export interface FixtureServer { url: string; otherOrigin: string; close(): Promise<void> }

export function serveFixtures(): Promise<FixtureServer> {
  let port = 0;
  const server: Server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0])).replace(/^(\.\.[/\\])+/, '');
    try {
      let body = await readFile(join(FIXTURES, path === '/' ? 'index.html' : path), 'utf8');
      body = body.replaceAll('{{OTHER_ORIGIN}}', `http://localhost:${port}`);
      res.writeHead(200, { 'content-type': path.endsWith('.html') ? 'text/html; charset=utf-8' : path.endsWith('.svg') ? 'image/svg+xml' : 'text/plain' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    port = (server.address() as { port: number }).port;
    resolve({
      url: `http://127.0.0.1:${port}`,
      otherOrigin: `http://localhost:${port}`,
      close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
    });
  }));
}

/** A server for one test file's own routes on a free 127.0.0.1 port; close() drops open connections too. */
export interface PageServer { site: string; close(): void }

export async function servePages(handler: RequestListener): Promise<PageServer> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { site: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => { server.closeAllConnections(); server.close(); } };
}

/** A test file's own pages (servePages) and one Chromium page at 1280x800 to load them in; close() ends both. */
export interface ServedPage { site: string; page: Page; close(): Promise<void> }

export async function servePagesInChromium(handler: RequestListener): Promise<ServedPage> {
  const server = await servePages(handler);
  const browser = await launch();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  return { site: server.site, page, close: async () => { await browser.close(); server.close(); } };
}

/** servePagesInChromium answering every path with one HTML page. */
export const serveHtmlInChromium = (html: string): Promise<ServedPage> =>
  servePagesInChromium((_req, res) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(html); });
