// The collector's entry, bundled to build/collector.js (an IIFE with no imports) and injected into
// pages: it installs `window.__sightline` once per window.
import { collect } from './collect.ts';
import { resolve, idOf } from './registry.ts';
import { watchMutations, quietness } from './metrics.ts';
import { drawHighlight, clearHighlight } from './highlight.ts';

export const VERSION = 2;

export interface SightlineGlobal {
  version: number;
  collect: typeof collect;
  /** The node an id stands for, or null when it is gone. */
  resolve: typeof resolve;
  idOf: typeof idOf;
  /** Milliseconds since the DOM last changed, and readiness (for waitForStable). */
  quiet(): { ready_state: string; quiet_ms: number };
  highlight: typeof drawHighlight;
  clearHighlight: typeof clearHighlight;
}

const host = window as unknown as { __sightline?: SightlineGlobal };
if (!host.__sightline || host.__sightline.version < VERSION) {
  watchMutations();
  const quiet = () => quietness(document);
  host.__sightline = { version: VERSION, collect, resolve, idOf, quiet, highlight: drawHighlight, clearHighlight };
}
