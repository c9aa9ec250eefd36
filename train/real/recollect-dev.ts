// What the collector's list fields (list_id, list_index, list_length: src/collect/lists.ts) do on the real
// goal set. The stored pages were collected before the fields existed, so this re-renders the dev split's
// WCXB pages from the WCXB `dev/` HTML with the current collector, exactly as collect-real.ts renders them
// (renderOffline), and ranks the dev goals three ways: the stored pages, the re-collected pages with the
// fields stripped (what the collector's other changes since did), and the re-collected pages as they are.
// Only the dev split: the frozen test split is neither rendered nor ranked. The dev split's Readability
// pages stay as stored. Writes the pages to scratch/real-dev/pages.json.gz (not committed).
// Run: WCXB_DIR=<wcxb checkout> node --import tsx train/real/recollect-dev.ts   (after `node scripts/build.js`)
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { launch } from '../../test/helpers/browser.ts';
import { renderOffline, type RealPage } from './collect-real.ts';
import { loadRealPages } from './check-goals.ts';
import { score, table, loadGoals } from './evaluate.ts';

const WCXB = process.env.WCXB_DIR ?? '/work/wcxb';
const OUT = new URL('../../scratch/real-dev/pages.json.gz', import.meta.url);
const LIST_FIELDS = new Set(['list_id', 'list_index', 'list_length']);

const dev = [...loadRealPages().values()].filter((p) => p.split === 'dev');
const fresh = new Map<string, RealPage['request']>();
const browser = await launch();
let sameCount = 0, targets = 0, targetsKept = 0;
for (const p of dev.filter((q) => q.source === 'wcxb-dev')) {
  const file = p.id.replace(/^wcxb-/, '');
  const truth = JSON.parse(readFileSync(join(WCXB, 'dev', 'ground-truth', `${file}.json`), 'utf8')) as { url: string };
  const html = gunzipSync(readFileSync(join(WCXB, 'dev', 'html', `${file}.html.gz`))).toString('utf8');
  try {
    const request = await renderOffline(browser, truth.url, html);
    fresh.set(p.id, request);
    if (request.raw_elements.length === p.request.raw_elements.length) sameCount++;
  } catch (err) {
    process.stderr.write(`${p.id}: ${(err as Error).message.split('\n')[0]}\n`);
  }
}
await browser.close();
mkdirSync(new URL('.', OUT), { recursive: true });
writeFileSync(OUT, gzipSync(JSON.stringify({ pages: [...fresh].map(([id, request]) => ({ id, request })) })));

// Ids are the collector's walk order: a target keeps its meaning when its element is the same (tag, link).
for (const g of loadGoals()) {
  const now = fresh.get(g.page.id);
  if (g.page.split !== 'dev' || !now) continue;
  for (const t of g.targets) {
    targets++;
    const before = g.page.request.raw_elements.find((e) => e.id === t), after = now.raw_elements.find((e) => e.id === t);
    if (before && after && before.tag === after.tag && (before.attributes.href ?? '') === (after.attributes.href ?? '')) targetsKept++;
  }
}
console.log(`${fresh.size} of ${dev.filter((q) => q.source === 'wcxb-dev').length} dev WCXB pages re-collected (${sameCount} with the same element count); ${targetsKept} of ${targets} dev targets keep their tag and link\n`);

const isDev = (page: RealPage) => page.split === 'dev';
const stripped = (page: RealPage) => {
  const now = fresh.get(page.id);
  if (!now) return page.request;
  return { ...now, raw_elements: now.raw_elements.map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !LIST_FIELDS.has(k)))) as RealPage['request']['raw_elements'] };
};
const rows = [
  // `lang` holds which pages a row was ranked on: the table groups by it.
  ...(await score(isDev)).map((r) => ({ ...r, lang: 'stored' })),
  ...(await score(isDev, stripped)).map((r) => ({ ...r, lang: 're-collected, fields stripped' })),
  ...(await score(isDev, (page) => fresh.get(page.id) ?? page.request)).map((r) => ({ ...r, lang: 're-collected' })),
];
console.log('All dev goals (the model columns; the heuristic columns are without a goal)\n\n' + table(rows, (r) => r.lang) + '\n');
console.log('Ordinal goals\n\n' + table(rows.filter((r) => r.style === 'ordinal'), (r) => r.lang));
