// The collector's recall on the a11y evaluation's pages: of the visible named controls in Chromium's
// accessibility tree, the share the collector lists (a control is listed when it, an ancestor or a
// descendant is a collected element: collect-a11y.ts's LOCATE). The importance scores count only listed
// controls, so a control the collector drops is invisible to them; this measures it. Compares the stored
// payloads (the collector that made them) with a re-render by this checkout's collector (renderPage: same
// file, viewport and abort rules); nothing is written.
// Tune and dev splits list the pages whose recall changed and the controls still dropped, by role and name;
// a frozen split (test, dev3-test, dev4-test) prints its aggregate row only.
// Run: nice -n 19 node --import tsx train/a11y/collector-recall.ts --split tune   (WCXB_DIR, PEB_DIR)
import { parseArgs } from 'node:util';
import { launch } from '../../test/helpers/browser.ts';
import { renderPage, type A11yPage } from './collect-a11y.ts';
import { loadSplit, SPLITS, type EvalSplit } from './evaluate.ts';
import { allSources } from './pair-ids.ts';

const { values } = parseArgs({ options: { split: { type: 'string', default: 'tune' }, list: { type: 'string', default: '40' } } });
const split = values.split as EvalSplit;
if (!SPLITS.includes(split)) throw new Error(`--split: one of ${SPLITS.join(', ')}`);
const frozen = split === 'test' || split.endsWith('-test');

interface Recall { pages: number; empty: number; elements: number; visible: number; listed: number }
const visibleNamed = (p: A11yPage) => p.controls.filter((c) => c.visible);
const add = (r: Recall, p: A11yPage) => {
  const v = visibleNamed(p);
  r.pages++; r.empty += p.request.raw_elements.length === 0 ? 1 : 0; r.elements += p.request.raw_elements.length;
  r.visible += v.length; r.listed += v.filter((c) => c.id !== null).length;
};
const row = (name: string, r: Recall) => `| ${split} | ${name} | ${r.pages} | ${r.empty} | ${r.elements} | ${r.listed} of ${r.visible} = ${(100 * r.listed / r.visible).toFixed(1)}% |`;

const stored = loadSplit(split);
const sources = allSources();
const browser = await launch();
const before: Recall = { pages: 0, empty: 0, elements: 0, visible: 0, listed: 0 }, after: Recall = { ...before };
const changed: string[] = [];
const dropped = new Map<string, number>();
let failed = 0;
for (const [k, old] of stored.entries()) {
  const source = sources.get(old.id);
  const now = source ? await renderPage(browser, source, undefined, frozen ? `page ${k + 1}` : old.id, old.site, old.split) : null;
  if (!now) { failed++; continue; }
  add(before, old); add(after, now);
  if (frozen) continue;
  const was = visibleNamed(old).filter((c) => c.id !== null).length, is = visibleNamed(now).filter((c) => c.id !== null).length;
  if (was !== is) changed.push(`${old.id} ${old.site}: listed ${was} -> ${is} of ${visibleNamed(now).length} (elements ${old.request.raw_elements.length} -> ${now.request.raw_elements.length})`);
  for (const c of visibleNamed(now)) if (c.id === null) { const key = `${c.role} "${c.name.slice(0, 50)}"`; dropped.set(key, (dropped.get(key) ?? 0) + 1); }
  if ((k + 1) % 50 === 0) process.stderr.write(`${k + 1}/${stored.length}\n`);
}
await browser.close();
console.log('| split | collector | pages | pages with no element | elements | visible named controls listed |\n|---|---|---|---|---|---|');
console.log(row('stored payloads', before));
console.log(row('this checkout', after));
if (failed) console.log(`\n${failed} page(s) not rendered (left out of both rows)`);
if (!frozen) {
  console.log(`\nPages whose listed controls changed (${changed.length}):\n${changed.join('\n') || '(none)'}`);
  const top = [...dropped].sort((a, b) => b[1] - a[1]).slice(0, Number(values.list));
  console.log(`\nVisible named controls still not listed (${[...dropped.values()].reduce((s, n) => s + n, 0)}), most frequent first:\n${top.map(([k, n]) => `${n} ${k}`).join('\n')}`);
}
