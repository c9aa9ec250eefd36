// Service and landing pages: a company's page about what it offers is a column of sections (hero,
// benefits, features, how it works, testimonials, FAQ), often straight under <body> with no <main>.
// The prose scoring finds the best section; the page's content is the run of sections around it.
// General rules only: sibling <section>s with headings, not a site's classes.
import { type El, textOf } from './extract-dom.ts';

/** Fewest sibling sections that make a sectioned page. */
const MIN_SECTIONS = 3;
/** Share of the parent's text the headed sections must hold. */
const SECTIONS_SHARE = 0.6;

/** Tags a page section is written with. */
const SECTION_TAGS = new Set(['SECTION']);

const headed = (el: El) => !!el.querySelector('h1, h2, h3, h4');

/**
 * The element whose children are the page's sections, when the best block sits in one of several
 * sibling sections (same tag) with headings that together hold most of that element's text; null otherwise.
 * The caller judges the links it would add, as for any wider region.
 */
export function sectionedRegion(best: El, body: El): El | null {
  for (let el: El | null = best; el && el !== body.parentElement; el = el.parentElement) {
    const parent = el.parentElement;
    if (!parent || !SECTION_TAGS.has(el.tagName)) continue;
    const sections = [...parent.children].filter((c) => c.tagName === el.tagName && headed(c));
    if (sections.length < MIN_SECTIONS) continue;
    const total = textOf(parent).length;
    const held = sections.reduce((s, c) => s + textOf(c).length, 0);
    if (total && held >= SECTIONS_SHARE * total) return parent;
  }
  return null;
}
