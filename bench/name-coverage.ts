// Coverage of the text form (collect + Wasm rank + toPrompt, as bench:peers's "Sightline map" row) against
// Chromium's accessibility tree, on more WCXB development pages of the tune part than bench:peers samples:
// the share of the visible named controls (a control role with a name, its box in the 1280x800 viewport at
// scroll 0) whose name, lower-cased with spaces collapsed, first 40 characters, is in the text; top 50 and
// every element. Also the same over the controls Chromium also draws (`checkVisibility` with opacity and
// visibility: the tree keeps a hover menu at opacity 0, which nobody sees and the collector leaves out). Lists each control missed by the whole list, with its markup, for error analysis. Tune part
// only (bench/read/wcxb-split.json): the frozen part is measured by bench:peers alone.
// Run: node --import tsx bench/name-coverage.ts [pages, default 60]   (WCXB_DIR; never its test/ folder)
import { createRanker, toPrompt } from '../src/index.ts';
import type { SnapshotRequest } from '../src/schema/snapshot.ts';
import { collectPage, waitForStable } from '../src/playwright/collect-page.ts';
import { launch } from '../test/helpers/browser.ts';
import { hash } from '../src/rank/words.ts';
import { SPLIT, wcxbAvailable, WCXB_DIR } from './read/wcxb-eval.ts';
import { serveWcxbPages } from './wcxb-pages.ts';
import { visibleNamedControls, norm } from './visible-controls.ts';

if (!wcxbAvailable()) { console.log(`no WCXB checkout at ${WCXB_DIR}: nothing measured`); process.exit(0); }
const N = Number(process.argv[2] ?? 60);
const ids = [...SPLIT.tune].sort((a, b) => (hash(`name-coverage:${a}`) >>> 0) - (hash(`name-coverage:${b}`) >>> 0)).slice(0, N);
const site = await serveWcxbPages(ids);
const origin = site.origin;
const ranker = await createRanker({ limitCap: 100_000 });
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await ctx.route((url) => !url.href.startsWith(origin), (route) => route.abort());
const page = await ctx.newPage();
let controls = 0, top50 = 0, all = 0, failed = 0;
let drawnControls = 0, drawnTop50 = 0, drawnAll = 0;
for (const id of ids) {
  try {
    await page.goto(`${origin}/wcxb/${id}.html`, { waitUntil: 'load', timeout: 30_000 });
    await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
    // The truth first, then the collection (as bench:peers does); the session stays open for the misses' markup.
    await visibleNamedControls(ctx, page, true, async (cdp, wanted) => {
      const [c, title] = await Promise.all([collectPage(page), page.title()]);
      const request: SnapshotRequest = { url: page.url(), viewport: c.viewport, raw_elements: c.raw_elements as unknown as SnapshotRequest['raw_elements'], options: { limit: 50 } };
      const text50 = norm(toPrompt(ranker.rank(request), { title }));
      const textAll = norm(toPrompt(ranker.rank({ ...request, options: { limit: 100_000 } }), { title }));
      for (const w of wanted) {
      controls++; if (w.drawn) drawnControls++;
      if (text50.includes(w.name)) { top50++; if (w.drawn) drawnTop50++; }
      if (textAll.includes(w.name)) { all++; if (w.drawn) drawnAll++; continue; }
      const html = await cdp.send('DOM.getOuterHTML', { backendNodeId: w.node }).then((r) => r.outerHTML).catch(() => '?');
      console.log(`missed ${id}${w.drawn ? '' : ' (not drawn)'} [${w.role}] "${w.name}" ${html.replace(/\s+/g, ' ').slice(0, 200)}`);
      }
    });
  } catch (err) { failed++; console.log(`failed ${id}: ${(err as Error).message.split('\n')[0].slice(0, 100)}`); }
}
const pct = (k: number, n: number) => `${(100 * k / Math.max(1, n)).toFixed(1)}%`;
console.log(`${ids.length} tune pages (${failed} failed), ${controls} visible named controls: top 50 ${pct(top50, controls)}, every element ${pct(all, controls)}; ` +
  `${drawnControls} of them also drawn: top 50 ${pct(drawnTop50, drawnControls)}, every element ${pct(drawnAll, drawnControls)}`);
await browser.close();
await site.close();
