// Builds dev3 (issue 20): an independent set of real product pages for the goal-less importance
// evaluation, from scrapinghub/product-extraction-benchmark (Zyte, 2021, MIT licence): 140 HTML
// snapshots of rendered product pages from 62 sites (`dataset/html/<id>.html.gz`, URLs in
// `dataset/ground-truth.json`). Each page is rendered exactly as collect-a11y.ts renders WCXB pages
// (renderPage: the document served at its own URL, every other request aborted, 1280x800, our collector
// and Chromium's accessibility tree).
//
// Site: the registrable name without its public suffix (amazon.com, amazon.de, amazon.co.uk -> "amazon";
// ar-sa.namshi.com -> "namshi"), so one shop's layouts never sit on both sides of the split. Sites go to
// dev3 tune (50%) or the frozen dev3 test (50%) by a seeded hash (dev3SplitOf). Writes
// train/a11y/dev3.json.gz (both halves, each page with its split: "tune" or "test" of dev3) and, for the
// blind marking of primary actions, scratch/a11y/dev3-controls.txt (every named control in page order,
// visible ones flagged; not committed). The benchmark's pages are not committed: extract its `dataset/`
// and point PEB_DIR at the folder holding it.
// Run: PEB_DIR=/work/pextract node --import tsx train/a11y/collect-products.ts
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hash } from '../../src/rank/goal.ts';
import { renderSet, halfSummary, type A11ySplit, type Source } from './collect-a11y.ts';

const PEB = process.env.PEB_DIR ?? '/work/pextract';
export const DEV3_SEED = 'a11y-dev3-products-2026-11';

/** A country's second-level labels under its two-letter suffix (amazon.co.uk, mobly.com.br). */
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'ac', 'gov', 'edu', 'ne', 'or']);
/** The registrable name without its public suffix: the shop, whatever its country or subdomain. */
export function shopOf(url: string): string {
  const labels = new URL(url).hostname.toLowerCase().split('.');
  const tld = labels[labels.length - 1];
  const suffix = labels.length > 2 && tld.length === 2 && SECOND_LEVEL.has(labels[labels.length - 2]) ? 2 : 1;
  return labels[labels.length - 1 - suffix] ?? labels[0];
}
export const dev3SplitOf = (shop: string): A11ySplit => ((hash(`${DEV3_SEED}:${shop}`) >>> 0) % 100) < 50 ? 'tune' : 'test';

/** The benchmark's pages in key order, each with its shop: served at its URL without its fragment (the
 *  route serves the document only when the request's URL, never carrying a fragment, equals the page's). */
export function pebSources(): (Source & { shop: string })[] {
  const truth = JSON.parse(readFileSync(join(PEB, 'dataset', 'ground-truth.json'), 'utf8')) as Record<string, { url: string }>;
  return Object.keys(truth).sort().map((key) => {
    const url = truth[key].url.split('#')[0];
    const html = gunzipSync(readFileSync(join(PEB, 'dataset', 'html', `${key}.html.gz`))).toString('utf8');
    return { id: `peb-${key.slice(0, 12)}`, url, type: 'product', html, shop: shopOf(url) };
  });
}

async function main() {
  const sources = pebSources().map((s) => ({ ...s, site: s.shop }));
  const pages = await renderSet('dev3', DEV3_SEED, sources, dev3SplitOf);
  console.log(`${pages.length} of ${sources.length} pages (dev3 tune ${halfSummary(pages, 'tune', 'shops')}, dev3 test ${halfSummary(pages, 'test', 'shops')})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
