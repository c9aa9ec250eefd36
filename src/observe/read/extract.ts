// Main-content extraction on a linkedom document: drop what is never content (scripts, hidden nodes,
// navigation, cookie banners), score blocks by their prose (text length, commas, link density, class
// hints), take the best container and the siblings that belong with it, or the page's main region
// when the block is one part of it (a docs section, one card of a listing); keep the posts of a
// discussion. General by design: no site rules. Also the title, description, absolute links and lazy
// images. Clean-up of the chosen content lives in extract-tidy.ts.
import { parseHTML } from 'linkedom';
import { type El, parsePage, textOf, linkedText, linkDensity, BLOCK_TAGS, elementsWhere, hasDescendant, tags } from './extract-dom.ts';
import { tidy, dropChromeSections, dropCaptions, dropRepeatedBlocks, dropRedundantAlt, absolutize, spaceWords } from './extract-tidy.ts';
import { isProductPage, tidyProduct, dropSmallPrint, mayHoldSmallPrint, revealPanels, dropScriptText } from './extract-product.ts';
import { isForumThread, threadOf } from './extract-forum.ts';
import { sectionedRegion } from './extract-service.ts';
import { pruneBlocks } from './extract-blocks.ts';
import { detectPageType, pageMeta, type PageMeta, type PageTypeResult } from './page-type.ts';
import { faqOf, mayHoldFaq, holdsFaq, faqBlock, faqText, type FaqEntry } from './extract-faq.ts';
import { findItems, listingContent, listingLead, mainRegion, dropLinkLists, mainRegionContent, holdsItems, dropItemChrome, repeatedItemText, dropThumbnailAlt, dropLayoutCopies, arePosts, type ItemGroup } from './extract-items.ts';

const DROP = tags('script, style, noscript, template, svg, canvas, iframe, object, embed, link, meta, input, button, select, textarea, dialog');
/** `[hidden], [aria-hidden="true"], [style*="display:none"]` and the like, as a test (elementsWhere). */
const HIDDEN_STYLE = /display: ?none|visibility: ?hidden/;
const isHidden = (el: El) => el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true' || HIDDEN_STYLE.test(el.getAttribute('style') ?? '');
/** Elements whose class or id says "not the content" (unless they also say "content"). */
const UNLIKELY = /-ad-|reviews|recommend|upsell|cross-?sell|recently-?viewed|also-?(?:bought|viewed|like)|ai2html|banner|breadcrumbs?|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|\bpager\b|popup|yom-remote|cookie|consent|modal|newsletter|subscribe|share|promo|outbrain|taboola|masthead|toolbar|skip-?link|navbar|signup|login|search|gallery|slideshow|carousel|lightbox/i;
const COMMENTS = /comment|replies|respond/i;
const MAYBE = /and|article|body|column|content|main|shadow|post|entry|story|text|prose|markdown|documentation|docs/i;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story|prose|markdown|documentation/i;
const NEGATIVE = /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|foot|footer|footnote|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|widget|byline|author|dateline|subscribe|newsletter/i;
/** Class names or itemprops that name an article's body: a strong hint, worth several paragraphs. */
const BODY_HINT = /(?:^|[\s_-])(?:article|entry|post|story|main)[-_]?(?:body|content|text)(?:$|[\s_-])|articleBody/i;
const BLOCKS = new Set(['P', 'PRE', 'TD', 'BLOCKQUOTE', 'LI', 'DD', 'H2', 'H3', 'H4', 'DIV', 'SECTION', 'ARTICLE', 'FIGCAPTION']);
/** `nav, footer, aside` and their roles (navigation, contentinfo, complementary, banner, search). */
const BOILERPLATE_TAG = tags('nav, footer, aside');
const BOILERPLATE_ROLES = new Set(['navigation', 'contentinfo', 'complementary', 'banner', 'search']);
const isBoilerplate = (el: El) => BOILERPLATE_TAG(el) || BOILERPLATE_ROLES.has(el.getAttribute('role') ?? '');

export interface Extracted {
  title: string;
  description: string;
  /** The chosen content as an HTML string (links and images absolute). */
  html: string;
  /** Plain text of the content, blocks separated by blank lines. */
  text: string;
  lang: string;
}

function meta(doc: Document, names: string[]): string {
  for (const n of names) {
    const el = doc.querySelector(`meta[name="${n}"], meta[property="${n}"]`);
    const v = el?.getAttribute('content')?.trim();
    if (v) return v;
  }
  return '';
}

function classWeight(el: El): number {
  const hint = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  let w = 0;
  if (BODY_HINT.test(`${hint} ${el.getAttribute('itemprop') ?? ''}`)) w += 50;
  if (NEGATIVE.test(hint)) w -= 25;
  if (POSITIVE.test(hint)) w += 25;
  return w;
}

function tagWeight(el: El): number {
  switch (el.tagName) {
    case 'ARTICLE': return 10;
    case 'MAIN': case 'DIV': case 'SECTION': return 5;
    case 'PRE': case 'TD': case 'BLOCKQUOTE': return 3;
    case 'ADDRESS': case 'OL': case 'UL': case 'DL': case 'DD': case 'DT': case 'LI': case 'FORM': return -3;
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': case 'TH': return -5;
    default: return 0;
  }
}

/** How hard an attempt strips: the first drops likely boilerplate by class names; later ones, when the
 *  first found too little, trust the page's structure only (as Readability retries). */
interface Attempt { unlikely: boolean; weights: boolean; prose: boolean; comments?: boolean }
const ATTEMPTS: Attempt[] = [
  { unlikely: true, weights: true, prose: true }, { unlikely: false, weights: true, prose: true }, { unlikely: false, weights: false, prose: true },
  // Listings, catalogues and link-heavy pages have no prose to find: take the region holding most text.
  { unlikely: true, weights: true, prose: false },
];
const LISTING = ATTEMPTS.find((a) => !a.prose)!;
/** A child holding this share of its parent's text is where the content is (listing attempt). */
const DOMINANT_SHARE = 0.6;
/** An attempt that yields less text than this tries the next. */
const ENOUGH_TEXT = 500;
/** Comment text this many times the content found without it makes a page a discussion (forum thread). */
const DISCUSSION_RATIO = 4;
/** Prose this long, even if short of ENOUGH_TEXT, is a short article rather than a listing. */
const SOME_PROSE = 400;

const SCREEN_READER_ONLY = /(?:^|\s)(?:sr-only|sr-only-focusable|visually-?hidden|screen-?reader-(?:text|only)|a11y-(?:hidden|only))(?:$|\s)/i;
/** Consent walls and overlays: never content, whatever the attempt. */
const CONSENT = /cookie|consent|gdpr|onetrust|cookiebot|didomi|truste|usercentrics|privacy-?banner/i;
const isOverlay = (el: El) => { const role = el.getAttribute('role'); return role === 'dialog' || role === 'alertdialog' || el.getAttribute('aria-modal') === 'true'; };

/** A <noscript> holding this much text is the page's server-rendered content (forums, apps): keep it. */
const NOSCRIPT_CONTENT = 500;

/** Share of the page's text a hidden block must hold to be kept as content revealed by script. */
const HIDDEN_CONTENT = 0.4;

/** A tab panel by role or class name. */
const TAB_PANEL = /tabpanel|tab-?pane|tab-panel|tabs?-content/i;

/** Removes what is never content, anywhere in the page. */
function strip(doc: Document, mainOnly: boolean): void {
  for (const el of [...doc.querySelectorAll('noscript')]) {
    if (textOf(el).length >= NOSCRIPT_CONTENT && el.childElementCount > 0) el.replaceWith(...el.childNodes);
  }
  for (const el of elementsWhere(doc, DROP)) el.remove();
  const pageText = textOf(doc.documentElement as El).length;
  for (const el of elementsWhere(doc, isHidden)) {
    // A hidden block holding much of the page is the content waiting for a script to reveal it
    // (streamed server rendering, anti-flicker wrappers): keep it. So are the other panels of a
    // set of tabs (the same example in other languages, a product's specifications).
    if (textOf(el).length < HIDDEN_CONTENT * pageText && !TAB_PANEL.test(`${el.getAttribute('role') ?? ''} ${el.getAttribute('class') ?? ''}`)) el.remove();
  }
  if (!mainOnly) return;
  for (const el of elementsWhere(doc, isOverlay)) el.remove();
  // Text for screen readers only repeats what the page shows ("Price: $5" beside "$5") or
  // describes controls ("opens in a new window"): the page as seen leaves it out.
  for (const el of elementsWhere(doc, (e) => e.hasAttribute('class') || e.hasAttribute('id'))) {
    if (!el.isConnected || el.tagName === 'BODY' || el.tagName === 'HTML') continue;
    const cls = el.getAttribute('class') ?? '';
    if (SCREEN_READER_ONLY.test(cls) || CONSENT.test(`${cls} ${el.getAttribute('id') ?? ''}`)) el.remove();
  }
  for (const el of elementsWhere(doc, isBoilerplate)) {
    // Keep a nav or aside that holds most of the page's prose (some docs sites wrap content oddly).
    if (textOf(el).length < 2000 || linkDensity(el, textOf(el).length) > 0.3) el.remove();
  }
}

/**
 * Groups of labelled checkboxes and radio buttons: a listing's filter facets ("Size: XS, S, M", "Filter
 * Color with value Beige") or a form's options, not what the page says (except on a product's page). A
 * group is the outermost element holding several such choices whose labels make up most of its text, and
 * few links (a checklist without labels, as Markdown task lists are written, is none). Found before the
 * strip drops the inputs.
 */
function choiceGroups(doc: Document): El[] {
  const inputs = [...doc.querySelectorAll('input')].filter((i) => CHOICE_INPUT.test(i.getAttribute('type') ?? ''));
  if (inputs.length < CHOICES_MIN) return [];
  const byFor = new Map<string, El>();
  for (const l of doc.querySelectorAll('label[for]')) byFor.set(l.getAttribute('for')!, l);
  // Per ancestor: how many labelled choices it holds and how much of its text their labels are.
  const held = new Map<El, { choices: number; labelText: number }>();
  const counted = new Set<El>();
  for (const input of inputs) {
    const label = input.closest('label') ?? byFor.get(input.getAttribute('id') ?? '');
    if (!label || counted.has(label)) continue;
    counted.add(label);
    const n = textOf(label).length;
    for (let a = label.parentElement, level = 0; a && a.tagName !== 'BODY' && a.tagName !== 'HTML' && level < CHOICE_LEVELS; a = a.parentElement, level++) {
      const h = held.get(a) ?? { choices: 0, labelText: 0 };
      h.choices++; h.labelText += n;
      held.set(a, h);
    }
  }
  // Not a block of links (cards whose pictures or names are links, with a compare box or colour swatches each),
  // nor one holding the page's heading or prose (a page body whose filters outweigh its short intro).
  const groups = [...held].filter(([el, h]) => {
    const n = textOf(el).length;
    return h.choices >= CHOICES_MIN && h.labelText >= CHOICE_TEXT * n && linkDensity(el, n) < CHOICE_LINKS && !hasDescendant(el, holdsProse);
  }).map(([el]) => el);
  // The outermost groups; one repeated on many items (each card's colour swatches) is part of the items.
  const outermost = groups.filter((el) => !groups.some((g) => g !== el && g.contains(el)));
  const shape = (el: El) => `${el.tagName} ${el.getAttribute('class') ?? ''}`;
  const count = new Map<string, number>();
  for (const el of outermost) count.set(shape(el), (count.get(shape(el)) ?? 0) + 1);
  return outermost.filter((el) => (count.get(shape(el)) ?? 0) < CHOICE_REPEATS);
}
const CHOICE_INPUT = /^(?:checkbox|radio)$/i;
/** The page's heading, or a paragraph of prose (not a choice's label). */
const holdsProse = (el: El) => el.tagName === 'H1' || (el.tagName === 'P' && textOf(el).length >= CHOICE_PROSE && !el.closest('label'));
const CHOICE_PROSE = 80;
/** Fewest labelled choices a group holds, levels above a label it may reach, and its text's share in their labels. */
const CHOICES_MIN = 3;
const CHOICE_LEVELS = 8;
const CHOICE_TEXT = 0.5;
const CHOICE_LINKS = 0.2;
/** Groups of one shape on this many items are the items' own choices. */
const CHOICE_REPEATS = 3;

/**
 * Removes blocks whose class or id says they are boilerplate (the first attempt only). Comment threads
 * go too unless `keepComments` (a discussion page); returns how much comment text was removed, and
 * whether a block named as chrome held most of the page's text in varied prose (`tookMost`: the page
 * wraps its content in a "headerWrapper" or a "sidebar-container", and the next attempt reads it).
 */
function stripUnlikely(root: El, keepComments: boolean): { commentText: number; tookMost: boolean } {
  let commentText = 0, tookMost = false;
  const rootText = textOf(root).length;
  for (const el of [...root.querySelectorAll('*')]) {
    if (!el.isConnected || el.tagName === 'BODY' || el.tagName === 'ARTICLE' || el.tagName === 'MAIN') continue;
    let hint = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''} ${el.getAttribute('role') ?? ''}`;
    const comment = COMMENTS.test(hint);
    if (keepComments && comment) hint = hint.replace(COMMENT_WORDS, '');
    // "comment-content" is still a comment: the content hint does not rescue comment threads.
    if (hint.trim() && UNLIKELY.test(hint) && (!MAYBE.test(hint) || (!keepComments && comment)) && !hasDescendant(el, ARTICLE_OR_MAIN)) {
      const own = textOf(el).length;
      if (comment) commentText += own;
      else if (own >= MOST_OF_PAGE * rootText && own >= MOST_OF_PAGE_MIN && richness(textOf(el)) >= RICH_TEXT) tookMost = true;
      el.remove();
    }
  }
  return { commentText, tookMost };
}
const COMMENT_WORDS = /comment|replies|respond/gi;
/** Share of the page's text, and fewest characters, a block named as chrome must hold to be taken for the content's wrapper. */
const MOST_OF_PAGE = 0.5;
const MOST_OF_PAGE_MIN = 2000;
/** Vocabulary richness of prose; a promo bar's slides repeating one notice per country score lower (0.65 seen). */
const RICH_TEXT = 0.75;
/** Vocabulary richness, log(distinct words) / log(words) (Herdan's C, near-independent of length): low when a
 *  block says one thing many times (a promo bar's slides, one notice per country). */
function richness(text: string): number {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length > 1 ? Math.log(new Set(words).size) / Math.log(words.length) : 0;
}
const ARTICLE_OR_MAIN = tags('article, main');

/**
 * The element holding the page's content. Broken markup (elements before <body>, a second <body>)
 * leaves the parser's body empty or partial: then the whole document, without its head.
 */
function pageRoot(doc: Document): El {
  const html = doc.documentElement as El;
  const body = doc.body as El | null;
  const head = doc.head as El | null;
  const pageText = textOf(html).length - (head ? textOf(head).length : 0);
  if (body && textOf(body).length >= 0.9 * pageText) return body;
  head?.remove();
  return html;
}

/**
 * Text written straight into a container beside block children (old CMSes put the story between
 * <br>s in a div that also holds a title <p>) is a paragraph the scoring would not see: wrap each
 * such run of text and inline elements in a <p>.
 */
const LOOSE_TEXT_HOLDERS = tags('div, section, article, main, td');
function wrapLooseText(root: El): void {
  for (const div of elementsWhere(root, LOOSE_TEXT_HOLDERS)) {
    if (![...div.children].some((c) => BLOCK_TAGS.has(c.tagName))) continue;
    let run: Node[] = [];
    const flush = () => {
      if (run.some((n) => n.nodeType === 3 && (n.textContent ?? '').trim().length >= 25)) {
        const p = div.ownerDocument.createElement('p');
        run[0].parentNode!.insertBefore(p, run[0]);
        for (const n of run) p.appendChild(n);
      }
      run = [];
    };
    for (const node of [...div.childNodes]) {
      if (node.nodeType === 1 && BLOCK_TAGS.has((node as El).tagName)) flush();
      else run.push(node);
    }
    flush();
  }
}

const SCORED = tags('p, pre, td, blockquote, li, dd, h2, h3, div, section');
const HOLDS_BLOCKS = tags('p, div, section, pre, table, ul, ol, blockquote');
/** Readability-style scoring: prose paragraphs lend their score to their parent and grandparents. */
function bestContainer(body: El, attempt: Attempt, kind: PageKind = 'page'): El {
  const scores = new Map<El, number>();
  const init = (el: El) => {
    if (!scores.has(el)) scores.set(el, tagWeight(el) + (attempt.weights ? classWeight(el) : 0));
  };
  for (const block of elementsWhere(body, SCORED)) {
    if (!BLOCKS.has(block.tagName)) continue;
    // A div counts as a paragraph only when it holds text directly (no block children).
    if ((block.tagName === 'DIV' || block.tagName === 'SECTION') && hasDescendant(block, HOLDS_BLOCKS)) continue;
    const text = textOf(block);
    if (text.length < 25) continue;
    const score = 1 + (text.match(/[,，、]/g)?.length ?? 0) + Math.min(Math.floor(text.length / 100), 3);
    let ancestor = block.parentElement;
    for (let level = 0; ancestor && level < 3; level++, ancestor = ancestor.parentElement) {
      if (ancestor.tagName === 'HTML') break;
      init(ancestor);
      scores.set(ancestor, scores.get(ancestor)! + score / (level === 0 ? 1 : level === 1 ? 2 : level * 3));
    }
  }
  let best: El = body;
  let bestScore = -Infinity;
  for (const [el, score] of scores) {
    const final = score * (1 - linkDensity(el, textOf(el).length));
    scores.set(el, final);
    if (final > bestScore) { best = el; bestScore = final; }
  }
  if (best === body) return body;
  if (kind === 'page') ({ best, bestScore } = climb(best, bestScore, scores, body));
  const region = widen(best, body);
  if (region) return region;
  // Siblings that belong with the best block (Readability's rule): well scored ones, and prose
  // paragraphs with few links. They are gathered, in order, into one container.
  const parent = best.parentElement;
  if (!parent) return best;
  const threshold = Math.max(10, bestScore * 0.2);
  const keep = [...parent.children].filter((sib) => {
    if (sib === best) return true;
    if ((scores.get(sib) ?? -Infinity) >= threshold) return true;
    if (sib.tagName !== 'P') return false;
    const text = textOf(sib);
    const density = linkDensity(sib, text.length);
    return (text.length > 80 && density < 0.25) || (text.length > 0 && text.length <= 80 && density === 0 && /\.( |$)/.test(text));
  });
  if (keep.length === 1) return best;
  const container = best.ownerDocument.createElement('div');
  for (const el of keep) container.append(el);
  return container;
}

/**
 * Readability's climb from the best-scored block to the article it is one part of (a section scored
 * alone, a table wrapper whose unclosed tags swallowed the rest of the post): the first ancestor scored
 * higher, while none on the way scores under a third of the block, when what it adds is prose rather
 * than links. On generic pages only (articles, docs, services): on listings, products and threads it
 * took a grid, a rail or the page's frame on tune. (Readability's climb through wrappers with no other
 * child was measured too and left out: on news articles it took their bylines and headers.)
 */
function climb(best: El, bestScore: number, scores: Map<El, number>, body: El): { best: El; bestScore: number } {
  let last = bestScore;
  for (let a = best.parentElement; a && a !== body; a = a.parentElement) {
    const s = scores.get(a);
    if (s === undefined) continue;
    if (s < bestScore / 3) break;
    if (s > last) return addsProse(a, best) ? { best: a, bestScore: Math.max(bestScore, s) } : { best, bestScore };
    last = s;
  }
  return { best, bestScore };
}
/** What an ancestor adds to the best block is prose, not links (teasers, menus). */
function addsProse(ancestor: El, best: El): boolean {
  const added = textOf(ancestor).length - textOf(best).length;
  return added <= 0 || (linkedText(ancestor) - linkedText(best)) / added < WIDEN_LINK_DENSITY_ARTICLE;
}

/** Without a marked main region: the best block's nearest ancestor holding most of the page's text. */
function unmarkedMain(best: El, body: El): El | null {
  const total = textOf(body).length;
  for (let el = best.parentElement; el && el !== body; el = el.parentElement) {
    if (textOf(el).length >= UNMARKED_SHARE * total) return el;
  }
  return null;
}
/** Share of the page's text an ancestor must hold to stand in for an unmarked main region. */
const UNMARKED_SHARE = 0.6;

/** Share of its text in links that what widening adds may have and still count as content. */
const WIDEN_LINK_DENSITY = 0.4;
/** The same next to long prose, and how long that is. */
const WIDEN_LINK_DENSITY_ARTICLE = 0.25;
const LONG_PROSE = 1500;
/** Widen when the best block holds less than this share of the marked main region's text. */
const WIDEN_SHARE = 0.6;

/**
 * The best block is often one part of the content (one post of a thread, one section of a docs page
 * or a service page). When the page's main region (<main>, role=main, or else the block's nearest
 * ancestor holding most of the page's text) holds the block and much more text besides, and is not
 * mostly links, the region is the content.
 */
function widen(best: El, body: El): El | null {
  // A page of sibling sections (a service or landing page) with no marked main region: the sections.
  const main = body.querySelector('main, [role=main]') ?? unmarkedMain(best, body) ?? sectionedRegion(best, body);
  if (!main || main === best || !main.contains(best)) return null;
  const text = textOf(main).length;
  const own = textOf(best).length;
  if (own >= WIDEN_SHARE * text) return null;
  // Judge what widening adds: teasers and link lists around an article do not join it. Next to a
  // long piece of prose (an article) only prose does; next to a short block (one section of a
  // service or docs page) the rest of the region may hold more links.
  const linked = linkedText(main) - linkedText(best);
  const limit = own >= LONG_PROSE ? WIDEN_LINK_DENSITY_ARTICLE : WIDEN_LINK_DENSITY;
  return linked / (text - own) < limit ? main : null;
}

/** The deepest element that still holds most of the page's remaining text. */
function dominantRegion(body: El): El {
  let current = body;
  for (;;) {
    const total = textOf(current).length;
    const next = [...current.children].find((c) => textOf(c).length >= DOMINANT_SHARE * total);
    if (!next || total === 0) return current;
    current = next;
  }
}

/** Whether the element, an ancestor or a descendant is named as an article's body. */
function inArticleBody(root: El): boolean {
  const named = (el: El) => ARTICLE_BODY.test(`${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''} ${el.getAttribute('itemprop') ?? ''}`);
  for (let el: El | null = root; el; el = el.parentElement) if (named(el)) return true;
  return [...root.querySelectorAll('[class], [id], [itemprop]')].some(named);
}
/** An article's body by name (a page-wide "main-content" wrapper is not one). */
const ARTICLE_BODY = /(?:^|[\s_-])(?:article|entry|story)[-_]?(?:body|content|text)(?:$|[\s_-])|articleBody/i;

/** Plain text with block boundaries as blank lines. */
export function blockText(root: El): string {
  const out: string[] = [];
  let line = '';
  const flush = () => { const t = line.replace(/\s+/g, ' ').trim(); if (t) out.push(t); line = ''; };
  const walk = (node: Node) => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) { line += n.textContent; continue; }
      if (n.nodeType !== 1) continue;
      const tag = (n as El).tagName;
      const block = /^(P|DIV|SECTION|ARTICLE|H[1-6]|LI|PRE|BLOCKQUOTE|TR|TABLE|UL|OL|DL|DT|DD|FIGURE|FIGCAPTION|HEADER|MAIN|BR|HR)$/.test(tag);
      if (block) flush();
      walk(n);
      if (block) flush();
    }
  };
  walk(root);
  flush();
  return out.join('\n\n');
}

/**
 * Outside SVG and MathML a browser reads `<![CDATA[` as a bogus comment that ends at the next `>`;
 * the parser reads it as a comment running to a `]]>` that may never come, swallowing the page
 * (some forum themes print one by mistake). Do as the browser does. Ones in script text (`//<![CDATA[`)
 * stay: scripts are dropped anyway.
 */
export function bogusCdata(html: string): string {
  if (!html.includes('<![CDATA[')) return html;
  return html.replace(/(\/\/|\/\*)?[ \t]*<!\[CDATA\[[^>]*>/g, (m, scriptComment) => scriptComment ? m : '');
}

export function extract(html: string, url: string, options: { mainContent?: boolean } = {}): Extracted {
  if (options.mainContent === false) return extractOnce(bogusCdata(html), url, false, ATTEMPTS[0]);
  return extractRead(html, url).read;
}

/**
 * The per-type step a page is read with: the listing step (a page voted listing or collection), the
 * forum step, the product clean-up, or the generic read alone ('page': articles, docs, services).
 */
export type ReadAs = 'listing' | 'collection' | 'forum' | 'product' | 'page';

/**
 * The main content and the step it was read with. `unpruned` returns a product read as the block model
 * gets it (for its trainer, train/read/blocks.ts). `forced` puts the page through one step whatever
 * the detectors say: for measuring what perfect detection would give (bench/read/wcxb-eval.ts
 * --oracle); pages are read with extract().
 */
export function extractRead(html: string, url: string, forced?: ReadAs, unpruned = false): { read: Extracted; as: ReadAs } {
  html = bogusCdata(html);
  const probe: Probe = { pageType: { type: 'unknown', signals: [] }, forced };
  const generic = extractGeneric(html, url, probe);
  // One strategy per page type; the generic one (prose, then the region) for the rest. Product pages
  // are tidied inside every attempt (tidyKind), so they need no step here.
  if (probe.pageType.type === 'listing' || probe.pageType.type === 'collection') return { read: readListing(html, url, generic, probe), as: probe.pageType.type };
  if (generic.kind === 'forum') return { read: readThread(html, url, generic), as: 'forum' };
  if (generic.kind === 'product') return { read: unpruned ? generic : pruneProduct(generic), as: 'product' };
  return { read: generic, as: 'page' };
}

/** A product read without the blocks the block model scores as not the product's content (extract-blocks.ts). */
function pruneProduct(read: Found): Extracted {
  const root = ROOTS.get(read);
  if (!root) return read; // every read comes from extractOnce today; a copy made elsewhere is left unpruned, not failed
  const pruned = pruneBlocks(root, 'product');
  return dropScriptText(root) || pruned ? { ...read, html: root.innerHTML, text: blockText(root) } : read;
}

/** Each read's content element, kept beside it (not in it: reads cross threads) so the block step works on it unparsed. */
const ROOTS = new WeakMap<Found, El>();

/**
 * A thread rebuilt from its posts replaces the generic result when it keeps most of that text (it
 * drops the chrome around the posts); finding fewer posts than the page has is no gain.
 */
function readThread(html: string, url: string, generic: Found): Extracted {
  const thread = extractOnce(html, url, true, ATTEMPTS[0], 'forum', true);
  const ratio = thread.text.length / Math.max(generic.text.length, 1);
  return thread.thread && ratio >= THREAD_KEEPS && ratio <= 1 ? thread : generic;
}
/** Share of the generic result's text a rebuilt thread must keep to replace it. */
const THREAD_KEEPS = 0.85;

/** What the first attempt learns about the page beside its content. */
interface Probe {
  pageType: PageTypeResult;
  /** Measurement only: the step to read the page with, whatever the detectors say. */
  forced?: ReadAs;
  /** The listing read from its repeated items, when the page has them. */
  listing?: Extracted;
  /** Text of the marked main region holding the items (`<main>`), before the generic read strips it. */
  mainText?: string;
  items?: ItemGroup;
  /** The listing's heading, intro and description blocks, each read alone (listingLead). */
  lead?: { before: Extracted[]; after: Extracted[] };
  /** The page's FAQ as its JSON-LD states it (FAQPage), read before the strip removes scripts. */
  faq?: FaqEntry[];
}

/**
 * A listing or collection: its repeated items with the heading and intro, when the generic read
 * missed them (it does not hold most items and is much shorter: a blurb or one card was taken for the
 * content). When it holds them it stays: it also keeps the prose around them.
 */
function readListing(html: string, url: string, generic: Found, probe: Probe): Extracted {
  const read = withLead(readListingBody(html, url, generic, probe), probe);
  const { document } = parseHTML(`<!doctype html><html><body>${read.html}</body></html>`);
  const root = document.body as El;
  dropLayoutCopies(root);
  // Cards' badges and calls to action ("Sold out", "Quick view") go from whichever read is returned, as from the
  // listing read (a shop front of promo tiles read by the generic step); links repeated on the items stay (the
  // truth keeps a post's tags, a card's vendor).
  dropItemChrome(root);
  // Whichever read was returned (the generic one too, when it did not hold the items by their run-together
  // text): the pictures' alternative text goes, as on the listing read. Only where the page has items: a page
  // voted a listing by its URL alone (an article at "/article") keeps its figures' alt.
  if (probe.items) dropThumbnailAlt(root);
  // The category's FAQ, which its structured data states and the read does not hold (closed accordions
  // after the grid, removed as hidden): put after the read, as rs-trafilatura and the truth keep it.
  if (probe.faq?.length && !holdsFaq(blockText(root), probe.faq, document)) {
    const faq = faqBlock(document, probe.faq);
    absolutize(faq, url);
    root.append(faq);
  }
  return { ...read, html: root.innerHTML, text: blockText(root) };
}

/**
 * The listing's heading, intro and description blocks that the read does not hold, put around it
 * (before the read what comes before the items on the page, after it the rest). The generic read
 * often starts at the grid; rs-trafilatura likewise puts a collection's description in front of its read.
 */
function withLead(read: Extracted, probe: Probe): Extracted {
  if (!probe.lead) return read;
  const key = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const held = key(read.text);
  const missing = (parts: Extracted[]) => parts.filter((p) => { const k = key(p.text).slice(0, LEAD_KEY); return k && !held.includes(k); });
  const before = missing(probe.lead.before), after = missing(probe.lead.after);
  if (!before.length && !after.length) return read;
  return {
    ...read,
    html: [...before.map((p) => p.html), read.html, ...after.map((p) => p.html)].join('\n'),
    text: [...before.map((p) => p.text), read.text, ...after.map((p) => p.text)].join('\n\n'),
  };
}
/** Characters of a lead part that must appear in the read for it to count as held. */
const LEAD_KEY = 60;

function readListingBody(html: string, url: string, generic: Found, probe: Probe): Extracted {
  const chosen = chooseListing(generic, probe);
  // Both reads came from outside the page's marked main region (small print, a rail, a blurb around
  // it): the main region is the content, read whole (intro, grid, text below the grid). Trafilatura
  // likewise checks its extraction against other readings of the page and takes another when its own
  // looks wrong; here the check is whether the read shares any words with the main region.
  if (probe.mainText && probe.mainText.length >= REGION_MIN && wordsInside(chosen.text, probe.mainText) < OUTSIDE_SHARE) {
    const region = regionRead(html, url);
    if (region && region.text.length >= REGION_MIN) return { ...generic, html: region.html, text: region.text };
  }
  return chosen;
}

/** The URL links resolve against (a valid `<base href>`, else the page's) and the page's title. */
function pageHead(doc: Document, url: string): { baseUrl: string; title: string } {
  const base = doc.querySelector('base[href]')?.getAttribute('href');
  let baseUrl = url;
  try { if (base) baseUrl = new URL(base, url).href; } catch { /* a broken <base>: the page URL */ }
  const title = meta(doc, ['og:title', 'twitter:title']) || textOf(doc.querySelector('title') ?? doc.createElement('i')) || textOf(doc.querySelector('h1') ?? doc.createElement('i'));
  return { baseUrl, title };
}

/** The listing's whole main region (mainRegionContent), read from a fresh parse of the page. */
function regionRead(html: string, url: string): Extracted | null {
  const doc = parsePage(html);
  const { baseUrl, title } = pageHead(doc, url);
  for (const el of choiceGroups(doc)) el.remove();
  strip(doc, true);
  const body = pageRoot(doc);
  dropSmallPrint(body);
  const group = findItems(body);
  return group ? finishListing(mainRegionContent(group, body), baseUrl, title) : null;
}

function chooseListing(generic: Found, probe: Probe): Extracted {
  const { listing, items } = probe;
  if (!listing || !items) return generic;
  if (holdsItems(items, generic.text)) {
    // The generic read has the items: keep it, without their chrome and the link lists around them.
    const { document } = parseHTML(`<!doctype html><html><body>${generic.html}</body></html>`);
    const root = document.body as El;
    dropItemChrome(root, repeatedItemText(items));
    dropThumbnailAlt(root);
    // Menus and link rails it took in with the items (lists of links holding none of them) go.
    dropLinkLists(root, items);
    return { ...generic, html: root.innerHTML, text: blockText(root) };
  }
  // The generic read is the category's FAQ (most of its words are the questions and answers its structured
  // data states), not the grid: the listing read, and the FAQ goes after it (readListing).
  if (probe.faq?.length && wordsInside(generic.text, faqText(probe.faq)) >= FAQ_ONLY) return { ...generic, html: listing.html, text: listing.text };
  if (generic.text.length >= GENERIC_MISSED * listing.text.length) return generic;
  return { ...generic, html: listing.html, text: listing.text };
}
/** Share of the words of `text` that `within` also holds (as a multiset, case folded). */
function wordsInside(text: string, within: string): number {
  const count = new Map<string, number>();
  for (const w of within.toLowerCase().match(WORD) ?? []) count.set(w, (count.get(w) ?? 0) + 1);
  const words = text.toLowerCase().match(WORD) ?? [];
  let hit = 0;
  for (const w of words) { const n = count.get(w) ?? 0; if (n > 0) { hit++; count.set(w, n - 1); } }
  return hit / Math.max(1, words.length);
}
const WORD = /[\p{L}\p{N}]+/gu;
/** Fewest characters the main region must hold to replace a read. */
const REGION_MIN = 200;
/** A read sharing less than this share of its words with the main region came from outside it. */
const OUTSIDE_SHARE = 0.05;

/** Share of a read's words that are its page's FAQ for the read to be taken for that FAQ (the visible answers may be worded apart from the structured data's: 0.68 seen, against 0.15 at most on tune collections whose read holds the grid). */
const FAQ_ONLY = 0.5;

/** The generic read missed the items when it holds less than this share of the listing's text. */
const GENERIC_MISSED = 0.75;

function extractGeneric(html: string, url: string, probe: Probe): Found {
  let prose: Found | undefined;
  let regionText = '';
  let kind: PageKind | undefined;
  for (const attempt of ATTEMPTS.filter((a) => a.prose)) {
    let result = extractOnce(html, url, true, attempt, kind, false, attempt === ATTEMPTS[0] ? probe : undefined);
    kind = result.kind;
    if (attempt === ATTEMPTS[0]) regionText = result.regionText;
    // Comment threads holding far more text than the rest: a discussion page, where the posts are the content.
    // An article body with comments below it stays an article.
    if (!result.articleBody && result.commentText >= DISCUSSION_RATIO * Math.max(result.text.length, 1)) result = extractOnce(html, url, true, { ...attempt, comments: true }, kind);
    if (!prose || result.text.length > prose.text.length) prose = result;
    // The class-name strip took a block holding most of the page's prose (not on products, where it lost
    // more than it won on tune): the content was wrapped in a chrome-named block, so the next attempt reads it.
    const wrapped = result.tookMost && result.kind !== 'product';
    if (result.text.length >= ENOUGH_TEXT && !wrapped) return result.text.length < PIECE_MAX ? wholeRegion(html, url, result, regionText) : result;
  }
  // Little prose anywhere: a listing or catalogue, unless even the whole region says no more.
  const found = prose!;
  if (found.text.length >= SOME_PROSE) return wholeRegion(html, url, found, regionText);
  const region = extractOnce(html, url, true, LISTING, kind);
  return region.text.length <= found.text.length ? found : region;
}

/**
 * Some prose, but little: it may be one piece (an intro, a promo, one card) of a listing or a landing
 * page. When the region holding most of the page's text holds that prose and several times more, or
 * so much more that the prose is a blurb beside it, the region is the content.
 */
function wholeRegion(html: string, url: string, prose: Found, regionText: string): Found {
  const ratio = regionText.length / Math.max(prose.text.length, 1);
  const contains = regionText.includes(prose.text.slice(0, 200));
  return (contains && ratio >= PIECE_RATIO) || ratio >= BLURB_RATIO ? extractOnce(html, url, true, LISTING, prose.kind) : prose;
}
/** Prose shorter than this may be a piece of a bigger region. */
const PIECE_MAX = 3000;
/** How many times more text the region must hold than the prose to replace it, or without holding it. */
const PIECE_RATIO = 3;
const BLURB_RATIO = 8;

/**
 * What kind of page this is, for the per-kind steps after the generic extraction. Each kind's module
 * owns its predicate and its clean-up; 'listing' is a page the vote calls a listing or collection (set
 * in the first attempt, whatever the predicates said); 'page' is everything else (articles, docs).
 */
export type PageKind = 'product' | 'forum' | 'listing' | 'page';

function pageKind(said: PageMeta, doc: Document, url: string): PageKind {
  if (isProductPage(said, doc, url)) return 'product';
  if (isForumThread(said, doc, url)) return 'forum';
  return 'page';
}

/** The kind a forced step reads the page as. */
const FORCED_KIND: Record<ReadAs, PageKind> = { listing: 'listing', collection: 'listing', forum: 'forum', product: 'product', page: 'page' };

/** The listing's element made ready like any content: captions out, links absolute, repeats and redundant alt dropped. */
function finishListing(root: El, baseUrl: string, title: string): Extracted {
  dropCaptions(root);
  absolutize(root, baseUrl);
  spaceWords(root);
  dropRepeatedBlocks(root);
  dropRedundantAlt(root, title);
  return { title, description: '', html: root.innerHTML, text: blockText(root), lang: '' };
}

/** The per-kind clean-up of the chosen content. */
function tidyKind(root: El, kind: PageKind): void {
  switch (kind) {
    case 'product': tidyProduct(root); break;
    case 'forum': case 'listing': case 'page': break;
  }
}

interface Found extends Extracted {
  /** The page's kind (computed on the first attempt, passed to the others). */
  kind: PageKind;
  /** The content is a forum thread rebuilt from its posts. */
  thread: boolean;
  /** Characters of comment threads stripped. */
  commentText: number;
  /** The content sits in a block named as an article body (entry-content, articleBody…). */
  articleBody: boolean;
  /** The first attempt only: text of the region the listing attempt would take (it strips alike). */
  regionText: string;
  /** The class-name strip removed a block holding most of the page's text in varied prose (stripUnlikely). */
  tookMost: boolean;
}

function extractOnce(html: string, url: string, mainOnly: boolean, attempt: Attempt, knownKind?: PageKind, posts = false, probe?: Probe): Found {
  const doc = parsePage(html);
  // What the page says about itself (JSON-LD lives in scripts, so before stripping), read once for
  // the kind and the page type.
  const said = probe || (!knownKind && mainOnly) ? pageMeta(doc) : null;
  if (probe && mayHoldFaq(html)) probe.faq = faqOf(doc);
  const forced = probe?.forced;
  let kind = knownKind ?? (forced ? FORCED_KIND[forced] : mainOnly ? pageKind(said!, doc, url) : 'page');
  const { baseUrl, title } = pageHead(doc, url);
  const description = meta(doc, ['description', 'og:description', 'twitter:description']);
  const lang = doc.documentElement?.getAttribute('lang') ?? '';
  // Collapsed accordions and tabs: on products their panels and "details" overlays; on other pages (services'
  // FAQ and feature panels, a category's buying guide) disclosure panels only, never overlays or parked blocks.
  if (kind === 'product') revealPanels(doc);
  else if (kind === 'page' && mainOnly) revealPanels(doc, false);
  // Found before the strip drops the inputs; removed once the page's kind is settled (a product's choices,
  // sizes and colours, are what it is sold in; elsewhere they are filters or a form).
  const choices = mainOnly ? choiceGroups(doc) : [];
  const dropChoices = () => {
    if (kind === 'product' || !choices.some((el) => el.isConnected)) return false;
    for (const el of choices) el.remove();
    return true;
  };
  strip(doc, mainOnly);
  const body = pageRoot(doc);
  if (probe && said) {
    let group = findItems(body);
    probe.pageType = detectPageType(said, url, group?.items.length ?? 0, doc, !!group && arePosts(group));
    if (forced) probe.pageType = { type: forced === 'page' ? 'unknown' : forced, signals: ['forced'] };
    const listing = probe.pageType.type === 'listing' || probe.pageType.type === 'collection';
    // One verdict: a page the vote calls a listing of products is not one product's page (nor a thread).
    if (listing) kind = 'listing';
    // Filter facets may have been the repeated items found: look again without them.
    if (dropChoices()) group = findItems(body);
    if (group && listing) {
      probe.items = group;
      probe.listing = finishListing(listingContent(group, body), baseUrl, title);
      const lead = listingLead(group, body);
      const own = (el: El) => { const d = doc.createElement('div'); d.append(el.cloneNode(true)); return finishListing(d, baseUrl, title); };
      probe.lead = { before: lead.before.map(own), after: lead.after.map(own) };
      // Only a marked main region can be told apart from the rest (the body holds every read).
      const main = mainRegion(group, body);
      if (main !== body) probe.mainText = blockText(main);
    }
  } else dropChoices();
  // Legal small print (offer terms, test conditions) is never what a product or a listing of them is:
  // on both it is long, comma-rich prose the scoring may take for the content. Blocks named as small
  // print go on every page (a product page no signal marks as one, its feature disclaimers kept); not
  // from the whole page (main_content: false).
  const footers = kind === 'product' || kind === 'listing';
  if (mainOnly && (footers || mayHoldSmallPrint(html))) dropSmallPrint(body, footers);
  // A thread's posts, found before class-name stripping takes comments and post headers away.
  const thread = posts ? threadOf(body) : null;
  const { commentText, tookMost } = !thread && mainOnly && attempt.unlikely ? stripUnlikely(body, !!attempt.comments) : { commentText: 0, tookMost: false };
  const regionText = mainOnly && attempt === ATTEMPTS[0] ? blockText(dominantRegion(body)) : '';
  if (mainOnly && attempt.prose) wrapLooseText(body);
  const root = thread ?? (!mainOnly ? body : attempt.prose ? bestContainer(body, attempt, kind) : dominantRegion(body));
  if (mainOnly) {
    if (attempt.prose) tidy(root);
    // Not on products: their "Recommended:" and "Related" lines are specifications and accessories.
    if (kind !== 'product') dropChromeSections(root);
    dropCaptions(root);
    tidyKind(root, kind);
  }
  absolutize(root, baseUrl);
  spaceWords(root);
  if (mainOnly) { dropRepeatedBlocks(root); dropRedundantAlt(root, title); }
  const found: Found = { title, description, html: root.innerHTML, text: blockText(root), lang, kind, thread: !!thread, commentText, articleBody: commentText > 0 && inArticleBody(root), regionText, tookMost };
  ROOTS.set(found, root);
  return found;
}

/** One candidate read of a page, for measuring the choice between reads (bench/read/candidates.ts). */
export interface CandidateRead { name: string; html: string; text: string }

/**
 * Every read extract() could return for a page, whatever its type: the chosen one, the generic read,
 * the listing read and the whole main region (when the page has repeated items), the region holding
 * most text, and the generic read with and without the product clean-up. For measurement only: the
 * pages' extraction runs extract().
 */
export function candidateReads(html: string, url: string): { pageType: PageTypeResult; kind: PageKind; reads: CandidateRead[] } {
  html = bogusCdata(html);
  const probe: Probe = { pageType: { type: 'unknown', signals: [] } };
  const chosen = extract(html, url);
  const generic = extractGeneric(html, url, probe);
  const reads: CandidateRead[] = [{ name: 'chosen', html: chosen.html, text: chosen.text }, { name: 'generic', html: generic.html, text: generic.text }];
  const doc = parsePage(html);
  const { baseUrl, title } = pageHead(doc, url);
  strip(doc, true);
  const body = pageRoot(doc);
  const group = findItems(body);
  if (group) {
    const listing = finishListing(listingContent(group, body), baseUrl, title);
    reads.push({ name: 'listing', html: listing.html, text: listing.text });
  }
  const region = regionRead(html, url);
  if (region) reads.push({ name: 'region', html: region.html, text: region.text });
  const dominant = extractOnce(html, url, true, LISTING, generic.kind);
  reads.push({ name: 'dominant', html: dominant.html, text: dominant.text });
  const other = extractOnce(html, url, true, ATTEMPTS[0], generic.kind === 'product' ? 'page' : 'product');
  reads.push({ name: generic.kind === 'product' ? 'noproduct' : 'product', html: other.html, text: other.text });
  const loose = extractOnce(html, url, true, ATTEMPTS[1], generic.kind);
  reads.push({ name: 'loose', html: loose.html, text: loose.text });
  return { pageType: probe.pageType, kind: generic.kind, reads };
}
