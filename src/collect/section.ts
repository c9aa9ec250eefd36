// The part of the page an element sits in, named as a reader would: the closest labelled landmark,
// menu or list around it ("Sections", "Footer"), or the heading that opens its section ("Most read").
// Agents name lists this way ("the second story in Most read"); the rank core matches the goal against it.
import { clean } from './text.ts';

const MAX_SECTION = 80;
/** Containers whose aria-label names a part of the page (a bare div's label names the div). */
const LABELLED_TAGS = new Set(['NAV', 'SECTION', 'ASIDE', 'FORM', 'FIELDSET', 'UL', 'OL', 'MENU', 'HEADER', 'FOOTER', 'MAIN', 'ARTICLE', 'DIALOG', 'TABLE']);
const LABELLED_ROLES = new Set(['navigation', 'region', 'complementary', 'menu', 'menubar', 'list', 'listbox', 'group', 'tablist', 'toolbar', 'radiogroup', 'dialog', 'form', 'search', 'banner', 'contentinfo', 'tree', 'grid']);
/** How far up a labelled container is looked for, and how many earlier headings are tried. */
const MAX_UP = 12;
const MAX_HEADINGS_BACK = 8;

/**
 * Per walk: the labels of containers, computed once, and the headings of each document or shadow root
 * seen so far. The walk visits each tree in tree order and notes every heading (`noteHeading`) after
 * describing it, so when an element is described its tree's list holds exactly the headings before it
 * in document order (its heading ancestors included): no search with compareDocumentPosition, which
 * walks sibling lists in Blink and cost seconds on a 20,000-element page.
 */
export interface SectionCache { labels: Map<Element, string>; headings: Map<Node, Element[]> }
export const newSectionCache = (): SectionCache => ({ labels: new Map(), headings: new Map() });

const HEADING_NAMES = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** The test `h1, h2, h3, h4, h5, h6, [role="heading"]` makes, without selector matching. */
export const isHeading = (el: Element, role: string | null) => HEADING_NAMES.has(el.localName) || role === 'heading';

export function noteHeading(cache: SectionCache, tree: Node, el: Element): void {
  const list = cache.headings.get(tree);
  if (list) list.push(el); else cache.headings.set(tree, [el]);
}

function ownLabel(el: Element): string {
  const role = el.getAttribute('role');
  if (!LABELLED_TAGS.has(el.tagName) && !(role && LABELLED_ROLES.has(role))) return '';
  if (el.tagName === 'FIELDSET') {
    const legend = el.querySelector(':scope > legend');
    if (legend) return clean(legend.textContent, MAX_SECTION);
  }
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const text = by.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '').join(' ');
    if (text.trim()) return clean(text, MAX_SECTION);
  }
  return clean(el.getAttribute('aria-label'), MAX_SECTION);
}

/** The closest labelled container of `el` (not `el` itself), with its label. */
function labelledAncestor(cache: SectionCache, el: Element): [Element, string] | null {
  let a = el.parentElement;
  for (let up = 0; a && up < MAX_UP; up++, a = a.parentElement) {
    let label = cache.labels.get(a);
    if (label === undefined) { label = ownLabel(a); cache.labels.set(a, label); }
    if (label) return [a, label];
  }
  return null;
}

/** The last heading before `el` in document order whose section (its parent) holds `el`. */
function openingHeading(cache: SectionCache, tree: Node, el: Element): Element | null {
  const list = cache.headings.get(tree);
  if (!list) return null;
  const lo = list.length;
  for (let k = lo - 1; k >= 0 && k >= lo - MAX_HEADINGS_BACK; k--) {
    const h = list[k];
    if (h.contains(el)) continue; // a link inside a heading: the heading is its own text
    if (h.parentElement?.contains(el)) return h;
  }
  return null;
}

/** The element's section label, or '' when the page gives none. */
export function sectionOf(cache: SectionCache, tree: Node, el: Element): string {
  const labelled = labelledAncestor(cache, el);
  const heading = openingHeading(cache, tree, el);
  // The more specific wins: a heading inside the labelled container, else the container.
  if (heading && (!labelled || labelled[0].contains(heading))) return clean(heading.textContent, MAX_SECTION);
  return labelled ? labelled[1] : '';
}
