// Where the observation's time goes (issue 43), on bench:peers' tune observation pages: the in-page collect()
// (its own collect_ms), the rest of collectPage (round trip, JSON across, parse), rank (Wasm, top 50) and
// toPrompt, each page loaded and settled as bench:peers does before each of `reps` observations (a first
// collection each time, as an agent's), median per page, page p50 of each phase. With a second collector build
// (`--other <collector.js>`, e.g. a commit's build/collector.js) each load is observed by one build, the two
// builds alternating load by load, page by page, and both are reported.
//   WCXB_DIR=... node --import tsx bench/observe-phases.ts [reps, default 5] [--other <collector.js>]
import { readFileSync } from 'node:fs';
import { launch } from '../test/helpers/browser.ts';
import { serveWcxbPages, pickWcxb } from './wcxb-pages.ts';
import { collectPageTitled, waitForStable } from '../src/playwright/collect-page.ts';
import { collectorSource } from '../src/playwright/collector-source.ts';
import { createRanker, toPrompt } from '../src/index.ts';
import type { SnapshotRequest } from '../src/schema/snapshot.ts';
import { quantile } from './stats.ts';

const args = process.argv.slice(2);
const otherAt = args.indexOf('--other');
const other = otherAt >= 0 ? readFileSync(args[otherAt + 1], 'utf8') : null;
if (otherAt >= 0) args.splice(otherAt, 2);
const reps = Number(args[0] ?? 5);
const builds = other ? ['this', 'other'] : ['this'];
// bench:peers' observation pages of the tune part (its `pick('tune', 15, 'peers-observe')`).
const ids = pickWcxb('tune', 15, 'peers-observe');
const site = await serveWcxbPages(ids);
const ranker = await createRanker({ limitCap: 100_000 });
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await ctx.route((url) => !url.href.startsWith(site.origin), (route) => route.abort());
const page = await ctx.newPage();
const PHASES = ['total', 'inPage', 'transfer', 'rank', 'prompt', 'elements'];
const phases: Record<string, Record<string, number[]>> = Object.fromEntries(builds.map((b) => [b, Object.fromEntries(PHASES.map((k) => [k, []]))]));
const median = (xs: number[]) => quantile(xs, 0.5);
for (const [n, id] of ids.entries()) {
  const per: Record<string, Record<string, number[]>> = Object.fromEntries(builds.map((b) => [b, Object.fromEntries(PHASES.map((k) => [k, []]))]));
  for (let r = 0; r < reps * builds.length; r++) {
    const build = builds[(r + n) % builds.length];
    await page.goto(`${site.origin}/wcxb/${id}.html`, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
    await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
    // Both builds injected alike, just before the observation (the settle wait injected this one earlier).
    if (other) await page.evaluate(`delete window.__sightline; ${build === 'other' ? other : collectorSource()}`);
    const t0 = performance.now();
    const { collected: c, title } = await collectPageTitled(page);
    const t1 = performance.now();
    const request: SnapshotRequest = { url: page.url(), viewport: c.viewport, raw_elements: c.raw_elements as unknown as SnapshotRequest['raw_elements'], options: { limit: 50 } };
    const ranked = ranker.rank(request);
    const t2 = performance.now();
    toPrompt(ranked, { title });
    const t3 = performance.now();
    const p = per[build];
    p.total.push(t3 - t0); p.inPage.push(c.collect_ms); p.transfer.push(t1 - t0 - c.collect_ms); p.rank.push(t2 - t1); p.prompt.push(t3 - t2); p.elements.push(c.raw_elements.length);
  }
  for (const b of builds) for (const k of PHASES) phases[b][k].push(median(per[b][k]));
  if (process.env.PHASES_PER_PAGE) console.log(id, builds.map((b) => `${b} in-page ${median(per[b].inPage).toFixed(1)} total ${median(per[b].total).toFixed(1)}`).join('; '));
}
await browser.close();
await site.close();
console.log(`${ids.length} tune observation pages, ${reps} loads each${other ? ' per build' : ''}; p50 over pages of each page's median (ms):`);
for (const b of builds) console.log(`${b}: ${PHASES.map((k) => `${k} ${median(phases[b][k]).toFixed(1)}`).join(', ')}`);
if (other) console.log(`this/other, total p50: ${(median(phases.this.total) / median(phases.other.total)).toFixed(3)}; in-page p50: ${(median(phases.this.inPage) / median(phases.other.inPage)).toFixed(3)}`);
