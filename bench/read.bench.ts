// Read-mode extraction quality and speed, no browser: our pipeline (linkedom + main-content extraction +
// turndown) against Mozilla Readability (jsdom + Readability + turndown) on the same pages in one run.
// Then the cost of running it in worker threads as the server does: readPage in process against the
// extraction pool with one and two threads, same pages, same run (results must be identical).
// Data: ../shared/data/article-extraction-benchmark (181 articles) and WCXB: the whole development split
// (1,497 pages, 7 types) when a checkout is at WCXB_DIR (default /work/wcxb), reported as its tune part,
// its frozen test part (bench/read/wcxb-split.json, split by site) and the two pooled; without one,
// ../shared/data/wcxb-dev-sample (315 pages, all inside tune).
// Run: npm run bench:read. Writes bench/results/read.json and bench/results/read.md.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readPage, type ReadOptions } from '../src/observe/read.ts';
import { ExtractPool } from '../src/observe/extract-pool.ts';
import { SHARED_DATA } from './payloads.ts';
import { markdownText, shingleScores, aggregate, wordF1 } from './read/metrics.ts';
import { barChart, type Bar } from './chart.ts';
import { readabilityMarkdown } from './read/readability.ts';
import { wcxbSplit } from './read/wcxb-eval.ts';

interface Page { id: string; url: string; html: string; truth: string; type: string }

function articlePages(): Page[] {
  const dir = join(SHARED_DATA, 'article-extraction-benchmark');
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { url: string; articleBody: string }>;
  return Object.entries(truth).map(([id, t]) => ({ id, url: t.url, truth: t.articleBody, type: 'article', html: gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))).toString('utf8') }));
}

function wcxbPages(): Page[] {
  const dir = join(SHARED_DATA, 'wcxb-dev-sample');
  return readdirSync(join(dir, 'ground-truth')).filter((f) => f.endsWith('.json')).sort().map((f) => {
    const id = f.replace('.json', '');
    const g = JSON.parse(readFileSync(join(dir, 'ground-truth', f), 'utf8'));
    return { id, url: g.url, truth: g.ground_truth?.main_content ?? '', type: g._internal.page_type.primary, html: gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))).toString('utf8') };
  });
}


function ours(p: Page): string {
  return markdownText(readPage(p.html, p.url, { format: 'markdown', contentLimit: 500_000 }).content);
}

function readability(p: Page): string {
  return markdownText(readabilityMarkdown(p.html, p.url));
}

function run(name: string, pages: Page[], extract: (p: Page) => string) {
  const t0 = performance.now();
  const texts = pages.map((p, i) => {
    if (i % 50 === 0) process.stderr.write(`\r${name}: ${i}/${pages.length}`);
    return extract(p);
  });
  const seconds = (performance.now() - t0) / 1000;
  process.stderr.write(`\r${name}: ${pages.length}/${pages.length} in ${seconds.toFixed(1)} s\n`);
  return { texts, pagesPerSecond: pages.length / seconds };
}

const only = process.env.BENCH_READ_ONLY; // "ours" to skip Readability while tuning
const articles = articlePages();
const tune = wcxbSplit('tune'), test = wcxbSplit('test');
/** Published word F1 on the whole WCXB development split (the benchmark's README), per type. */
const PUBLISHED: Record<string, Record<string, number>> = {
  'rs-trafilatura': { overall: 0.859, article: 0.932, collection: 0.716, documentation: 0.932, forum: 0.808, listing: 0.707, product: 0.641, service: 0.844 },
  'MinerU-HTML (0.6B)': { overall: 0.827, article: 0.928, collection: 0.506, documentation: 0.838, forum: 0.794, listing: 0.710, product: 0.619, service: 0.824 },
  Trafilatura: { overall: 0.791, article: 0.926, collection: 0.553, documentation: 0.888, forum: 0.585, listing: 0.589, product: 0.567, service: 0.763 },
  'Readability (published)': { overall: 0.675, article: 0.825, collection: 0.445, documentation: 0.736, forum: 0.466, listing: 0.496, product: 0.407, service: 0.604 },
};
const wcxbSets: [string, Page[]][] = tune && test
  ? [['wcxb-dev tune', tune], ['wcxb-dev test (frozen)', test], ['wcxb-dev whole split', [...tune, ...test]]]
  : [['wcxb-dev-sample', wcxbPages()]];
const results: Record<string, unknown> = {};
const bars: Bar[] = [];
const md: string[] = [];

type Run = ReturnType<typeof run>;
const runs = new Map<string, { a: Run; b: Run | null }>();
/** The whole split is the tune and test runs pooled (not run again); its pages/s is over both. */
const pooledRun = (x: Run, y: Run, nx: number, ny: number): Run => ({ texts: [...x.texts, ...y.texts], pagesPerSecond: (nx + ny) / (nx / x.pagesPerSecond + ny / y.pagesPerSecond) });
for (const [set, pages] of [['article-extraction-benchmark', articles], ...wcxbSets] as [string, Page[]][]) {
  let a: Run, b: Run | null;
  if (set === 'wcxb-dev whole split') {
    const t = runs.get('wcxb-dev tune')!, u = runs.get('wcxb-dev test (frozen)')!;
    a = pooledRun(t.a, u.a, tune!.length, test!.length);
    b = t.b && u.b && pooledRun(t.b, u.b, tune!.length, test!.length);
  } else {
    a = run(`${set} ours`, pages, ours);
    b = only === 'ours' ? null : run(`${set} readability`, pages, readability);
  }
  runs.set(set, { a, b });
  if (set === 'article-extraction-benchmark') {
    const mine = aggregate(pages.map((p, i) => shingleScores(a.texts[i], p.truth)));
    const theirs = b && aggregate(pages.map((p, i) => shingleScores(b.texts[i], p.truth)));
    results[set] = { ours: { ...mine, pagesPerSecond: a.pagesPerSecond }, readability: theirs && { ...theirs, pagesPerSecond: b!.pagesPerSecond } };
    bars.push({ label: 'articles: Sightline', value: mine.f1, group: 'ours' }, ...(theirs ? [{ label: 'articles: Readability', value: theirs.f1, group: 'readability' }] : []));
    md.push(`### ${set} (${pages.length} articles; 4-token shingles)`, '', '| extractor | precision | recall | F1 | pages/s |', '|---|---|---|---|---|',
      `| Sightline read (linkedom + turndown) | ${mine.precision.toFixed(3)} | ${mine.recall.toFixed(3)} | **${mine.f1.toFixed(3)}** | ${a.pagesPerSecond.toFixed(1)} |`,
      ...(theirs ? [`| Readability 0.6 (jsdom + turndown) | ${theirs.precision.toFixed(3)} | ${theirs.recall.toFixed(3)} | ${theirs.f1.toFixed(3)} | ${b!.pagesPerSecond.toFixed(1)} |`] : []), '');
  } else {
    const types = [...new Set(pages.map((p) => p.type))].sort();
    const score = (texts: string[]) => {
      const f = pages.map((p, i) => wordF1(texts[i], p.truth));
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      return { overall: mean(f), byType: Object.fromEntries(types.map((t) => [t, mean(f.filter((_, i) => pages[i].type === t))])) };
    };
    const mine = score(a.texts), theirs = b && score(b.texts);
    const charted = set === 'wcxb-dev test (frozen)' || set === 'wcxb-dev-sample';
    for (const t of charted ? ['overall', ...types] : []) {
      const pick = (r: typeof mine) => (t === 'overall' ? r.overall : r.byType[t]);
      bars.push({ label: `WCXB ${t}: Sightline`, value: pick(mine), group: 'ours' }, ...(theirs ? [{ label: `WCXB ${t}: Readability`, value: pick(theirs), group: 'readability' }] : []));
    }
    results[set] = { ours: { ...mine, pagesPerSecond: a.pagesPerSecond }, readability: theirs && { ...theirs, pagesPerSecond: b!.pagesPerSecond } };
    md.push(`### ${set} (${pages.length} pages; word F1)`, '', `| extractor | overall | ${types.join(' | ')} | pages/s |`, `|---|---|${types.map(() => '---|').join('')}---|`,
      `| Sightline read | **${mine.overall.toFixed(3)}** | ${types.map((t) => mine.byType[t].toFixed(3)).join(' | ')} | ${a.pagesPerSecond.toFixed(1)} |`,
      ...(theirs ? [`| Readability 0.6 (same run) | ${theirs.overall.toFixed(3)} | ${types.map((t) => theirs.byType[t].toFixed(3)).join(' | ')} | ${b!.pagesPerSecond.toFixed(1)} |`] : []),
      ...(set === 'wcxb-dev whole split' ? Object.entries(PUBLISHED).map(([name, f]) => `| ${name}, published | ${f.overall.toFixed(3)} | ${types.map((t) => f[t].toFixed(3)).join(' | ')} | |`) : []), '');
  }
}
/** Pages per second: readPage in this thread, then through the pool with 1 and 2 threads (warmed first:
 *  the server keeps its threads warm), and how many pool results differ from readPage's. */
async function throughput(name: string, pages: Page[]) {
  const options: ReadOptions = { format: 'markdown', contentLimit: 500_000 };
  const t0 = performance.now();
  const local = pages.map((p) => readPage(p.html, p.url, options));
  const inProcess = pages.length / ((performance.now() - t0) / 1000);
  process.stderr.write(`${name} in process: ${inProcess.toFixed(1)} pages/s\n`);
  const pooled: Record<string, number> = {};
  let different = 0;
  for (const size of [1, 2]) {
    const pool = new ExtractPool({ size, maxQueue: pages.length, timeoutMs: 120_000, maxNodes: 200_000 });
    try {
      await Promise.all(pages.slice(0, 10 * size).map((p) => pool.read(p.html, p.url, options)));
      const t1 = performance.now();
      const results = await Promise.all(pages.map((p) => pool.read(p.html, p.url, options)));
      pooled[size] = pages.length / ((performance.now() - t1) / 1000);
      different += results.filter((r, i) => !isDeepStrictEqual(r, local[i])).length;
      process.stderr.write(`${name} pool of ${size}: ${pooled[size].toFixed(1)} pages/s\n`);
    } finally {
      await pool.close();
    }
  }
  return { inProcess, pool1: pooled[1], pool2: pooled[2], different };
}

const speed: string[] = ['### Extraction in process vs in worker threads (same pages, same run; markdown, contentLimit 500,000)', '',
  '| pages | in process, pages/s | pool of 1 thread | pool of 2 threads | results differing |', '|---|---|---|---|---|'];
for (const [set, pages] of [['article-extraction-benchmark', articles], ['wcxb-dev-sample', wcxbPages()]] as const) {
  const t = await throughput(set, pages);
  results[set] = { ...(results[set] as object | undefined), throughput: t };
  const ratio = (x: number) => `${x.toFixed(1)} (×${(x / t.inProcess).toFixed(2)})`;
  speed.push(`| ${set} (${pages.length}) | ${t.inProcess.toFixed(1)} | ${ratio(t.pool1)} | ${ratio(t.pool2)} | ${t.different} |`);
}
md.push(...speed, '');

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
if (only !== 'ours') {
  writeFileSync(new URL('./results/read.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), results }, null, 2) + '\n');
  writeFileSync(new URL('./results/read.md', import.meta.url), md.join('\n'));
  writeFileSync(new URL('./results/read.svg', import.meta.url), barChart('Read-mode extraction F1, same pages, same run', bars, ''));
}
console.log(md.join('\n'));
