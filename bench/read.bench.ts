// Read-mode extraction quality and speed, no browser, in one process: our reader (this checkout's
// src/observe/read/read.ts: linkedom + main-content extraction + turndown), the reader before issue 18's
// work (the same file at c314c1f, unpacked from git at run time: bench/read/old-reader.ts) and Mozilla
// Readability (jsdom + Readability + turndown), each run on every page by a pool of worker threads the
// size of the cores (bench/read/pool.ts, bench/read/worker.ts). Workers read the pages from disk and
// return only scores and the CPU time of their own thread per reader and page, so speed is pages per
// CPU-second (steady whatever else the machine runs), not wall time. A reader that runs over the
// per-page timeout, or a worker that dies, costs that reader that page (scored as an empty answer,
// counted and reported) and the run goes on.
// Data: ../shared/data/article-extraction-benchmark (181 articles) and WCXB: the whole development split
// (1,497 pages, 7 types) when a checkout is at WCXB_DIR (default /work/wcxb), reported as its tune part,
// its frozen test part (bench/read/wcxb-split.json, split by site; aggregates only, never a page) and
// the two pooled; without one, ../shared/data/wcxb-dev-sample (315 pages, all inside tune).
// Then the cost of running readPage in worker threads as the server does (src/observe/worker/extract-pool.ts).
// Run: npm run bench:read. Env: BENCH_READ_READERS (default ours,old,readability), BENCH_READ_WORKERS
// (default: the cores), BENCH_READ_TIMEOUT_MS (per reader and page, default 120000),
// BENCH_READ_THROUGHPUT=0 (skip the thread-pool section), BENCH_READ_STRIDE=n (every nth page only, for
// a quick look), BENCH_READ_MAX_MINUTES (hand out no more pages after that long and report on the pages
// read, in a fixed mixed order; a partial run says so in its tables and results). Progress on stderr.
// Writes bench/results/read.json, read.md and read.svg only when all three readers ran on every page
// (no BENCH_READ_STRIDE); the tables always go to stdout.
import { writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { readPage, type ReadOptions } from '../src/observe/read/read.ts';
import { ExtractPool } from '../src/observe/worker/extract-pool.ts';
import { hash } from '../src/rank/words.ts';
import { barChart, type Bar } from './chart.ts';
import { bootstrapMean } from './stats.ts';
import { runParts, CPU_CLOCK, type PartOutcome } from './read/pool.ts';
import { pageRefs, sampleRefs, typeOf, loadPage, summarise, type PageRef, type PageScore, type ReaderSummary } from './read/pages.ts';
import { unpackOldReader, OLD_READER_COMMIT } from './read/old-reader.ts';
import type { ReadWorkerData } from './read/worker.ts';

const LABEL: Record<string, string> = {
  ours: 'Sightline read (this checkout)',
  old: `Sightline read before issue 18 (${OLD_READER_COMMIT.slice(0, 7)})`,
  readability: 'Readability 0.6 (jsdom + turndown)',
};
/** Published word F1 on the whole WCXB development split (the benchmark's README), per type. */
const PUBLISHED: Record<string, Record<string, number>> = {
  'rs-trafilatura': { overall: 0.859, article: 0.932, collection: 0.716, documentation: 0.932, forum: 0.808, listing: 0.707, product: 0.641, service: 0.844 },
  'MinerU-HTML (0.6B)': { overall: 0.827, article: 0.928, collection: 0.506, documentation: 0.838, forum: 0.794, listing: 0.710, product: 0.619, service: 0.824 },
  Trafilatura: { overall: 0.791, article: 0.926, collection: 0.553, documentation: 0.888, forum: 0.585, listing: 0.589, product: 0.567, service: 0.763 },
  Readability: { overall: 0.675, article: 0.825, collection: 0.445, documentation: 0.736, forum: 0.466, listing: 0.496, product: 0.407, service: 0.604 },
};

let readers = (process.env.BENCH_READ_READERS ?? 'ours,old,readability').split(',').map((r) => r.trim()).filter((r) => r in LABEL);
const workers = Math.max(1, Number(process.env.BENCH_READ_WORKERS ?? availableParallelism()));
const timeoutMs = Number(process.env.BENCH_READ_TIMEOUT_MS ?? 120_000);

const stride = Math.max(1, Number(process.env.BENCH_READ_STRIDE ?? 1));
const refs = pageRefs();
/** In a fixed mixed order (a hash of set and id), so that a run stopped early has read every set alike. */
const mix = (r: PageRef) => hash(`${r.set}:${r.id}`) >>> 0;
const allTasks: PageRef[] = [...refs.articles, ...refs.wcxb].filter((_, i) => i % stride === 0).sort((a, b) => mix(a) - mix(b));
const maxMinutes = Number(process.env.BENCH_READ_MAX_MINUTES ?? Infinity);
const fmtTime = (s: number) => { const r = Math.round(s); return `${Math.floor(r / 60)}m${String(r % 60).padStart(2, '0')}s`; };

// The old reader's temporary folder is removed however the run ends: done, an error, SIGINT or SIGTERM.
const old = readers.includes('old') ? unpackOldReader() : null;
if (readers.includes('old') && !old) {
  process.stderr.write(`read: commit ${OLD_READER_COMMIT.slice(0, 7)} is not in this clone; the old reader is left out\n`);
  readers = readers.filter((r) => r !== 'old');
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { old?.remove(); process.exit(130); });

const load0 = loadavg();
const t0 = performance.now();
let lastProgress = 0;
process.stderr.write(`read: ${allTasks.length} pages (${stride > 1 ? `every ${stride}th of ` : ''}${refs.articles.length} articles, ${refs.wcxb.length} WCXB${refs.full ? ' development split' : ' sample'}), readers ${readers.join(', ')}, ${workers} worker threads, timeout ${timeoutMs} ms per reader and page\n`);
let allOutcomes: PartOutcome<PageScore>[][];
try {
  allOutcomes = await runParts<PageRef, PageScore>(allTasks, {
    entry: new URL('./read/worker.ts', import.meta.url), size: workers, timeoutMs,
    stop: () => (performance.now() - t0) / 60_000 > maxMinutes,
    workerData: { readers, oldDir: old?.dir } satisfies ReadWorkerData,
    resourceLimits: { maxOldGenerationSizeMb: 4096 },
    onTask: (done, total, failures) => {
      const now = performance.now();
      if (now - lastProgress < 1000 && done < total) return;
      lastProgress = now;
      const elapsed = (now - t0) / 1000;
      process.stderr.write(`\rread: ${done}/${total} pages, ${fmtTime(elapsed)} elapsed, about ${fmtTime(elapsed / done * (total - done))} left, ${failures} failed  `);
    },
  });
} finally {
  old?.remove();
}
const wallSeconds = (performance.now() - t0) / 1000;
const load1 = loadavg();
process.stderr.write(`\nread: done in ${fmtTime(wallSeconds)}\n`);
// Pages every reader finished (or failed on): all of them unless BENCH_READ_MAX_MINUTES stopped the run.
const read = allOutcomes.map((o, i) => i).filter((i) => readers.every((r) => allOutcomes[i].some((o) => o.name === r || o.name === '*')));
const tasks = read.map((i) => allTasks[i]), outcomes = read.map((i) => allOutcomes[i]);
const types = tasks.map(typeOf);
const partial = tasks.length < allTasks.length;
const count = (set: string) => allTasks.filter((t) => t.set === set).length;
// Failures, by page for the articles and the tune part; never a test-part page.
outcomes.forEach((page, i) => {
  for (const o of page.filter((x) => x.failure)) {
    const where = tasks[i].set === 'test' ? 'a page of the frozen test part' : `${tasks[i].set} ${tasks[i].id}`;
    process.stderr.write(`read: ${o.name === '*' ? 'worker' : o.name} ${o.failure} on ${where}: ${o.message ?? ''}\n`);
  }
});

const pick = (set: string[]) => {
  const idx = tasks.map((t, i) => (set.includes(t.set) ? i : -1)).filter((i) => i >= 0);
  return { outcomes: idx.map((i) => outcomes[i]), types: idx.map((i) => types[i]) };
};
const sets: [string, string[]][] = [['article-extraction-benchmark', ['articles']],
  ...(refs.full ? [['wcxb-dev tune', ['tune']], ['wcxb-dev test (frozen)', ['test']], ['wcxb-dev whole split', ['tune', 'test']]] as [string, string[]][] : [['wcxb-dev-sample', ['sample']]] as [string, string[]][])];
const results: Record<string, Record<string, ReaderSummary>> = {};
for (const [name, members] of sets) {
  const s = pick(members);
  results[name] = Object.fromEntries(readers.map((r) => [r, summarise(r, s.outcomes, s.types, name === 'article-extraction-benchmark' ? 'shingles' : 'word-f1')]));
}
/** Every page, for speed: each reader's pages per CPU-second over all it read. */
const everything = Object.fromEntries(readers.map((r) => [r, summarise(r, outcomes, types, 'word-f1')]));

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`;
const md: string[] = [
  `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; ${workers} worker threads; wall time ${fmtTime(wallSeconds)}; ` +
  `load average ${load0[0].toFixed(1)} at the start, ${load1[0].toFixed(1)} at the end (15-minute: ${load1[2].toFixed(1)}); ` +
  `speed is pages per second of ${CPU_CLOCK === 'thread-cpu' ? "each worker thread's own CPU time" : 'wall time (no per-thread CPU clock here)'}.` +
  (partial ? ` **Partial run**: stopped after ${maxMinutes} minutes with ${tasks.length} of ${allTasks.length} pages read (in a fixed mixed order; every reader on the same pages).` : ''), ''];
const failureNote = (s: ReaderSummary) => { const n = s.failures.timeout + s.failures.crash + s.failures.error; return n ? `${n} (${Object.entries(s.failures).filter(([, v]) => v).map(([k, v]) => `${v} ${k}`).join(', ')})` : '0'; };
const vsOld = (r: string, s: ReaderSummary, o: ReaderSummary | undefined) => (r === 'old' || !o || !o.pagesPerSecond ? '' : `${(s.pagesPerSecond / o.pagesPerSecond).toFixed(2)}×`);
const range = ([lo, hi]: [number, number]) => `${lo.toFixed(3)}–${hi.toFixed(3)}`;
const sign = (x: number) => { const t = Math.abs(x).toFixed(3); return t === '0.000' ? t : `${x < 0 ? '−' : '+'}${t}`; };
const signed = ([lo, hi]: [number, number]) => `${sign(lo)} to ${sign(hi)}`;
/** Under the readers' rows: ours' 95% bootstrap interval per column, and the paired interval of ours minus each other
 *  reader (per-page differences resampled: an interval above 0 is a lead the pages' spread cannot explain). */
function intervalRows(rs: Record<string, ReaderSummary>, typeNames: string[], members: string[]): string[] {
  const ours = rs.ours;
  if (!ours?.interval || !ours.f1s) return [];
  const s = pick(members);
  const pages = `${s.types.length} pages; per type: ${typeNames.map((t) => `${t} ${s.types.filter((x) => x === t).length}`).join(', ')}`;
  const rows = [`| ours, 95% interval (bootstrap over ${pages}) | ${range(ours.interval.overall)} | ${typeNames.map((t) => range(ours.interval!.byType[t])).join(' | ')} | | | |`];
  for (const r of readers.filter((x) => x !== 'ours' && rs[x].f1s)) {
    const diff = ours.f1s.map((f, i) => f - rs[r].f1s![i]);
    const of = (t?: string) => bootstrapMean(t ? diff.filter((_, i) => s.types[i] === t) : diff);
    rows.push(`| ours − ${LABEL[r]}, 95% interval (paired) | ${signed(of())} | ${typeNames.map((t) => signed(of(t))).join(' | ')} | | | |`);
  }
  return rows;
}
const bars: Bar[] = [];
for (const [name, members] of sets) {
  const rs = results[name];
  if (name === 'article-extraction-benchmark') {
    md.push(`### ${name} (${rs[readers[0]].pages}${partial ? ` of ${count('articles')}` : ''} articles; 4-token shingles)`, '', '| extractor | precision | recall | F1 | pages/s | vs old | failed |', '|---|---|---|---|---|---|---|',
      ...readers.map((r) => { const s = rs[r]; return `| ${LABEL[r]} | ${s.precision!.toFixed(3)} | ${s.recall!.toFixed(3)} | ${r === 'ours' ? `**${s.overall.toFixed(3)}**` : s.overall.toFixed(3)} | ${s.pagesPerSecond.toFixed(1)} | ${vsOld(r, s, rs.old)} | ${failureNote(s)} |`; }), '');
    for (const r of readers) bars.push({ label: `articles: ${r}`, value: rs[r].overall, group: r });
    continue;
  }
  const typeNames = Object.keys(rs[readers[0]].byType);
  md.push(`### ${name} (${rs[readers[0]].pages}${partial ? ` of ${members.reduce((n, m) => n + count(m), 0)}` : ''} pages; word F1)`, '', `| extractor | overall | ${typeNames.join(' | ')} | pages/s | vs old | failed |`, `|---|---|${typeNames.map(() => '---|').join('')}---|---|---|`,
    ...readers.map((r) => { const s = rs[r]; return `| ${LABEL[r]} | ${r === 'ours' ? `**${s.overall.toFixed(3)}**` : s.overall.toFixed(3)} | ${typeNames.map((t) => s.byType[t].toFixed(3)).join(' | ')} | ${s.pagesPerSecond.toFixed(1)} | ${vsOld(r, s, rs.old)} | ${failureNote(s)} |`; }),
    ...intervalRows(rs, typeNames, members),
    ...(name === 'wcxb-dev whole split' ? Object.entries(PUBLISHED).map(([n, f]) => `| ${n}, published | ${f.overall.toFixed(3)} | ${typeNames.map((t) => f[t]?.toFixed(3) ?? '').join(' | ')} | | | |`) : []), '');
  if (name === 'wcxb-dev test (frozen)' || name === 'wcxb-dev-sample') {
    for (const t of ['overall', ...typeNames]) for (const r of readers) bars.push({ label: `WCXB ${t}: ${r}`, value: t === 'overall' ? rs[r].overall : rs[r].byType[t], group: r });
  }
}
md.push(`### Speed over all ${tasks.length} pages (CPU time of the reading thread, same run)`, '', '| extractor | CPU s | pages/s | ms per page | vs old |', '|---|---|---|---|---|',
  ...readers.map((r) => { const s = everything[r]; return `| ${LABEL[r]} | ${s.cpuSeconds.toFixed(1)} | ${s.pagesPerSecond.toFixed(1)} | ${(1000 / s.pagesPerSecond).toFixed(1)} | ${vsOld(r, s, everything.old)} |`; }), '');

/** Pages per second: readPage in this thread, then through the pool with 1 and 2 threads (warmed first:
 *  the server keeps its threads warm), and how many pool results differ from readPage's. */
async function throughput(name: string, pages: PageRef[]) {
  const loaded = pages.map(loadPage);
  const options: ReadOptions = { format: 'markdown', contentLimit: 500_000 };
  const t1 = performance.now();
  const local = loaded.map((p) => readPage(p.html, p.url, options));
  const inProcess = pages.length / ((performance.now() - t1) / 1000);
  process.stderr.write(`${name} in process: ${inProcess.toFixed(1)} pages/s\n`);
  const pooled: Record<string, number> = {};
  let different = 0;
  for (const size of [1, 2]) {
    const pool = new ExtractPool({ size, maxQueue: pages.length, timeoutMs: 120_000, maxNodes: 200_000 });
    try {
      await Promise.all(loaded.slice(0, 10 * size).map((p) => pool.read(p.html, p.url, options)));
      const t2 = performance.now();
      const out = await Promise.all(loaded.map((p) => pool.read(p.html, p.url, options)));
      pooled[size] = pages.length / ((performance.now() - t2) / 1000);
      different += out.filter((r, i) => !isDeepStrictEqual(r, local[i])).length;
      process.stderr.write(`${name} pool of ${size}: ${pooled[size].toFixed(1)} pages/s\n`);
    } finally {
      await pool.close();
    }
  }
  return { inProcess, pool1: pooled[1], pool2: pooled[2], different };
}
const throughputs: Record<string, unknown> = {};
if (process.env.BENCH_READ_THROUGHPUT !== '0') {
  const speed: string[] = ['### Extraction in process vs in worker threads (wall time, same pages, same run; markdown, contentLimit 500,000)', '',
    '| pages | in process, pages/s | pool of 1 thread | pool of 2 threads | results differing |', '|---|---|---|---|---|'];
  const every = (xs: PageRef[]) => xs.filter((_, i) => i % stride === 0);
  for (const [set, pages] of [['article-extraction-benchmark', every(refs.articles)], ['wcxb-dev-sample', every(sampleRefs())]] as const) {
    const t = await throughput(set, pages);
    throughputs[set] = t;
    const ratio = (x: number) => `${x.toFixed(1)} (×${(x / t.inProcess).toFixed(2)})`;
    speed.push(`| ${set} (${pages.length}) | ${t.inProcess.toFixed(1)} | ${ratio(t.pool1)} | ${ratio(t.pool2)} | ${t.different} |`);
  }
  md.push(...speed, '');
}

/** The results without per-page scores (the frozen part is reported as aggregates only). */
const withoutPages = (r: Record<string, Record<string, ReaderSummary>>) =>
  Object.fromEntries(Object.entries(r).map(([set, byReader]) => [set, Object.fromEntries(Object.entries(byReader).map(([k, v]) => [k, { ...v, f1s: undefined }]))]));
const complete = stride === 1 && Object.keys(LABEL).every((r) => readers.includes(r));
if (complete) mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
if (complete) writeFileSync(new URL('./results/read.json', import.meta.url), JSON.stringify({
  date: new Date().toISOString(), machine, workers, wallSeconds, loadAverage: { start: load0, end: load1 }, cpuClock: CPU_CLOCK,
  timeoutMs, partial, pagesRead: tasks.length, pagesTotal: allTasks.length, readers, oldReaderCommit: old ? OLD_READER_COMMIT : null, results: withoutPages(results), speed: everything, throughput: throughputs,
}, null, 2) + '\n');
if (complete) writeFileSync(new URL('./results/read.md', import.meta.url), md.join('\n'));
if (complete) writeFileSync(new URL('./results/read.svg', import.meta.url), barChart('Read-mode extraction F1, same pages, same run', bars, ''));
console.log(md.join('\n'));
