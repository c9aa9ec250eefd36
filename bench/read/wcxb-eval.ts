// Word F1 of read mode on one part of the WCXB development split (bench/read/wcxb-split.json), per
// page type, for tuning. Default part: tune. The test part is frozen: `--split test` prints aggregates
// only (never pages), and is for the final measurement, not for tuning.
// Run: node --import tsx bench/read/wcxb-eval.ts [--split tune|test] [--type product[,listing…]] [--worst 20] [--fold a|b] [--confusion] [--oracle]
//      --fold: half of the tune part, by site (an FNV-1a hash of the host: foldOf), to check that a change made
//      while looking at one half also helps the other before trusting it on the frozen test part.
//      --confusion (tune part only): WCXB's type (ground truth _internal.page_type.primary) against the
//      step our read took (extractRead: listing, collection, forum, product, page), counts.
//      --oracle (tune part only): each page also read through every step (forced), per type: word F1 as
//      detected, with the true type's step (perfect detection) and with the best step per page.
//      WCXB_DIR: a checkout of Murrough-Foley/web-content-extraction-benchmark (default /work/wcxb).
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readPage } from '../../src/observe/read/read.ts';
import { extractRead, type ReadAs } from '../../src/observe/read/extract.ts';
import { toMarkdown, cutAtBlock } from '../../src/observe/read/markdown.ts';
import { hash } from '../../src/rank/words.ts';
import { markdownText, wordF1 } from './metrics.ts';
import { bootstrapMean } from '../stats.ts';

export interface WcxbPage { id: string; url: string; html: string; truth: string; type: string }
export const WCXB_DIR = process.env.WCXB_DIR ?? '/work/wcxb';
export const SPLIT = JSON.parse(readFileSync(new URL('./wcxb-split.json', import.meta.url), 'utf8')) as { tune: string[]; test: string[] };

/** Is a WCXB checkout (its development split) on this machine? */
export function wcxbAvailable(): boolean {
  return existsSync(join(WCXB_DIR, 'dev', 'ground-truth'));
}

/** One page of a WCXB-layout folder (ground-truth/ID.json, html/ID.html or .html.gz): default, the
 *  checkout's development split. */
export function wcxbPage(id: string, dir = join(WCXB_DIR, 'dev')): WcxbPage {
  const g = JSON.parse(readFileSync(join(dir, 'ground-truth', `${id}.json`), 'utf8'));
  const file = join(dir, 'html', `${id}.html`);
  const html = existsSync(file) ? readFileSync(file, 'utf8') : gunzipSync(readFileSync(`${file}.gz`)).toString('utf8');
  return { id, url: g.url || 'https://example.invalid/', truth: g.ground_truth?.main_content ?? '', type: g._internal.page_type.primary, html };
}

/** The pages of one part of the split, or null when the WCXB checkout is not on this machine. */
export function wcxbSplit(part: 'tune' | 'test'): WcxbPage[] | null {
  if (!wcxbAvailable()) return null;
  return SPLIT[part].map((id) => wcxbPage(id));
}

/** Which half of the tune part a page's site falls in (FNV-1a of the host without www., unseeded). */
export function foldOf(url: string): 'a' | 'b' {
  let host = 'invalid';
  try { host = new URL(url).hostname.replace(/^www\./, ''); } catch { /* no URL: one fold */ }
  return (hash(host) >>> 0) % 2 ? 'b' : 'a';
}

/** The read steps, and the step a WCXB type calls for (articles, docs and services: the generic read). */
const STEPS: ReadAs[] = ['listing', 'collection', 'forum', 'product', 'page'];
function stepOf(type: string): ReadAs {
  return (STEPS as string[]).includes(type) ? type as ReadAs : 'page';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { split: { type: 'string', default: 'tune' }, type: { type: 'string' }, worst: { type: 'string', default: '0' }, fold: { type: 'string' }, confusion: { type: 'boolean' }, oracle: { type: 'boolean' } } });
  const part = values.split === 'test' ? 'test' : 'tune';
  if ((values.fold || values.confusion || values.oracle) && part !== 'tune') throw new Error('--fold, --confusion and --oracle are for the tune part only');
  const pages = (wcxbSplit(part) ?? []).filter((p) => (!values.type || values.type.split(',').includes(p.type)) && (!values.fold || foldOf(p.url) === values.fold));
  if (!pages.length) throw new Error(`no WCXB pages under ${WCXB_DIR}/dev`);
  const t0 = performance.now();
  const detailed = values.confusion || values.oracle;
  // With --confusion or --oracle the read goes through extractRead (to learn its step), Markdown as readPage makes it.
  const scoreOf = (p: WcxbPage, forced?: ReadAs) => {
    const { read, as } = extractRead(p.html, p.url, forced);
    return { as, f1: wordF1(markdownText(cutAtBlock(toMarkdown(read.html), 500_000).content), p.truth) };
  };
  const scored = pages.map((p) => detailed ? { p, ...scoreOf(p) } : { p, as: '' as ReadAs | '', f1: wordF1(markdownText(readPage(p.html, p.url, { format: 'markdown', contentLimit: 500_000 }).content), p.truth) });
  const seconds = (performance.now() - t0) / 1000;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const types = [...new Set(pages.map((p) => p.type))].sort();
  if (values.confusion) {
    console.log(`confusion, ${part}${values.fold ? ` fold ${values.fold}` : ''}: WCXB type (rows) against the step our read took (columns)`);
    console.log(`  ${'type'.padEnd(14)}${STEPS.map((s) => s.padStart(11)).join('')}  ${'right'.padStart(6)}`);
    for (const t of types) {
      const s = scored.filter((x) => x.p.type === t);
      const right = s.filter((x) => x.as === stepOf(t)).length;
      console.log(`  ${t.padEnd(14)}${STEPS.map((st) => String(s.filter((x) => x.as === st).length).padStart(11)).join('')}  ${`${right}/${s.length}`.padStart(6)}`);
    }
  }
  if (values.oracle) {
    // Every page through every step: the true type's step is perfect detection; the best step per page bounds any detector.
    const forced = pages.map((p) => Object.fromEntries(STEPS.map((st) => [st, scoreOf(p, st).f1])) as Record<ReadAs, number>);
    console.log(`oracle, ${part}${values.fold ? ` fold ${values.fold}` : ''}: word F1 as detected, with the true type's step forced, with each step forced, best step per page`);
    console.log(`  ${'type'.padEnd(14)} ${'n'.padStart(4)} ${'detected'.padStart(9)} ${'true'.padStart(7)}${STEPS.map((s) => s.padStart(11)).join('')} ${'best'.padStart(7)}`);
    for (const t of types) {
      const idx = scored.flatMap((x, i) => x.p.type === t ? [i] : []);
      const m = (f: (i: number) => number) => mean(idx.map(f)).toFixed(3);
      console.log(`  ${t.padEnd(14)} ${String(idx.length).padStart(4)} ${m((i) => scored[i].f1).padStart(9)} ${m((i) => forced[i][stepOf(t)]).padStart(7)}${STEPS.map((st) => m((i) => forced[i][st]).padStart(11)).join('')} ${m((i) => Math.max(...Object.values(forced[i]))).padStart(7)}`);
    }
  }
  // Each mean with its 95% bootstrap interval (pages resampled): how far the number moves with the pages drawn.
  const withInterval = (f1s: number[]) => { const [lo, hi] = bootstrapMean(f1s); return `${mean(f1s).toFixed(3)} (95% interval ${lo.toFixed(3)}–${hi.toFixed(3)})`; };
  console.log(`${part}${values.fold ? ` fold ${values.fold}` : ''}: ${pages.length} pages, ${(pages.length / seconds).toFixed(1)} pages/s, overall word F1 ${withInterval(scored.map((s) => s.f1))}`);
  for (const t of types) { const s = scored.filter((x) => x.p.type === t); console.log(`  ${t.padEnd(14)} ${String(s.length).padStart(4)}  ${withInterval(s.map((x) => x.f1))}`); }
  const worst = Number(values.worst);
  if (worst > 0 && part === 'tune') for (const s of [...scored].sort((a, b) => a.f1 - b.f1).slice(0, worst)) console.log(`  ${s.p.id} ${s.p.type.padEnd(14)} ${s.f1.toFixed(3)} ${s.p.url}`);
}

