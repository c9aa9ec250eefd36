// The pages bench/read.bench.ts reads, by reference (a worker loads each from disk), and how the
// per-page scores its workers return add up to each reader's table row.
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { SHARED_DATA } from '../payloads.ts';
import { wcxbPage, wcxbAvailable, SPLIT, WCXB_DIR } from './wcxb-eval.ts';
import { aggregate } from './metrics.ts';
import { bootstrapMean } from '../stats.ts';
import type { PartOutcome } from './pool.ts';

/** articles: ../shared/data/article-extraction-benchmark; tune / test: the WCXB checkout's development
 *  split (bench/read/wcxb-split.json); sample: ../shared/data/wcxb-dev-sample (no checkout, CI). */
export type PageSet = 'articles' | 'tune' | 'test' | 'sample';
export interface PageRef { set: PageSet; id: string }
export interface LoadedPage { ref: PageRef; url: string; html: string; truth: string; type: string }
/** A reader's score on one page: word F1 (WCXB), or shingle precision and recall (articles). */
export interface PageScore { f1?: number; p?: number | null; r?: number | null }

const ARTICLES = join(SHARED_DATA, 'article-extraction-benchmark');
const SAMPLE = join(SHARED_DATA, 'wcxb-dev-sample');

let articleTruth: Record<string, { url: string; articleBody: string }> | undefined;

export function loadPage(ref: PageRef): LoadedPage {
  if (ref.set === 'articles') {
    articleTruth ??= JSON.parse(readFileSync(join(ARTICLES, 'ground-truth.json'), 'utf8')) as Record<string, { url: string; articleBody: string }>;
    const t = articleTruth[ref.id];
    return { ref, url: t.url, truth: t.articleBody, type: 'article', html: gunzipSync(readFileSync(join(ARTICLES, 'html', `${ref.id}.html.gz`))).toString('utf8') };
  }
  const p = ref.set === 'sample' ? wcxbPage(ref.id, SAMPLE) : wcxbPage(ref.id);
  return { ref, url: p.url, html: p.html, truth: p.truth, type: p.type };
}

/** A page's type (WCXB's primary page type; 'article' for the articles set), without reading its HTML. */
export function typeOf(ref: PageRef): string {
  if (ref.set === 'articles') return 'article';
  const dir = ref.set === 'sample' ? SAMPLE : join(WCXB_DIR, 'dev');
  return (JSON.parse(readFileSync(join(dir, 'ground-truth', `${ref.id}.json`), 'utf8')) as { _internal: { page_type: { primary: string } } })._internal.page_type.primary;
}

/** The shared sample of WCXB's development split (all of its sites are in the tune part). */
export function sampleRefs(): PageRef[] {
  return readdirSync(join(SAMPLE, 'ground-truth')).filter((f) => f.endsWith('.json')).sort().map((f) => ({ set: 'sample' as const, id: f.replace('.json', '') }));
}

/** Every page to read: the articles, then the WCXB split's tune and test parts (or the shared sample). */
export function pageRefs(): { articles: PageRef[]; wcxb: PageRef[]; full: boolean } {
  const articles = (JSON.parse(readFileSync(join(ARTICLES, 'ground-truth.json'), 'utf8')) as object);
  const full = wcxbAvailable();
  return {
    articles: Object.keys(articles).map((id) => ({ set: 'articles' as const, id })),
    wcxb: full ? [...SPLIT.tune.map((id) => ({ set: 'tune' as const, id })), ...SPLIT.test.map((id) => ({ set: 'test' as const, id }))] : sampleRefs(),
    full,
  };
}

/** One reader over a set of pages: word F1 overall and per type (WCXB), or shingle P/R/F1 (articles);
 *  its CPU time and pages per CPU-second over the pages it finished. A page it failed on (timeout,
 *  crash, error) scores as an empty answer: word F1 0; articles: recall 0, no precision. */
export interface ReaderSummary {
  pages: number;
  overall: number;
  byType: Record<string, number>;
  precision?: number;
  recall?: number;
  cpuSeconds: number;
  /** Pages per second of CPU time, over the pages that finished. */
  pagesPerSecond: number;
  failures: { timeout: number; crash: number; error: number };
  /** Word F1: the 95% bootstrap interval of the overall mean and of each type's (pages resampled). */
  interval?: { overall: [number, number]; byType: Record<string, [number, number]> };
  /** Word F1 per page, in the order of the pages given (for paired comparisons; never written out). */
  f1s?: number[];
}

/** Sums one reader's outcomes on one set of pages (outcomes[i] are page i's; types[i] its type). */
export function summarise(reader: string, outcomes: PartOutcome<PageScore>[][], types: string[], metric: 'word-f1' | 'shingles'): ReaderSummary {
  const failures = { timeout: 0, crash: 0, error: 0 };
  let cpuNs = 0, finished = 0;
  const f1s: number[] = [];
  const shingles: { p: number | null; r: number | null }[] = [];
  outcomes.forEach((page) => {
    const o = page.find((x) => x.name === reader) ?? page.find((x) => x.name === '*');
    if (!o) throw new Error(`no outcome for ${reader} on a page`);
    if (o.failure) failures[o.failure]++;
    else { cpuNs += o.cpuNs ?? 0; finished++; }
    const s = o.result;
    f1s.push(s?.f1 ?? 0);
    shingles.push(s ? { p: s.p ?? null, r: s.r ?? null } : { p: null, r: 0 });
  });
  const mean = (xs: number[]) => xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
  const byType: Record<string, number> = {};
  for (const t of [...new Set(types)].sort()) byType[t] = mean(f1s.filter((_, i) => types[i] === t));
  const cpuSeconds = cpuNs / 1e9;
  const base = { pages: outcomes.length, byType, cpuSeconds, pagesPerSecond: cpuSeconds > 0 ? finished / cpuSeconds : 0, failures };
  if (metric === 'word-f1') {
    const byTypeInterval = Object.fromEntries(Object.keys(byType).map((t) => [t, bootstrapMean(f1s.filter((_, i) => types[i] === t))]));
    return { ...base, overall: mean(f1s), interval: { overall: bootstrapMean(f1s), byType: byTypeInterval }, f1s };
  }
  const a = aggregate(shingles);
  return { ...base, overall: a.f1, precision: a.precision, recall: a.recall };
}
