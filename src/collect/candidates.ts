// Which elements an agent can act on, and which give it context. Decided from the element alone (tag,
// attributes) first; computed style only where it must be (cursor:pointer that is not inherited).

const ARIA_WIDGETS = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton', 'treeitem', 'gridcell',
]);
const STATIC_ROLES = new Set(['heading', 'alert', 'status', 'dialog', 'alertdialog']);
/** A positioned layer with a z-index covering this share of the viewport is listed (a modal or wall). */
const OVERLAY_SHARE = 0.3;
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const CONTROLS = new Set(['BUTTON', 'SELECT', 'TEXTAREA', 'SUMMARY', 'DETAILS', 'OPTION']);
/** Inputs a wrapping label stands for. */
const LABEL_CLICKED = 'input[type=checkbox], input[type=radio], input[type=file]';
/** Text that short, directly inside a landmark, is listed as context. */
const LANDMARK_TEXT_MAX = 60;
const LANDMARKS = 'nav, header, footer, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary]';

export const enum Kind { None, Interactive, Static }

/** What kindOf asks the walk for when the tag and attributes do not decide, each answered from the walk's
 *  caches: one object per walked document, so the walk allocates nothing per element for it. */
export interface KindReads {
  style(el: Element): CSSStyleDeclaration;
  /** The style of the element's parent in the flat tree (across a shadow host), null at the top. */
  parentStyle(el: Element): CSSStyleDeclaration | null;
  /** `el.closest(LANDMARKS) !== null`, cached for every element on the way up (inLandmark). */
  inLandmark(el: Element): boolean;
  viewportArea: number;
}

/** `el.closest(LANDMARKS) !== null` with each element met on the way up remembered in `cache` (per
 *  collection): closest matched every ancestor again for each short leaf, a fifth of kindOf's time on
 *  deep pages (issue 43). The same elements (parentElement up to the tree's root) and the same selector. */
export function inLandmark(cache: Map<Element, boolean>, el: Element): boolean {
  const chain: Element[] = [];
  let found = false;
  for (let a: Element | null = el; a; a = a.parentElement) {
    const known = cache.get(a);
    if (known !== undefined) { found = known; break; }
    chain.push(a);
    if (a.matches(LANDMARKS)) { found = true; break; }
  }
  for (const a of chain) cache.set(a, found);
  return found;
}

/** `tag` (tagName), `role` (the role attribute) and `leaf` (no element children): read once by the walk, which
 *  needs them too (each DOM read runs in cold code once per element on a first collection). */
export function kindOf(el: Element, tag: string, role: string | null, leaf: boolean, reads: KindReads): Kind {
  if (CONTROLS.has(tag)) return Kind.Interactive;
  // An anchor without an href is a control only by the signals below (a role, a tabindex, a click handler,
  // a pointer), as Chromium's accessibility tree has it: `<a role=button>`, `<a tabindex=0 onclick>`.
  if (tag === 'A' && el.hasAttribute('href')) return Kind.Interactive;
  if (tag === 'INPUT') return (el as HTMLInputElement).type === 'hidden' ? Kind.None : Kind.Interactive;
  if (role && ARIA_WIDGETS.has(role)) return Kind.Interactive;
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0) return Kind.Interactive;
  if (el.hasAttribute('onclick') || (el as HTMLElement).onclick) return Kind.Interactive;
  if ((el as HTMLElement).isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable) return Kind.Interactive;
  // A label is what a person clicks for a checkbox, radio or file input it wraps (those inputs are often
  // drawn hidden). A text field, select or textarea it wraps is listed itself, named by the label: the
  // label alone, filled by its field, would hide the field as static text.
  if (tag === 'LABEL' && el.querySelector(LABEL_CLICKED)) return Kind.Interactive;
  if (HEADINGS.has(tag) || (role && STATIC_ROLES.has(role))) return Kind.Static;
  if (tag === 'DIALOG' && el.hasAttribute('open')) return Kind.Static;
  const s = reads.style(el);
  if (s.cursor === 'pointer' && reads.parentStyle(el)?.cursor !== 'pointer') return Kind.Interactive;
  // z-index first: it is `auto` on nearly every element, which spares the position read (the same test).
  if (s.zIndex !== 'auto' && (s.position === 'fixed' || s.position === 'absolute') && Number(s.zIndex) > 0) {
    const r = el.getBoundingClientRect();
    if (r.width * r.height >= OVERLAY_SHARE * reads.viewportArea) return Kind.Static;
  }
  if (leaf) {
    // The text first: a leaf's text is cheap, the landmark lookup (up every ancestor, eight selectors) is not.
    const text = el.textContent?.trim() ?? '';
    if (text.length > 0 && text.length <= LANDMARK_TEXT_MAX && reads.inLandmark(el)) return Kind.Static;
  }
  return Kind.None;
}
