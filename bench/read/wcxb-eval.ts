// Word F1 of read mode on one part of the WCXB development split (bench/read/wcxb-split.json), per
// page type, for tuning. Default part: tune. The test part is frozen: `--split test` prints aggregates
// only (never pages), and is for the final measurement, not for tuning.
// Run: node --import tsx bench/read/wcxb-eval.ts [--split tune|test] [--type product[,listing…]] [--worst 20] [--fold a|b]
//      --fold: half of the tune part, by site (an FNV-1a hash of the host: foldOf), to check that a change made
//      while looking at one half also helps the other before trusting it on the frozen test part.
//      WCXB_DIR: a checkout of Murrough-Foley/web-content-extraction-benchmark (default /work/wcxb).
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readPage } from '../../src/observe/read.ts';
import { hash } from '../../src/rank/words.ts';
import { markdownText, wordF1 } from './metrics.ts';

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { split: { type: 'string', default: 'tune' }, type: { type: 'string' }, worst: { type: 'string', default: '0' }, fold: { type: 'string' } } });
  const part = values.split === 'test' ? 'test' : 'tune';
  if (values.fold && part !== 'tune') throw new Error('--fold splits the tune part only');
  const pages = (wcxbSplit(part) ?? []).filter((p) => (!values.type || values.type.split(',').includes(p.type)) && (!values.fold || foldOf(p.url) === values.fold));
  if (!pages.length) throw new Error(`no WCXB pages under ${WCXB_DIR}/dev`);
  const t0 = performance.now();
  const scored = pages.map((p) => ({ p, f1: wordF1(markdownText(readPage(p.html, p.url, { format: 'markdown', contentLimit: 500_000 }).content), p.truth) }));
  const seconds = (performance.now() - t0) / 1000;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const types = [...new Set(pages.map((p) => p.type))].sort();
  console.log(`${part}${values.fold ? ` fold ${values.fold}` : ''}: ${pages.length} pages, ${(pages.length / seconds).toFixed(1)} pages/s, overall word F1 ${mean(scored.map((s) => s.f1)).toFixed(3)}`);
  for (const t of types) { const s = scored.filter((x) => x.p.type === t); console.log(`  ${t.padEnd(14)} ${String(s.length).padStart(4)}  ${mean(s.map((x) => x.f1)).toFixed(3)}`); }
  const worst = Number(values.worst);
  if (worst > 0 && part === 'tune') for (const s of [...scored].sort((a, b) => a.f1 - b.f1).slice(0, worst)) console.log(`  ${s.p.id} ${s.p.type.padEnd(14)} ${s.f1.toFixed(3)} ${s.p.url}`);
}
