// What the collector returns: SPEC raw elements plus client metrics and diagnostics. Declared here (not
// imported from src/schema) because this code runs inside pages and imports nothing.

export interface CollectOptions {
  /** Most elements listed (the rest are dropped, counted in `truncated`). Default 20,000. */
  maxElements?: number;
  /** Added to every id: the client gives each cross-origin frame its own range. Default 0. */
  idBase?: number;
  /** New ids start at this number or above: the client continues a page's numbering into each new document,
   *  so an id from a page it navigated away from never names an element of the next one. */
  idsFrom?: number;
  /** Offset of this frame's viewport in the top viewport (cross-origin frames). Default 0,0. */
  offset?: { x: number; y: number };
  /** The top page's viewport and scroll, for frames collected on their own (cross-origin frames). */
  topViewport?: { width: number; height: number; scrollY: number };
  /** List headings and short landmark text as context. Default true. */
  includeStatic?: boolean;
}

/** Ids of elements in a cross-origin frame start at its ordinal times this (client and extension). */
export const FRAME_ID_SPAN = 1_000_000;

export interface Rect { x: number; y: number; width: number; height: number }

export interface CollectedElement {
  id: number;
  tag: string;
  rect: Rect;
  text: string;
  in_viewport: boolean;
  is_occluded: boolean;
  scroll_y: number;
  center_x: number;
  center_y: number;
  doc_y: number;
  styles: { z_index: string; cursor: string; bg_color: string; display: string; visibility: string; opacity: string; position: string };
  attributes: Record<string, string>;
  /** In a list of repeated items (cards, rows, menu items: lists.ts): the list, its 1-based item, its length. */
  list_id?: number;
  list_index?: number;
  list_length?: number;
}

export interface CaptchaReport {
  detected: boolean;
  provider_hint: string | null;
  confidence: number;
  evidence: { text_hits: string[]; selector_hits: string[]; iframe_src_hits: string[]; url_hits: string[] };
}

/** A frame this document could not look into (cross-origin): the client collects it separately. */
export interface OpaqueFrame {
  /** Registry id of the iframe element. */
  id: number;
  src: string;
  /** Where the frame's viewport starts, in top-viewport coordinates. */
  offset: { x: number; y: number };
}

export interface CollectResult {
  url: string;
  viewport: { width: number; height: number };
  /** The top page's vertical scroll (what cross-origin frames are told in `topViewport`). */
  scroll_y: number;
  raw_elements: CollectedElement[];
  client_metrics: { ready_state: string; quiet_ms: number; node_count: number };
  client_diagnostics: { captcha: CaptchaReport };
  frames: OpaqueFrame[];
  truncated: number;
  /** The top document is still fading in (its root, body or page-wide wrapper transparent: collect.ts, fadeLayers). */
  fading: boolean;
  collect_ms: number;
}
