// Text, accessible names, nearby text and values, with redaction: passwords, one-time codes and card
// data never leave the page.
import { isTag } from './dom.ts';

const MAX_TEXT = 300;
const MAX_NEARBY = 100;

/** Longer text is first collapsed from a prefix of this many characters per character kept. */
const PREFIX_PER_CHAR = 4;

export function clean(text: string | null | undefined, max = MAX_TEXT): string {
  if (!text) return '';
  // A long text (a container's textContent can be megabytes): collapsing a prefix gives the same
  // result whenever the prefix alone is longer than `max` once collapsed, because collapsing a prefix
  // yields a prefix of the collapsed whole.
  const prefix = PREFIX_PER_CHAR * max + 64;
  if (text.length > prefix) {
    const head = text.slice(0, prefix).replace(/\s+/g, ' ').trim();
    if (head.length > max) return head.slice(0, max - 1) + '…';
  }
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

function byIds(el: Element, ids: string): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  return ids.split(/\s+/).map((id) => { const target = root.getElementById?.(id); return target ? drawnText(target) ?? '' : ''; }).join(' ');
}

/**
 * Each element's drawn text (drawnText), cleaned to MAX_TEXT, kept for one collection: one element's is read as a
 * listed element's own text, as the text before its next sibling and as its children's parent text, and each read
 * scans its subtree. Cleaned to a shorter max from this one: `clean` is the collapsed text cut at max, so
 * cleaning the text cut at MAX_TEXT again to a shorter max gives the same string.
 */
export type DrawnTexts = Map<Element, string>;

function drawnClean(drawn: DrawnTexts, el: Element): string {
  let text = drawn.get(el);
  if (text === undefined) { text = clean(drawnText(el), MAX_TEXT); drawn.set(el, text); }
  return text;
}

/** `mayHide`: false when the element's tree holds nothing names leave out (`UNNAMED_TEXT`, checked once per
 *  document by the walk): then textContent without a check. `drawn`: where the text is also the element's drawn
 *  text (nothing below is left out), it is kept there for nearbyText. */
export function visibleText(el: Element, mayHide = true, drawn?: DrawnTexts): string {
  if (isTag(el, 'INPUT') && ['submit', 'button', 'reset'].includes(el.type)) return clean(el.value);
  if (isTag(el, 'INPUT') || isTag(el, 'TEXTAREA') || isTag(el, 'SELECT')) return '';
  // A closed <details> draws only its summary: what it hides is not visible text (SPEC).
  if (isTag(el, 'DETAILS') && !el.open) {
    const summary = [...el.children].find((c) => isTag(c, 'SUMMARY'));
    return summary ? visibleText(summary, mayHide) : '';
  }
  if (!mayHide) return clean(el.textContent);
  if (notDrawn(el)) return '';
  // Nothing below that names leave out, so nothing that is not drawn (NOT_DRAWN_OR_SLOT is part of
  // UNNAMED_OR_SLOT): the text is the drawn text too.
  if (!el.firstElementChild || !el.querySelector(UNNAMED_OR_SLOT)) {
    if (!drawn) return clean(el.textContent);
    let text = drawn.get(el);
    if (text === undefined) { text = clean(el.textContent); drawn.set(el, text); }
    return text;
  }
  // A descendant's text is left out of names ("Click here to search" plus an aria-hidden icon's "search").
  return clean(textWithout(el, unnamed));
}

/** Elements whose content is never drawn: a style sheet (an SVG icon's embedded `<style>`, a CSS-in-JS sheet
 *  inside or just before a button), a script, `<noscript>` while scripts run (its markup is raw text), a
 *  template. The accessibility tree leaves their text out of every name, and so do names and nearby text here. */
const NOT_DRAWN_TAGS = ['style', 'script', 'noscript', 'template'];
const NOT_DRAWN = NOT_DRAWN_TAGS.join(', ');
const notDrawnTag = new Set(NOT_DRAWN_TAGS);
const notDrawn = (e: Element) => notDrawnTag.has(e.localName);

/** Descendants whose text no accessible name from content holds: `aria-hidden="true"` subtrees (an icon's
 *  SVG `<title>` inside one), SVG `<desc>` (a description, never a name) and what is never drawn (NOT_DRAWN).
 *  A visible SVG's `<title>` stays: it names the SVG, and so the icon-only button around it. */
export const UNNAMED_TEXT = `[aria-hidden="true" i], desc, ${NOT_DRAWN}`;
/** Text gathered from a walk before it stops: far more than `clean` keeps (it collapses a prefix of
 *  PREFIX_PER_CHAR x MAX_TEXT characters), so the cut never changes a cleaned text with a real prefix. */
const WALK_MAX = 16 * PREFIX_PER_CHAR * MAX_TEXT;

/** What a `<slot>` draws in its place: the nodes assigned to it (flattened through nested slots), or its own
 *  children (fallback content) when none are. A shadow tree's button often holds only a slot, its label the
 *  host's light-DOM text ("Toggle sidebar" in `<mdn-button>`): the accessibility tree names it from that text
 *  (the flat tree) where textContent sees an empty slot. */
function slotted(slot: Element): ArrayLike<Node> | null {
  const nodes = (slot as HTMLSlotElement).assignedNodes?.({ flatten: true });
  return nodes && nodes.length ? nodes : null;
}
const SLOT = 'slot';
/** A slot anywhere below: the fast paths' textContent cannot be used (it reads the slot's fallback, never the
 *  nodes assigned to it). Only a shadow tree's slots are assigned nodes. */
const UNNAMED_OR_SLOT = `${UNNAMED_TEXT}, ${SLOT}`;
const NOT_DRAWN_OR_SLOT = `${NOT_DRAWN}, ${SLOT}`;

/** The text of `el`'s subtree without the subtrees `skip` names, its text and CDATA nodes in tree order as
 *  textContent joins them, a slot's assigned nodes in its place (read up to `max` characters, WALK_MAX by default). */
export function textWithout(el: Element, skip: (e: Element) => boolean, max = WALK_MAX): string {
  const parts: string[] = [];
  let length = 0;
  const take = (c: Node): void => {
    if (c.nodeType === Node.TEXT_NODE || c.nodeType === Node.CDATA_SECTION_NODE) {
      const t = (c as CharacterData).data;
      parts.push(t); length += t.length;
    } else if (c.nodeType === Node.ELEMENT_NODE && !skip(c as Element)) {
      const assigned = (c as Element).localName === SLOT ? slotted(c as Element) : null;
      if (assigned) for (let i = 0; i < assigned.length && length < max; i++) take(assigned[i]);
      else walk(c);
    }
  };
  const walk = (node: Node): void => {
    for (let c = node.firstChild; c && length < max; c = c.nextSibling) take(c);
  };
  walk(el);
  return parts.join('');
}

const unnamed = (e: Element) => notDrawn(e) || e.getAttribute('aria-hidden')?.toLowerCase() === 'true'
  || (e.localName === 'desc' && e.namespaceURI === SVG_NS);

/** The element's drawn text: textContent without what is never drawn (NOT_DRAWN). Nearby text keeps
 *  aria-hidden words (they still say what is around a control to someone looking at the page). */
function drawnText(el: Element): string | null {
  if (notDrawn(el)) return '';
  if (!el.firstElementChild || !el.querySelector(NOT_DRAWN_OR_SLOT)) return el.textContent;
  return textWithout(el, notDrawn);
}
const SVG_NS = 'http://www.w3.org/2000/svg';

/** What hides an element and its subtree from the accessibility tree. */
export const HIDES_SUBTREE = '[aria-hidden="true" i], [inert]';

/**
 * The label elements of each control, per tree (document or shadow root), built once per collection
 * from the tree's labels: reading `el.labels` makes Blink walk the whole tree for each control the
 * first time (quadratic on a page with thousands of fields). Same list: the labels, in tree order,
 * whose labeled control is the element.
 */
export type LabelIndex = Map<Node, Map<Element, Element[]>>;

function labelsOf(index: LabelIndex, el: Element): Element[] {
  const root = el.getRootNode();
  let byControl = index.get(root);
  if (!byControl) {
    byControl = new Map();
    for (const label of (root as ParentNode).querySelectorAll('label')) {
      const control = (label as HTMLLabelElement).control;
      if (!control) continue;
      const list = byControl.get(control);
      if (list) list.push(label); else byControl.set(control, [label]);
    }
    index.set(root, byControl);
  }
  return byControl.get(el) ?? [];
}

/** Roles (first token of `role`) and tags whose accessible name comes from their content when nothing
 *  names them explicitly (WAI-ARIA "name from content"; HTML-AAM for the tags). */
export const CONTENT_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'checkbox',
  'radio', 'switch', 'treeitem', 'heading', 'cell', 'gridcell', 'columnheader', 'rowheader', 'tooltip']);
export const CONTENT_TAGS = new Set(['A', 'BUTTON', 'SUMMARY', 'OPTION', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'TD', 'TH']);
function namedFromContent(el: Element): boolean {
  const role = el.getAttribute('role')?.trim().split(/\s+/)[0]?.toLowerCase();
  return role ? CONTENT_ROLES.has(role) : CONTENT_TAGS.has(el.tagName);
}
/**
 * The name from content as the accessibility tree computes it (accname 1.2, step 2F), for an element with
 * element children: a descendant with `aria-labelledby` or `aria-label` gives that label instead of its
 * text, an image its alt; what is hidden (CSS or `aria-hidden`) or never drawn gives nothing; a block-level
 * child is set apart by spaces ("Returns" over "& Orders" reads "Returns & Orders", not "Returns& Orders").
 * Embedded fields give nothing (their value is not a name here). Read up to WALK_MAX characters.
 */
/** An element's computed style in its own window (a same-origin frame's), from the walk's cache: the walk reads
 *  the descendants' styles too, and a second style object for one element costs as much as the first. */
export type StyleOf = (el: Element) => CSSStyleDeclaration;
/** Descendants named by their title before their content inside a name from content (contentName). */
const IMAGE_LIKE = new Set(['svg', 'object']);
function contentName(el: Element, styleOf: StyleOf): string {
  const parts: string[] = [];
  let length = 0;
  const push = (t: string) => { parts.push(t); length += t.length; };
  const walk = (node: Node): void => {
    for (let c = node.firstChild; c && length < WALK_MAX; c = c.nextSibling) take(c);
  };
  const take = (c: Node): void => {
    if (c.nodeType === Node.TEXT_NODE || c.nodeType === Node.CDATA_SECTION_NODE) { push((c as CharacterData).data); return; }
    if (c.nodeType !== Node.ELEMENT_NODE) return;
    const e = c as Element;
    if (unnamed(e) || isTag(e, 'INPUT') || isTag(e, 'SELECT') || isTag(e, 'TEXTAREA')) return;
    if (e.localName === 'br') { push(' '); return; } // a line break parts words as a block does
    const assigned = e.localName === SLOT ? slotted(e) : null;
    if (assigned) { for (let i = 0; i < assigned.length && length < WALK_MAX; i++) take(assigned[i]); return; }
    const style = styleOf(e);
    if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return;
    const block = !style.display.startsWith('inline') && style.display !== 'contents';
    if (block) push(' ');
    const labelledby = e.getAttribute('aria-labelledby');
    const byLabel = labelledby ? clean(byIds(e, labelledby)) : '';
    const label = byLabel || e.getAttribute('aria-label')?.trim();
    if (label) push(` ${label} `);
    else if (e.localName === 'img') { const alt = e.getAttribute('alt')?.trim() || e.getAttribute('title')?.trim(); if (alt) push(` ${alt} `); }
    else {
      // A descendant's title, as Chromium reads it in a name from content (accname step 2I): an image-like
      // descendant (an <svg>, an <object>, `role="img"`: a badge, a rating) is named by its title before its
      // content; one named from content (a nested button) by its title when its content names
      // nothing. A generic <span> or <div>, or one with role none, gives its title to nothing.
      const title = e.getAttribute('title')?.trim();
      const role = title ? e.getAttribute('role')?.trim().split(/\s+/)[0]?.toLowerCase() : undefined;
      if (title && (role === 'img' || (!role && IMAGE_LIKE.has(e.localName)))) push(` ${title} `);
      else {
        const from = parts.length;
        walk(e);
        if (title && (role ? CONTENT_ROLES.has(role) : CONTENT_TAGS.has(e.tagName)) && !parts.slice(from).join('').trim()) push(` ${title} `);
      }
    }
    if (block) push(' ');
  };
  walk(el);
  return clean(parts.join(''));
}

/**
 * Accessible name, as Chromium's accessibility tree gives it, when it is not simply the element's text:
 * aria-labelledby, aria-label, label elements; then, for a role named from its content (links, buttons,
 * headings, tabs, options…), the content: an empty string when the content name is the visible text
 * (`text` already says it), the content name when it differs (an image's alt, a child's aria-label,
 * blocks set apart); an input drawn as a button by its value (an image button by its alt); a `title` names
 * an element only when its content names nothing (it is a tooltip otherwise), then a field's placeholder,
 * then an image's alt.
 */
export function accessibleName(el: Element, labelIndex: LabelIndex, text: string, styleOf: StyleOf): string {
  const labelledby = el.getAttribute('aria-labelledby');
  if (labelledby) {
    const name = clean(byIds(el, labelledby));
    if (name) return name;
  }
  const aria = el.getAttribute('aria-label');
  if (aria?.trim()) return clean(aria);
  // `labels` itself is cheap (null for elements that cannot be labelled); its length is not.
  const labels = (el as HTMLInputElement).labels ? labelsOf(labelIndex, el) : null;
  if (labels && labels.length) {
    // A label that wraps its control names it without the control's own content (a select's every option,
    // a textarea's text), as Chromium's accessible name does.
    const name = clean([...labels].map((l) => l.contains(el) && el.firstChild ? textWithout(l, (e) => e === el || notDrawn(e)) : drawnText(l)).join(' '));
    if (name) return name;
  }
  // An input drawn as a button is named by what it draws before its title (HTML-AAM; Chromium names
  // `<input type=submit value="Log in" title="Enter your username…">` "Log in"), with the browser's default
  // label when it has no value; an image button by its alt, value, then title.
  if (isTag(el, 'INPUT')) {
    const type = el.type;
    if (type === 'submit' || type === 'reset' || type === 'button') {
      if (text) return ''; // its value, which `text` already says
      if (type !== 'button') return type === 'submit' ? 'Submit' : 'Reset';
    } else if (type === 'image') {
      return clean(el.getAttribute('alt')) || clean(el.value) || clean(el.getAttribute('title')) || 'Submit';
    }
  }
  if (namedFromContent(el)) {
    const name = el.firstElementChild ? contentName(el, styleOf) : text;
    if (name) return name === text ? '' : name;
  }
  // A field's title before its placeholder (HTML-AAM; Chromium names "Email *" with title "Enter a valid
  // email address." by the title).
  const title = el.getAttribute('title');
  if (title?.trim()) return clean(title);
  const placeholder = el.getAttribute('placeholder');
  if (placeholder?.trim()) return clean(placeholder);
  const img = el.tagName === 'IMG' ? el : el.querySelector('img[alt]');
  return clean(img?.getAttribute('alt'));
}

/** Text around the element that is not its own: the previous sibling's, else the parent's. `drawn` keeps
 *  each element's cleaned drawn text for the collection (many controls share one parent; a control's
 *  previous sibling is often a control described just before). */
export function nearbyText(el: Element, own: string, drawn: DrawnTexts, ownIsText = false): string {
  // The previous drawn sibling: a CSS-in-JS sheet is often written just before the element it styles.
  let before = el.previousElementSibling;
  while (before && notDrawn(before)) before = before.previousElementSibling;
  const prev = before ? clean(drawnClean(drawn, before), MAX_NEARBY) : '';
  if (prev && prev !== own) return prev;
  const parent = el.parentElement;
  if (!parent) return '';
  const around = drawnClean(drawn, parent);
  // The parent's textContent holds the element's text with any parts names leave out ("Add <svg
  // aria-hidden><title>cart icon</title></svg>to cart"): when its own text is not found there, take that out.
  const mine = ownIsText && !around.includes(own) ? drawnClean(drawn, el) || own : own;
  const rest = clean(mine ? around.replace(mine, ' ') : around, MAX_NEARBY);
  return rest === mine ? '' : rest;
}

const SECRET_AUTOCOMPLETE = /^(one-time-code|cc-|current-password|new-password)/;
const SECRET_NAME = /pass(word)?|pwd|otp|one.?time|cvv|cvc|csc|card.?num|cc.?num|security.?code|pin\b/i;
const CARD_NUMBER = /^\d[\d -]{11,22}\d$/;

/** Luhn check: a 13-19 digit string that passes is treated as a card number. */
function looksLikeCard(value: string): boolean {
  if (!CARD_NUMBER.test(value)) return false;
  const digits = value.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

export function isSecret(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): boolean {
  if (isTag(el, 'INPUT') && el.type === 'password') return true;
  const autocomplete = (el.getAttribute('autocomplete') ?? '').toLowerCase();
  if (SECRET_AUTOCOMPLETE.test(autocomplete)) return true;
  if (SECRET_NAME.test(`${el.getAttribute('name') ?? ''} ${el.id}`)) return true;
  return looksLikeCard(el.value.trim());
}
