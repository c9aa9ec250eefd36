// DOM helpers shared by the extraction modules (linkedom elements).
import { parseHTML } from 'linkedom';

export type El = Element;

/** A page's HTML as a document whose root is <html>. linkedom makes the first element the root and
 *  leaves what follows it outside (markup that omits <html>, as HTML allows, or puts a <style> before
 *  it), and makes no root for text alone; a browser has all of it in the document, which every step
 *  here expects. */
export function parsePage(html: string): Document {
  const { document } = parseHTML(html);
  if (document.documentElement?.nodeName === 'HTML') return document;
  return parseHTML(`<!doctype html><html>${html.replace(/^\s*<!doctype[^>]*>/i, '')}</html>`).document;
}

/**
 * The elements under `root` that pass `test`, in document order (template contents skipped, as
 * querySelectorAll does). linkedom compiles a selector on every call and tries a list of alternatives
 * one by one on each element: a scan of every element with a plain test costs a third of a 16-tag
 * selector list, so the hot scans over a whole page use this.
 */
export function elementsWhere(root: ParentNode, test: (el: El) => boolean): El[] {
  const out: El[] = [];
  for (const el of root.querySelectorAll('*')) if (test(el)) out.push(el);
  return out;
}

/** Whether an element under `el` passes `test` (querySelector's answer, template contents skipped), stopping at the first. */
export function hasDescendant(el: El, test: (el: El) => boolean): boolean {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (test(c) || (c.localName !== 'template' && hasDescendant(c, test))) return true;
  }
  return false;
}

/** A test for elements by tag name: `tags('p, div')`. */
export function tags(list: string): (el: El) => boolean {
  const names = new Set(list.split(',').map((t) => t.trim().toLowerCase()));
  return (el) => names.has(el.localName);
}

export const textOf = (el: El) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Characters of text inside links. */
export function linkedText(el: El): number {
  let linked = 0;
  for (const a of el.querySelectorAll('a')) linked += textOf(a).length;
  return linked;
}

export function linkDensity(el: El, textLength: number): number {
  return textLength ? linkedText(el) / textLength : 0;
}

/** Tags that start a block of their own. */
export const BLOCK_TAGS = new Set(['P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'NAV', 'ASIDE', 'UL', 'OL', 'DL', 'TABLE', 'PRE', 'BLOCKQUOTE', 'FIGURE', 'FORM', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
