// DOM helpers shared by the extraction modules (linkedom elements).

export type El = Element;

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
