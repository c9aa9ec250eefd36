// The collector driven from Node through Playwright: inject it, collect every frame (cross-origin
// frames too, their ids offset by FRAME_ID_SPAN), find an element again by its id, wait for a quiet DOM,
// and draw boxes. The client library and the server's observe map/visual both use it.
import type { ElementHandle, Frame, Page } from 'playwright-core';
import { FRAME_ID_SPAN, type CollectOptions, type CollectResult } from '../collect/types.ts';
import type { SightlineGlobal } from '../collect/index.ts';
import type { Box as HighlightBox } from '../collect/highlight.ts';
import type { Overlay } from '../collect/overlays.ts';
import { collectorSource } from './collector-source.ts';
import { wireToResult } from '../collect/wire.ts';

declare global {
  interface Window { __sightline?: SightlineGlobal }
}

/** Cross-origin frames nested deeper than this are not collected. */
const MAX_FRAME_DEPTH = 3;

/** `topNext`: above every id the tab's top documents have given so far (each new document continues from it). */
interface PageState { frames: WeakMap<Frame, number>; byOrdinal: Map<number, Frame>; next: number; topNext: number }
const states = new WeakMap<Page, PageState>();

function stateOf(page: Page): PageState {
  let s = states.get(page);
  if (!s) { s = { frames: new WeakMap(), byOrdinal: new Map(), next: 1, topNext: 1 }; states.set(page, s); }
  return s;
}

/** Top-document ids stay below this: frame ids start at FRAME_ID_SPAN. Past it a new document numbers from 1 again. */
const TOP_IDS_MAX = FRAME_ID_SPAN / 2;

/** A stable ordinal for a cross-origin frame, for as long as the frame lives. */
function ordinalOf(page: Page, frame: Frame): number {
  const s = stateOf(page);
  let n = s.frames.get(frame);
  if (n === undefined) { n = s.next++; s.frames.set(frame, n); s.byOrdinal.set(n, frame); }
  return n;
}

/** Runs `fn` in the frame's document with the collector there: one round trip when it is (the settle wait injected
 *  it), the injection and a second run only when `fn` answers null because the document has none (replaced since). */
async function withCollector<R, A>(frame: Frame | Page, fn: (arg: A) => R | null, arg: A): Promise<R> {
  const inPage = fn as (arg: unknown) => R | null; // Playwright's own typing of the argument (Unboxed<A>) does not unify with A
  let r = await frame.evaluate(inPage, arg);
  if (r === null) {
    await frame.evaluate(collectorSource()); // the run above found none: no second check
    r = await frame.evaluate(inPage, arg);
    if (r === null) throw new Error('the collector could not be injected into the frame');
  }
  return r as R;
}

/** Collects in one frame, injecting the collector first when the frame's document has none (or one before
 *  the wire form), with the document's title from the same round trip (page.title() asks in Playwright's
 *  utility world, which costs the first call in each document its script: 3-5 ms; issue 43). The result
 *  crosses as one string: Playwright's value serialiser is far slower for thousands of objects (500 ms
 *  against 35 ms on the 5,000-element page), and the wire form (collect/wire.ts) is about a quarter of the
 *  JSON's size. */
async function collectIn(frame: Frame, options: CollectOptions): Promise<{ collected: CollectResult; title: string }> {
  const [wire, title] = await withCollector(frame, (o: CollectOptions) => (window.__sightline?.wire ? [window.__sightline.wire(o), document.title] : null), options);
  return { collected: wireToResult(wire), title };
}

/** The page's overlays (the collector's findOverlays), as collectIn collects. */
export function overlaysOf(page: Page): Promise<Overlay[]> {
  return withCollector(page, () => (window.__sightline ? window.__sightline.overlays() : null), undefined);
}

export async function inject(frame: Frame): Promise<void> {
  if (await frame.evaluate(() => !!window.__sightline).catch(() => false)) return;
  await frame.evaluate(collectorSource());
}

/** A frame's document origin ("null" for about:blank and srcdoc frames, which take their parent's). */
const originOf = (f: Frame) => { try { return new URL(f.url()).origin; } catch { return 'null'; } };

/** The frames `frame`'s collection walked into or past: its children, and the children of those children that
 *  share its document's origin (a cross-origin frame may sit inside a same-origin one), children first. Frames
 *  inside a cross-origin child are that child's to find when it is collected. */
function descendants(frame: Frame): Frame[] {
  const origin = originOf(frame);
  const out: Frame[] = [];
  for (let k = 0, level = frame.childFrames(); level.length && k < MAX_FRAME_DEPTH; k++) {
    out.push(...level);
    level = level.filter((f) => { const o = originOf(f); return o === origin || o === 'null'; }).flatMap((f) => f.childFrames());
  }
  return out;
}

/** Collects the page: the main frame (with its same-origin frames) and every cross-origin frame. */
export async function collectPage(page: Page, options: CollectOptions = {}): Promise<CollectResult> {
  return (await collectPageTitled(page, options)).collected;
}

/** collectPage, and the title of the document collected (what page.title() answers), in the same round trip. */
export async function collectPageTitled(page: Page, options: CollectOptions = {}): Promise<{ collected: CollectResult; title: string }> {
  const main = page.mainFrame();
  // Ids continue across the tab's documents: after a navigation, an id from the page before names nothing.
  const state = stateOf(page);
  const { collected: top, title } = await collectIn(main, { ...options, idsFrom: state.topNext < TOP_IDS_MAX ? state.topNext : undefined });
  for (const e of [...top.raw_elements, ...top.frames]) if (e.id < FRAME_ID_SPAN && e.id >= state.topNext) state.topNext = e.id + 1;
  const topViewport = { ...top.viewport, scrollY: top.scroll_y };
  const queue: { frame: Frame; result: CollectResult; depth: number }[] = [{ frame: main, result: top, depth: 0 }];
  while (queue.length) {
    const { frame, result, depth } = queue.shift()!;
    if (!result.frames.length || depth >= MAX_FRAME_DEPTH) continue;
    // The children are collected at once (each is a few round trips; one after another they cost a page
    // with ten ad frames ~200 ms), and added in frame order, so ids and order do not depend on timing.
    // A frame showing Chromium's error page (its document was refused or failed) holds nothing of the page;
    // when every child is one (blocked ads), not even the mark below is set: one round trip less.
    const children = descendants(frame).filter((child) => !child.url().startsWith('chrome-error:'));
    if (!children.length) continue;
    // The frame element's id in the registry that walked it: `frame`'s window, found up the element's chain
    // of windows by a mark (a frame inside a same-origin frame sits in a document `frame`'s walk entered).
    const mark = `f${depth}-${queue.length}-${Math.random()}`;
    if (!(await frame.evaluate((m) => { (window as unknown as Record<string, string>).__sightlineWalker = m; return true; }, mark).catch(() => false))) continue;
    const found = await Promise.all(children.map(async (child) => {
      const element = await child.frameElement().catch(() => null);
      if (!element) return null;
      const id = await element.evaluate((el, m) => {
        for (let w: Window = window; ; w = w.parent) {
          try { if ((w as unknown as Record<string, string>).__sightlineWalker === m) return w.__sightline?.idOf(el as Element); } catch { return undefined; }
          if (w === w.parent) return undefined;
        }
      }, mark).catch(() => undefined);
      const opaque = result.frames.find((f) => f.id % FRAME_ID_SPAN === id);
      return opaque ? { child, opaque } : null;
    }));
    // Ordinals (the id ranges) in frame order, before any collection ends.
    const listed = found.filter((f) => f !== null).map((f) => ({ ...f, ordinal: ordinalOf(page, f.child) }));
    const collected = await Promise.all(listed.map(async ({ child, opaque, ordinal }) => {
      // A frame that navigates or goes away while collected (an ad rotating) is left out, not the snapshot.
      try {
        return { child, inner: (await collectIn(child, { ...options, idBase: ordinal * FRAME_ID_SPAN, offset: opaque.offset, topViewport })).collected };
      } catch { return null; /* the frame changed under us: the next snapshot sees it */ }
    }));
    for (const c of collected) {
      if (!c) continue;
      top.raw_elements.push(...c.inner.raw_elements);
      top.truncated += c.inner.truncated;
      queue.push({ frame: c.child, result: c.inner, depth: depth + 1 });
    }
  }
  return { collected: top, title };
}

/** The live element behind an id from the latest snapshot, in the frame that owns it. */
export async function resolve(page: Page, id: number): Promise<ElementHandle<Element>> {
  if (id >= FRAME_ID_SPAN) {
    const frame = stateOf(page).byOrdinal.get(Math.floor(id / FRAME_ID_SPAN));
    const handle = frame && !frame.isDetached()
      ? (await frame.evaluateHandle((local) => window.__sightline?.resolve(local) ?? null, id % FRAME_ID_SPAN)).asElement()
      : null;
    if (!handle) throw new Error(`element ${id} is gone (its frame was detached or the node removed)`);
    return handle;
  }
  for (const frame of page.frames()) {
    const owns = await frame.evaluate((n) => {
      try {
        const el = (window.top as Window).__sightline?.resolve(n);
        return !!el && el.ownerDocument === document;
      } catch { return false; }
    }, id).catch(() => false);
    if (owns) {
      const handle = (await frame.evaluateHandle((n) => (window.top as Window).__sightline!.resolve(n), id)).asElement();
      if (handle) return handle as ElementHandle<Element>;
    }
  }
  throw new Error(`element ${id} is gone (removed from the page since the snapshot)`);
}

/** Waits until the DOM has been quiet for `quietMs` and the page is loaded (or, with `loaded: false`,
 *  parsed); false on timeout. */
export async function waitForStable(page: Page, { quietMs = 500, timeoutMs = 10_000, loaded = true } = {}): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  // A page that navigates itself now has no document to inject into: the loop injects into the next one. A
  // closed page is an error at once, not a wait until the deadline.
  const injectNow = () => inject(page.mainFrame()).catch((err) => { if (page.isClosed()) throw err; });
  await injectNow();
  while (Date.now() < deadline) {
    const q = await page.evaluate(() => window.__sightline!.quiet()).catch(() => null);
    if (q && (loaded ? q.ready_state === 'complete' : q.ready_state !== 'loading') && q.quiet_ms >= quietMs) return true;
    if (!q) await injectNow(); // navigated: a new document
    await new Promise((r) => setTimeout(r, Math.min(100, Math.max(10, quietMs - (q?.quiet_ms ?? 0)))));
  }
  return false;
}

/** Longest wait for a page that fades in before a screenshot (A/B tests' anti-flicker snippets give up after 2.5-4 s). */
export const FADE_WAIT_MS = 2000;
export const FADING_WARNING = 'page_fading: the page was still fading in (its root, body or page wrapper transparent) when captured; the screenshot may be blank';

/** Waits, at most `timeoutMs`, for a page that fades in (an anti-flicker snippet, a loader) to be drawn, as a
 *  person waits the fade out; true when it is still transparent, so a screenshot now would be blank. */
export async function stillFading(page: Page, timeoutMs = FADE_WAIT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  await inject(page.mainFrame());
  for (;;) {
    const fading = await page.evaluate(() => window.__sightline!.fading()).catch(() => false);
    if (!fading || Date.now() >= deadline) return fading;
    await new Promise((r) => setTimeout(r, Math.min(100, Math.max(0, deadline - Date.now()))));
  }
}

/** Draws each element's box and id over the page (main frame); returns a remover. */
export async function highlight(page: Page, boxes: HighlightBox[]): Promise<() => Promise<void>> {
  await inject(page.mainFrame());
  await page.evaluate((items) => window.__sightline!.highlight(items), boxes);
  return async () => { await page.evaluate(() => window.__sightline?.clearHighlight()); };
}


export interface FoundSelector { selector: string; frames: string[] }

/** Selectors of the iframe elements from the main frame down to `frame`, outermost first. */
async function frameChain(frame: Frame): Promise<string[]> {
  const parent = frame.parentFrame();
  if (!parent) return [];
  await inject(parent);
  const own = await (await frame.frameElement()).evaluate((el) => window.__sightline!.selectorFor(el as Element));
  return [...await frameChain(parent), ...own.frames, own.selector];
}

/** CSS selectors for ids of the latest collection (null for a node that is gone). */
export async function selectorsOf(page: Page, ids: number[]): Promise<Map<number, FoundSelector | null>> {
  const byFrame = new Map<number, number[]>();
  for (const id of ids) {
    const ordinal = Math.floor(id / FRAME_ID_SPAN);
    byFrame.set(ordinal, [...byFrame.get(ordinal) ?? [], id]);
  }
  const found = new Map<number, FoundSelector | null>();
  for (const [ordinal, group] of byFrame) {
    const frame = ordinal === 0 ? page.mainFrame() : stateOf(page).byOrdinal.get(ordinal);
    const local = group.map((id) => id % FRAME_ID_SPAN);
    const results = frame && !frame.isDetached() ? await frame.evaluate((l) => window.__sightline!.selectors(l), local).catch(() => null) : null;
    const chain = results && frame ? await frameChain(frame).catch(() => null) : null;
    group.forEach((id, i) => {
      const r = results?.[i];
      found.set(id, r && chain ? { selector: r.selector, frames: [...chain, ...r.frames] } : null);
    });
  }
  return found;
}
