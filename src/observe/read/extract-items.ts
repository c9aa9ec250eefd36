// Listings and collections: find the repeated item containers (cards of a product grid, teasers of a
// section front, rows of a results list), keep each item's title, summary, price and date, drop its
// chrome (calls to action, "read more", badges), and keep the listing's heading and intro. The items
// are siblings built alike: the same tag and class, each holding a link and some text. General by
// design: structure and a few words of chrome in common languages, no rule for a site.
import { type El, textOf, linkedText, hasDescendant, isHrefLink } from './extract-dom.ts';

export interface ItemGroup {
  /** The element whose children are the items. */
  container: El;
  items: El[];
  /** Characters of text in the items. */
  text: number;
}

/** Fewest siblings that make a list of items. */
const MIN_ITEMS = 4;
/** Fewest characters of text an item holds on average (a bare link list is navigation). */
const MIN_ITEM_TEXT = 15;
/** Share of items that must hold a link (cards link to their page). */
const LINKED_ITEMS = 0.6;

/** The structural signature of an element: tag and first class word, digits dropped. */
function signature(el: El): string {
  const cls = (el.getAttribute('class') ?? '').trim().split(/\s+/)[0]?.replace(/\d+/g, '') ?? '';
  return `${el.tagName}.${cls}`;
}

/**
 * The best group of repeated items under `root`: for each element, its children grouped by signature;
 * a group counts with at least MIN_ITEMS members that mostly hold a link and enough text. The group
 * holding most text wins, text in links counting half (navigation is all links, items are not).
 */
export function findItems(root: El): ItemGroup | null {
  let best: ItemGroup | null = null;
  let bestScore = 0;
  const outside = outsideContent(root);
  for (const parent of [root, ...root.querySelectorAll('*')]) {
    if (parent.childElementCount < MIN_ITEMS || outside(parent)) continue;
    const groups = new Map<string, El[]>();
    for (const child of parent.children) {
      const sig = signature(child);
      const g = groups.get(sig);
      if (g) g.push(child); else groups.set(sig, [child]);
    }
    for (const items of groups.values()) {
      if (items.length < MIN_ITEMS) continue;
      let text = 0, linked = 0, withLink = 0;
      for (const item of items) {
        const t = textOf(item).length;
        text += t;
        linked += Math.min(t, linkedText(item));
        if (item.tagName === 'A' || hasDescendant(item, isHrefLink)) withLink++;
      }
      if (text / items.length < MIN_ITEM_TEXT || withLink < LINKED_ITEMS * items.length) continue;
      const score = text - linked / 2;
      if (score > bestScore) { best = { container: parent, items, text }; bestScore = score; }
    }
  }
  return best;
}

/**
 * Class or id words of page parts around the content (site chrome, rails of other things, filters):
 * a word that is a whole class token, or its start before - or _ ("header", "site-header",
 * "filters_panel"), never inside another word ("with_header").
 */
const AROUND = /^(?:(?:site|page|main|global|top|primary|mega)[-_]?)?(?:header|footer|nav|navbar|navigation|menu|breadcrumbs?|sidebar|related|recommend\w*|upsell|cross-?sell|recently-?viewed|also-?(?:bought|viewed|like)|filters?|facets?|refine\w*|sort(?:-?by)?|pagination|pager|cookie|consent|newsletter|promo|carousel|slider|slideshow|banner|announcement|ticker|marquee)(?:[-_][\w-]*)?$/i;
const around = (el: El) => `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`.split(/\s+/).some((t) => AROUND.test(t));

/**
 * Whether an element or an ancestor below `root` is named as a part around the content, or follows a
 * heading that introduces a rail. Remembered per element: the search asks it of every element, and
 * each answer is its parent's answer or its own.
 */
function outsideContent(root: El): (el: El) => boolean {
  const known = new Map<El, boolean>([[root, false]]);
  const own = (e: El) => around(e) || (e.tagName === 'HEADER' && e.parentElement === root) || RAIL_HEADING.test(headingBefore(e));
  return (el: El) => {
    const path: El[] = [];
    let e: El | null = el;
    let answer = false;
    for (; e; e = e.parentElement) {
      const k = known.get(e);
      if (k !== undefined) { answer = k; break; }
      path.push(e);
    }
    // An element outside root (never asked) counts as inside, as the walk up to root would say.
    for (let i = path.length - 1; i >= 0; i--) { answer = answer || own(path[i]); known.set(path[i], answer); }
    return answer;
  };
}

/** A heading that introduces a rail of other things, not the page's own list. */
const RAIL_HEADING = /^(?:related|recommended|you (?:may|might) also like|customers (?:also|who)|recently viewed|similar|more from|people also|frequently bought|trending now|popular (?:now|posts|articles))/i;

/** The text of the heading just before the element among its siblings ('' when none). */
function headingBefore(el: El): string {
  const prev = el.previousElementSibling;
  return prev && /^H[1-6]$/.test(prev.tagName) ? textOf(prev) : '';
}

/** Class or id words of a discussion's posts (comments, replies, messages, answers). */
const POSTS = /comment|repl(?:y|ies)|message|answer|discussion/i;

/** Whether the items are the posts of a discussion, by their container's or their own names. */
export function arePosts(group: ItemGroup): boolean {
  const names = (el: El) => `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  return POSTS.test(names(group.container)) || POSTS.test(names(group.items[0]));
}

/** Links and small blocks that are an item's chrome: calls to action, "read more", badges, counters. */
const CHROME = /^(?:read more|continue reading|more|learn more|see more|view more|show more|details|view details|see details|shop now|buy now|order now|add to (?:cart|bag|basket|wishlist|wish list|favorites)|quick ?(?:view|shop|add)|choose options|select options|compare|add to compare|save|saved|wishlist|notify me|sold out|out of stock|in stock|new|sale|on sale|hot|best ?seller|top rated|exclusive|free shipping|more colou?rs?|\+\s?\d+ (?:more|colou?rs?)|\d+ colou?rs?|weiterlesen|mehr|lire la suite|en savoir plus|leer más|ver más|leggi tutto|lees meer|»|›|→)$/i;

/**
 * Removes each item's chrome inside `root`: short elements whose whole text is a chrome phrase, and
 * the links and buttons whose text is one of `repeated` (the same short line on many items: "Rate this book").
 */
export function dropItemChrome(root: El, repeated: Set<string> = new Set()): void {
  for (const el of [...root.querySelectorAll('a, span, div, p, small, strong, em, label, li, button, h3, h4, h5, h6')]) {
    // root.contains, not isConnected: the root may be a detached copy.
    if (!root.contains(el)) continue;
    const text = textOf(el).replace(/[.…:!>»›→\s]+$/u, '').trim();
    if ((text.length <= CHROME_MAX && CHROME.test(text)) || (CONTROL_TAGS.has(el.tagName) && repeated.has(norm(text)))) el.remove();
  }
}
const CHROME_MAX = 30;
const CONTROL_TAGS = new Set(['A', 'BUTTON']);
const norm = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Links and buttons said word for word on many of the items ("Rate this book", "Explore in 3D"):
 * controls of the card, not what tells the items apart. Prices and figures stay.
 */
export function repeatedItemText(group: ItemGroup): Set<string> {
  const count = new Map<string, number>();
  for (const item of group.items) {
    const seen = new Set<string>();
    for (const el of item.querySelectorAll('a, button, [role=button]')) {
      const text = norm(textOf(el));
      // Figures stay ("4.6 out of 5", "12 reviews"); a word with a digit in it is still words ("Explore in 3D").
      if (!text || text.length > REPEAT_MAX || seen.has(text) || /(?:^|\s)[\d.,]+(?:\s|$)|[$€£¥₹%]/.test(text) || !/\p{L}{3}/u.test(text)) continue;
      seen.add(text);
      count.set(text, (count.get(text) ?? 0) + 1);
    }
  }
  const min = Math.max(REPEAT_MIN_ITEMS, REPEAT_SHARE * group.items.length);
  return new Set([...count].filter(([, n]) => n >= min).map(([t]) => t));
}
/** Longest line that counts as a repeated note, fewest items and share of items repeating it. */
const REPEAT_MAX = 40;
const REPEAT_MIN_ITEMS = 3;
const REPEAT_SHARE = 0.5;

/** Thumbnails' alternative text: on a listing the pictures illustrate the items, their titles say what they are. */
export function dropThumbnailAlt(root: El): void {
  for (const img of root.querySelectorAll('img[alt]')) img.setAttribute('alt', '');
}

/**
 * Whether `text` (another read of the page) already holds the items: most of their opening words
 * appear in it.
 */
export function holdsItems(group: ItemGroup, text: string): boolean {
  const norm = (t: string) => t.replace(/\s+/g, ' ').trim();
  const haystack = norm(text);
  const needed = HELD_SHARE * group.items.length;
  let found = 0, from = 0;
  for (const item of group.items) {
    const words = norm(textOf(item)).slice(0, ITEM_KEY);
    if (!words) continue;
    // Items come in page order, so look on from the last one found first: a long list held in a long
    // text stays linear. An item out of order is still looked for in the whole text.
    let at = haystack.indexOf(words, from);
    if (at < 0 && from > 0) at = haystack.indexOf(words);
    if (at < 0) continue;
    from = at + words.length;
    if (++found >= needed) return true;
  }
  return found >= needed;
}
const ITEM_KEY = 40;
const HELD_SHARE = 0.5;

/** How much more text an ancestor may hold than the region and still be the listing (sections of items). */
const REGION_GROWTH = 1.5;
/** Levels the region may climb above the item container. */
const REGION_LEVELS = 4;

/**
 * The listing's region: the items' container, widened to ancestors that add little besides it (other
 * groups of items under their headings, the section's heading and intro), never the whole page.
 */
export function listingRegion(group: ItemGroup, body: El): El {
  let region = group.container;
  for (let level = 0; level < REGION_LEVELS; level++) {
    const parent = region.parentElement;
    if (!parent || parent === body || parent.tagName === 'HTML') break;
    if (textOf(parent).length > REGION_GROWTH * textOf(region).length) break;
    region = parent;
  }
  return region;
}

/**
 * The listing as one element: the page's main heading and the intro that follows it when they lie
 * outside the region, then the region itself (a clone; the page is not changed).
 */
export function listingContent(group: ItemGroup, body: El): El {
  const region = listingRegion(group, body);
  const doc = body.ownerDocument;
  const out = doc.createElement('div');
  const h1 = body.querySelector('h1');
  if (h1 && !region.contains(h1) && !h1.contains(region) && precedes(h1, region)) {
    out.append(h1.cloneNode(true));
    for (const p of introAfter(h1, region)) out.append(p.cloneNode(true));
  }
  out.append(region.cloneNode(true));
  for (const el of [...out.querySelectorAll('[class], [id]')]) if (out.contains(el) && around(el)) el.remove();
  dropItemChrome(out, repeatedItemText(group));
  dropThumbnailAlt(out);
  return out;
}

/**
 * Whether `a` starts before `b` in page order (an ancestor starts before what it holds). Not
 * compareDocumentPosition: linkedom's compares depths, not positions (a deeper node is "preceding").
 */
export function precedes(a: El, b: El): boolean {
  if (a === b) return false;
  const chain = (e: El) => { const up: El[] = []; for (let x: El | null = e; x; x = x.parentElement) up.unshift(x); return up; };
  const ca = chain(a), cb = chain(b);
  let i = 0;
  while (i < ca.length && i < cb.length && ca[i] === cb[i]) i++;
  if (i === ca.length) return true;   // a holds b
  if (i === cb.length) return false;  // b holds a
  if (i === 0) return false;          // different trees
  const siblings = [...ca[i - 1].children];
  return siblings.indexOf(ca[i]) < siblings.indexOf(cb[i]);
}

/** Prose paragraphs between the heading and the region: the listing's intro. */
function introAfter(h1: El, region: El): El[] {
  const out: El[] = [];
  let scope: El | null = h1.parentElement;
  for (let level = 0; scope && level < 3 && !scope.contains(region); level++) scope = scope.parentElement;
  if (!scope) return out;
  for (const p of scope.querySelectorAll('p')) {
    if (region.contains(p) || !precedes(h1, p) || !precedes(p, region)) continue;
    const text = textOf(p);
    if (text.length >= INTRO_MIN && linkedText(p) < 0.5 * text.length) out.push(p);
    if (out.length >= INTRO_MAX) break;
  }
  return out;
}
const INTRO_MIN = 40;
const INTRO_MAX = 4;

/** The page's marked main region (`<main>`, `role=main`) holding the items, else the body. */
export function mainRegion(group: ItemGroup, body: El): El {
  return [...body.querySelectorAll('main, [role=main]')].find((m) => m.contains(group.container)) ?? body;
}

/**
 * The listing's whole main region: `<main>` (or `role=main`) when it holds the items, else the page
 * body, as left by the strip (no nav, footer, aside, overlays), without its header and the parts named
 * as site chrome, and with the items' chrome removed. It keeps what the listing read leaves out: the
 * category's intro above the grid and the text blocks below it (advice, FAQ, the category's prose).
 * A clone; the page is not changed.
 */
export function mainRegionContent(group: ItemGroup, body: El): El {
  const out = body.ownerDocument.createElement('div');
  out.append(mainRegion(group, body).cloneNode(true));
  for (const el of [...out.querySelectorAll('header, [role=banner]')]) if (out.contains(el) && !el.querySelector('h1')) el.remove();
  for (const el of [...out.querySelectorAll('[class], [id]')]) if (out.contains(el) && around(el)) el.remove();
  dropLinkLists(out, group);
  dropItemChrome(out, repeatedItemText(group));
  dropThumbnailAlt(out);
  return out;
}
const LINK_LIST_MIN = 5;
const LINK_LIST_SHARE = 0.8;

/**
 * Removes the blocks of `root` that are lists of links and hold none of the items (menus and link
 * rails the strip did not name), from the generic read and the main region read alike. An item's own
 * links (its colours, its tags) stay: a block inside an item is kept.
 */
export function dropLinkLists(root: El, group: ItemGroup): void {
  const keys = group.items.map((i) => textOf(i).replace(/\s+/g, ' ').trim().slice(0, ITEM_KEY)).filter((k) => k.length >= 10);
  const holds = (el: El) => { const t = textOf(el).replace(/\s+/g, ' '); return keys.filter((k) => t.includes(k)).length; };
  for (const el of [...root.querySelectorAll('ul, ol, div, section')]) {
    if (!root.contains(el)) continue;
    const text = textOf(el).length;
    if (!text || el.querySelectorAll('a[href]').length < LINK_LIST_MIN || linkedText(el) < LINK_LIST_SHARE * text || holds(el)) continue;
    let inItem = false;
    for (let a = el.parentElement; a && a !== root; a = a.parentElement) { const n = holds(a); if (n) { inItem = n === 1; break; } }
    if (!inItem) el.remove();
  }
}

/**
 * Class or id words of a block that describes the listing itself: the category's description, intro
 * or search-engine text (`category-description`, `collection__intro`, `seo-text`, `plp-introduction`).
 * rs-trafilatura looks for such blocks on collection pages and puts them in front of its read.
 */
const DESCRIBES = /^(?:[\w-]*[-_])?(?:categor|collection|catalog|plp|listing|taxonom|term|archive|department|shop|page|list)[\w-]*(?:description|intro)|^(?:[\w-]*[-_])?seo[-_]?(?:text|content|copy|block|description)/i;
const describes = (el: El) => `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`.split(/\s+/).some((t) => DESCRIBES.test(t));
/** Fewest words a describing block holds (a label or a one-line tagline is not a description). */
const DESCRIPTION_MIN_WORDS = 10;
/** Class words of a heading shown to screen readers only (the page's visible heading is elsewhere). */
const SCREEN_READER = /(?:^|[-_\s])(?:sr-only|visually-?hidden|screen-?reader[\w-]*|a11y[\w-]*|offscreen|hidden-?text)(?:$|[-_\s])/i;

/**
 * What introduces the listing, outside its items: the page's main heading and the prose paragraphs
 * between it and the items (when both come before the items), and the blocks named as the category's
 * description (above or below the grid). Whichever read a listing page returns (the generic one
 * often starts at the grid), these are its lead; the caller adds those the read does not hold.
 * Elements of the page (not copies), in page order; none inside the items' container.
 */
export function listingLead(group: ItemGroup, body: El): { before: El[]; after: El[] } {
  const before: El[] = [], after: El[] = [];
  const items = group.container;
  const h1 = body.querySelector('h1');
  if (h1 && !items.contains(h1) && !h1.contains(items) && precedes(h1, items) && !SCREEN_READER.test(h1.getAttribute('class') ?? '')) {
    before.push(h1, ...introAfter(h1, items));
  }
  for (const el of body.querySelectorAll('[class], [id]')) {
    if (!describes(el) || items.contains(el) || el.contains(items) || before.some((b) => b.contains(el) || el.contains(b))) continue;
    // The outermost describing block only.
    let nested = false;
    for (let a = el.parentElement; a && a !== body; a = a.parentElement) if (describes(a)) { nested = true; break; }
    const text = textOf(el);
    if (nested || text.split(' ').length < DESCRIPTION_MIN_WORDS || linkedText(el) >= 0.5 * text.length) continue;
    (precedes(el, items) ? before : after).push(el);
  }
  return { before, after };
}

/**
 * Class words of a block shown on some screen sizes only (`d-none d-md-block`, `hidden-xs`, `visible-lg`,
 * `mobile-only`, `view--lrg`, `md:hidden`): pages hold such blocks once per layout.
 */
const LAYOUT = /^(?:d-(?:\w+-)?(?:none|block|flex)|hidden-\w+|visible-\w+|(?:show|hide)-for-\w+|(?:\w+[-_])?(?:mobile|desktop|tablet)(?:[-_]\w+)?|\w*(?:--|__)(?:sm|md|lg|lrg|med|xl|small|medium|large)|(?:sm|md|lg|xl):(?:hidden|block|flex))$/i;
const layoutCopy = (el: El) => (el.getAttribute('class') ?? '').split(/\s+/).some((t) => LAYOUT.test(t));
const letters = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Removes a block named for one screen size whose text the read also says elsewhere: the copy of a
 * description or a card line for another layout, which the page shows once.
 */
export function dropLayoutCopies(root: El): void {
  const count = (hay: string, needle: string) => { let n = 0; for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++; return n; };
  let all: string | null = null; // the read's letters, computed again only after a removal
  for (const el of [...root.querySelectorAll('[class]')]) {
    if (!root.contains(el) || !layoutCopy(el)) continue;
    const key = letters(textOf(el));
    if (key.length < LAYOUT_COPY_MIN) continue;
    all ??= letters(textOf(root));
    if (count(all, key) > 1) { el.remove(); all = null; }
  }
}
/** Fewest letters and figures a layout copy must hold (a short label may well be said twice). */
const LAYOUT_COPY_MIN = 20;
