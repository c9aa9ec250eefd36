// What kind of page this is, from what the page says about itself (schema.org JSON-LD types, og:type)
// and the shape of its URL, with the signals that decided it. Read mode picks its extraction strategy
// by this type (extract.ts); the repeated item structure (extract-items.ts) confirms a listing. General
// by design: schema.org vocabulary and common URL words, no rule for a site.
import type { El } from './extract-dom.ts';

export type PageType = 'listing' | 'collection' | 'product' | 'forum' | 'article' | 'documentation' | 'unknown';

export interface PageTypeResult {
  type: PageType;
  /** What decided it, e.g. `jsonld:ItemList`, `og:product`, `url:/category/`, `items:24`. */
  signals: string[];
}

/** schema.org types of one product. */
const PRODUCT_SCHEMA = /^(?:Product|ProductGroup|IndividualProduct)$/;
/** schema.org types by the page type they announce. */
const SCHEMA_TYPES: [RegExp, PageType][] = [
  [/^(?:ItemList|CollectionPage|OfferCatalog|SearchResultsPage)$/, 'listing'],
  [/^(?:DiscussionForumPosting|QAPage)$/, 'forum'],
  [PRODUCT_SCHEMA, 'product'],
  [/^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|TechArticle|Recipe|LiveBlogPosting)$/, 'article'],
];

/** URL path words that name a list of things (a category, a tag, a section front). */
const LISTING_PATH = /\/(?:categor(?:y|ies)|collections?|c|tags?|topics?|browse|archives?|sections?|hub|list|lists|chart|search|directory|catalog(?:ue|s)?|shop|store|genre|product-category|b)(?:\/|$)|\/page\/\d+\/?$/i;
/** URL path words that name one product, one thread, one docs page. */
const PRODUCT_PATH = /\/(?:products?|dp|item|itm|p)\/[^/]+/i;
const FORUM_PATH = /\/(?:forums?|threads?|t|questions|topic|discussions?)(?:\/|$|\?)|(?:viewtopic|showtopic|showthread)/i;
/** An article's URL: a dated path (/2019/11/…) or a segment that is a sentence of five words or more. */
const ARTICLE_PATH = /\/(?:19|20)\d\d\/(?:[01]?\d\/)?|\/[^/]*(?:[\p{L}\p{N}]+[-_]){4,}[\p{L}\p{N}]+/iu;
const DOCS_PATH = /\/(?:docs?|documentation|reference|manual|api|guides?)(?:\/|$)/i;

/** A schema.org type name without its prefix ("https://schema.org/FAQPage" → "FAQPage"). */
const typeName = (v: string) => v.replace(/^https?:\/\/schema\.org\//, '');

/**
 * Visits every object of the page's JSON-LD blocks, @graph members and main entities included, depth first,
 * with its own @type names and those of the objects above it; `visit` returning false skips what is below.
 * The one walk of JSON-LD for the page type and the FAQ (extract-faq.ts).
 */
export function forEachJsonLd(doc: Document, visit: (o: Record<string, unknown>, types: string[], above: string[]) => boolean | void): void {
  const walk = (node: unknown, depth: number, above: string[]) => {
    if (!node || typeof node !== 'object' || depth > 6) return;
    if (Array.isArray(node)) { for (const n of node) walk(n, depth + 1, above); return; }
    const o = node as Record<string, unknown>;
    const types = [o['@type']].flat().filter((v): v is string => typeof v === 'string').map(typeName);
    if (visit(o, types, above) === false) return;
    const below = types.length ? [...above, ...types] : above;
    if (o['@graph']) walk(o['@graph'], depth + 1, below);
    if (o.mainEntity) walk(o.mainEntity, depth + 1, below);
  };
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) {
    try { walk(JSON.parse(s.textContent ?? ''), 0, []); } catch { /* broken JSON-LD says nothing */ }
  }
}

/** The @type values of every JSON-LD block, @graph members and main entities included, without a
 *  schema.org prefix. */
export function jsonLdTypes(doc: Document): string[] {
  const types: string[] = [];
  forEachJsonLd(doc, (_o, own) => { types.push(...own); });
  return types;
}

/** Microdata types of the page (last path segment of each itemtype). */
export function microdataTypes(doc: Document): string[] {
  return [...doc.querySelectorAll('[itemtype]')].map((e) => (e.getAttribute('itemtype') ?? '').trim().split('/').pop() ?? '');
}

/** What a page says about itself, read before it is stripped (JSON-LD lives in scripts). */
export interface PageMeta { jsonLd: string[]; og: string; /** Microdata item types. */ microdata: string[] }

export function pageMeta(doc: Document): PageMeta {
  const og = doc.querySelector('meta[property="og:type"], meta[name="og:type"]')?.getAttribute('content')?.trim().toLowerCase() ?? '';
  return { jsonLd: jsonLdTypes(doc), og, microdata: microdataTypes(doc) };
}

/**
 * The page's type from its metadata, its URL and `items`, the number of repeated item containers
 * extract-items.ts found (0 when none); `doc` is looked at for prices (a listing of products).
 */
export function detectPageType(meta: PageMeta, url: string, items: number, doc: Document, discussion = false): PageTypeResult {
  const signals: string[] = [];
  const votes = new Map<PageType, number>();
  // Listings and collections share their votes (a collection is a listing of products, told apart below).
  const vote = (type: PageType, weight: number, signal: string) => {
    const key = type === 'collection' ? 'listing' : type;
    votes.set(key, (votes.get(key) ?? 0) + weight);
    signals.push(signal);
  };
  const types = meta.jsonLd;
  for (const t of new Set(types)) {
    const hit = SCHEMA_TYPES.find(([re]) => re.test(t));
    if (!hit) continue;
    // Many Product blocks on one page are the items of a listing, not one product.
    if (hit[1] === 'product' && types.filter((x) => x === t).length >= MANY_PRODUCTS) vote('collection', 3, `jsonld:${t}×${types.filter((x) => x === t).length}`);
    else vote(hit[1], 3, `jsonld:${t}`);
  }
  // One product in microdata (itemtype Product) says product as the same JSON-LD would (a page of
  // repeated cards around it is still its page); many are a listing's items, left to the other signals.
  const mdProducts = meta.microdata.filter((t) => PRODUCT_SCHEMA.test(t)).length;
  if (mdProducts > 0 && mdProducts < MANY_PRODUCTS && !types.some((t) => PRODUCT_SCHEMA.test(t))) vote('product', 3, `microdata:Product`);
  const og = meta.og;
  // A product group (og:type product.group) is a page of many products.
  if (og === 'product.group') vote('collection', 2, `og:${og}`);
  else if (/product/.test(og)) vote('product', 2, `og:${og}`);
  else if (og === 'article') vote('article', 1, 'og:article');
  let path = '';
  try { const u = new URL(url); path = u.pathname + u.search; } catch { /* no URL: no URL signals */ }
  const listPath = path.match(LISTING_PATH);
  if (ARTICLE_PATH.test(path.replace(/\?.*$/, ''))) vote('article', 2, 'url:article');
  if (listPath) vote('listing', 2, `url:${listPath[0]}`);
  else if (PRODUCT_PATH.test(path)) vote('product', 1, 'url:product');
  else if (FORUM_PATH.test(path)) vote('forum', 2, 'url:forum');
  else if (DOCS_PATH.test(path)) vote('documentation', 1, 'url:docs');
  // The site's front page or a section root ("/", "/news/") is a list of what it holds.
  if (/^\/(?:[\w-]+\/?)?$/.test(path.replace(/\?.*$/, '')) && !/\.\w+$/.test(path)) vote('listing', 1, 'url:front');
  // Repeated posts or comments are a discussion, not a listing.
  if (items >= MANY_ITEMS) vote(discussion ? 'forum' : 'listing', 2, `${discussion ? 'posts' : 'items'}:${items}`);
  let best: PageType = 'unknown';
  let bestVotes = 0;
  // On a tie the other type wins: reading a page as a listing is the bigger change.
  for (const [type, n] of votes) if (n > bestVotes || (n === bestVotes && best === 'listing')) { best = type; bestVotes = n; }
  // A listing of products (prices on its items) is a collection.
  if (best === 'listing' && (og === 'product.group' || signals.some((s) => s.startsWith('jsonld:Product') || s.startsWith('jsonld:OfferCatalog')) || priced(doc))) best = 'collection';
  return { type: best, signals };
}
/** Product blocks from this many on mean a listing of products. */
const MANY_PRODUCTS = 3;
/** Repeated item containers from this many on are a listing signal. */
const MANY_ITEMS = 6;

/** Whether many elements of the page show a price. */
function priced(doc: Document): boolean {
  let n = 0;
  for (const el of doc.querySelectorAll('[class*="price" i], [itemprop="price"]') as Iterable<El>) if (PRICE.test(el.textContent ?? '') && ++n >= MANY_PRICES) return true;
  return false;
}
const PRICE = /(?:[$€£¥₹]\s?\d|\d\s?(?:[$€£¥₹]|USD|EUR|GBP))/;
const MANY_PRICES = 4;
