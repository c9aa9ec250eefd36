// Each candidate read's word F1 per page and the oracle (best candidate per page) per type, on one fold
// of the tune part: how much a better choice between reads could gain. Fold a may be listed page by page
// (--pages); fold b only as aggregates. Never the test part.
// Run: node --import tsx bench/read/candidates.ts --fold a|b [--type collection,listing,product] [--pages] [--readability] [--json out.json]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { candidateReads } from '../../src/observe/read/extract.ts';
import { toMarkdown } from '../../src/observe/read/markdown.ts';
import { wcxbSplit, foldOf } from './wcxb-eval.ts';
import { markdownText, wordF1 } from './metrics.ts';
import { readabilityMarkdown } from './readability.ts';

const { values } = parseArgs({ options: { fold: { type: 'string' }, type: { type: 'string' }, pages: { type: 'boolean' }, readability: { type: 'boolean' }, json: { type: 'string' } } });
if (values.fold !== 'a' && values.fold !== 'b') throw new Error('--fold a|b (the tune part only)');
if (values.pages && values.fold !== 'a') throw new Error('--pages lists fold a only');
const pages = (wcxbSplit('tune') ?? []).filter((p) => foldOf(p.url) === values.fold && (!values.type || values.type.split(',').includes(p.type)));
const rows: { id: string; type: string; detected: string; kind: string; f1: Record<string, number>; words: Record<string, number>; linkWords: Record<string, number>; text: Record<string, string> }[] = [];
const count = (t: string) => (t.match(/[\p{L}\p{N}_]+/gu) ?? []).length;
const linkWordsOf = (md: string) => count([...md.matchAll(/\[([^\]]*)\]\([^)]*\)/g)].map((m) => m[1]).join(' '));
for (const p of pages) {
  const { pageType, kind, reads } = candidateReads(p.html, p.url);
  const f1: Record<string, number> = {}, words: Record<string, number> = {}, linkWords: Record<string, number> = {}, text: Record<string, string> = {};
  for (const r of reads) { const md = toMarkdown(r.html); const t = markdownText(md); f1[r.name] = wordF1(t, p.truth); words[r.name] = count(t); linkWords[r.name] = linkWordsOf(md); text[r.name] = t; }
  if (values.readability) { const t = markdownText(readabilityMarkdown(p.html, p.url)); f1.readability = wordF1(t, p.truth); words.readability = (t.match(/[\p{L}\p{N}_]+/gu) ?? []).length; }
  rows.push({ id: p.id, type: p.type, detected: pageType.type, kind, f1, words, linkWords, text });
  process.stderr.write(`${rows.length}/${pages.length}\r`);
}
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const names = [...new Set(rows.flatMap((r) => Object.keys(r.f1)))];
const oracle = (r: typeof rows[number], among = names) => Math.max(...among.map((n) => r.f1[n] ?? r.f1.generic));
console.log(`fold ${values.fold}: ${rows.length} pages. Mean word F1 per candidate (missing candidate counts as generic), and the oracle`);
console.log(`  ${'type'.padEnd(14)} ${'n'.padStart(4)} ${names.map((n) => n.padStart(11)).join('')} ${'oracle'.padStart(8)} ${'or-chosen'.padStart(9)}`);
for (const t of [...new Set(rows.map((r) => r.type))].sort()) {
  const s = rows.filter((r) => r.type === t);
  console.log(`  ${t.padEnd(14)} ${String(s.length).padStart(4)} ${names.map((n) => mean(s.map((r) => r.f1[n] ?? r.f1.generic)).toFixed(3).padStart(11)).join('')} ${mean(s.map((r) => oracle(r))).toFixed(3).padStart(8)} ${(mean(s.map((r) => oracle(r))) - mean(s.map((r) => r.f1.chosen))).toFixed(3).padStart(9)}`);
}
if (values.pages) for (const r of rows) console.log(`  ${r.id} ${r.type.padEnd(12)} det=${r.detected.padEnd(12)} ${names.map((n) => `${n}=${r.f1[n] === undefined ? '  -  ' : r.f1[n].toFixed(2)}/${r.words[n] ?? '-'}`).join(' ')}`);
if (values.json) writeFileSync(values.json, JSON.stringify(rows));
