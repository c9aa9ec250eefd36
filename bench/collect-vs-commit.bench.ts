// This tree's collector against another commit's, interleaved in the same page (same DOM, same layout, same
// registry), on every Nth page of the WCXB sample rendered offline: the in-page time of collect() plus
// JSON.stringify, median of 7 alternating runs per side after one warm-up each (later collections, not a first one).
// `--same` builds this tree's collector as the other side too: the A/A baseline that shows the method's own bias.
//   node --import tsx bench/collect-vs-commit.bench.ts <commit> [stride, default 5] [--same]
import { launch } from '../test/helpers/browser.ts';
import { collectorAt } from './old-checkout.ts';
import { serveLargePages, goOffline, settle, wcxbIds } from '../test/helpers/large-pages.ts';
import { inject } from '../src/playwright/collect-page.ts';
import { quantile } from './stats.ts';

const [commit, strideArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const same = process.argv.includes('--same');
if (!commit) throw new Error('usage: node --import tsx bench/collect-vs-commit.bench.ts <commit> [stride] [--same]');
const stride = Number(strideArg ?? 5);

// A string, not a function: the TypeScript loader's helpers do not exist in the page.
const MEASURE = `(() => {
  const w = window, other = [], ours = [];
  const time = (f) => { const s = performance.now(); JSON.stringify(f()); return performance.now() - s; };
  time(() => w.__sightline.collect()); time(() => w.__other.collect());
  for (let k = 0; k < 7; k++) {
    if (k % 2) { other.push(time(() => w.__other.collect())); ours.push(time(() => w.__sightline.collect())); }
    else { ours.push(time(() => w.__sightline.collect())); other.push(time(() => w.__other.collect())); }
  }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  return { other: med(other), ours: med(ours) };
})()`;

const other = await collectorAt(same ? null : commit, '__other');
const [large, browser] = await Promise.all([serveLargePages(), launch()]);
const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
await goOffline(page, large.url);
const ratios: number[] = [];
const total = { other: 0, ours: 0 };
for (const id of wcxbIds().filter((_, k) => k % stride === 0)) {
  try { await page.goto(`${large.url}/wcxb/${id}.html`, { waitUntil: 'load', timeout: 15_000 }); } catch { continue; }
  await settle(page);
  await inject(page.mainFrame());
  await page.evaluate(other);
  const t = await page.evaluate(MEASURE) as { other: number; ours: number };
  ratios.push(t.other / t.ours);
  total.other += t.other; total.ours += t.ours;
}
await browser.close();
await large.close();
console.log(`${same ? 'this tree (A/A)' : commit} ÷ this tree, ${ratios.length} WCXB pages: per page median ${quantile(ratios, 0.5).toFixed(3)}× (p10 ${quantile(ratios, 0.1).toFixed(3)}×, p90 ${quantile(ratios, 0.9).toFixed(3)}×); total ${total.other.toFixed(0)} ms ÷ ${total.ours.toFixed(0)} ms = ${(total.other / total.ours).toFixed(3)}×`);
