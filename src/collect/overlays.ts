// Layers that sit over the page: consent banners, dialogs, walls. Observe map/visual reports them
// (`modal_detected`, `overlays`) and, only when the caller asks, clicks the control that dismisses one.
// A separate pass from collect(): it reads every element's computed position, which collect() avoids.
import { idOf } from './registry.ts';
import { CONSENT, DISMISS } from './overlay-words.ts';

export interface Overlay {
  kind: 'consent' | 'dialog' | 'layer';
  bounds: { x: number; y: number; width: number; height: number };
  /** Share of the viewport it covers, 0..1. */
  coverage: number;
  /** Registry id of the control that most likely closes it (close, reject, then accept), or null. */
  dismiss_id: number | null;
}

/** Layers smaller than this share of the viewport (a chat bubble, a back-to-top button) are ignored. */
const MIN_COVERAGE = 0.05;
/** A plain fixed layer (no consent text, no dialog role) counts only from this share: a wall. */
const LAYER_COVERAGE = 0.3;
const CONTROLS = 'button, a[href], [role=button], input[type=button], input[type=submit]';

function dismissControl(layer: Element): number | null {
  const controls = [...layer.querySelectorAll(CONTROLS)].filter((c) => (c as HTMLElement).offsetParent !== null || getComputedStyle(c).position === 'fixed');
  const label = (c: Element) => (c.getAttribute('aria-label') || c.textContent || (c as HTMLInputElement).value || c.getAttribute('title') || '').replace(/\s+/g, ' ').trim();
  for (const pattern of DISMISS) {
    const hit = controls.find((c) => pattern.test(label(c)));
    if (hit) return idOf(hit);
  }
  return null;
}

/** The next element after `walker`'s current node, skipping its subtree. */
function skipSubtree(walker: TreeWalker): Element | null {
  for (let n: Node | null = walker.currentNode; n; n = walker.parentNode()) {
    const sibling = walker.nextSibling();
    if (sibling) return sibling as Element;
  }
  return null;
}

/** The overlay `el` forms, or null. */
function overlayOf(el: Element, vw: number, vh: number): Overlay | null {
  const s = getComputedStyle(el);
  const dialog = el.matches('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]');
  if (s.position !== 'fixed' && s.position !== 'sticky' && !(dialog && s.position === 'absolute')) return null;
  if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return null;
  // A sticky header or nav bar is part of the page, not a layer over it.
  if (!dialog && el.matches('header, nav, [role=banner], [role=navigation]')) return null;
  const r = el.getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0)), h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
  const coverage = (w * h) / (vw * vh);
  if (coverage < MIN_COVERAGE) return null;
  const kind = CONSENT.test((el as HTMLElement).innerText ?? '') ? 'consent' : dialog ? 'dialog' : 'layer';
  if (kind === 'layer' && coverage < LAYER_COVERAGE) return null; // a fixed bar with no consent or dialog in it
  return { kind, bounds: { x: r.x, y: r.y, width: r.width, height: r.height }, coverage: Math.round(coverage * 1000) / 1000, dismiss_id: dismissControl(el) };
}

export function findOverlays(): Overlay[] {
  const found: Overlay[] = [];
  const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_ELEMENT);
  let node = walker.nextNode() as Element | null;
  while (node) {
    const overlay = overlayOf(node, innerWidth, innerHeight);
    if (overlay) found.push(overlay);
    node = overlay ? skipSubtree(walker) : walker.nextNode() as Element | null; // its descendants belong to it
  }
  return found;
}
