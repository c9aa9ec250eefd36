// Re-renders every page of the a11y evaluation's stored sets (tune, dev2, test, dev3 and dev4, both halves) with
// this checkout's collector, so the stored payloads are what the product now sends. The collector that made the
// stored payloads (`--old <commit>`: src/collect/ from git) runs on the same DOM right after the current one and
// each old id is paired with its element's new id (pair-ids.ts), so the primary-action marks (primary.json,
// primary-dev2.json, primary-dev3.json, primary-dev4.json) keep their elements. Pages are replaced in place
// (same files, same order); a page that fails to render keeps its stored payload (counted). Of the frozen halves
// (test, dev3's and dev4's test pages) only aggregate counts are printed. Afterwards re-record before.json and
// previous.json for the pages (train/a11y/README.md).
// Runs: the ninth round (--old 88a4afa, then recollect-hidden.ts, sets tune,dev2,test,dev3), the fade and anchor
// fixes (--old 6bd92b4, every set).
// `--check N` renders only each set's first N pages and writes nothing: does the old collector reproduce them?
// Run: nice -n 19 node --import tsx train/a11y/recollect-paired.ts --old <commit> [--sets tune,dev2,...] [--check N]
//      (WCXB_DIR, PEB_DIR)
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { launch } from '../../test/helpers/browser.ts';
import type { A11yPage } from './collect-a11y.ts';
import { oldCollector, rerenderStored, remapMarkFiles, SETS, setFile, allSources, type IdMap, type SetName } from './pair-ids.ts';

const { values: opt } = parseArgs({ options: { old: { type: 'string' }, sets: { type: 'string' }, check: { type: 'string' } } });
if (!opt.old) throw new Error('--old <commit>: the collector that made the stored payloads');
const only = opt.sets?.split(',');
const check = opt.check ? Number(opt.check) : null;

const sources = allSources();
const bundle = await oldCollector(opt.old);
const browser = await launch();
const maps: Record<string, IdMap> = {};
interface Stat {
  pages: number; rendered: number; failed: number; exact: number; reproduced: number; how: Record<string, number>;
  elementsOld: number; elementsNew: number; textChanged: number; flagged: number; flaggedInView: number;
  visibleOld: number; visibleNew: number; matchedOld: number; matchedNew: number; controlsSame: number;
  emptyBefore: number; emptyNow: number; changed: number;
}
const stats: Record<string, Stat> = {};
for (const f of SETS.filter((x: SetName) => !only || only.includes(x))) {
  const doc = JSON.parse(gunzipSync(readFileSync(setFile(f))).toString()) as { splitSeed: string; pages: A11yPage[] };
  for (const [k, old] of doc.pages.entries()) {
    if (check !== null && k >= check) break;
    const key = f === 'dev3' || f === 'dev4' ? `${f} ${old.split}` : f;
    const st = stats[key] ??= { pages: 0, rendered: 0, failed: 0, exact: 0, reproduced: 0, how: {}, elementsOld: 0, elementsNew: 0, textChanged: 0, flagged: 0, flaggedInView: 0, visibleOld: 0, visibleNew: 0, matchedOld: 0, matchedNew: 0, controlsSame: 0, emptyBefore: 0, emptyNow: 0, changed: 0 };
    st.pages++;
    const got = await rerenderStored(browser, f, old, key, bundle, sources, st);
    if (!got) continue; // kept as it was, and counted
    const now = got.page;
    st.elementsOld += old.request.raw_elements.length; st.elementsNew += now.request.raw_elements.length;
    if (!old.request.raw_elements.length) st.emptyBefore++;
    if (!now.request.raw_elements.length) st.emptyNow++;
    if (JSON.stringify(now.request) !== JSON.stringify(old.request)) st.changed++;
    const oldById = new Map(old.request.raw_elements.map((e) => [e.id, e]));
    const back = new Map(Object.entries(got.map).filter(([, [n]]) => n !== null).map(([o, [n]]) => [n!, Number(o)]));
    for (const e of now.request.raw_elements) {
      const was = oldById.get(back.get(e.id) ?? -1);
      if (was && was.text !== e.text) st.textChanged++;
      if (e.attributes.a11y_hidden) { st.flagged++; if (e.in_viewport) st.flaggedInView++; }
    }
    const sig = (p: A11yPage) => JSON.stringify(p.controls.map((c) => [c.role, c.name, c.visible, c.y]));
    if (sig(now) === sig(old)) st.controlsSame++;
    const visible = (p: A11yPage) => p.controls.filter((c) => c.visible);
    st.visibleOld += visible(old).length; st.visibleNew += visible(now).length;
    st.matchedOld += visible(old).filter((c) => c.id !== null).length; st.matchedNew += visible(now).filter((c) => c.id !== null).length;
    doc.pages[k] = now;
    maps[old.id] = got.map;
    if ((k + 1) % 25 === 0) process.stderr.write(`${f} ${k + 1}/${doc.pages.length}\n`);
  }
  if (check === null) writeFileSync(setFile(f), gzipSync(JSON.stringify(doc)));
}
await browser.close();

// The marks, moved to the new ids of their elements.
const markStats = check === null ? remapMarkFiles(maps, `remap-${opt.old}.json`) : null;
console.log(JSON.stringify({ pages: stats, marks: markStats }, null, 1));
