// Where the observation's time goes (issue 43), on bench:peers' tune observation pages: the in-page collect()
// (its own collect_ms), the rest of the collection (round trip, the payload across, decoding, the title), rank
// (Wasm, top 50) and toPrompt, each page loaded and settled as bench:peers does before each of `reps`
// observations (a first collection each time, as an agent's), median per page, page p50 of each phase. With
// another checkout (`--base <dir>`, built: its src/playwright/collect-page.ts with its own build/collector.js)
// each load is settled and observed by one side, the two alternating load by load, page by page, each as its
// bench:peers observes (elements and title); both are reported, and the pages whose text form (top 50, with
// the title) differs between the sides' first observations.
//   WCXB_DIR=... node --import tsx bench/observe-phases.ts [reps, default 5] [--base <checkout dir>]
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { openObservePages } from './observe-pages.ts';
import { collectPageTitled, waitForStable } from '../src/playwright/collect-page.ts';
import type { CollectResult } from '../src/collect/types.ts';
import { createRanker, toPrompt } from '../src/index.ts';
import type { SnapshotRequest } from '../src/schema/snapshot.ts';
import { quantile } from './stats.ts';

const args = process.argv.slice(2);
const baseAt = args.indexOf('--base');
const baseDir = baseAt >= 0 ? args[baseAt + 1] : null;
if (baseAt >= 0) args.splice(baseAt, 2);
const reps = Number(args[0] ?? 5);

interface Side { settle(page: Page): Promise<unknown>; observe(page: Page): Promise<{ collected: CollectResult; title: string }> }
const sides: Record<string, Side> = {
  this: { settle: (page) => waitForStable(page, { quietMs: 100, timeoutMs: 3000 }), observe: collectPageTitled },
};
if (baseDir) {
  const base = await import(pathToFileURL(join(baseDir, 'src/playwright/collect-page.ts')).href) as typeof import('../src/playwright/collect-page.ts');
  sides.base = {
    settle: (page) => base.waitForStable(page, { quietMs: 100, timeoutMs: 3000 }),
    // As the base's bench:peers asks: with the title from collectPageTitled where the base has it.
    observe: base.collectPageTitled ?? (async (page) => { const [collected, title] = await Promise.all([base.collectPage(page), page.title()]); return { collected, title }; }),
  };
}
const builds = Object.keys(sides);
const { ids, origin, page, close } = await openObservePages();
const ranker = await createRanker({ limitCap: 100_000 });
const PHASES = ['total', 'inPage', 'transfer', 'rank', 'prompt', 'elements'];
const phases: Record<string, Record<string, number[]>> = Object.fromEntries(builds.map((b) => [b, Object.fromEntries(PHASES.map((k) => [k, []]))]));
const median = (xs: number[]) => quantile(xs, 0.5);
const textsDiffer: string[] = [];
for (const [n, id] of ids.entries()) {
  const texts: Record<string, string> = {};
  const per: Record<string, Record<string, number[]>> = Object.fromEntries(builds.map((b) => [b, Object.fromEntries(PHASES.map((k) => [k, []]))]));
  for (let r = 0; r < reps * builds.length; r++) {
    const build = builds[(r + n) % builds.length];
    await page.goto(`${origin}/wcxb/${id}.html`, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
    await sides[build].settle(page);
    const t0 = performance.now();
    const { collected: c, title } = await sides[build].observe(page);
    const t1 = performance.now();
    const request: SnapshotRequest = { url: page.url(), viewport: c.viewport, raw_elements: c.raw_elements as unknown as SnapshotRequest['raw_elements'], options: { limit: 50 } };
    const ranked = ranker.rank(request);
    const t2 = performance.now();
    const text = toPrompt(ranked, { title });
    const t3 = performance.now();
    texts[build] ??= text;
    const p = per[build];
    p.total.push(t3 - t0); p.inPage.push(c.collect_ms); p.transfer.push(t1 - t0 - c.collect_ms); p.rank.push(t2 - t1); p.prompt.push(t3 - t2); p.elements.push(c.raw_elements.length);
  }
  for (const b of builds) for (const k of PHASES) phases[b][k].push(median(per[b][k]));
  if (baseDir && texts.this !== texts.base) textsDiffer.push(id);
  if (process.env.PHASES_PER_PAGE) console.log(id, builds.map((b) => `${b} in-page ${median(per[b].inPage).toFixed(1)} transfer ${median(per[b].transfer).toFixed(1)} total ${median(per[b].total).toFixed(1)}`).join("; "));
}
await close();
console.log(`${ids.length} tune observation pages, ${reps} loads each${baseDir ? ' per side' : ''}; p50 over pages of each page's median (ms):`);
for (const b of builds) console.log(`${b}: ${PHASES.map((k) => `${k} ${median(phases[b][k]).toFixed(1)}`).join(', ')}`);
if (baseDir) console.log(`text form (top 50 and title), first observation of each side: ${ids.length - textsDiffer.length} of ${ids.length} pages the same${textsDiffer.length ? `; differs on ${textsDiffer.join(', ')}` : ''}`);
if (baseDir) {
  const paired = phases.this.total.map((t, i) => t / phases.base.total[i]);
  console.log(`this/base by page (total): median ${median(paired).toFixed(3)}, faster on ${paired.filter((r) => r < 1).length} of ${paired.length} pages; sum of page medians ${(phases.this.total.reduce((a, b) => a + b, 0) / phases.base.total.reduce((a, b) => a + b, 0)).toFixed(3)}`);
}
if (baseDir) console.log(`this/base, total p50: ${(median(phases.this.total) / median(phases.base.total)).toFixed(3)}; in-page p50: ${(median(phases.this.inPage) / median(phases.base.inPage)).toFixed(3)}; transfer p50: ${(median(phases.this.transfer) / median(phases.base.transfer)).toFixed(3)}`);
