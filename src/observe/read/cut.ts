// contentLimit (DESIGN: "cut on a block boundary"): Markdown and text are cut at a blank line
// (markdown.ts); HTML is cut between whole elements, so what is returned is still well-formed HTML.
import { parseHTML } from 'linkedom';
import { cutAtBlock } from './markdown.ts';
/** What a read answers: Markdown (default), plain text, or cleaned HTML. */
export type ReadFormat = 'markdown' | 'text' | 'html';

export interface Cut { content: string; truncated: boolean }

/** `content` in `format` cut to at most `limit` characters, on a block boundary. */
export function cutContent(content: string, format: ReadFormat, limit: number): Cut {
  return format === 'html' ? cutHtmlAtBlock(content, limit) : cutAtBlock(content, limit, format === 'markdown');
}

/** Blocks kept whole by the first pass (upper-case tag names): a table row, preformatted text, a figure. */
const ATOMIC = new Set(['TR', 'PRE', 'FIGURE', 'PICTURE', 'SVG', 'MATH']);

type Doc = ReturnType<typeof parseHTML>['document'];

const serialize = (node: Node): string => (node.nodeType === 1 ? (node as Element).outerHTML : node.nodeType === 3 ? String(node) : '');

/** An element's start and end tags, or null for one without an end tag (void elements). */
function tagsOf(el: Element): [string, string] | null {
  const shallow = (el.cloneNode(false) as Element).outerHTML;
  const end = `</${el.localName}>`;
  return shallow.endsWith(end) ? [shallow.slice(0, shallow.length - end.length), end] : null;
}

const holdsText = (el: Element) => [...el.childNodes].some((c) => c.nodeType === 3 && (c.textContent ?? '').trim() !== '');

/** A text node's start, within `budget` characters once escaped, ending at a word when it can. */
function textStart(doc: Doc, data: string, budget: number): string {
  let k = Math.min(data.length, budget);
  let out = '';
  while (k > 0 && (out = String(doc.createTextNode(data.slice(0, k)))).length > budget) k -= Math.max(1, out.length - budget);
  if (k <= 0) return '';
  const space = data.lastIndexOf(' ', k);
  if (k < data.length && space > k / 2) k = space;
  return String(doc.createTextNode(data.slice(0, k).trimEnd()));
}

/**
 * The children of `parent` that fit in `budget` characters, in order, stopping at the first that does
 * not. One that does not fit is entered when it is a container of blocks (no text of its own, not
 * atomic) or, in the `deep` pass, always (text then cut at a word): its tags are kept, so it stays closed.
 */
function fill(doc: Doc, parent: Node, budget: number, deep: boolean): string {
  let out = '';
  for (const child of [...parent.childNodes]) {
    const html = serialize(child);
    if (out.length + html.length <= budget) { out += html; continue; }
    const room = budget - out.length;
    if (child.nodeType === 3 && deep) out += textStart(doc, child.textContent ?? '', room);
    if (child.nodeType === 1) {
      const el = child as Element;
      const tags = tagsOf(el);
      if (tags && (deep || (!ATOMIC.has(el.tagName.toUpperCase()) && !holdsText(el)))) {
        const inner = fill(doc, el, room - tags[0].length - tags[1].length, deep);
        if (inner.trim()) out += tags[0] + inner + tags[1];
      }
    }
    break;
  }
  return out;
}

/**
 * HTML cut to at most `limit` characters between whole blocks; when that keeps under half the limit
 * (one block longer than that), the block is entered down to its text, cut at a word. Every element
 * kept is closed, so the result parses back to itself.
 */
export function cutHtmlAtBlock(html: string, limit: number): Cut {
  if (html.length <= limit) return { content: html, truncated: false };
  const parse = (part: string) => parseHTML(`<!doctype html><html><body>${part}</body></html>`).document;
  // A start of the page is parsed (a 10 MB page is not parsed twice for 50,000 characters), and trusted
  // when it reads back as the page does past the limit: then what ends within the limit ends there in
  // the page too. A tag the slice cut in half is dropped by the parser and would make an unfinished
  // element look whole: the whole page is parsed then.
  let document = parse(html.slice(0, 2 * limit + 4096));
  if (!html.startsWith(document.body.innerHTML.slice(0, limit + 1024))) document = parse(html);
  document.body.normalize(); // the parser splits text at character references: one node per run of text
  let content = fill(document, document.body, limit, false).trimEnd();
  if (content.length <= limit * 0.5) content = fill(document, document.body, limit, true).trimEnd();
  return { content, truncated: true };
}
