// The performance engine's adaptive settle (issue 19): instead of waiting for a fixed 150 ms of DOM
// quiet, polled from Node, the map is collected as soon as nothing is left that could still change it
// soon: no mutation for QUIET_MS, no request of the page in flight (Node sees them all, every frame's),
// and no short timer pending (a watcher installed before the page's own scripts counts setTimeout
// calls due within WINDOW_MS of the settle's start). The wait runs in the page: one round trip, not a
// poll every few milliseconds. docs/decisions.md, "Map latency".
import type { Page, Request } from 'playwright-core';
import { REPLACED } from './navigate.ts';

/** Mutation-free time that counts as quiet once nothing else is pending. */
export const QUIET_MS = 40;
/** Timers due later than this after the settle starts are not waited for (a newsletter popup in 5 s). */
export const WINDOW_MS = 600;
/** A request in flight longer than this is not waited for (long polling, a stalled tracker). */
export const REQUEST_PATIENCE_MS = 1000;
/** Requests that never end by design, or that the performance engine blocks. */
const UNWAITED = new Set(['eventsource', 'websocket', 'image', 'media', 'font', 'ping', 'beacon', 'manifest']);

interface SettleState { ok: boolean; ready: string; quiet_ms: number; timers: number }
interface SettleHost {
  __sightlineSettle?: { wait(quietMs: number, windowEnd: number, maxMs: number): Promise<SettleState>; now(): number };
}

/**
 * Runs in every document before its scripts: counts pending short timers and the last mutation. Plain
 * JavaScript in a string: a compiled function could carry the build tool's helpers (esbuild's
 * `__name`), which do not exist in the page. `HORIZON` is replaced by the longest timer counted.
 */
const WATCHER = `(() => {
  if (window.__sightlineSettle) return;
  const set = window.setTimeout, clear = window.clearTimeout, clearInt = window.clearInterval;
  const due = new Map();
  let last = performance.now();
  new MutationObserver(() => { last = performance.now(); })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  // Only short function timers are counted; strings and long timers pass straight through.
  window.setTimeout = function setTimeout(handler, timeout, ...args) {
    const ms = Number(timeout) || 0;
    if (typeof handler !== 'function' || ms > HORIZON) return set.call(window, handler, timeout, ...args);
    const id = set.call(window, () => { due.delete(id); handler.apply(window, args); }, ms);
    due.set(id, performance.now() + ms);
    return id;
  };
  window.clearTimeout = function clearTimeout(id) { due.delete(id); return clear.call(window, id); };
  window.clearInterval = function clearInterval(id) { due.delete(id); return clearInt.call(window, id); };
  Object.defineProperty(window, '__sightlineSettle', { enumerable: false, value: {
    now: () => performance.now(),
    wait: (quietMs, windowEnd, maxMs) => new Promise((resolve) => {
      const until = performance.now() + maxMs;
      const check = () => {
        const now = performance.now();
        let timers = 0;
        for (const at of due.values()) if (at <= windowEnd) timers++;
        const quiet = now - last;
        const ok = document.readyState !== 'loading' && timers === 0 && quiet >= quietMs;
        if (ok || now >= until) { resolve({ ok, ready: document.readyState, quiet_ms: Math.round(quiet), timers }); return; }
        set.call(window, check, Math.max(5, Math.min(50, quietMs - quiet, until - now)));
      };
      check();
    }),
  } });
})();`;

/** In-flight requests of a page (every frame), from Playwright's events. */
export class Inflight {
  private readonly started = new Map<Request, number>();
  /** When a request last started or ended (Date.now()). */
  lastChange = Date.now();
  private readonly waiters: (() => void)[] = [];

  constructor(page: Page) {
    const end = (r: Request) => { if (this.started.delete(r)) this.changed(); };
    page.on('request', (r) => { if (!UNWAITED.has(r.resourceType())) { this.started.set(r, Date.now()); this.changed(); } });
    page.on('requestfinished', end);
    page.on('requestfailed', end);
  }

  private changed(): void {
    this.lastChange = Date.now();
    for (const w of this.waiters.splice(0)) w();
  }

  /** Requests still waited for (in flight for less than REQUEST_PATIENCE_MS). */
  pending(now = Date.now()): number {
    let n = 0;
    for (const at of this.started.values()) if (now - at < REQUEST_PATIENCE_MS) n++;
    return n;
  }

  /** Resolves on the next request start or end, or after `ms`. */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, ms));
      this.waiters.push(() => { clearTimeout(timer); resolve(); });
    });
  }
}

/** Installs the watcher in the page's future documents; call before navigating. */
export async function prepareSettle(page: Page): Promise<Inflight> {
  const inflight = new Inflight(page);
  await page.addInitScript({ content: WATCHER.replace('HORIZON', String(WINDOW_MS + 400)) });
  return inflight;
}

/**
 * Waits until the page is quiet by the rules above, at most `timeoutMs`; false when it was still
 * changing. null when the document has no watcher (the caller falls back to the fixed wait).
 */
export async function adaptiveSettle(page: Page, inflight: Inflight, timeoutMs: number): Promise<boolean | null> {
  const deadline = Date.now() + timeoutMs;
  // The window of timers waited for is fixed at the first look: a page that keeps setting short timers
  // (a poll, a ticker) is waited for no longer than WINDOW_MS.
  let windowEnd: number | null = null;
  for (;;) {
    const left = Math.max(0, deadline - Date.now());
    const args: [number, number | null, number, number] = [QUIET_MS, windowEnd, WINDOW_MS, left];
    const state = await page.evaluate(async ([quiet, end, windowMs, max]): Promise<(SettleState & { windowEnd: number }) | null> => {
      const s = (window as unknown as SettleHost).__sightlineSettle;
      if (!s) return null;
      const until = end ?? s.now() + windowMs;
      return { ...await s.wait(quiet, until, max), windowEnd: until };
    }, args).catch((err: Error) => {
      // A new document: readSettled reads it again from the start (its watcher is installed too).
      if (REPLACED.test(err.message ?? '')) throw err;
      return null;
    });
    if (!state) return null;
    windowEnd = state.windowEnd;
    const now = Date.now();
    const busy = inflight.pending(now);
    if (state.ok && busy === 0 && now - inflight.lastChange >= QUIET_MS) return true;
    if (now >= deadline) return false;
    if (state.ok) await inflight.next(busy ? Math.min(deadline - now, REQUEST_PATIENCE_MS) : QUIET_MS - (now - inflight.lastChange));
  }
}
