// Re-renders every page of the a11y evaluation (tune.json.gz, dev2.json.gz, test.json.gz) with the
// current collector, exactly as collect-a11y.ts renders (renderPage: same WCXB dev file, viewport and
// abort rules), and remaps the primary-action marks (primary.json, primary-dev2.json) from the old
// payloads' element ids to the new ones by element identity:
//
// In each rendered page, right after the current collector ran (the product's collectPage, its own
// fresh registry), the collector that made the stored payload runs on the same DOM: its source from git
// (src/collect/ at OLD_COMMIT: c314c1f for the pages collected in 6aeb5d6, bcbaa7c for those added by
// --grow and --dev2), bundled with its id registry under another window key, so both number from 1 as
// each did alone. Its output is checked against the stored payload (same ids, tags and texts); an old
// id whose stored element it reproduces is paired through the DOM element it came from: the element's
// id in the current collector's list ('self'), or, for a label listed in place of the text field,
// select or textarea it wraps, that field's id ('label-field': the one such field listed now; whether
// it was listed before too is counted apart). Anything else is unmapped; a mark keeps the ids that map, and one none of whose ids map
// has no ids (counted "primary not collected"). Actions and reasons are not touched.
//
// Writes the three page files (same format, same page order), primary.json and primary-dev2.json, and
// the id maps to scratch/a11y/remap.json (not committed). Prints counts only; of the test split (frozen)
// nothing but aggregate counts, and its render errors without page ids.
// Run: nice -n 19 node --import tsx train/a11y/recollect.ts   (WCXB_DIR, default /work/wcxb)
// Then re-record the rankings on the new payloads (record-before.ts; train/a11y/README.md).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { launch } from '../../test/helpers/browser.ts';
import { wcxbTruths, sourceOf, type A11yPage } from './collect-a11y.ts';
import type { PrimaryMark } from './evaluate.ts';
import { ROOT, oldCollector, rerender, remapMark, markStat, writeMarks, type IdMap, type MarkStat } from './pair-ids.ts';

/** The pages of the first collection (tune and test files as of this commit) were collected by the
 *  collector at c314c1f (src/collect/ unchanged from b4233ac to bcbaa7c); the grown tune pages (cab3be7)
 *  and dev2 (ff9f1ac) by the one at bcbaa7c (unchanged until 882fcb9, the label change). */
const FIRST_COLLECTION = '6aeb5d6';
const OLD_FIRST = 'c314c1f6cece0cd3ad30a7c3c1c78b94751ab6d0';
const OLD_LATER = 'bcbaa7c';

type SplitName = 'tune' | 'dev2' | 'test';
const SPLIT_NAMES: SplitName[] = ['tune', 'dev2', 'test'];
const fileOf = (split: SplitName) => new URL(`./${split}.json.gz`, import.meta.url);
const load = (split: SplitName) => JSON.parse(gunzipSync(readFileSync(fileOf(split))).toString()) as { splitSeed: string; pages: A11yPage[] };

// A one-time step: the stored files must be the old collectors' (as of 2459351); run again on re-collected
// files, the old collector could not reproduce them.
for (const split of SPLIT_NAMES) {
  if (!readFileSync(fileOf(split)).equals(execFileSync('git', ['-C', ROOT, 'show', `2459351:train/a11y/${split}.json.gz`], { maxBuffer: 256 << 20 }))) {
    throw new Error(`${split}.json.gz is not the old collectors' file (2459351): already re-collected`);
  }
}
const firstIds = new Set((JSON.parse(gunzipSync(execFileSync('git', ['-C', ROOT, 'show', `${FIRST_COLLECTION}:train/a11y/tune.json.gz`], { maxBuffer: 256 << 20 })).toString()) as { pages: A11yPage[] }).pages.map((p) => p.id));
const sources = new Map(wcxbTruths().map((t) => { const s = sourceOf(t); return [s.id, s]; }));
const bundles = { first: await oldCollector(OLD_FIRST), later: await oldCollector(OLD_LATER) };

const browser = await launch();
const maps: Record<string, IdMap> = {};
interface Stat { pages: number; rendered: number; failed: number; exact: number; reproduced: number; elementsOld: number; elementsNew: number; how: Record<string, number>; controlsSame: number; visibleOld: number; visibleNew: number; matchedOld: number; matchedNew: number }
const stats = {} as Record<SplitName, Stat>;
const fresh = {} as Record<SplitName, { splitSeed: string; pages: A11yPage[] }>;
// RECOLLECT_TRY=n: a trial on the first n pages of tune and dev2 (no test page), nothing written.
const TRY = process.env.RECOLLECT_TRY ? Number(process.env.RECOLLECT_TRY) : 0;
for (const split of SPLIT_NAMES.filter((s) => !TRY || s !== 'test')) {
  const stored = load(split);
  if (TRY) stored.pages = [...stored.pages.slice(0, TRY), ...stored.pages.slice(-TRY)];
  const st: Stat = stats[split] = { pages: stored.pages.length, rendered: 0, failed: 0, exact: 0, reproduced: 0, elementsOld: 0, elementsNew: 0, how: {}, controlsSame: 0, visibleOld: 0, visibleNew: 0, matchedOld: 0, matchedNew: 0 };
  const out: A11yPage[] = [];
  for (const [k, old] of stored.pages.entries()) {
    const label = split === 'test' ? 'a test page' : old.id;
    const source = sources.get(old.id);
    if (!source) throw new Error(`${label}: no WCXB dev file`);
    const bundle = split === 'test' || (split === 'tune' && firstIds.has(old.id)) ? bundles.first : bundles.later;
    const got = await rerender(browser, source, old, bundle, label);
    if (!got) { st.failed++; out.push(old); continue; } // kept as it was, and counted
    const { page: now, map } = got;
    st.rendered++;
    out.push(now);
    if (got.exact) st.exact++;
    if (got.reproduced) st.reproduced++;
    for (const [, how] of Object.values(map)) st.how[how] = (st.how[how] ?? 0) + 1;
    st.elementsOld += old.request.raw_elements.length;
    st.elementsNew += now.request.raw_elements.length;
    const sig = (p: A11yPage) => JSON.stringify(p.controls.map((c) => [c.role, c.name, c.visible, c.y]));
    if (sig(now) === sig(old)) st.controlsSame++;
    const visible = (p: A11yPage) => p.controls.filter((c) => c.visible);
    st.visibleOld += visible(old).length; st.visibleNew += visible(now).length;
    st.matchedOld += visible(old).filter((c) => c.id !== null).length; st.matchedNew += visible(now).filter((c) => c.id !== null).length;
    maps[old.id] = map;
    if ((k + 1) % 25 === 0) process.stderr.write(`${split} ${k + 1}/${stored.pages.length}\n`);
  }
  fresh[split] = { splitSeed: stored.splitSeed, pages: out };
}
await browser.close();

if (TRY) { console.log(JSON.stringify(stats, null, 1)); process.exit(0); }
// The marks, remapped.
const markStats = {} as Record<SplitName, MarkStat>;
const splitOfPage = new Map<string, SplitName>();
for (const split of SPLIT_NAMES) for (const p of fresh[split].pages) splitOfPage.set(p.id, split);
for (const file of ['primary.json', 'primary-dev2.json']) {
  const url = new URL(`./${file}`, import.meta.url);
  const was = readFileSync(url, 'utf8');
  const doc = JSON.parse(was) as { about: string; pages: Record<string, PrimaryMark | null> };
  for (const [id, mark] of Object.entries(doc.pages)) {
    const split = splitOfPage.get(id);
    if (!split) continue; // a page not in any file (failed in its first collection): its mark is left as it was
    remapMark(mark, maps[id], markStats[split] ??= markStat()); // a page that failed to render keeps its old payload and ids
  }
  writeMarks(url, doc, was);
}

for (const split of SPLIT_NAMES) writeFileSync(fileOf(split), gzipSync(JSON.stringify(fresh[split])));
mkdirSync(new URL('../../scratch/a11y/', import.meta.url), { recursive: true });
writeFileSync(new URL('../../scratch/a11y/remap.json', import.meta.url), JSON.stringify(maps));
console.log(JSON.stringify({ pages: stats, marks: markStats }, null, 1));
