// Rendering a page in Chromium for read mode: when the fetched HTML is a script shell, or the caller
// asks. The browser's own requests are checked by the egress proxy; those it refused are reported.
import { SightlineError } from '../schema/errors.ts';
import type { BrowserPool } from './browser-pool.ts';
import { BLOCKED_HEADER } from './egress-proxy.ts';
import { EgressError, refusalError, type EgressGuard } from './egress.ts';

export interface Rendered { url: string; html: string; blocked: string[] }

/** Little text, and scripts that would build the page: only a browser can read it. */
export function looksLikeScriptShell(html: string, textLength: number): boolean {
  return textLength < 200 && /<script[\s>]/i.test(html);
}

export async function renderPage(pool: BrowserPool, guard: EgressGuard, url: string, deadlineMs: number): Promise<Rendered> {
  try {
    await guard.check(url);
  } catch (err) {
    if (err instanceof EgressError) throw refusalError(err);
    throw err;
  }
  return pool.withPage(async (page) => {
    const blocked: string[] = [];
    page.on('response', (r) => { if (r.headers()[BLOCKED_HEADER]) blocked.push(r.url()); });
    page.on('requestfailed', (r) => { if (/TUNNEL_CONNECTION_FAILED|ERR_PROXY/.test(r.failure()?.errorText ?? '')) blocked.push(r.url()); });
    const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: deadlineMs }).catch((err: Error) => {
      if (blocked.includes(url) || /TUNNEL_CONNECTION_FAILED/.test(err.message)) throw new SightlineError('blocked_url', `${url} was refused by the egress guard`);
      throw new SightlineError(/Timeout/i.test(err.name + err.message) ? 'timeout' : 'unreachable', `Cannot load ${url} in the browser: ${err.message.split('\n')[0]}`);
    });
    if (response?.headers()[BLOCKED_HEADER]) throw new SightlineError('blocked_url', `${url} was refused by the egress guard`);
    if (response && response.status() >= 400) throw new SightlineError('http_error', `The page answered HTTP ${response.status()}`);
    // Scripts build the page after DOM ready: give the network a short moment to settle.
    await page.waitForLoadState('networkidle', { timeout: Math.min(3000, deadlineMs / 2) }).catch(() => undefined);
    return { url: page.url(), html: await page.content(), blocked };
  }, deadlineMs);
}
