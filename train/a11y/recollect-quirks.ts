// Re-renders the pages of the a11y evaluation that were collected in quirks mode (documents without a
// doctype) before the collector's quirks-mode viewport fix (5bfc071): there the collector read the
// viewport from the root element, i.e. the whole document, so the stored payload's viewport is as tall
// as the page and every element looks in view. Such a page is known by its stored viewport: any height
// other than the rendering's 800 px. dev3 (collect-products.ts) is doctype-less almost throughout; a few
// WCXB pages of tune, dev2 and test are too.
//
// Each such page is rendered again with renderPage and the current collector; the collector that made the
// stored payloads (882fcb9: src/collect/ unchanged from the label change until 5bfc071) runs on the same
// DOM and each old id is paired with the new id of its element (pair-ids.ts), so the primary-action
// marks (primary.json, primary-dev2.json, primary-dev3.json) keep their elements. Pages are replaced in
// place (same files, same order); every other page is left byte for byte. Of the frozen halves (test,
// dev3's test pages) only aggregate counts are printed. Afterwards the before/previous rankings of the
// re-rendered pages are stale: drop them and re-record (train/a11y/README.md).
// Run: nice -n 19 node --import tsx train/a11y/recollect-quirks.ts   (WCXB_DIR, PEB_DIR)
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { launch } from '../../test/helpers/browser.ts';
import { VIEWPORT, type A11yPage } from './collect-a11y.ts';
import { inView } from './evaluate.ts';
import { oldCollector, rerenderStored, remapMarkFiles, SETS, setFile, allSources, type IdMap } from './pair-ids.ts';

const OLD = '882fcb9';
const quirks = (p: A11yPage) => p.request.viewport.height !== VIEWPORT.height || p.request.viewport.width !== VIEWPORT.width;

const sources = allSources();
const bundle = await oldCollector(OLD);
const browser = await launch();
const maps: Record<string, IdMap> = {};
interface Stat { pages: number; quirks: number; rendered: number; failed: number; fixed: number; exact: number; reproduced: number; how: Record<string, number>; visibleOld: number; visibleNew: number; matchedOld: number; matchedNew: number; inViewOld: number; inViewNew: number; elements: number }
const stats: Record<string, Stat> = {};
const inViewShare = (p: A11yPage) => {
  const byId = new Map(p.request.raw_elements.map((e) => [e.id, e]));
  return p.request.raw_elements.filter((e) => inView(p, e.id, byId)).length;
};
for (const f of SETS.filter((x) => x !== 'dev4')) { // the sets of its day
  const doc = JSON.parse(gunzipSync(readFileSync(setFile(f))).toString()) as { splitSeed: string; pages: A11yPage[] };
  for (const [k, old] of doc.pages.entries()) {
    const key = f === 'dev3' ? `dev3 ${old.split}` : f;
    const st = stats[key] ??= { pages: 0, quirks: 0, rendered: 0, failed: 0, fixed: 0, exact: 0, reproduced: 0, how: {}, visibleOld: 0, visibleNew: 0, matchedOld: 0, matchedNew: 0, inViewOld: 0, inViewNew: 0, elements: 0 };
    st.pages++;
    if (!quirks(old)) continue;
    st.quirks++;
    const got = await rerenderStored(browser, f, old, key, bundle, sources, st);
    if (!got) continue; // kept as it was, and counted
    if (!quirks(got.page)) st.fixed++;
    const visible = (p: A11yPage) => p.controls.filter((c) => c.visible);
    st.visibleOld += visible(old).length; st.visibleNew += visible(got.page).length;
    st.matchedOld += visible(old).filter((c) => c.id !== null).length; st.matchedNew += visible(got.page).filter((c) => c.id !== null).length;
    st.inViewOld += inViewShare(old); st.inViewNew += inViewShare(got.page); st.elements += old.request.raw_elements.length;
    doc.pages[k] = got.page;
    maps[old.id] = got.map;
    process.stderr.write(`${key}: ${st.rendered + st.failed} re-rendered\r`);
  }
  writeFileSync(setFile(f), gzipSync(JSON.stringify(doc)));
}
await browser.close();

// The marks, moved to the new ids of their elements.
const markStats = remapMarkFiles(maps, 'remap-quirks.json');
console.log(JSON.stringify({ pages: stats, marks: markStats }, null, 1));
