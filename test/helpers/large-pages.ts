// Large pages for the collector, served from localhost: the generated pages (`/big-<n>.html`, see
// big-page.ts) and the WCXB development sample rendered offline (`/wcxb/<id>.html`: the stored
// document; every other request is aborted by `goOffline`). Responses carry COOP/COEP so the page is
// cross-origin isolated and performance.now() has 5 µs resolution instead of 100 µs.
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { bigPageHtml } from './big-page.ts';
import { sharedDir } from './shared-data.ts';

/** The WCXB sample (`missing`: the skip reason on a clone without the shared data). */
export const WCXB = sharedDir('wcxb-dev-sample');
export const WCXB_DIR = WCXB.dir;

/** Ids of the WCXB sample pages, sorted. */
export const wcxbIds = (): string[] => readdirSync(join(WCXB_DIR, 'html')).filter((f) => f.endsWith('.html.gz')).map((f) => f.slice(0, -8)).sort();

export interface LargePages { url: string; close(): Promise<void> }

export function serveLargePages(): Promise<LargePages> {
  const big = new Map<number, string>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    let body: Buffer | string | undefined;
    const b = /^\/big-(\d+)\.html$/.exec(path);
    const w = /^\/wcxb\/(\d+)\.html$/.exec(path);
    try {
      if (b) {
        const n = Number(b[1]);
        if (!big.has(n)) big.set(n, bigPageHtml(n));
        body = big.get(n);
      } else if (w) {
        body = gunzipSync(readFileSync(join(WCXB_DIR, 'html', `${w[1]}.html.gz`)));
      }
    } catch { body = undefined; }
    if (body === undefined) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': 'text/html', 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const port = (server.address() as { port: number }).port;
    resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }) });
  }));
}

/** Lets the page load only documents from `origin`; everything else (scripts, images, fonts) is aborted. */
export async function goOffline(page: Page, origin: string): Promise<void> {
  await page.route('**/*', (route) => {
    const r = route.request();
    return r.url().startsWith(origin + '/') && r.resourceType() === 'document' ? route.continue() : route.abort();
  });
}

/** Waits until style and layout are done and two frames were produced (so the first collection is not
 *  charged with the page's own first layout). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((done) => {
    void document.body?.getBoundingClientRect();
    requestAnimationFrame(() => requestAnimationFrame(() => done()));
  }));
}
