// Loading a caller's URL in a pool page, the same way for read (rendering) and map/visual: the guard
// checks the URL first, the egress proxy checks every request the page makes, and the requests it
// refused are collected so the result can say what was not loaded.
import type { Page } from 'playwright-core';
import { SightlineError } from '../../schema/errors.ts';
import { BLOCKED_HEADER } from '../egress/egress-proxy.ts';
import { EgressError, refusalError, type EgressGuard } from '../egress/egress.ts';

export interface Navigated {
  /** Requests of the page the egress guard refused (they live on: later requests are added). */
  blocked: string[];
  /** The URL the main frame last asked for (a redirect hop, a script's or a form's navigation). */
  lastNavigation: string;
}

/** Refuses a URL the guard would refuse, before it takes a pool page (the proxy checks it again). */
export async function checkUrl(guard: EgressGuard, url: string): Promise<void> {
  try {
    await guard.check(url);
  } catch (err) {
    if (err instanceof EgressError) throw refusalError(err);
    throw err;
  }
}

export async function navigate(page: Page, url: string, waitUntil: 'domcontentloaded' | 'load', timeoutMs: number): Promise<Navigated> {
  const blocked: string[] = [];
  const navigated: Navigated = { blocked, lastNavigation: url };
  page.on('request', (r) => { if (r.frame() === page.mainFrame() && r.isNavigationRequest()) navigated.lastNavigation = r.url(); });
  page.on('response', (r) => { if (r.headers()[BLOCKED_HEADER]) blocked.push(r.url()); });
  page.on('requestfailed', (r) => { if (/TUNNEL_CONNECTION_FAILED|ERR_PROXY/.test(r.failure()?.errorText ?? '')) blocked.push(r.url()); });
  const response = await page.goto(url, { waitUntil, timeout: timeoutMs }).catch((err: Error) => {
    if (blocked.includes(url) || /TUNNEL_CONNECTION_FAILED/.test(err.message)) throw new SightlineError('blocked_url', `${url} was refused by the egress guard`);
    if (/Download is starting/i.test(err.message)) throw new SightlineError('unsupported_content_type', `${url} is a download, not a web page`);
    throw new SightlineError(/Timeout/i.test(err.name + err.message) ? 'timeout' : 'unreachable', `Cannot load ${url} in the browser: ${err.message.split('\n')[0]}`);
  });
  if (response?.headers()[BLOCKED_HEADER]) throw new SightlineError('blocked_url', `${url} was refused by the egress guard`);
  if (response && response.status() >= 400) throw new SightlineError('http_error', `The page answered HTTP ${response.status()}`);
  const type = response?.headers()['content-type'] ?? '';
  if (type && !/html|xml|text\/plain|image\/svg/i.test(type)) throw new SightlineError('unsupported_content_type', `The page is ${type.split(';')[0]}, not a web page`);
  return navigated;
}

/** What Playwright says when the page replaced its document while we were reading the old one. */
export const REPLACED = /Execution context was destroyed|Cannot find context with specified id|rame (?:was|has been) detached|page is navigating/i;
/** Reads of a page that keeps replacing its document before we give up on it. */
const MAX_READS = 5;
/** Pause before waiting for the new document, per attempt: a reload requested but not yet committed
 *  leaves the old document's load state in place, so reading at once can meet the old document dying. */
const REREAD_PAUSE_MS = 50;

/**
 * Runs `read` (settle, collect, ...) on a loaded page. A page that replaces its document meanwhile (a
 * reload, or a script setting `location` right after load) is waited for and read again, so the result
 * is one whole read of the newest document, and `warnings` says it happened. A navigation the egress
 * guard refused, or one that fails to load, is an error, never a read of Chromium's error page.
 */
export async function readSettled<T>(page: Page, navigated: Navigated, deadline: number, warnings: string[], read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await read();
      // A navigation that committed before the read began (a script or a meta refresh sending the page
      // to a refused address) raises nothing: the read saw the proxy's refusal, not the caller's page.
      refuseLeft(page, navigated);
      return result;
    } catch (err) {
      if (!REPLACED.test((err as Error).message ?? '')) throw err;
      if (attempt >= MAX_READS) throw new SightlineError('unreachable', `The page replaced its document ${attempt} times while it was being read; it never held still`);
    }
    await new Promise((r) => setTimeout(r, Math.min(REREAD_PAUSE_MS * attempt, Math.max(0, deadline - Date.now()))));
    // Playwright resets the frame's load states when the new document commits: this waits for it.
    await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    refuseLeft(page, navigated);
    warnings.push(`navigated: the page replaced its document while it was being read; the new document (${page.url().slice(0, 200)}) was read`);
  }
}

/** Refuses when the page is on a document the egress guard refused, or on Chromium's error page (an
 *  HTTPS navigation the proxy refused to tunnel ends there too). */
function refuseLeft(page: Page, navigated: Navigated): void {
  let url = page.url();
  if (url.startsWith('chrome-error:') && navigated.blocked.includes(navigated.lastNavigation)) url = navigated.lastNavigation;
  if (navigated.blocked.includes(url)) throw new SightlineError('blocked_url', `The page navigated to ${url}, which the egress guard refused`);
  if (url.startsWith('chrome-error:')) throw new SightlineError('unreachable', 'The page navigated to a document that could not be loaded');
}
