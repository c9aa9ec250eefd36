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

/** The first element under `el` that passes `test`, in document order (querySelector's answer without
 *  compiling a selector, template contents skipped). */
export function firstDescendant(el: El, test: (el: El) => boolean): El | null {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (test(c)) return c;
    const found = c.localName !== 'template' ? firstDescendant(c, test) : null;
    if (found) return found;
  }
  return null;
}

/** Whether an element under `el` passes `test` (querySelector's answer, template contents skipped), stopping at the first. */
export function hasDescendant(el: El, test: (el: El) => boolean): boolean {
  return firstDescendant(el, test) !== null;
}

/** A test for elements by tag name: `tags('p, div')`. */
export function tags(list: string): (el: El) => boolean {
  const names = new Set(list.split(',').map((t) => t.trim().toLowerCase()));
  return (el) => names.has(el.localName);
}

export const textOf = (el: El) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Whether `el` is a link with an address (what `a[href]` matches). */
export const isHrefLink = (el: El) => el.localName === 'a' && el.hasAttribute('href');

/** Characters of text inside links. A walk, not querySelectorAll('a'): it runs on every candidate block,
 *  and linkedom compiles the selector on each call (selector compiling was 8% of a read's CPU time). */
export function linkedText(el: El): number {
  let linked = 0;
  const visit = (parent: El) => {
    for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === 'a') linked += textOf(c).length;
      if (c.localName !== 'template') visit(c);
    }
  };
  visit(el);
  return linked;
}

export function linkDensity(el: El, textLength: number): number {
  return textLength ? linkedText(el) / textLength : 0;
}

/** Tags that start a block of their own. */
export const BLOCK_TAGS = new Set(['P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'NAV', 'ASIDE', 'UL', 'OL', 'DL', 'TABLE', 'PRE', 'BLOCKQUOTE', 'FIGURE', 'FORM', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
