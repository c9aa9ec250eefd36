// Rendering a page in Chromium for read mode: when the fetched HTML is a script shell, or the caller
// asks. The browser's own requests are checked by the egress proxy; those it refused are reported.
import type { PageRunner } from './browser-pool.ts';
import type { EgressGuard } from '../egress/egress.ts';
import { checkUrl, navigate, readSettled } from './navigate.ts';
import { applyCredentials, type Credentials } from '../egress/credentials.ts';

export interface Rendered { url: string; html: string; blocked: string[]; warnings: string[] }

/** Little text, and scripts that would build the page: only a browser can read it. */
export function looksLikeScriptShell(html: string, textLength: number): boolean {
  return textLength < 200 && /<script[\s>]/i.test(html);
}

export async function renderPage(pool: PageRunner, guard: EgressGuard, url: string, deadlineMs: number, signal?: AbortSignal, credentials?: Credentials): Promise<Rendered> {
  await checkUrl(guard, url);
  return pool.withPage(async (page) => {
    const deadline = Date.now() + deadlineMs;
    await applyCredentials(page, credentials, deadlineMs);
    const navigated = await navigate(page, url, 'domcontentloaded', deadlineMs);
    const warnings: string[] = [];
    const html = await readSettled(page, navigated, deadline, warnings, async () => {
      // Scripts build the page after DOM ready: give the network a short moment to settle.
      await page.waitForLoadState('networkidle', { timeout: Math.min(3000, deadlineMs / 2) }).catch(() => undefined);
      return page.content();
    });
    return { url: page.url(), html, blocked: navigated.blocked, warnings };
  }, deadlineMs, signal);
}
