// The performance engine's adaptive settle (issues 19 and 43): instead of waiting for a fixed 150 ms of
// DOM quiet, polled from Node, the map is collected as soon as nothing is left that could still change it
// soon: no DOM change (mutation or layout shift) for QUIET_MS, no request of the page in flight (Node
// sees them all, every frame's), no short timer pending that could still render, and no animation frame
// pending early in a chain. A watcher installed before the page's own scripts counts them. The wait runs
// in the page: one round trip, not a poll every few milliseconds. docs/decisions.md, "Map latency" and
// "Settle by what is pending".
//
// What a timer or frame counts for (issue 43): a page that polls (a timer that re-arms itself without
// touching the DOM: a script waiting for a library, an analytics heartbeat) used to hold every map until
// the timer window closed, 600 ms after the settle began. A timer set by a timer callback that changed
// nothing is a poll after POLL_DEPTH generations and is not waited for; a chain whose callbacks render
// (each step changes the DOM) is waited for, as a timer set by the page's own script or an event is.
// Animation frames are counted the same way: a chain of frames is waited for RAF_DEPTH frames (a render
// deferred a few frames), a loop of frames that changes nothing (a canvas, a scroll watcher) no longer.
import type { Page, Request } from 'playwright-core';
import { REPLACED } from './navigate.ts';

/** DOM-change-free time that counts as quiet once nothing else is pending. */
export const QUIET_MS = 40;
/** Timers due later than this after the settle starts are not waited for (a newsletter popup in 5 s). */
export const WINDOW_MS = 600;
/** A request in flight longer than this is not waited for (long polling, a stalled tracker). */
export const REQUEST_PATIENCE_MS = 1000;
/** Generations of a timer chain waited for while its callbacks change nothing (then it is a poll). */
export const POLL_DEPTH = 2;
/** Frames of a requestAnimationFrame chain waited for (a render put off a few frames; then a loop). */
export const RAF_DEPTH = 8;
/** Requests that never end by design, or that the performance engine blocks. */
const UNWAITED = new Set(['eventsource', 'websocket', 'image', 'media', 'font', 'ping', 'beacon', 'manifest']);

/** What the page still had pending when the wait ended, and how long each kind held it (ms). */
export interface SettleState { ok: boolean; ready: string; quiet_ms: number; timers: number; frames: number; held: { dom: number; timers: number; frames: number } }
/** Where one settle's time went (benchmarks): in-page holds, and Node's wait for requests. */
export interface SettleReport { dom: number; timers: number; frames: number; requests: number; ok: boolean }
interface SettleHost {
  __sightlineSettle?: { wait(quietMs: number, windowEnd: number, maxMs: number, netAgo: number): Promise<SettleState>; now(): number };
}

/**
 * Runs in every document before its scripts: counts pending short timers and animation frames, and the
 * last DOM change. Plain JavaScript in a string: a compiled function could carry the build tool's helpers
 * (esbuild's `__name`), which do not exist in the page. `HORIZON` is replaced by the longest timer
 * counted, `POLL_DEPTH` and `RAF_DEPTH` by the constants above.
 */
const WATCHER = `(() => {
  if (window.__sightlineSettle) return;
  const set = window.setTimeout, clear = window.clearTimeout, clearInt = window.clearInterval;
  const raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  const due = new Map(), frames = new Map();
  // epoch counts what a poll may be waiting for: a DOM change, a timer or frame waited for having run, a
  // resource or script having loaded. A poll timer armed before the latest event is waited for once more.
  // A count, not a time: performance.now() is coarsened to 100 us, and a poll step and the timer that
  // sets its flag can run back to back inside one tick (after a long task), which a time cannot order.
  let last = performance.now(), epoch = 0;
  // The callback running now (a timer's or a frame's): what it sets belongs to its chain.
  let running = null;
  const changed = () => { last = performance.now(); epoch++; if (running) running.changed = true; };
  const loaded = () => { epoch++; };
  // A script runs before its load event; a fetched resource's entry is delivered after its response.
  document.addEventListener('load', loaded, true);
  document.addEventListener('error', loaded, true);
  try { new PerformanceObserver(loaded).observe({ type: 'resource' }); } catch {}
  const observer = new MutationObserver(changed);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    new PerformanceObserver((list) => { if (list.getEntries().some((e) => !e.hadRecentInput)) changed(); }).observe({ type: 'layout-shift' });
  } catch {}
  // A callback's own DOM changes are read when it returns (takeRecords), so its chain knows whether it rendered.
  const run = (step, fn, self, args) => {
    if (observer.takeRecords().length) { last = performance.now(); epoch++; }
    const outer = running;
    running = step;
    try { return fn.apply(self, args); } finally {
      if (observer.takeRecords().length) changed();
      running = outer;
    }
  };
  // Waited for: set outside any chain, or by a step that rendered, or early in a chain that has not.
  const counts = (parent, depth, limit) => !parent || parent.changed || depth <= limit;
  window.setTimeout = function setTimeout(handler, timeout, ...args) {
    const ms = Number(timeout) || 0;
    if (typeof handler !== 'function' || ms > HORIZON) return set.call(window, handler, timeout, ...args);
    const parent = running, depth = parent && parent.kind === 'timer' ? parent.depth + 1 : 1;
    const step = { kind: 'timer', depth, changed: false };
    // Whether it is a poll is read when it matters: the step that set it may render after setting it.
    const now = performance.now(), timer = { at: now + ms, set: now, epoch, poll: () => !counts(parent, depth, POLL_DEPTH) };
    const id = set.call(window, () => { due.delete(id); if (!timer.poll()) epoch++; run(step, handler, window, args); }, ms);
    due.set(id, timer);
    return id;
  };
  window.clearTimeout = function clearTimeout(id) { due.delete(id); return clear.call(window, id); };
  window.clearInterval = function clearInterval(id) { due.delete(id); return clearInt.call(window, id); };
  if (raf) {
    window.requestAnimationFrame = function requestAnimationFrame(callback) {
      if (typeof callback !== 'function') return raf.call(window, callback);
      const parent = running, depth = parent && parent.kind === 'frame' ? parent.depth + 1 : 1;
      const step = { kind: 'frame', depth, changed: false };
      const waited = () => depth <= RAF_DEPTH || parent.changed;
      const id = raf.call(window, (t) => { frames.delete(id); if (waited()) epoch++; run(step, callback, window, [t]); });
      frames.set(id, waited);
      return id;
    };
    window.cancelAnimationFrame = function cancelAnimationFrame(id) { frames.delete(id); return caf.call(window, id); };
  }
  Object.defineProperty(window, '__sightlineSettle', { enumerable: false, value: {
    now: () => performance.now(),
    // netAgo: how long ago a request of the page last started or ended (Node sees them).
    wait: (quietMs, windowEnd, maxMs, netAgo) => new Promise((resolve) => {
      const start = performance.now(), until = start + maxMs, net = start - netAgo;
      const held = { dom: 0, timers: 0, frames: 0 };
      let prev = start, why = null;
      const check = () => {
        const now = performance.now();
        if (why) held[why] += now - prev;
        prev = now;
        let timers = 0;
        // A poll is waited for once more when something happened since it last looked (the DOM moved, a
        // timer or frame waited for ran, a resource loaded; or Node saw a request end after it was armed):
        // its next look may be the one that renders.
        for (const t of due.values()) if (t.at <= windowEnd && (t.epoch < epoch || t.set < net || !t.poll())) timers++;
        let pending = 0;
        for (const waited of frames.values()) if (waited()) pending++;
        const quiet = now - last;
        why = timers ? 'timers' : pending ? 'frames' : (document.readyState === 'loading' || quiet < quietMs) ? 'dom' : null;
        if (!why || now >= until) {
          for (const k in held) held[k] = Math.round(held[k]);
          resolve({ ok: !why, ready: document.readyState, quiet_ms: Math.round(quiet), timers, frames: pending, held });
          return;
        }
        // Pending frames are looked at again about a frame later; the rest after a short sleep.
        set.call(window, check, why === 'frames' ? 16 : Math.max(5, Math.min(50, quietMs - quiet, until - now)));
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

  /** Time until the first request still waited for stops being waited for. */
  patienceLeft(now = Date.now()): number {
    let left = REQUEST_PATIENCE_MS;
    for (const at of this.started.values()) if (now - at < REQUEST_PATIENCE_MS) left = Math.min(left, REQUEST_PATIENCE_MS - (now - at));
    return left;
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
  await page.addInitScript({ content: WATCHER.replace('HORIZON', String(WINDOW_MS + 400)).replace('POLL_DEPTH', String(POLL_DEPTH)).replaceAll('RAF_DEPTH', String(RAF_DEPTH)) });
  return inflight;
}

/**
 * Waits until the page is quiet by the rules above, at most `timeoutMs`; false when it was still
 * changing. null when the document has no watcher (the caller falls back to the fixed wait). `report`,
 * when given, is filled with where the time went (benchmarks).
 */
export async function adaptiveSettle(page: Page, inflight: Inflight, timeoutMs: number, report?: SettleReport): Promise<boolean | null> {
  const deadline = Date.now() + timeoutMs;
  // The window of timers waited for is fixed at the first look: a page that keeps setting short timers
  // (a ticker) is waited for no longer than WINDOW_MS.
  let windowEnd: number | null = null;
  for (;;) {
    const left = Math.max(0, deadline - Date.now());
    const args: [number, number | null, number, number, number] = [QUIET_MS, windowEnd, WINDOW_MS, left, Date.now() - inflight.lastChange];
    const state = await page.evaluate(async ([quiet, end, windowMs, max, netAgo]): Promise<(SettleState & { windowEnd: number }) | null> => {
      const s = (window as unknown as SettleHost).__sightlineSettle;
      if (!s) return null;
      const until = end ?? s.now() + windowMs;
      return { ...await s.wait(quiet, until, max, netAgo), windowEnd: until };
    }, args).catch((err: Error) => {
      // A new document: readSettled reads it again from the start (its watcher is installed too).
      if (REPLACED.test(err.message ?? '')) throw err;
      return null;
    });
    if (!state) return null;
    if (report) { report.dom += state.held.dom; report.timers += state.held.timers; report.frames += state.held.frames; }
    windowEnd = state.windowEnd;
    const now = Date.now();
    const busy = inflight.pending(now);
    const done = state.ok && busy === 0 && now - inflight.lastChange >= QUIET_MS;
    if (report) report.ok = done;
    if (done) return true;
    if (now >= deadline) return false;
    if (!state.ok) continue;
    // Until a request starts or ends, or the first one in flight runs out of patience.
    const t = Date.now();
    await inflight.next(Math.min(deadline - now, busy ? inflight.patienceLeft(now) : QUIET_MS - (now - inflight.lastChange)));
    if (report) report.requests += Date.now() - t;
  }
}
