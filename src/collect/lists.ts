// Repeated items: cards, result rows, menu items. Most lists on real pages have no heading, so "the third
// product" can only be counted over the page's own structure: siblings of one shape under one parent. Each
// listed element inside such an item gets the item's list (an id), its 1-based place and the list's length
// (raw element fields list_id, list_index, list_length); the rank core counts geometry when they are absent.
import { isShadowRoot } from './dom.ts';

/** A list has at least this many items (as the core's geometric lists). */
const MIN_ITEMS = 3;
/** How far up from a listed element its item is looked for. */
const MAX_UP = 8;
/** Text-level and table-cell tags are not items: paragraphs of an article, spans of a line, a row's cells. */
const NOT_ITEMS = new Set(['P', 'SPAN', 'EM', 'STRONG', 'B', 'I', 'U', 'SMALL', 'BR', 'HR', 'TD', 'TH', 'SCRIPT', 'STYLE', 'TEMPLATE',
  'OPTION', 'SOURCE', 'svg', 'path', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LABEL', 'INPUT', 'TEXTAREA', 'SELECT', 'BODY', 'HTML',
  'HEAD', 'MAIN', 'HEADER', 'FOOTER', 'NAV', 'FORM']);
/** Class tokens that mark one item's state or place, not its kind (an active tab, a numbered post). */
const STATE_CLASS = /\d|^(?:is|has)-|(?:^|[-_])(?:active|current|selected|first|last|odd|even|open|expanded|disabled|hidden)$/i;

export interface ListPlace { id: number; index: number; length: number }

/** Per collection: each parent's items by shape (computed once), each element's item place (or null). */
export interface ListCache {
  byParent: Map<ParentNode, Map<Element, ListPlace>>;
  byElement: Map<Element, ListPlace | null>;
  next: number;
  idBase: number;
  /** An item is at most this tall: a taller box is a part of the page, not an item of a list. */
  maxHeight: number;
}
export const newListCache = (idBase: number, viewportHeight: number): ListCache =>
  ({ byParent: new Map(), byElement: new Map(), next: 1, idBase, maxHeight: viewportHeight });

/** What siblings of one kind share: the tag and the first class that names a kind; without a class, the
 *  tags of the children too (bare <li>s of a menu, <tr>s of a table). */
function shapeOf(el: Element): string {
  const cls = el.getAttribute('class');
  if (cls) for (const token of cls.split(/\s+/)) if (token && !STATE_CLASS.test(token)) return `${el.tagName}.${token}`;
  let children = '';
  for (let c = el.firstElementChild, k = 0; c && k < 6; c = c.nextElementSibling, k++) children += ` ${c.tagName}`;
  return `${el.tagName}>${children}`;
}

/** The items of `parent`'s children by shape: the shown ones of each shape that has at least MIN_ITEMS. */
function itemsOf(cache: ListCache, parent: ParentNode): Map<Element, ListPlace> {
  let items = cache.byParent.get(parent);
  if (items) return items;
  items = new Map();
  cache.byParent.set(parent, items);
  if (parent.childElementCount < MIN_ITEMS) return items;
  const shapes = new Map<string, Element[]>();
  for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
    if (NOT_ITEMS.has(c.tagName)) continue;
    const shape = shapeOf(c);
    const list = shapes.get(shape);
    if (list) list.push(c); else shapes.set(shape, [c]);
  }
  for (const list of shapes.values()) {
    if (list.length < MIN_ITEMS) continue;
    // Only what a reader sees is counted: a hidden slide or a collapsed row is no item. checkVisibility
    // first: a box read inside a display lock (a closed <details>) forces a layout of the locked subtree.
    const shown = list.filter((c) => {
      if (!c.checkVisibility({ visibilityProperty: true })) return false;
      const r = c.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.height <= cache.maxHeight;
    });
    if (shown.length < MIN_ITEMS) continue;
    const id = cache.idBase + cache.next++;
    shown.forEach((c, k) => items!.set(c, { id, index: k + 1, length: shown.length }));
  }
  return items;
}

/** The parent whose children `el` is one of (a shadow root's top elements have the root). */
function containerOf(el: Element): ParentNode | null {
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  return root && isShadowRoot(root) ? root : null;
}

/** The closest item holding `el` (itself included), within MAX_UP levels, or null. */
export function listOf(cache: ListCache, el: Element): ListPlace | null {
  const chain: Element[] = [];
  let place: ListPlace | null = null;
  let settled = false; // the answer holds for every element on the chain (an item found, or the top reached)
  let a: Element | null = el;
  for (let up = 0; a && up < MAX_UP; up++) {
    const known = cache.byElement.get(a);
    if (known !== undefined) { place = known; settled = true; break; }
    chain.push(a);
    const parent = containerOf(a);
    if (!parent) { settled = true; break; }
    const found = itemsOf(cache, parent).get(a);
    if (found) { place = found; settled = true; break; }
    a = parent.nodeType === Node.ELEMENT_NODE ? parent as Element : null;
    if (!a) settled = true;
  }
  // Cut off at MAX_UP: only `el` itself is known to have no item within its reach.
  if (settled) for (const c of chain) cache.byElement.set(c, place);
  else cache.byElement.set(el, null);
  return place;
}
