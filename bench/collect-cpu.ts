// This tree's collector against another build's, by the CPU time of the renderer's main thread
// (/proc/<pid>/task/<pid>/schedstat, nanoseconds, Linux), not by a wall clock: on a shared, loaded machine
// the wall clock counts other processes' time too. Both collectors in the same page (same DOM, same layout),
// collect() plus JSON.stringify as collectPage runs it, `runs` alternating calls per side on each page (the
// first call of each side on a fresh load included, as an agent's first observation), summed per side.
// With CPU_FIRST=1 every call is the first in its document, as bench:peers times it: the page is loaded and
// settled again before each call, the sides alternating load by load, and the call is the wire form
// (`wire()`, collectPage's) where a build has it: cold code and a cold Blink, as an observation meets them.
// Pages: WCXB tune pages served offline (bench/wcxb-pages.ts realPageIds; never the frozen test part).
//   WCXB_DIR=... node --import tsx bench/collect-cpu.ts <other collector.js, e.g. a commit's build> [pages, default 30] [runs, default 4]
import { readFileSync, readdirSync } from 'node:fs';
import { launch } from '../test/helpers/browser.ts';
import { serveRealPages } from './wcxb-pages.ts';
import { waitForStable } from '../src/playwright/collect-page.ts';
import { collectorSource } from '../src/playwright/collector-source.ts';
import { quantile } from './stats.ts';

const [otherPath, pagesArg, runsArg] = process.argv.slice(2);
if (!otherPath) throw new Error('usage: node --import tsx bench/collect-cpu.ts <other collector.js> [pages] [runs]');
// The other build under its own name (its registry shared: ids do not change the work).
const other = readFileSync(otherPath, 'utf8').replaceAll('__sightline =', '__other =').replace('if (!host.__sightline || host.__sightline.version < VERSION)', 'if (true)');
if (!other.includes('__other =')) throw new Error('the other build does not install window.__sightline as expected');
const runs = Number(runsArg ?? 4);
const site = await serveRealPages(Number(pagesArg ?? 30));
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await ctx.route((url) => !url.href.startsWith(new URL(site.urls[0].url).origin), (route) => route.abort());
const page = await ctx.newPage();

const renderers = () => readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
  try { return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--type=renderer'); } catch { return false; }
});
const cpuNs = (pid: string) => { try { return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]); } catch { return 0; } };
/** The renderer main thread that works when the page does (found again after each navigation). */
async function rendererOf(): Promise<string> {
  const pids = renderers();
  const before = pids.map(cpuNs);
  await page.evaluate(() => { const t = performance.now(); while (performance.now() - t < 30) { /* spin */ } });
  const grew = pids.map((p, i) => cpuNs(p) - before[i]);
  return pids[grew.indexOf(Math.max(...grew))];
}

const FIRST = process.env.CPU_FIRST === '1';
const CALL = (name: string) => (FIRST ? `(window.${name}.wire ? window.${name}.wire() : JSON.stringify(window.${name}.collect())).length` : `JSON.stringify(window.${name}.collect()).length`);
const load = async (url: string) => {
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
  await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
  await page.evaluate(`delete window.__sightline; ${collectorSource()}; ${other}`);
};
const total = { ours: 0, other: 0 };
const ratios: number[] = [];
for (const [k, { url }] of site.urls.entries()) {
  await load(url);
  let pid = await rendererOf();
  const side = { ours: 0, other: 0 };
  for (let r = 0; r < 2 * runs; r++) {
    const name = (r + k) % 2 ? 'other' : 'ours';
    if (FIRST && r > 0) { await load(url); pid = await rendererOf(); }
    const t = cpuNs(pid);
    await page.evaluate(CALL(name === 'ours' ? '__sightline' : '__other'));
    side[name] += cpuNs(pid) - t;
  }
  total.ours += side.ours; total.other += side.other;
  ratios.push(side.other / side.ours);
  if (process.env.CPU_PER_PAGE) console.log(url.split('/').pop(), (side.ours / runs / 1e6).toFixed(1), (side.other / runs / 1e6).toFixed(1));
}
await browser.close();
await site.close();
console.log(`renderer main-thread CPU per collect${FIRST ? ' (each the first in its document)' : ''}, ${ratios.length} WCXB tune pages x ${runs} runs a side: this tree ${(total.ours / runs / ratios.length / 1e6).toFixed(2)} ms, ` +
  `other ${(total.other / runs / ratios.length / 1e6).toFixed(2)} ms; other/this total ${(total.other / total.ours).toFixed(3)}x, per page median ${quantile(ratios, 0.5).toFixed(3)}x (p10 ${quantile(ratios, 0.1).toFixed(3)}, p90 ${quantile(ratios, 0.9).toFixed(3)})`);
