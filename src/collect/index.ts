// The collector's entry, bundled to build/collector.js (an IIFE with no imports) and injected into
// pages: it installs `window.__sightline` once per window.
import { collect, fadeLayers } from './collect.ts';
import type { CollectOptions } from './types.ts';
import { resolve, idOf } from './registry.ts';
import { watchMutations, quietness } from './metrics.ts';
import { drawHighlight, clearHighlight } from './highlight.ts';
import { selectorFor, type ElementSelector } from './selector.ts';
import { findOverlays } from './overlays.ts';
import { resultToWire } from './wire.ts';

// Raised whenever what the collector returns changes: a page holding an older one gets this one injected.
export const VERSION = 9;

export interface SightlineGlobal {
  version: number;
  collect: typeof collect;
  /** collect() in the in-process wire form (wire.ts): what collectPage carries to Node. */
  wire(options?: CollectOptions): string;
  /** The node an id stands for, or null when it is gone. */
  resolve: typeof resolve;
  idOf: typeof idOf;
  /** Milliseconds since the DOM last changed, and readiness (for waitForStable). */
  quiet(): { ready_state: string; quiet_ms: number };
  highlight: typeof drawHighlight;
  clearHighlight: typeof clearHighlight;
  /** CSS selectors for ids of this window's registry (null when the node is gone). */
  selectors(ids: number[]): (ElementSelector | null)[];
  selectorFor: typeof selectorFor;
  /** Consent banners, dialogs and walls over the page, with the control that would dismiss each. */
  overlays: typeof findOverlays;
  /** The page is still fading in: its root, body or page-wide wrapper is transparent (collect.ts, fadeLayers). */
  fading(): boolean;
}

const host = window as unknown as { __sightline?: SightlineGlobal };
if (!host.__sightline || host.__sightline.version < VERSION) {
  watchMutations();
  const quiet = () => quietness(document);
  const selectors = (ids: number[]) => ids.map((id) => { const el = resolve(id); return el ? selectorFor(el) : null; });
  const fading = () => fadeLayers(document, window).size > 0;
  const wire = (options?: CollectOptions) => resultToWire(collect(options));
  host.__sightline = { version: VERSION, collect, wire, resolve, idOf, quiet, highlight: drawHighlight, clearHighlight, selectors, selectorFor, overlays: findOverlays, fading };
}
