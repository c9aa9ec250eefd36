// Where a page type's words are lost, page by page, on one fold of the tune part (never the test
// part): recall and precision per page, and the truth lines missing from the read and the read's
// lines the truth does not hold. For looking for causes; prints pages, so tune folds only.
// Run: node --import tsx bench/read/loss.ts --fold a --type product [--lines 12]
import { parseArgs } from 'node:util';
import { readPage } from '../../src/observe/read/read.ts';
import { markdownText } from './metrics.ts';
import { wcxbSplit, foldOf } from './wcxb-eval.ts';

const { values } = parseArgs({ options: { fold: { type: 'string' }, type: { type: 'string', default: 'product' }, lines: { type: 'string', default: '12' }, id: { type: 'string' } } });
if (values.fold !== 'a' && values.fold !== 'b') throw new Error('--fold a|b: pages of the tune part only');
const words = (t: string) => t.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
const bag = (ws: string[]) => { const m = new Map<string, number>(); for (const w of ws) m.set(w, (m.get(w) ?? 0) + 1); return m; };
const share = (line: string, other: Map<string, number>) => { const ws = words(line); return ws.length ? ws.filter((w) => other.has(w)).length / ws.length : 1; };
for (const p of wcxbSplit('tune')!.filter((x) => x.type === values.type && foldOf(x.url) === values.fold && (!values.id || x.id === values.id))) {
  const out = markdownText(readPage(p.html, p.url, { format: 'markdown', contentLimit: 500_000 }).content);
  const po = bag(words(out)), pt = bag(words(p.truth));
  let tp = 0; for (const [k, v] of po) tp += Math.min(v, pt.get(k) ?? 0);
  const np = words(out).length, nt = words(p.truth).length;
  const pr = np ? tp / np : 0, rc = nt ? tp / nt : 0;
  console.log(`\n=== ${p.id} ${p.url}\n  F1 ${(pr + rc ? 2 * pr * rc / (pr + rc) : 0).toFixed(3)} P ${pr.toFixed(3)} R ${rc.toFixed(3)} words out ${np} truth ${nt} missing ${nt - tp} extra ${np - tp}`);
  const n = Number(values.lines);
  const missing = p.truth.split('\n').map((l) => l.trim()).filter((l) => words(l).length && share(l, po) < 0.5);
  const extra = out.split('\n').map((l) => l.trim()).filter((l) => words(l).length && share(l, pt) < 0.5);
  console.log(`  MISSING lines ${missing.length} (${missing.reduce((s, l) => s + words(l).length, 0)} words):`);
  for (const l of missing.slice(0, n)) console.log(`   - ${l.slice(0, 160)}`);
  console.log(`  EXTRA lines ${extra.length} (${extra.reduce((s, l) => s + words(l).length, 0)} words):`);
  for (const l of extra.slice(0, n)) console.log(`   + ${l.slice(0, 160)}`);
}
