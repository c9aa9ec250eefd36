// The blocks of a chosen read (paragraphs, list items, headings, table rows…) and the general features
// a small model scores them by (src/observe/read/block-model.ts): size, links, tags around them, place in
// the read, repeated-sibling runs, prices, and class/id and heading words from a small general
// vocabulary. No site names. Shared by the reader (extract-blocks.ts) and the trainer
// (train/read/blocks.ts), so both see the same features.
import { type El, textOf, hasDescendant, isHrefLink } from './extract-dom.ts';

/** Elements that can be a block: the leaves of the read's block structure. */
const BLOCKISH = new Set(['P', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'TR', 'DT', 'DD', 'PRE', 'BLOCKQUOTE', 'DIV', 'SECTION', 'ARTICLE', 'TABLE', 'UL', 'OL', 'DL', 'FIGURE', 'HEADER', 'FOOTER', 'ASIDE', 'NAV', 'MAIN', 'FORM', 'FIELDSET', 'DETAILS', 'SUMMARY', 'ADDRESS', 'TD', 'TH']);
const HEADING = /^H[1-6]$/;

/** Class/id and heading words that say what a block is about, general across sites. */
export const VOCAB = ['related', 'recommend', 'similar', 'also', 'review', 'rating', 'question', 'footer', 'nav', 'menu',
  'breadcrumb', 'newsletter', 'share', 'social', 'cookie', 'description', 'detail', 'spec', 'content', 'main', 'product',
  'price', 'cart', 'shipping', 'delivery', 'return', 'feature', 'info', 'title', 'card', 'item', 'tile', 'grid',
  'carousel', 'slider', 'swatch', 'variant', 'option', 'size', 'color', 'badge', 'promo', 'banner', 'filter', 'sort',
  'faq', 'tab', 'accordion', 'modal', 'sidebar', 'header', 'brand', 'stock', 'wishlist', 'compare', 'viewed', 'customer', 'sign', 'login', 'account'] as const;

export interface Block { el: El; text: string; words: number; linkWords: number }

const wordsOf = (t: string) => t.match(/[\p{L}\p{N}_]+/gu) ?? [];

/** The leaf blocks of a read: block elements holding text and no block element that holds text. */
export function readBlocks(root: El): Block[] {
  const out: Block[] = [];
  const visit = (el: El): boolean => {
    // Returns whether `el` holds a block (so its ancestors are not leaves).
    let inner = false;
    for (const c of el.children) if (visit(c)) inner = true;
    if (inner) return true;
    if (!BLOCKISH.has(el.tagName) || el === root) return false;
    const text = textOf(el);
    if (!text) return false;
    let linkWords = 0;
    for (const a of el.querySelectorAll('a')) linkWords += countWords(textOf(a));
    const words = countWords(text);
    if (!words) return false;
    out.push({ el, text, words, linkWords: Math.min(words, linkWords) });
    return true;
  };
  for (const c of root.children) visit(c);
  return out;
}

/** Class and id words of an element, split on separators and camelCase, lower-cased. */
function hintWords(el: El): string {
  const raw = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''} ${el.getAttribute('itemprop') ?? ''}`;
  return raw.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z]+/g, ' ');
}

/** The signature of a sibling run: tag and first class word, digits dropped. */
const signatures = new WeakMap<El, string>();
function signature(el: El): string {
  let s = signatures.get(el);
  if (s === undefined) { s = `${el.tagName}.${(el.getAttribute('class') ?? '').trim().split(/\s+/)[0]?.replace(/\d+/g, '') ?? ''}`; signatures.set(el, s); }
  return s;
}

/** Length of the run of siblings sharing `el`'s signature (itself included); parents' counts cached. */
function runLength(el: El, cache: Map<El, Map<string, number>>): number {
  const parent = el.parentElement;
  if (!parent) return 1;
  let counts = cache.get(parent);
  if (!counts) {
    counts = new Map();
    for (const c of parent.children) { const s = signature(c); counts.set(s, (counts.get(s) ?? 0) + 1); }
    cache.set(parent, counts);
  }
  return counts.get(signature(el)) ?? 1;
}

const PRICE = /(?:[$€£¥₹]|\b(?:usd|eur|gbp|chf|kr|zł)\b)\s?\d|\d[\d.,]*\s?(?:[$€£¥₹]|\b(?:usd|eur|gbp|chf|kr|zł)\b)/i;
const PRICES = new RegExp(PRICE.source, 'gi');

/** Names of the features, in the order blockFeatures returns them. */
export const FEATURE_NAMES: string[] = [
  'bias', 'logWords', 'linkShare', 'wordShare', 'position', 'position2', 'beforeH1', 'afterH1Blocks', 'depth',
  'tag:p', 'tag:li', 'tag:h1', 'tag:h2-6', 'tag:tr/td', 'tag:dt/dd', 'tag:pre/quote', 'tag:div/other',
  'in:li', 'in:table', 'in:chrome', 'in:article', 'in:form', 'in:section',
  'runLog', 'inRun', 'runShort', 'runLinked', 'runPrice', 'afterHeading', 'price', 'capsShare', 'digitShare', 'sentence', 'short',
  'step:product', 'step:listing', 'step:collection', 'ctxLinkShare', 'ctxPrices', 'h1Overlap',
  ...VOCAB.map((v) => `cls:${v}`), ...VOCAB.map((v) => `head:${v}`),
];
/** Features before the class/id and heading words. */
const SCALARS = FEATURE_NAMES.indexOf(`cls:${VOCAB[0]}`);

export type Step = 'product' | 'listing' | 'collection';

/** Words in `t` (runs of letters, digits and _), as wordsOf(t).length, without building them. */
export function countWords(t: string): number {
  let n = 0, inWord = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    let w: boolean;
    if (c < 128) w = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length && (t.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { w = WORD_CHAR.test(t.slice(i, i + 2)); i++; }
    else w = WORD_CHAR.test(t[i]);
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

/**
 * The features of each block of a read, in the blocks' order: the columns `names` (all by default,
 * as the trainer uses them; the reader asks only for its model's, and what no asked column needs is
 * not computed).
 */
export function blockFeatures(root: El, blocks: Block[], step: Step, names: readonly string[] = FEATURE_NAMES): number[][] {
  const cols = names.map((n) => { const j = FEATURE_NAMES.indexOf(n); if (j < 0) throw new Error(`block features: unknown feature ${n}`); return j; });
  const want = new Set(names);
  const clsWords = cols.filter((j) => j >= SCALARS && j < SCALARS + VOCAB.length).map((j) => j - SCALARS);
  const headWords = cols.filter((j) => j >= SCALARS + VOCAB.length).map((j) => j - SCALARS - VOCAB.length);
  const needCtx = want.has('ctxLinkShare') || want.has('ctxPrices');
  const needItem = want.has('runLinked') || want.has('runPrice');
  const total = blocks.reduce((s, b) => s + b.words, 0) || 1;
  const h1 = blocks.findIndex((b) => b.el.tagName === 'H1');
  // The nearest heading before each block (its own text when it is one), in document order.
  let heading = '';
  let before = 0;
  const runs = new Map<El, Map<string, number>>();
  let lastHeadingLevel = 0;
  // The words of the page's h1 (a product's name: its description names it, other products' cards do not).
  const h1Words = new Set(h1 >= 0 && want.has('h1Overlap') ? wordsOf(blocks[h1].text.toLowerCase()) : []);
  // Per element, computed once and only as far as asked: its text and words; words in links, prices,
  // whether it holds a link; its class words.
  interface Ctx { text: string; words: number; linkWords?: number; prices?: number; linked?: boolean }
  const ctxCache = new Map<El, Ctx>();
  const ctxOf = (a: El) => {
    let c = ctxCache.get(a);
    if (!c) { const text = textOf(a); c = { text, words: countWords(text) }; ctxCache.set(a, c); }
    return c;
  };
  const linkWordsOf = (a: El, c: Ctx) => {
    if (c.linkWords === undefined) {
      let linkWords = 0;
      for (const l of a.querySelectorAll('a')) linkWords += countWords(textOf(l));
      c.linkWords = Math.min(c.words, linkWords);
    }
    return c.linkWords;
  };
  const pricesOf = (c: Ctx) => (c.prices ??= c.text.match(PRICES)?.length ?? 0);
  const linkedOf = (a: El, c: Ctx) => (c.linked ??= a.tagName === 'A' || hasDescendant(a, isHrefLink));
  const hintCache = new Map<El, number[]>();
  const hitsOf = (a: El) => {
    let h = hintCache.get(a);
    if (!h) { h = new Array(VOCAB.length).fill(0); const s = hintWords(a); for (const k of clsWords) if (s.includes(VOCAB[k])) h[k] = 1; hintCache.set(a, h); }
    return h;
  };
  const headingHits = new Map<string, number[]>();
  const headingHitsOf = (s: string) => {
    let h = headingHits.get(s);
    if (!h) { h = new Array(VOCAB.length).fill(0); for (const k of headWords) if (s.includes(VOCAB[k])) h[k] = 1; headingHits.set(s, h); }
    return h;
  };
  return blocks.map((b, i) => {
    const el = b.el;
    if (HEADING.test(el.tagName)) { heading = b.text.toLowerCase(); lastHeadingLevel = Number(el.tagName[1]); }
    const position = before / total;
    before += b.words;
    let depth = 0, inLi = 0, inTable = 0, inChrome = 0, inArticle = 0, inForm = 0, inSection = 0;
    const hints = clsWords.length ? hitsOf(el).slice() : EMPTY_HITS;
    const or = (h: number[]) => { for (const k of clsWords) if (h[k]) hints[k] = 1; };
    let run = runLength(el, runs);
    // The outermost repeated item around the block (a card of a rail or grid), within six levels.
    let item: El | null = run >= 3 ? el : null;
    for (let a = el.parentElement; a && a !== root; a = a.parentElement) {
      depth++;
      const t = a.tagName;
      if (t === 'LI') inLi = 1;
      else if (t === 'TABLE') inTable = 1;
      else if (t === 'ASIDE' || t === 'NAV' || t === 'FOOTER' || t === 'HEADER') inChrome = 1;
      else if (t === 'ARTICLE') inArticle = 1;
      else if (t === 'FORM') inForm = 1;
      else if (t === 'SECTION') inSection = 1;
      if (depth <= 6) {
        if (clsWords.length) or(hitsOf(a));
        const n = runLength(a, runs);
        if (n >= 3) item = a;
        run = Math.max(run, n);
      }
    }
    // The block's context: its nearest ancestor holding three times its words (the card, the section).
    let ctxLinkShare = b.linkWords / Math.max(1, b.words), ctxPrices = 0;
    if (needCtx) {
      for (let a = el.parentElement; a && a !== root; a = a.parentElement) {
        const c = ctxOf(a);
        if (c.words >= 3 * b.words) { ctxLinkShare = linkWordsOf(a, c) / Math.max(1, c.words); ctxPrices = Math.min(1, pricesOf(c) / Math.max(1, c.words) * 10); break; }
      }
    }
    let h1Overlap = 0;
    if (h1Words.size && i !== h1) { const own = wordsOf(b.text.toLowerCase()); h1Overlap = own.filter((w) => h1Words.has(w)).length / own.length; }
    const tag = el.tagName;
    let caps = 0, digits = 0;
    if (want.has('capsShare')) { const letters = b.text.match(/\p{L}+/gu) ?? []; caps = letters.filter((w) => /^\p{Lu}/u.test(w)).length / Math.max(1, letters.length); }
    if (want.has('digitShare')) digits = (b.text.match(/\p{N}/gu)?.length ?? 0) / Math.max(1, b.text.length);
    const itemCtx = item && needItem ? ctxOf(item) : null;
    const row = [
      1, Math.log1p(b.words) / 5, b.linkWords / b.words, b.words / total, position, position * position,
      h1 >= 0 && i < h1 ? 1 : 0, h1 >= 0 && i > h1 ? Math.min(1, (i - h1) / 50) : 0, Math.min(1, depth / 12),
      tag === 'P' ? 1 : 0, tag === 'LI' ? 1 : 0, tag === 'H1' ? 1 : 0, /^H[2-6]$/.test(tag) ? 1 : 0,
      tag === 'TR' || tag === 'TD' || tag === 'TH' ? 1 : 0, tag === 'DT' || tag === 'DD' ? 1 : 0,
      tag === 'PRE' || tag === 'BLOCKQUOTE' ? 1 : 0, /^(?:P|LI|H[1-6]|TR|TD|TH|DT|DD|PRE|BLOCKQUOTE)$/.test(tag) ? 0 : 1,
      inLi, inTable, inChrome, inArticle, inForm, inSection,
      Math.log1p(run) / 4, run >= 3 ? 1 : 0, run >= 3 && b.words < 8 ? 1 : 0,
      itemCtx && want.has('runLinked') && linkedOf(item!, itemCtx) ? 1 : 0, itemCtx && want.has('runPrice') && pricesOf(itemCtx) > 0 ? 1 : 0,
      lastHeadingLevel > 1 ? 1 : 0, want.has('price') && PRICE.test(b.text) ? 1 : 0, caps, Math.min(1, digits * 4),
      want.has('sentence') && /[.!?]["”’)]?$/.test(b.text) ? 1 : 0, b.words < 4 ? 1 : 0,
      step === 'product' ? 1 : 0, step === 'listing' ? 1 : 0, step === 'collection' ? 1 : 0,
      ctxLinkShare, ctxPrices, h1Overlap,
    ];
    const head = headWords.length ? headingHitsOf(heading) : EMPTY_HITS;
    return cols.map((j) => (j < SCALARS ? row[j] : j < SCALARS + VOCAB.length ? hints[j - SCALARS] : head[j - SCALARS - VOCAB.length]));
  });
}
const EMPTY_HITS: number[] = [];

/**
 * Each feature (not the bias) made relative to the read's word-weighted mean: the model sees how a
 * block differs from the rest of its page, so a site's deep markup or many prices do not move all of
 * its blocks at once (without this, models trained on some sites removed whole reads on others).
 */
export function centerFeatures(X: number[][], blocks: Block[], names: readonly string[] = FEATURE_NAMES): number[][] {
  const total = blocks.reduce((s, b) => s + b.words, 0) || 1;
  for (let j = 0; j < names.length; j++) {
    if (names[j] === 'bias') continue;
    let m = 0;
    for (let i = 0; i < blocks.length; i++) m += blocks[i].words * X[i][j];
    m /= total;
    for (const x of X) x[j] -= m;
  }
  return X;
}
