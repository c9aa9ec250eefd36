// collect(): one walk over the document (open shadow roots and same-origin frames included), no DOM
// writes, so layout is computed at most once and then only read.
import type { CollectOptions, CollectResult, CollectedElement, OpaqueFrame, Rect } from './types.ts';
import { Kind, kindOf, inLandmark, type KindReads } from './candidates.ts';
import { visibleText, accessibleName, nearbyText, isSecret, clean, HIDES_SUBTREE, UNNAMED_TEXT, type LabelIndex, type DrawnTexts } from './text.ts';
import { idOf, prune, continueFrom } from './registry.ts';
import { detectCaptcha } from './captcha.ts';
import { clientMetrics, watchMutations } from './metrics.ts';
import { isTag, isShadowRoot } from './dom.ts';
import { sectionOf, newSectionCache, isHeading, noteHeading, type SectionCache } from './section.ts';
import { listOf, newListCache, type ListCache } from './lists.ts';

/** A document being walked: where its viewport sits in the top viewport, and the frame that holds it. */
interface Frame {
  doc: Document;
  win: Window;
  /** Offset of this document's viewport in the top viewport. */
  x: number;
  y: number;
  parent: Frame | null;
  /** The iframe element (in the parent document) showing this document. */
  host: Element | null;
  /** This frame's visible box in top-viewport coordinates (null for the page itself: it scrolls). */
  clip: Rect | null;
  /** Transparent layers that hold the whole page (`fadeLayers`): their opacity hides nothing. */
  fading: Set<Element>;
  /** kindOf's reads in this document (kindReads). */
  reads: KindReads;
}

/** Share of a parent's area a child must fill to be the same target (listed once, as the parent). */
const FILLS_PARENT = 0.9;
const DEFAULT_MAX = 20_000;
/** Frames nested deeper than this are not entered. */
const MAX_FRAME_DEPTH = 8;

interface Walk {
  out: CollectedElement[];
  frames: OpaqueFrame[];
  max: number;
  truncated: number;
  includeStatic: boolean;
  idBase: number;
  top: { width: number; height: number; scrollY: number };
  styles: Map<Element, CSSStyleDeclaration>;
  /** Each element met on the way up from a listed one: how it places its box and what it clips (onTheWay). */
  onTheWay: Map<Element, OnTheWay>;
  /** Clipping ancestors that are the page's scroller (pageScroller), by element. */
  scrollers: Map<Element, boolean>;
  /** Per document: the document itself scrolls (its content is taller than the window). */
  docScrolls: Map<Document, boolean>;
  zIndex: Map<Element, string>;
  background: Map<Element, string>;
  sections: SectionCache;
  lists: ListCache;
  labels: LabelIndex;
  /** Each element's cleaned drawn text, once read (its own text, nearby text of its next sibling and its children). */
  drawn: DrawnTexts;
  /** Per document: it holds an element that hides its subtree from the accessibility tree (HIDES_SUBTREE). */
  hidesAny: Map<Node, boolean>;
  /** Per element: 'true' when it or an ancestor hides its subtree (a11yHidden, by upward), else ''. */
  a11yHidden: Map<Element, string>;
  /** Per document: it holds text names leave out (UNNAMED_TEXT); shadow trees are always checked. */
  unnamedText: Map<Node, boolean>;
  /** Per element: it or an ancestor is a landmark (inLandmark). */
  landmarks: Map<Element, boolean>;
}

/** kindOf's reads for one walked document (its window), from the walk's caches. */
function kindReads(w: Walk, win: Window): KindReads {
  return {
    style: (el) => styleIn(w, win, el),
    parentStyle: (el) => { const p = parentOf(el); return p ? styleIn(w, win, p) : null; },
    inLandmark: (el) => inLandmark(w.landmarks, el),
    viewportArea: w.top.width * w.top.height,
  };
}

const styleOf = (w: Walk, frame: Frame, el: Element): CSSStyleDeclaration => styleIn(w, frame.win, el);

function styleIn(w: Walk, win: Window, el: Element): CSSStyleDeclaration {
  let s = w.styles.get(el);
  if (!s) { s = win.getComputedStyle(el); w.styles.set(el, s); }
  return s;
}

const intersects = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The parent in the flat tree: across shadow boundaries to the host. */
function parentOf(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return isShadowRoot(root) ? root.host : null;
}

/**
 * A clipping ancestor that is the page's scroller: an app layout whose document does not scroll (its body
 * fixed to the window) scrolls a container instead, and what lies below that container's fold is reached by
 * scrolling it, as below the fold of a page that scrolls. Only vertical scrolling, only when the document
 * itself does not scroll: carousels and inner panes of scrolling pages clip as before.
 */
function pageScroller(w: Walk, frame: Frame, a: Element, s: CSSStyleDeclaration): boolean {
  let scroller = w.scrollers.get(a);
  if (scroller === undefined) {
    let docScrolls = w.docScrolls.get(frame.doc);
    if (docScrolls === undefined) {
      const root = frame.doc.scrollingElement ?? frame.doc.documentElement;
      docScrolls = !!root && root.scrollHeight > frame.win.innerHeight + 1;
      w.docScrolls.set(frame.doc, docScrolls);
    }
    scroller = !docScrolls && (s.overflowY === 'auto' || s.overflowY === 'scroll') && a.scrollHeight > a.clientHeight + 1;
    w.scrollers.set(a, scroller);
  }
  return scroller;
}

/** How a box is placed, for overflow clips: in flow, positioned (relative or sticky: a containing block for
 *  absolute boxes, as a transformed box in flow is too), absolutely positioned, or fixed. */
const enum Place { Flow, Positioned, Absolute, Fixed }

/** An element on the way up: its Place, its style and, once an element below it asked, its overflow clip (its
 *  box, or null when it clips nothing; a listed element's own clip is never needed). */
interface OnTheWay { place: Place; style: CSSStyleDeclaration; clip?: Rect | null }

/** One lookup per element on the way up, read once per collection (listed elements share their ancestors). */
function onTheWay(w: Walk, frame: Frame, el: Element): OnTheWay {
  let info = w.onTheWay.get(el);
  if (info === undefined) {
    const style = styleOf(w, frame, el);
    const place = style.position === 'fixed' ? Place.Fixed : style.position === 'absolute' ? Place.Absolute
      : style.position !== 'static' ? Place.Positioned : Place.Flow;
    info = { place, style };
    w.onTheWay.set(el, info);
  }
  return info;
}

/** Visible, hidden by an ancestor that clips overflow (checked against each clipping ancestor's box), or
 *  below (or above) the fold of the page's scroller (pageScroller): listed, out of the viewport. */
function clipping(w: Walk, frame: Frame, el: Element, rect: Rect): 'shown' | 'clipped' | 'scrolled' {
  const position = styleOf(w, frame, el).position;
  const fixed = position === 'fixed';
  // An absolutely positioned box (or one inside it) is clipped only by its containing block and what holds
  // that: an overflow box between it and its containing block does not clip it (a menu hung below a bar).
  let escaping = position === 'absolute';
  let scrolled = false;
  let above = true; // false past a fixed ancestor: the ones above it do not clip what it holds
  for (let a = parentOf(el); above && a && a !== frame.doc.body && a !== frame.doc.documentElement; a = parentOf(a)) {
    const info = onTheWay(w, frame, a);
    const { place, style } = info;
    // The containing block (positioned, or transformed: read only here, on this rare path): it and its ancestors clip.
    if (escaping && (place !== Place.Flow || style.transform !== 'none')) escaping = false;
    if (escaping) continue;
    if (place === Place.Absolute) escaping = true; // for the ancestors above this one
    if (place === Place.Fixed) above = false;
    if (info.clip === undefined) info.clip = style.overflowX !== 'visible' || style.overflowY !== 'visible' ? toTop(frame, a.getBoundingClientRect()) : null;
    const clip = info.clip;
    if (!clip || fixed || intersects(rect, clip)) continue;
    // Out of the scroller's box only vertically: scrolling brings it into that box, which the ancestors
    // further up are then checked against.
    if (rect.x < clip.x + clip.width && clip.x < rect.x + rect.width && pageScroller(w, frame, a, style)) { scrolled = true; rect = clip; continue; }
    return 'clipped';
  }
  if (frame.clip !== null && !intersects(rect, frame.clip)) return 'clipped';
  return scrolled ? 'scrolled' : 'shown';
}

/** The element's border box in top-viewport coordinates. */
function boxOf(frame: Frame, el: Element): Rect {
  return toTop(frame, el.getBoundingClientRect());
}

function toTop(frame: Frame, r: DOMRect): Rect {
  return { x: r.x + frame.x, y: r.y + frame.y, width: r.width, height: r.height };
}

/**
 * The first value `own` finds walking up from `el` (through shadow hosts), else `fallback`; every
 * element on the way is cached, so a page's elements cost one walk in total.
 */
function upward(cache: Map<Element, string>, el: Element, own: (a: Element) => string | null, fallback: string): string {
  const chain: Element[] = [];
  let value = fallback;
  for (let a: Element | null = el; a; a = parentOf(a)) {
    const known = cache.get(a);
    if (known !== undefined) { value = known; break; }
    chain.push(a);
    const found = own(a);
    if (found !== null) { value = found; break; }
  }
  for (const a of chain) cache.set(a, value);
  return value;
}

/** Hidden from the accessibility tree: the element or an ancestor (across shadow hosts, within its
 *  document) is `aria-hidden="true"` or `inert`. Such an element is drawn (a closed menu laid out without
 *  its styles) but no control a person using roles reaches. A document without either is checked once. */
function a11yHidden(w: Walk, frame: Frame, tree: Node, el: Element): boolean {
  return mayHold(w.hidesAny, frame, tree, HIDES_SUBTREE)
    && upward(w.a11yHidden, el, (a) => (a.matches(HIDES_SUBTREE) ? 'true' : null), '') === 'true';
}

/** Whether the element's tree may hold an element matching `selector`: its document is asked once (cached in
 *  `seen`); a shadow tree always may. Lets a document without any skip the per-element check. */
function mayHold(seen: Map<Node, boolean>, frame: Frame, tree: Node, selector: string): boolean {
  if (tree !== frame.doc) return true;
  let any = seen.get(tree);
  if (any === undefined) { any = frame.doc.querySelector(selector) !== null; seen.set(tree, any); }
  return any;
}

/** z-index of the nearest positioned ancestor-or-self that sets one: what decides who is on top. */
const effectiveZ = (w: Walk, frame: Frame, el: Element) =>
  upward(w.zIndex, el, (a) => { const s = styleOf(w, frame, a); return s.zIndex !== 'auto' && s.position !== 'static' ? s.zIndex : null; }, 'auto');

/** The colour behind the element: its own background, or the first opaque one up the tree. */
const effectiveBackground = (w: Walk, frame: Frame, el: Element) =>
  upward(w.background, el, (a) => {
    const c = styleOf(w, frame, a).backgroundColor;
    return c && c !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(c) ? c : null;
  }, 'rgba(0, 0, 0, 0)');

/** Is the top-most thing at (x, y) of this frame the element itself, inside it, or its ancestor? */
function clearAt(frame: Frame, el: Element, x: number, y: number): boolean {
  let hit = frame.doc.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit) return false;
  if (hit !== el && !composedContains(el, hit) && !composedContains(hit, el)) return false;
  // Inside a frame: the iframe itself must also be uncovered at that point in its parent.
  if (frame.parent && frame.host) {
    return clearAt(frame.parent, frame.host, x + (frame.x - frame.parent.x), y + (frame.y - frame.parent.y));
  }
  return true;
}

function composedContains(outer: Element, inner: Node): boolean {
  for (let n: Node | null = inner; n; n = n.parentNode ?? (isShadowRoot(n) ? n.host : null)) {
    if (n === outer) return true;
  }
  return false;
}

/** Occluded when none of five points (centre and four inner points) inside the viewport is clear. */
function occluded(w: Walk, frame: Frame, el: Element, rect: Rect): boolean {
  const xs = [0.5, 0.2, 0.8, 0.2, 0.8], ys = [0.5, 0.2, 0.2, 0.8, 0.8];
  let tested = 0;
  for (let i = 0; i < 5; i++) {
    const x = rect.x + rect.width * xs[i], y = rect.y + rect.height * ys[i];
    if (x < 0 || y < 0 || x >= w.top.width || y >= w.top.height) continue;
    const c = frame.clip;
    if (c && (x < c.x || y < c.y || x >= c.x + c.width || y >= c.y + c.height)) continue;
    tested++;
    if (clearAt(frame, el, x - frame.x, y - frame.y)) return false;
  }
  return tested > 0;
}

/** The HTML elements `:disabled` can match (by local name: an XHTML document's tagName is not upper-cased);
 *  custom elements (a hyphen in the name) too when form-associated. */
const DISABLEABLE = new Set(['button', 'input', 'select', 'textarea', 'optgroup', 'option', 'fieldset']);

/** `scrolledOut`: below or above the fold of the page's scroller (clipping): listed, not in the viewport. */
function describe(w: Walk, frame: Frame, tree: Node, el: Element, rect: Rect, scrolledOut = false): CollectedElement {
  const s = styleOf(w, frame, el);
  const text = visibleText(el, mayHold(w.unnamedText, frame, tree, UNNAMED_TEXT), w.drawn);
  const attributes: Record<string, string> = {};
  const role = el.getAttribute('role');
  if (role) attributes.role = role;
  const name = accessibleName(el, w.labels, text, frame.reads.style);
  if (name) attributes.name = name;
  const aria = el.getAttribute('aria-label');
  if (aria) attributes.aria_label = clean(aria);
  const placeholder = el.getAttribute('placeholder');
  if (placeholder) attributes.placeholder = clean(placeholder);
  const nearby = nearbyText(el, text || name, w.drawn, text !== '');
  if (nearby) attributes.nearby_text = nearby;
  // Read once: each read of `href` resolves the URL again (3% of a first collection's profile, issue 43).
  const href = isTag(el, 'A') ? el.href : '';
  if (href) attributes.href = href;
  const section = sectionOf(w.sections, tree, el);
  if (section) attributes.section = section;
  if (isTag(el, 'INPUT') || isTag(el, 'TEXTAREA') || isTag(el, 'SELECT')) {
    attributes.input_type = isTag(el, 'INPUT') ? el.type : el.tagName.toLowerCase();
    if (isSecret(el)) attributes.value_redacted = 'true';
    // A select's value is what it shows: the chosen options' labels ("Germany", not the form's "de").
    else if (isTag(el, 'SELECT')) { const shown = [...el.selectedOptions].map((o) => o.label).filter(Boolean).join(', '); if (shown) attributes.value = clean(shown); }
    else if (el.value) attributes.value = clean(el.value);
    if (isTag(el, 'INPUT') && (el.type === 'checkbox' || el.type === 'radio')) attributes.checked = String(el.checked);
  }
  if (isTag(el, 'BUTTON') && el.type) attributes.type_ = el.type;
  // :disabled, not the `disabled` property: a control inside a disabled <fieldset> cannot be used either.
  // Asked only of what it can match (form controls, options, fieldsets, form-associated custom elements).
  if ((DISABLEABLE.has(el.localName) || el.localName.includes('-')) && el.matches(':disabled')) attributes.disabled = 'true';
  for (const state of ['checked', 'disabled', 'expanded'] as const) {
    const v = el.getAttribute(`aria-${state}`);
    if (v !== null) attributes[`aria_${state}`] = v;
  }
  const cls = el.getAttribute('class');
  if (cls) attributes.class = clean(cls, 100);
  if (a11yHidden(w, frame, tree, el)) attributes.a11y_hidden = 'true';
  const centerX = rect.x + rect.width / 2, centerY = rect.y + rect.height / 2;
  const inViewport = !scrolledOut && intersects(rect, { x: 0, y: 0, width: w.top.width, height: w.top.height }) && (!frame.clip || intersects(rect, frame.clip));
  const list = listOf(w.lists, el);
  return {
    id: w.idBase + idOf(el),
    tag: el.tagName.toLowerCase(),
    rect,
    text,
    in_viewport: inViewport,
    is_occluded: inViewport ? occluded(w, frame, el, rect) : false,
    scroll_y: w.top.scrollY,
    center_x: centerX,
    center_y: centerY,
    doc_y: centerY + w.top.scrollY,
    styles: {
      z_index: effectiveZ(w, frame, el), cursor: s.cursor, bg_color: effectiveBackground(w, frame, el),
      display: s.display, visibility: s.visibility, opacity: s.opacity, position: s.position,
    },
    attributes,
    ...(list ? { list_id: list.id, list_index: list.index, list_length: list.length } : {}),
  };
}

interface Parent { rect: Rect; area: number }

/** A page that fades in (an A/B test's anti-flicker snippet, a loader) holds its root, its body or a
 *  wrapper of the whole page at opacity 0 until a script reveals it; a person waits that out, and the
 *  controls take clicks all along. Read as hidden, every element of such a page was dropped (offline, 4
 *  of 315 a11y tune pages and 2 of 96 dev4 tune pages collected nothing). A wrapper counts when it is in
 *  the flow (static or relative: a hidden modal or menu is positioned), nearly as tall as the body and at
 *  least half as wide (a centred column on a wide screen); the search goes down through such wrappers
 *  only, a few elements a level. */
const WRAPPER_TALL = 0.9;
const WRAPPER_WIDE = 0.5;
const WRAPPER_DEPTH = 6;
export function fadeLayers(doc: Document, win: Window): Set<Element> {
  const layers = new Set<Element>();
  const root = doc.documentElement, body = doc.body;
  if (Number(win.getComputedStyle(root).opacity) === 0) layers.add(root);
  if (!body) return layers;
  if (Number(win.getComputedStyle(body).opacity) === 0) layers.add(body);
  const tall = WRAPPER_TALL * body.scrollHeight, wide = WRAPPER_WIDE * body.clientWidth;
  let level: Element[] = [body];
  for (let depth = 0; depth < WRAPPER_DEPTH && level.length; depth++) {
    const next: Element[] = [];
    for (const parent of level) {
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        const r = c.getBoundingClientRect();
        if (r.height <= 0 || r.height < tall || r.width < wide) continue;
        const s = win.getComputedStyle(c);
        if (s.position !== 'static' && s.position !== 'relative') continue;
        if (Number(s.opacity) === 0) layers.add(c);
        next.push(c);
      }
    }
    level = next;
  }
  return layers;
}

/** checkVisibility with the fade layers' opacity left out. */
function shownWhileFading(w: Walk, frame: Frame, el: Element): boolean {
  if (!el.checkVisibility({ visibilityProperty: true })) return false;
  for (let a: Element | null = el; a; a = parentOf(a)) {
    if (!frame.fading.has(a) && Number(styleOf(w, frame, a).opacity) === 0) return false;
  }
  return true;
}

/** Inputs drawn as a button or a box to tick: folded into a parent they fill, like any other control. */
const CLICKED_INPUTS = new Set(['submit', 'button', 'reset', 'image', 'checkbox', 'radio', 'file']);
/** A text field, select or textarea (visit: never folded into its parent). */
const typedInto = (el: Element) => isTag(el, 'TEXTAREA') || isTag(el, 'SELECT') || (isTag(el, 'INPUT') && !CLICKED_INPUTS.has(el.type));

/** Walks the children of `root` in tree order; `tree` is the document or shadow root they belong to. Below a
 *  `display: none` element no element has a box, so none can be listed (checkVisibility is false without a box):
 *  the walk does not go there (hiddenHeadings). On real pages about half of the elements lie in such subtrees
 *  (menus, mobile copies, closed dialogs). */
function visit(w: Walk, frame: Frame, tree: Node, root: ParentNode, parent: Parent | null, depth: number): void {
  for (let el = root.firstElementChild; el; el = el.nextElementSibling) {
    if (w.out.length >= w.max) { w.truncated++; continue; }
    let next = parent;
    const tag = el.tagName, role = el.getAttribute('role'), first = el.firstElementChild, shadow = el.shadowRoot;
    const kind = kindOf(el, tag, role, first === null, frame.reads);
    if (kind === Kind.Interactive || (kind === Kind.Static && w.includeStatic)) {
      // checkVisibility first: an element it rejects cannot be listed, so its box is never read. Inside
      // a closed <details> (a display lock) that read forces a layout of the locked subtree each time.
      const rect = (frame.fading.size ? shownWhileFading(w, frame, el) : el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
        ? boxOf(frame, el) : null;
      const area = rect ? rect.width * rect.height : 0;
      // A field one types into is its own target even when it fills its parent (a `role=combobox` wrapper
      // of the search box): folded into the wrapper, the field and its name were lost.
      const fillsParent = rect !== null && parent !== null && area >= FILLS_PARENT * parent.area && intersects(rect, parent.rect) && !typedInto(el);
      // Asked before the clips: an element folded into its parent is not listed whether clipped or not, and
      // the walk below it keeps the parent either way, so its clips would go unused (7% of the visible
      // candidates on bench:peers' tune pages; issue 43).
      const clipped = !fillsParent && rect !== null && area > 0 ? clipping(w, frame, el, rect) : 'clipped';
      if (clipped !== 'clipped') {
        const described = describe(w, frame, tree, el, rect!, clipped === 'scrolled');
        // An <a> without an href listed as a control (a click handler, a tabindex) is a link to Chromium's
        // accessibility tree; without the hint the ranker reads a role-less anchor as text (issue 38).
        if (kind === Kind.Interactive && tag === 'A' && !described.attributes.href && !described.attributes.role) described.attributes.inferred_role = 'link';
        w.out.push(described);
        if (kind === Kind.Interactive) next = { rect: rect!, area };
      }
    }
    if (isHeading(el, role)) noteHeading(w.sections, tree, el);
    // Only an element whose style was read already (kindOf reads it for most): a first read of a style costs
    // more than it saves where nothing else asked for it (a link's, a button's), most inside a display lock.
    if ((first !== null || shadow !== null) && w.styles.get(el)?.display === 'none') { if (first) hiddenHeadings(w, tree, el); continue; }
    if (shadow) visit(w, frame, shadow, shadow, next, depth);
    if (tag === 'IFRAME' || tag === 'FRAME') enterFrame(w, frame, el as HTMLIFrameElement, depth);
    else if (first) visit(w, frame, tree, el, next, depth);
  }
}

/** What isHeading accepts and more (the role's value is checked after): one native query. */
const HEADING_LIKE = 'h1, h2, h3, h4, h5, h6, [role]';

/** The headings below a `display: none` element, noted as the walk would have noted them (tree order, in its
 *  tree): nothing there is listed, but a heading there still opens the section of what follows it in the same
 *  tree. A query instead of a walk: the walk paid, in cold code, a wrapper and a handful of DOM reads for every
 *  element of these subtrees (issue 43). Its shadow trees are left out: everything in them is below the hidden
 *  element too, and a heading opens sections only in its own tree. So are its frames: without a box, the walk
 *  entered none (enterFrame). Nothing is counted as truncated here: the walk only came here below its limit,
 *  and nothing here is listed. */
function hiddenHeadings(w: Walk, tree: Node, el: Element): void {
  for (const h of el.querySelectorAll(HEADING_LIKE)) if (isHeading(h, h.getAttribute('role'))) noteHeading(w.sections, tree, h);
}

function enterFrame(w: Walk, frame: Frame, iframe: HTMLIFrameElement, depth: number): void {
  const box = iframe.getBoundingClientRect();
  if (!box.width || !box.height || depth >= MAX_FRAME_DEPTH) return;
  const s = styleOf(w, frame, iframe);
  const x = frame.x + box.x + iframe.clientLeft + parseFloat(s.paddingLeft);
  const y = frame.y + box.y + iframe.clientTop + parseFloat(s.paddingTop);
  let doc: Document | null = null;
  try { doc = iframe.contentDocument; } catch { /* cross-origin */ }
  if (!doc || !iframe.contentWindow) {
    w.frames.push({ id: w.idBase + idOf(iframe), src: iframe.src, offset: { x, y } });
    return;
  }
  const clip = { x, y, width: iframe.clientWidth, height: iframe.clientHeight };
  const win = iframe.contentWindow as Window;
  const child: Frame = { doc, win, x, y, parent: frame, host: iframe, clip, fading: fadeLayers(doc, win), reads: kindReads(w, win) };
  if (doc.body) visit(w, child, doc, doc.body, null, depth + 1);
}

export function collect(options: CollectOptions = {}): CollectResult {
  const started = performance.now();
  watchMutations();
  prune();
  if (options.idsFrom) continueFrom(options.idsFrom);
  const offset = options.offset ?? { x: 0, y: 0 };
  // In quirks mode (no doctype) the root element's client box is the whole document, not the viewport.
  const root = document.compatMode === 'BackCompat' ? undefined : document.documentElement;
  const width = root?.clientWidth || window.innerWidth;
  const height = root?.clientHeight || window.innerHeight;
  const w: Walk = {
    out: [], frames: [], max: options.maxElements ?? DEFAULT_MAX, truncated: 0, includeStatic: options.includeStatic ?? true,
    idBase: options.idBase ?? 0,
    top: options.topViewport ?? { width, height, scrollY: window.scrollY },
    styles: new Map(), onTheWay: new Map(), scrollers: new Map(), docScrolls: new Map(), zIndex: new Map(), background: new Map(), sections: newSectionCache(),
    lists: newListCache(options.idBase ?? 0, options.topViewport?.height ?? height),
    labels: new Map(), drawn: new Map(), hidesAny: new Map(), a11yHidden: new Map(), unnamedText: new Map(), landmarks: new Map(),
  };
  // A frame collected on its own (cross-origin) is clipped to its box in the top page.
  const clip = options.offset ? { x: offset.x, y: offset.y, width, height } : null;
  const top: Frame = { doc: document, win: window, x: offset.x, y: offset.y, parent: null, host: null, clip, fading: fadeLayers(document, window), reads: kindReads(w, window) };
  if (document.body) visit(w, top, document, document.body, null, 0);
  return {
    url: location.href,
    viewport: { width, height },
    scroll_y: w.top.scrollY,
    raw_elements: w.out,
    client_metrics: clientMetrics(document),
    client_diagnostics: { captcha: detectCaptcha(document) },
    frames: w.frames,
    truncated: w.truncated,
    fading: top.fading.size > 0,
    collect_ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
