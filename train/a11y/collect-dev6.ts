// dev6 (issue 38): an independent, ranking-only set of WCXB development pages with purchases (product pages, and
// service pages that sell something) of shops no other set holds, one page per shop, for the goal-less importance
// evaluation. Candidates: WCXB dev pages (WCXB_DIR) of type product or service whose shop (shopOf) is held by no
// train/a11y/*.json.gz nor train/real/*.json.gz page (heldSites). Every such page lies in the frozen part of the read
// split (bench/read/wcxb-split.json); the lead decided (docs/decisions.md, 2026-11-28) that they become dev6 anyway:
// they stay in the read frozen part, no read rule is ever tuned on them and nobody looks at their read output.
// `--pool` only counts the candidates and renders nothing. Otherwise the candidates are rendered with renderSet
// (collect-a11y.ts's renderPage) into train/a11y/dev6.json.gz, split 50/50 by shop with a seeded hash (dev6SplitOf:
// the tune half is for ranking rules, the test half is frozen), and listed for the blind marking in
// scratch/a11y/dev6-controls.txt. It refuses to write an empty set.
// Run: WCXB_DIR=/work/wcxb-43 node --import tsx train/a11y/collect-dev6.ts [--pool]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { hash } from '../../src/rank/goal.ts';
import { renderSet, halfSummary, wcxbTruths, sourceOf, type A11ySplit, type Source } from './collect-a11y.ts';
import { shopOf } from './collect-products.ts';
import { heldSites } from './collect-forms.ts';

export const DEV6_SEED = 'a11y-dev6-purchases-2026-11';
export const dev6SplitOf = (site: string): A11ySplit => ((hash(`${DEV6_SEED}:${site}`) >>> 0) % 100) < 50 ? 'tune' : 'test';
const TYPES = new Set(['product', 'service']);

/** The candidates, one page per free shop in file order; `readFrozen` counts the free pages in the read split's frozen part. */
export function dev6Sources(): { sources: (Source & { site: string })[]; typed: number; held: number; readFrozen: number } {
  const split = JSON.parse(readFileSync(new URL('../../bench/read/wcxb-split.json', import.meta.url), 'utf8')) as { tune: string[] };
  const readTune = new Set(split.tune);
  const held = heldSites('dev6.json.gz');
  const typed = wcxbTruths().filter((t) => TYPES.has(t.type));
  const free = typed.filter((t) => !held.has(shopOf(t.url)));
  const taken = new Set<string>();
  const sources: (Source & { site: string })[] = [];
  for (const t of free) {
    const site = shopOf(t.url);
    if (taken.has(site)) continue;
    taken.add(site);
    sources.push({ ...sourceOf(t), site });
  }
  return { sources, typed: typed.length, held: typed.length - free.length, readFrozen: free.filter((t) => !readTune.has(t.file.replace('.json', ''))).length };
}

async function main() {
  const { sources, typed, held, readFrozen } = dev6Sources();
  console.log(`${typed} product / service pages: ${held} of held shops, ${typed - held} of free shops (${readFrozen} in the read split's frozen part: ranking-only), ${sources.length} candidates (one per shop)`);
  if (process.argv.includes('--pool')) return;
  if (sources.length === 0) throw new Error('no candidate page: dev6 not written');
  const pages = await renderSet('dev6', DEV6_SEED, sources, dev6SplitOf);
  console.log(`${pages.length} of ${sources.length} pages (dev6 tune ${halfSummary(pages, 'tune', 'shops')}, dev6 test ${halfSummary(pages, 'test', 'shops')})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
