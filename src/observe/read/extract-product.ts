// Product pages: the generic extraction finds the product's region; this keeps what describes the
// product (title, description, highlights, specification tables and lists) and drops what sells it or
// something else: recommendation rails, review widgets, seller and shipping boxes, cart controls,
// legal footnotes and data dumps. General rules only (schema.org, Open Graph, headings' words).
import { type El, textOf, firstDescendant, tags } from './extract-dom.ts';
import type { PageMeta } from './page-type.ts';

/** A product URL path: /product(s)/, /p/, /dp/, /pdp/, /itm/, /item/, /listing/. */
const PRODUCT_PATH = /\/(?:products?|p|dp|pdp|itm|item|listing)\/[^/]/i;
/** JSON-LD or microdata types naming one product (a ProductGroup is one product in its variants). */
const PRODUCT_TYPE = /^(?:Product|ProductGroup|IndividualProduct|ProductModel|SoftwareApplication|VideoGame)$/;
/** Words of a price or a cart control, for pages without structured data. */
const CART = /add to (?:cart|bag|basket)|buy now|in den warenkorb|ajouter au panier|añadir al carrito/i;

/**
 * One product's page: its structured data says Product (JSON-LD top level, microdata, or og:type
 * product), or its URL has a product path and the page has a cart control. A listing also carries
 * Product items, but as ItemList members: an ItemList beside them says it is not one product.
 */
export function isProductPage(said: PageMeta, doc: Document, url: string): boolean {
  const ld = said.jsonLd;
  const md = said.microdata;
  if (ld.includes('ItemList') && ld.filter((t) => t === 'Product').length > 3) return false;
  const og = doc.querySelector('meta[property="og:type"]')?.getAttribute('content')?.toLowerCase() ?? '';
  if (og === 'product' || og.endsWith(':item') || og.endsWith('.item')) return true;
  if (ld.some((t) => PRODUCT_TYPE.test(t)) || md.some((t) => PRODUCT_TYPE.test(t))) return true;
  let path = '';
  try { path = new URL(url).pathname; } catch { /* no URL signal */ }
  return PRODUCT_PATH.test(path) && CART.test(textOf(doc.body ?? doc.documentElement));
}

/** Headings of blocks that are about other products, the buyers or the shop, not this product. */
const RAIL_HEADING = /\b(?:similar|related|recommended|recommendations|sponsored|also (?:viewed|bought|like|purchased)|you (?:may|might) (?:also )?(?:like|need|love)|customers (?:also|who)|recently viewed|explore (?:more|related)|more (?:from|to explore|items)|complete the (?:look|set)|pairs? well|frequently bought|compare (?:with|similar)|reviews?|ratings?|questions (?:&|and) answers|q ?& ?a|seller(?:'s)? (?:feedback|other items)|about (?:this|the) (?:seller|shop|store)|meet (?:your|the) seller|store availability|find (?:in|a) store|newsletter|sign up)\b/i;

/** A rail's heading is short; a longer one naming these words is the product's own ("Parcel delivery truck brochure"). */
const RAIL_HEADING_WORDS = 7;

/** Short blocks that are cart and page controls, stock notes and loaders. */
const CONTROL = /^(?:add to (?:cart|bag|basket|wish ?list|favou?rites)|buy (?:it )?now|quantity|qty|loading|share|save|compare|in stock|out of stock|sold out|notify me|(?:low in stock|only \d+ left).*|select (?:a )?(?:size|colou?r|option).*|size (?:guide|chart)|find your size|write a review|see all reviews|show (?:more|less)|read more|view (?:all|more|details)|\d+(?:\.\d)? out of 5 stars?.*|\(?\d[\d,]*\)? (?:reviews?|ratings?)|free (?:shipping|delivery|returns).*|klarna.*|pay in \d+ .*|afterpay.*)$/i;

/**
 * What the page's scripts left as text, never written for a reader: a template's unfilled slots
 * ("${cardName} unavailable"), a JSON blob, an internal field name as a label ("retail_price_tier1:"),
 * and the messages a script shows when a request fails or waits ("Please try again.", "Sorry, there was
 * a problem.", "Checking payment options...").
 */
const SCRIPT_TEXT = /\$\{\w+\}|\{\{\s*[\w.]+\s*\}\}|^\[?\{"|^[a-z][a-z0-9]*(?:_[a-z0-9]+)+\s*:|\btry again\b|\bsomething went wrong\b|\bthere was (?:a problem|an error)\b|^(?:please wait|\w+ing\b[^.…]{0,40})\s*(?:\.\.\.|…)$/i;
/** Characters of a block that can be such a message (a longer block that says "try again" is prose). */
const SCRIPT_TEXT_MAX = 160;

/** A legal footnote ("* Image simulated", "¹ Battery life varies"). */
const FOOTNOTE = /^(?:\*|†|‡|§|¹|²|³|⁴|\(\d\)\s)/;

/** Tags that make an element a container rather than a leaf block. */
const INNER_BLOCKS = new Set(['P', 'DIV', 'LI', 'UL', 'OL', 'TABLE', 'DL', 'SECTION', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

/** Leaf blocks of the content (no block descendants) matching the selector, in one walk of the tree. */
function leaves(root: El, selector: string): El[] {
  const containers = new Set<El>();
  const walk = (el: El): boolean => {
    let holds = false;
    for (const child of el.children) if (walk(child) || INNER_BLOCKS.has(child.tagName)) holds = true;
    if (holds) containers.add(el);
    return holds;
  };
  walk(root);
  return [...root.querySelectorAll(selector)].filter((el) => !containers.has(el));
}

/** The block a heading titles: its widest ancestor (inside root) holding no other heading of its rank or above. */
function headedBlock(heading: El, root: El): El {
  const rank = Number(heading.tagName[1]);
  const above = Array.from({ length: rank }, (_, i) => `h${i + 1}`).join(', ');
  let block: El = heading;
  for (let el = heading.parentElement; el && el !== root; el = el.parentElement) {
    if ([...el.querySelectorAll(above)].some((h) => h !== heading)) break;
    block = el;
  }
  return block;
}

/**
 * Class or id words of legal small print: footnotes, disclaimers, fine print ("footnote-4",
 * "common-bottom-disclaimer__list"). A word anywhere in a class token, as its own part.
 */
const SMALL_PRINT_WORDS = 'footnotes?|disclaimers?|fine-?print|legal-?(?:notes?|text|copy)';
const SMALL_PRINT = new RegExp(`(?:^|[-_])(?:${SMALL_PRINT_WORDS})(?:$|[-_])`, 'i');
const ANY_SMALL_PRINT = new RegExp(SMALL_PRINT_WORDS, 'i');
/** Whether a page's HTML holds any small-print word at all: most pages hold none, and this one scan of the
 *  string spares them the walk over every element with a class or id. */
export const mayHoldSmallPrint = (html: string): boolean => ANY_SMALL_PRINT.test(html);
const smallPrint = (el: El) => `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`.split(/\s+/).some((t) => SMALL_PRINT.test(t));

/**
 * Removes legal small print (test conditions, offer terms, availability notes) named as such, and on
 * product and listing pages the page's footers too, before the content is chosen: they are about the
 * shop or the claims, not what the page is, and a long list of them can outscore the description.
 */
export function dropSmallPrint(body: El, footers = true): void {
  for (const el of [...body.querySelectorAll(footers ? 'footer, [class], [id]' : '[class], [id]')]) {
    if (el !== body && body.contains(el) && ((footers && el.tagName === 'FOOTER') || smallPrint(el))) el.remove();
  }
}

/** What a product's own information panel is called: description, details, specifications, materials, care… */
const PRODUCT_INFO = /(?:^|[^a-z])(?:description|descripción|beschreibung|details?|specs?|specifications?|spécifications|technical|features|highlights|materials?|dimensions|measurements|size (?:&|and) fit|fit|care|ingredients|nutrition|composition|about (?:this|the) (?:item|product)|product information|more information|additional information)(?:$|[^a-z])/i;
/** Class or id words of a disclosure widget: an accordion, a collapse, an expander, tabs, a drawer or sheet. */
const DISCLOSURE = /accordion|collaps|expand|disclosure|toggle|tab-?pane|tab-?panel|tabs?-content|drawer|sheet|modal|dialog|popup|popover/i;
/** An overlay's name: what the generic strip removes as never content (dialogs, asides, modals by name). */
const OVERLAY_WORDS = '(?:modal|dialog|sheet|drawer|popup|popover|overlay|lightbox)s?';
/** In one class token or id; and anywhere in a class and id string (one test per element). */
const OVERLAY_NAME = new RegExp(`(?:^|[-_])${OVERLAY_WORDS}(?:$|[-_])`, 'i');
const OVERLAY_IN = new RegExp(`(?:^|[\\s_-])${OVERLAY_WORDS}(?:$|[\\s_-])`, 'i');
/** A hidden-by-class token ("hide", "is-hidden", "d-none"): one token, and anywhere in a class string. */
const HIDDEN_WORDS = '(?:hide|hidden|is-hidden|d-none|display-none|collapsed|is-collapsed)';
const HIDDEN_CLASS = new RegExp(`^${HIDDEN_WORDS}$`, 'i');
const HIDDEN_IN = new RegExp(`(?:^|\\s)${HIDDEN_WORDS}(?:$|\\s)`, 'i');

const hint = (el: El) => `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
const hiddenEl = (el: El) => el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true' || /(?:display|visibility)\s*:\s*(?:none|hidden)/i.test(el.getAttribute('style') ?? '');
const overlayEl = (el: El) => el.tagName === 'DIALOG' || el.tagName === 'ASIDE' || /^(?:dialog|alertdialog|complementary)$/.test(el.getAttribute('role') ?? '') || el.getAttribute('aria-modal') === 'true' || OVERLAY_IN.test(hint(el));

/** What a panel is called: its aria-label, the element naming it, its first heading or summary, else a short button. */
function panelName(el: El): string {
  const doc = el.ownerDocument;
  const names = [el.getAttribute('aria-label') ?? ''];
  for (const id of (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) names.push(textOf((doc.getElementById(id) ?? doc.createElement('i')) as El));
  const head = firstDescendant(el, PANEL_HEAD) ?? [...el.querySelectorAll('button, [role=button]')].find((b) => textOf(b).length <= PANEL_NAME_MAX);
  if (head) names.push(textOf(head).slice(0, PANEL_NAME_MAX));
  return names.filter(Boolean).join(' | ');
}
/** Tags that name a panel as its first heading or summary. */
const PANEL_HEAD = tags('h2, h3, h4, h5, h6, summary');
/** Characters of a panel's name (a button's text longer than this is not one). */
const PANEL_NAME_MAX = 40;
/** Class or id words naming the product's information block ("product-details", "pip-measurements"). */
const INFO_CLASS = /product[-_]?(?:details?|info|information|description|specs?)|specifications|measurements|dimensions/i;

/** A question as an FAQ asks it: a short line ending in a question mark. */
const isQuestion = (text: string) => text.length <= QUESTION_MAX && /[?？]\s*$/.test(text);
/** Characters of a question (longer text ending in "?" is prose). */
const QUESTION_MAX = 200;

/** Shows a hidden element: removes the hiding attributes, the overlay's role and name. */
function reveal(el: El): void {
  for (const a of ['hidden', 'aria-hidden', 'aria-modal']) el.removeAttribute(a);
  if (/^(?:dialog|alertdialog|complementary)$/.test(el.getAttribute('role') ?? '')) el.removeAttribute('role');
  const style = el.getAttribute('style');
  if (style) el.setAttribute('style', style.replace(/(?:display|visibility)\s*:\s*(?:none|hidden)\s*;?/gi, ''));
  const cls = el.getAttribute('class');
  if (cls) el.setAttribute('class', cls.split(/\s+/).filter((t) => !OVERLAY_NAME.test(t) && !HIDDEN_CLASS.test(t)).join(' '));
  if (OVERLAY_NAME.test(el.getAttribute('id') ?? '')) el.removeAttribute('id');
}

/** Tags whose text no reader sees. */
const UNSEEN = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'svg']);
/** Characters of text outside scripts (whitespace runs count once); with `shown`, outside hidden elements too. */
function textLength(el: El, shown: boolean): number {
  let n = 0;
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3) n += (c.textContent ?? '').replace(/\s+/g, ' ').trim().length;
    else if (c.nodeType === 1 && !UNSEEN.has((c as El).tagName) && !(shown && (hiddenEl(c as El) || HIDDEN_IN.test((c as El).getAttribute('class') ?? '')))) n += textLength(c as El, shown);
  }
  return n;
}
/** Fewest characters a hidden block under the body must hold to be taken for the page waiting for a script. */
const WAITING_MIN = 500;

/**
 * Content a script shows later: streamed server rendering parks finished parts of the page in hidden
 * blocks under the body (to be moved into place), and deferred blocks wait there hidden until a script
 * runs. A hidden block straight under the body (not an overlay) that holds more text (its collapsed
 * panels included) than the whole page shows is such content: reveal it. Menus and panels hidden
 * inside the page are left to the rules below.
 */
function revealWaiting(body: El): void {
  const waiting = [...body.children].filter((c) => !overlayEl(c) && (hiddenEl(c) || HIDDEN_IN.test(c.getAttribute('class') ?? '')) && textOf(c).length >= WAITING_MIN);
  if (!waiting.length) return;
  const shown = textLength(body, true);
  for (const el of waiting) if (textLength(el, false) > shown) reveal(el);
}

/**
 * A product's description, specifications and care notes often sit in collapsed accordions, tabs and
 * "details" sheets or modals that a script opens; the strip that runs on every page takes hidden
 * blocks and overlays for what is never content. On a product page, reveal them (before that strip):
 * a collapsed disclosure panel unless it is named as a rail (reviews, questions, similar items); an
 * overlay (dialog, aside, modal, sheet) only when it or the widget holding it is named as the
 * product's information. Revealing removes the hiding attributes and the overlay's role and name.
 * Without `overlays` (pages of the generic kind) only disclosure panels are shown: no overlay, and no
 * hidden block parked under the body (a cookie sheet's panels, a feed's hidden copy were read so on tune).
 */
export function revealPanels(doc: Document, overlays = true): void {
  const body = (doc.body ?? doc.documentElement) as El;
  if (overlays) revealWaiting(body);
  // Elements inside a panel already shown or left hidden are settled with it (one decision per panel).
  const settled = new Set<El>();
  for (const el of [...body.querySelectorAll('*')]) {
    if (!el.isConnected) continue;
    if (el.parentElement && settled.has(el.parentElement)) { settled.add(el); continue; }
    const overlay = overlayEl(el);
    const hidden = hiddenEl(el) || HIDDEN_IN.test(el.getAttribute('class') ?? '');
    if (!overlay && !hidden) continue;
    settled.add(el);
    // The widget the panel belongs to: itself or an ancestor (three levels at most) named as a disclosure.
    let widget: El | null = null;
    for (let a: El | null = el, level = 0; a && a !== body && level <= 3; a = a.parentElement, level++) {
      if (DISCLOSURE.test(hint(a)) || /^(?:tabpanel|region|dialog)$/.test(a.getAttribute('role') ?? '') || a.tagName === 'DETAILS' || a.hasAttribute('aria-label')) { widget = a; break; }
    }
    // A collapsed answer right after its question (an FAQ whose widget has no disclosure name) is a panel of its own.
    const before = el.previousElementSibling;
    const answer = !overlay && !!before && isQuestion(textOf(before));
    if (!widget && answer) widget = el;
    if (!widget) continue;
    // Its name: its own, the widget's, or the control just before it (an accordion's button, a tab's heading).
    const names = [panelName(el), panelName(widget), before && textOf(before).length <= PANEL_NAME_MAX ? textOf(before) : ''];
    if ([...names, hint(el), hint(widget)].some((n) => RAIL_HEADING.test(n))) continue;
    const info = names.some((n) => PRODUCT_INFO.test(n)) || INFO_CLASS.test(hint(el)) || INFO_CLASS.test(hint(widget));
    if (overlay && (!info || !overlays)) continue;
    if (!overlay && !info && !answer && !DISCLOSURE.test(hint(widget)) && widget.tagName !== 'DETAILS') continue;
    for (const inner of el.querySelectorAll('*')) if (hiddenEl(inner) || overlayEl(inner)) reveal(asDiv(inner));
    const shown = asDiv(el);
    reveal(shown);
    settled.add(shown);
  }
}

/** An aside or dialog as a plain div with its attributes and children (the generic strip drops those tags). */
function asDiv(el: El): El {
  if (el.tagName !== 'ASIDE' && el.tagName !== 'DIALOG') return el;
  const div = el.ownerDocument.createElement('div');
  for (const a of [...el.attributes]) div.setAttribute(a.name, a.value);
  div.append(...el.childNodes);
  el.replaceWith(div);
  return div as El;
}

/** What a heading says itself: its text without the links it carries ("Customer reviews for X" before "See all · About reviews"). */
function headingWords(h: El): string {
  if (!h.querySelector('a')) return textOf(h);
  const copy = h.cloneNode(true) as El;
  for (const a of [...copy.querySelectorAll('a')]) a.remove();
  return textOf(copy) || textOf(h);
}

/** Keeps what describes the product inside the extracted region. */
export function tidyProduct(root: El): void {
  // Rails and shop boxes, by their heading (or an aria-label on the block).
  for (const h of [...root.querySelectorAll('h1, h2, h3, h4, h5, h6, [aria-label]')]) {
    if (!h.isConnected) continue;
    const isHeading = /^H\d$/.test(h.tagName);
    const label = isHeading ? headingWords(h) : h.getAttribute('aria-label') ?? '';
    if (h.tagName === 'H1' || label.split(/\s+/).length > RAIL_HEADING_WORDS || !RAIL_HEADING.test(label)) continue;
    if (!isHeading && !/^(?:SECTION|ASIDE|DIV|UL|OL)$/.test(h.tagName)) continue;
    (isHeading ? headedBlock(h, root) : h).remove();
  }
  for (const el of leaves(root, 'p, li, div, span, dt, dd, button, a, h2, h3, h4, h5, h6')) {
    if (!el.isConnected) continue;
    const text = textOf(el);
    if (!text) continue;
    // Controls, stock and promotion notes; footnotes; key: url dumps of script data.
    if ((text.length <= 60 && CONTROL.test(text)) || FOOTNOTE.test(text) || /^(?:[\w ]{1,40}:\s*)?https?:\/\/\S+$/.test(text)) el.remove();
  }
  // Pictures stay, their alternative text goes: on a product page it describes the photos ("Open
  // laptop in blue, side view") rather than the product, and the text beside them names it.
  for (const img of root.querySelectorAll('img[alt]')) img.setAttribute('alt', '');
  // A heading said again and again (one per carousel slide or tab) counts once.
  const seen = new Set<string>();
  for (const h of [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')]) {
    const t = textOf(h).toLowerCase();
    if (!t) continue;
    if (seen.has(t)) h.remove();
    else seen.add(t);
  }
}

/**
 * Removes the script's text (SCRIPT_TEXT) from a product read; whether any went. It runs after the
 * block model, on the blocks it kept, so the model scores the reads it was trained on.
 */
export function dropScriptText(root: El): boolean {
  let dropped = false;
  for (const el of leaves(root, 'p, li, div, span, dt, dd, td, th, h2, h3, h4, h5, h6')) {
    if (!el.isConnected) continue;
    const text = textOf(el);
    if (!SCRIPT_TEXT.test(text) || (text.length > SCRIPT_TEXT_MAX && !/^\[?\{"/.test(text))) continue;
    // An internal field's term takes its value with it.
    const value = el.tagName === 'DT' ? el.nextElementSibling : null;
    if (value?.tagName === 'DD') value.remove();
    el.remove();
    dropped = true;
  }
  return dropped;
}
