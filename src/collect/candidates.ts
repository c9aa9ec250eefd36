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

export function kindOf(el: Element, style: () => CSSStyleDeclaration, parentStyle: () => CSSStyleDeclaration | null, viewportArea: number): Kind {
  const tag = el.tagName;
  if (CONTROLS.has(tag)) return Kind.Interactive;
  // An anchor without an href is a control only by the signals below (a role, a tabindex, a click handler,
  // a pointer), as Chromium's accessibility tree has it: `<a role=button>`, `<a tabindex=0 onclick>`.
  if (tag === 'A' && el.hasAttribute('href')) return Kind.Interactive;
  if (tag === 'INPUT') return (el as HTMLInputElement).type === 'hidden' ? Kind.None : Kind.Interactive;
  const role = el.getAttribute('role');
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
  const s = style();
  if (s.cursor === 'pointer' && parentStyle()?.cursor !== 'pointer') return Kind.Interactive;
  if ((s.position === 'fixed' || s.position === 'absolute') && s.zIndex !== 'auto' && Number(s.zIndex) > 0) {
    const r = el.getBoundingClientRect();
    if (r.width * r.height >= OVERLAY_SHARE * viewportArea) return Kind.Static;
  }
  if (el.childElementCount === 0) {
    // The text first: a leaf's text is cheap, the landmark lookup (up every ancestor, eight selectors) is not.
    const text = el.textContent?.trim() ?? '';
    if (text.length > 0 && text.length <= LANDMARK_TEXT_MAX && el.closest(LANDMARKS)) return Kind.Static;
  }
  return Kind.None;
}
