// Clean-up of the chosen content: link lists, ad labels, captions, repeated blocks, redundant alt
// text; links and lazy images made absolute.
import { type El, textOf, linkDensity, BLOCK_TAGS, elementsWhere, hasDescendant, tags } from './extract-dom.ts';

/** A block saying only "Advertisement" marks an ad slot in the story (common languages). */
const AD_LABEL = /^(?:advertisement|advertising|advert|ad|sponsored|anzeige|werbung|publicidad|publicité|pubblicità|iklan|реклама)$/i;

/** Link density up to which a paragraph ending like a sentence stays. */
const LINKED_SENTENCE = 0.8;

const TIDIED = tags('ul, ol, div, section, table, p');
const IMG_PRE_CODE_TABLE = tags('img, pre, code, table');
const PRE_CODE = tags('pre, code');
/** Drops blocks inside the content that are link lists or empty shells. */
export function tidy(root: El): void {
  for (const el of elementsWhere(root, TIDIED)) {
    if (!el.isConnected) continue;
    const text = textOf(el);
    if (!text.length && !hasDescendant(el, IMG_PRE_CODE_TABLE)) { el.remove(); continue; }
    if (AD_LABEL.test(text)) { el.remove(); continue; }
    const density = linkDensity(el, text.length);
    // Link lists, and short paragraphs that are mostly a link ("Related: …", "Read more …"); a
    // sentence with a link in it (it ends like one) is prose.
    const limit = el.tagName === 'P' ? 200 : 1000;
    const sentence = el.tagName === 'P' && /[.!?]["”’)]?$/.test(text) && density < LINKED_SENTENCE;
    if (density > 0.5 && text.length < limit && !sentence && !hasDescendant(el, PRE_CODE)) el.remove();
  }
}

/** Captions and credits repeat what the images show; article bodies leave them out. A figure that holds a
 *  table or code (WordPress wraps every table block in one) holds content, not a caption: kept. */
export function dropCaptions(root: El): void {
  for (const el of [...root.querySelectorAll('figcaption, figure > :not(img, picture, a, table, pre)')]) el.remove();
  for (const el of [...root.querySelectorAll('[class]')]) if (CAPTION.test(el.getAttribute('class')!) && !el.querySelector('a')) el.remove();
}
/** A class naming an image caption or credit ("wp-caption-text", "photo-credit"). */
const CAPTION = /(?:^|\s|[-_])(?:caption|credits?)(?:$|\s|[-_]text)/i;

/**
 * Alt text that says again what the page says (the card's title beside its picture, the headline, the
 * same words on every image) adds nothing to the text: drop it, and alt text that is only the image's
 * file name ("flooring-2.jpg", what a CMS fills in when the editor wrote none). Informative alt text stays.
 */
export function dropRedundantAlt(root: El, title: string): void {
  const norm = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
  // Numbered variants ("Shoe 0", "Shoe 1": one product's photos) count as the same words.
  const key = (alt: string) => alt.replace(/\d+/g, '#');
  const seen = new Map<string, number>();
  const images = [...root.querySelectorAll('img[alt]')];
  for (const img of images) { const k = key(norm(img.getAttribute('alt')!)); seen.set(k, (seen.get(k) ?? 0) + 1); }
  const heading = norm(title);
  for (const img of images) {
    const alt = norm(img.getAttribute('alt')!);
    if (!alt) continue;
    if (FILE_NAME.test(img.getAttribute('alt')!.trim())) { img.setAttribute('alt', ''); continue; }
    let near = img.parentElement;
    for (let level = 0; near && near !== root && level < ALT_CONTEXT_LEVELS; level++) near = near.parentElement;
    if (seen.get(key(alt))! > 1 || heading.includes(alt) || norm(textOf(near ?? root)).includes(alt)) img.setAttribute('alt', '');
  }
}
/** An image file's name alone, without spaces ("IMG_0042.jpg", "blue-pattern-flooring.jpg"). */
const FILE_NAME = /^[^\s/]+\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?)$/i;
/** How many levels up from an image its context (a card, a figure) reaches. */
const ALT_CONTEXT_LEVELS = 5;

/**
 * A long block whose text already appeared word for word says nothing new: the mobile and desktop
 * copies of a responsive page, a post quoted in full by the replies. Short ones (a spec line on each
 * card, a notice under each offer) repeat legitimately and stay.
 */
const REPEATABLE = tags('p, li, h1, h2, h3, h4, h5, h6, dd, blockquote, div, section');
export function dropRepeatedBlocks(root: El): void {
  const seen = new Map<string, El>();
  for (const el of elementsWhere(root, REPEATABLE)) {
    if (!el.isConnected || ((el.tagName === 'DIV' || el.tagName === 'SECTION') && [...el.children].some((c) => BLOCK_TAGS.has(c.tagName)))) continue;
    const text = textOf(el);
    if (text.length < REPEAT_MIN) continue;
    const first = seen.get(text);
    // The same text one level down (<li><p>…</p></li>) is the same block, not a copy.
    if (first && !first.contains(el)) el.remove();
    else if (!first) seen.set(text, el);
  }
}
/** Blocks shorter than this (characters) may repeat. */
const REPEAT_MIN = 80;

/** Words the page's styles set apart and its markup runs together, apart again (both steps below). */
export function spaceWords(root: El): void {
  spaceAdjacentLinks(root);
  spaceTouchingWords(root);
}

/**
 * A space between two links to different targets that touch (`<a>Strategy</a><a>Roguelike</a>`): two
 * targets are two things (tags, filters, chips) the page's styles set apart; run together they read as one word.
 */
function spaceAdjacentLinks(root: El): void {
  for (const a of [...root.querySelectorAll('a')]) {
    const next = a.nextSibling;
    // The same target twice is one link an editor split (`<a>P</a><a>acking</a>`): left as it is.
    if (next && next.nodeType === 1 && (next as El).tagName === 'A' && (next as El).getAttribute('href') !== a.getAttribute('href')) a.after(a.ownerDocument.createTextNode(' '));
  }
}

/** Tags whose boxes stand apart (Markdown already breaks the line between them). */
const BLOCK_LIKE = new Set([...BLOCK_TAGS, 'LI', 'TD', 'TH', 'TR', 'DT', 'DD', 'FIGCAPTION', 'BR', 'IMG', 'PRE', 'CODE']);

/**
 * A space where one inline element ends and another starts with two different words against each other
 * (`<span>New</span><span>Title</span>`, a count and its label `<span>24</span><span>Results</span>`):
 * a case change, or a number then a word of 2+ letters. A word styled across elements stays
 * whole: text continuing an element (`<em>Java</em>Script`, a drop cap `<span>T</span>he`), a lower-case
 * continuation, single letters, digits against digits, and code.
 */
function spaceTouchingWords(root: El): void {
  const texts: Text[] = [];
  const walk = (el: El) => { for (const n of el.childNodes) if (n.nodeType === 3) texts.push(n as Text); else if (n.nodeType === 1 && (n as El).tagName !== 'PRE' && (n as El).tagName !== 'CODE') walk(n as El); };
  walk(root);
  for (const text of texts) {
    const left = /[\p{L}\p{N}]+$/u.exec(text.data)?.[0];
    if (!left) continue;
    // Up to the outermost inline element the text ends; the next sibling must be an inline element starting with a word.
    let end: Node = text;
    while (!end.nextSibling && end.parentNode && end.parentNode !== root && !BLOCK_LIKE.has((end.parentNode as El).tagName)) end = end.parentNode;
    const next = end.nextSibling;
    if (end === text || !next || next.nodeType !== 1 || BLOCK_LIKE.has((next as El).tagName)) continue;
    let first: Node = next;
    while (first.nodeType === 1 && first.firstChild && !BLOCK_LIKE.has((first as El).tagName)) first = first.firstChild;
    const right = first.nodeType === 3 ? /^[\p{L}\p{N}]+/u.exec((first as Text).data)?.[0] : undefined;
    if (right && twoWords(left, right)) (end as ChildNode).after(root.ownerDocument.createTextNode(' '));
  }
}
/**
 * Two words, not one split: "newTitle", "NEWTitle", "12Results" (words of 2+ letters). A word then a number
 * ("badges129": a forum's user stats) is mostly text outside the content: set apart it would read as two wrong words.
 */
function twoWords(left: string, right: string): boolean {
  return (/\p{Ll}{2}$/u.test(left) && /^\p{Lu}\p{L}/u.test(right))
    || (/\p{Lu}{2}$/u.test(left) && /^\p{Lu}\p{Ll}/u.test(right))
    || (/\p{N}$/u.test(left) && /^\p{L}{2}/u.test(right));
}

/** Schemes a link in a read may keep: anything else (javascript:, vbscript:, data:, a browser's own) would
 *  reach the caller's renderer as an executable or meaningless link. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:', 'ftp:']);

/** Links and images with absolute addresses; lazy images get their real source. A link whose address does not
 *  parse, or parses to another scheme, loses its href (its text stays). The URL parser strips what browsers
 *  strip (leading spaces, tabs and newlines inside: "java\tscript:"), and schemes are case-insensitive. */
export function absolutize(root: El, base: string): void {
  const abs = (v: string | null) => {
    if (!v) return v;
    try { return new URL(v.trim(), base).href; } catch { return v; }
  };
  for (const a of root.querySelectorAll('a[href]')) {
    let url: URL | null = null;
    try { url = new URL(a.getAttribute('href')!, base); } catch { /* not an address */ }
    if (url && LINK_SCHEMES.has(url.protocol)) a.setAttribute('href', url.href);
    else a.removeAttribute('href');
  }
  for (const img of root.querySelectorAll('img')) {
    const lazy = img.getAttribute('data-src') ?? img.getAttribute('data-lazy-src') ?? img.getAttribute('data-original');
    const srcset = img.getAttribute('srcset') ?? img.getAttribute('data-srcset');
    let src = lazy ?? img.getAttribute('src');
    if ((!src || src.startsWith('data:')) && srcset) src = srcset.split(',')[0].trim().split(/\s+/)[0];
    if (src && !src.startsWith('data:')) img.setAttribute('src', abs(src)!);
    else img.remove();
    img.removeAttribute('srcset');
  }
}

/**
 * Sections that a heading names as chrome beside the article ("About the Author", "Related Posts",
 * "Recent Articles", "You might also like", "Share this article"): the heading and the block it opens
 * go. Sites mark these up every way (utility classes, no names at all) but title them alike, as
 * readers see them. The block is the outermost one the heading starts that holds under half of the
 * content's text; a heading loose among its siblings takes them up to the next heading. English titles.
 */
export function dropChromeSections(root: El): void {
  const found: El[] = [];
  // Text nodes, not elements: one pass over the content, and only short ones are tested.
  const walk = (el: El) => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 1) walk(n as El);
      else if (n.nodeType === 3 && (n as Text).data.length < CHROME_TITLE_MAX && CHROME_TITLE.test((n as Text).data.trim())) found.push(el);
    }
  };
  walk(root);
  if (!found.length) return;
  const rootText = textOf(root).length;
  for (const at of found) {
    // A link titled so is a menu entry, not a heading.
    if (!at.isConnected || at.closest('a')) continue;
    const title = textOf(at);
    if (!CHROME_TITLE.test(title)) continue;
    // The element that is the heading: up through wrappers holding only its text; a block, not a label in a line.
    let heading = at;
    while (heading.parentElement && heading.parentElement !== root && textOf(heading.parentElement) === title) heading = heading.parentElement;
    if (!HEADING_TAGS.has(heading.tagName) && !BLOCK_TAGS.has(heading.tagName)) continue;
    let section = heading;
    for (let p = section.parentElement; p && p !== root; p = p.parentElement) {
      const text = textOf(p);
      if (!text.startsWith(title) || text.length > CHROME_SECTION_SHARE * rootText) break;
      section = p;
    }
    if (section !== heading) { section.remove(); continue; }
    // A heading loose in the flow: it and what follows it up to the next heading.
    const run: El[] = [heading];
    let size = title.length;
    for (let s = heading.nextElementSibling; s && !HEADING_TAGS.has(s.tagName) && !hasDescendant(s, (e) => HEADING_TAGS.has(e.tagName)); s = s.nextElementSibling) {
      run.push(s);
      size += textOf(s).length;
    }
    if (size <= CHROME_SECTION_SHARE * rootText) for (const el of run) el.remove();
  }
}
/** Titles of chrome sections (the whole heading, a closing colon or ellipsis at most). */
const CHROME_TITLE = /^(?:about the (?:authors?|reviewers?|writers?)|related (?:articles?|posts?|stories|content|reading|news)|recent (?:articles|posts|stories|news)|(?:you )?(?:may|might) also (?:like|enjoy|be interested in)|read next|share(?: this)?(?: article| post| story| page)?|more (?:articles|stories|posts) from\b.*|(?:most )?popular (?:articles|posts|stories)|recommended (?:for you|articles|posts|reading|stories))[\s:.…!]*$/i;
/** Longest text node tested as a title (characters). */
const CHROME_TITLE_MAX = 60;
/** Most of the content's text a chrome section may hold (more is the content itself). */
const CHROME_SECTION_SHARE = 0.5;
const HEADING_TAGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
