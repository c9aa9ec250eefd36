// DOM helpers shared by the extraction modules (linkedom elements).
import { parseHTML } from 'linkedom';

export type El = Element;

/** A page's HTML as a document. linkedom builds no root for markup without an element (a bare
 *  sentence, nothing at all), which every step expects; a browser puts such text in a body. */
export function parsePage(html: string): Document {
  const { document } = parseHTML(html);
  return document.documentElement ? document : parseHTML(`<!doctype html><html><body>${html}</body></html>`).document;
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
