// Assertions that wait: an element visible or gone, text on the page or in an element, the URL. Each
// polls until it holds or its timeout passes, then fails with what it saw.
import type { Page } from 'playwright-core';
import { resolve } from '../playwright/collect-page.ts';

export type Expectation =
  | { visible: number }
  | { gone: number }
  | { text: string | RegExp; id?: number }
  | { url: string | RegExp };

export interface ExpectOptions {
  /** Milliseconds to wait, default 5000. */
  timeout?: number;
  /** Milliseconds between checks, default 100. */
  interval?: number;
}

export class ExpectError extends Error {
  constructor(message: string) { super(message); this.name = 'ExpectError'; }
}

const show = (t: string | RegExp) => (typeof t === 'string' ? JSON.stringify(t) : String(t));
const fits = (s: string, t: string | RegExp) => (typeof t === 'string' ? s.includes(t) : (t.lastIndex = 0, t.test(s)));
const clip = (s: string) => { const one = s.replace(/\s+/g, ' ').trim(); return one.length > 80 ? `${one.slice(0, 79)}…` : one; };

/** Text of every frame of the page (cross-origin frames too), the main frame first, with the text inside
 *  open shadow roots (a web component's "Saved" toast), which the body's innerText leaves out. */
async function pageText(page: Page): Promise<string> {
  // No named inner function: the test loader's helpers (esbuild's __name) do not exist in the page.
  const texts = await Promise.all(page.frames().map((f) => f.evaluate(() => {
    const parts = [document.body?.innerText ?? ''];
    const roots: (Document | ShadowRoot)[] = [document];
    for (let root = roots.pop(); root; root = roots.pop()) {
      for (const el of root.querySelectorAll('*')) {
        if (!el.shadowRoot) continue;
        for (const c of el.shadowRoot.children) parts.push((c as HTMLElement).innerText ?? c.textContent ?? '');
        roots.push(el.shadowRoot);
      }
    }
    return parts.join('\n');
  }).catch(() => '')));
  return texts.join('\n');
}

/** One check: null when it holds, else what was seen instead. */
async function check(page: Page, what: Expectation): Promise<string | null> {
  if ('url' in what) return fits(page.url(), what.url) ? null : `the URL is ${page.url()}`;
  if ('visible' in what) {
    const el = await resolve(page, what.visible).catch(() => null);
    if (!el) return `element ${what.visible} is not on the page`;
    return await el.isVisible().catch(() => false) ? null : `element ${what.visible} is hidden`;
  }
  if ('gone' in what) {
    const el = await resolve(page, what.gone).catch(() => null);
    return !el || !await el.isVisible().catch(() => false) ? null : `element ${what.gone} is still visible`;
  }
  if (what.id !== undefined) {
    const el = await resolve(page, what.id).catch(() => null);
    if (!el) return `element ${what.id} is not on the page`;
    const text = await el.evaluate((n) => (n as HTMLElement).innerText || (n as HTMLInputElement).value || n.textContent || '').catch(() => '');
    return fits(text, what.text) ? null : `element ${what.id} has text ${JSON.stringify(clip(text))}`;
  }
  const text = await pageText(page);
  return fits(text, what.text) ? null : `the page text is ${JSON.stringify(clip(text))}`;
}

function describe(what: Expectation): string {
  if ('url' in what) return `the URL to match ${show(what.url)}`;
  if ('visible' in what) return `element ${what.visible} to be visible`;
  if ('gone' in what) return `element ${what.gone} to be gone`;
  return `${what.id !== undefined ? `element ${what.id}` : 'the page'} to have text ${show(what.text)}`;
}

/** Waits until `what` holds; throws an ExpectError saying what was expected and seen after the timeout. */
export async function expect(page: Page, what: Expectation, options: ExpectOptions = {}): Promise<void> {
  const timeout = options.timeout ?? 5000;
  const deadline = Date.now() + timeout;
  for (;;) {
    const seen = await check(page, what);
    if (seen === null) return;
    if (Date.now() >= deadline) throw new ExpectError(`expected ${describe(what)} within ${timeout} ms, but ${seen}`);
    await new Promise((r) => setTimeout(r, Math.min(options.interval ?? 100, Math.max(1, deadline - Date.now()))));
  }
}
