// Builds dev4 (issue 20, eleventh round): an independent set of real news pages for the goal-less
// importance evaluation, from scrapinghub/article-extraction-benchmark (MIT licence; ../shared/data/
// article-extraction-benchmark, commit 4a3bc97): 181 article pages as served, from 126 sites, none of them
// marked or ranked before. Each page is rendered exactly as collect-a11y.ts renders WCXB pages (renderPage:
// the document served at its own URL, every other request aborted, 1280x800, our collector and Chromium's
// accessibility tree).
//
// Site: the registrable name without its public suffix (shopOf). Sites go to dev4 tune (50%) or the frozen
// dev4 test (50%) by a seeded hash (dev4SplitOf), except that a site of the WCXB a11y test split is left out
// (its pages must stay unseen) and a site of the WCXB a11y tune split goes to dev4 tune (it was tuned on
// already, so it cannot stand for unseen pages). Writes train/a11y/dev4.json.gz (both halves) and, for the
// blind marking of primary actions, scratch/a11y/dev4-controls.txt (every named control in page order,
// visible ones flagged; not committed).
// Run: node --import tsx train/a11y/collect-articles.ts
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { hash } from '../../src/rank/goal.ts';
import { renderSet, halfSummary, type A11yPage, type A11ySplit, type Source } from './collect-a11y.ts';
import { shopOf } from './collect-products.ts';

const AEB = new URL('../../../shared/data/article-extraction-benchmark/', import.meta.url);
export const DEV4_SEED = 'a11y-dev4-news-2026-11';

const sitesOf = (file: string) => new Set((JSON.parse(gunzipSync(readFileSync(new URL(file, import.meta.url))).toString()) as { pages: A11yPage[] })
  .pages.map((p) => shopOf(p.request.url)));

/** Every page of the article benchmark as dev4 renders it (id `aeb-` and the key's first 12 characters). */
export function aebSources(): (Source & { site: string })[] {
  const truth = JSON.parse(readFileSync(new URL('ground-truth.json', AEB), 'utf8')) as Record<string, { url: string }>;
  return Object.keys(truth).sort().map((key) => {
    const url = truth[key].url.split('#')[0];
    const html = gunzipSync(readFileSync(new URL(`html/${key}.html.gz`, AEB))).toString('utf8');
    return { id: `aeb-${key.slice(0, 12)}`, url, type: 'article', site: shopOf(url), html };
  });
}

async function main() {
  const frozen = sitesOf('./test.json.gz');
  const tuned = sitesOf('./tune.json.gz');
  const splitOf = (site: string): A11ySplit => tuned.has(site) || ((hash(`${DEV4_SEED}:${site}`) >>> 0) % 100) < 50 ? 'tune' : 'test';
  const all = aebSources();
  const sources = all.filter((s) => !frozen.has(s.site));
  const pages = await renderSet('dev4', DEV4_SEED, sources, splitOf);
  console.log(`${pages.length} of ${sources.length} pages (${all.length - sources.length} left out: a site of the frozen WCXB split); dev4 tune ${halfSummary(pages, 'tune')}, dev4 test ${halfSummary(pages, 'test')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
