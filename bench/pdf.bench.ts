// PDF read mode: time per page and word F1 against the known text, no server. PDFs printed by the real
// Chromium from test/fixtures/pdf/ (a 3-page report with two columns, a table and running lines, and
// its body 40 times over: 120 pages). Each is read in process (readPdf, warm, median of runs), beside
// the HTML read of the same report (readPage) in the same run, so the ratio is what to compare.
// Run: npm run bench:pdf. Writes bench/results/pdf.json and bench/results/pdf.md.
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPdf } from '../src/observe/pdf.ts';
import { readPage } from '../src/observe/read.ts';
import { markdownText, wordF1 } from './read/metrics.ts';
import { makePdfFixtures } from '../test/fixtures/pdf/make.ts';

const RUNS = Number(process.env.RUNS ?? 7);
const html = readFileSync(new URL('../test/fixtures/pdf/report.html', import.meta.url), 'utf8');
/** The known text: every paragraph, heading and table cell of the source HTML. */
const known = (source: string) => source.split('<body>')[1].replace(/&shy;/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const truth = known(html);
const paperTruth = known(readFileSync(new URL('../test/fixtures/pdf/paper.html', import.meta.url), 'utf8'));

async function median(work: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  await work(); // warm
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const dir = mkdtempSync(join(tmpdir(), 'sightline-pdf-bench-'));
const pdfs = await makePdfFixtures(dir);
rmSync(dir, { recursive: true, force: true });
const options = { format: 'markdown' as const, contentLimit: 500_000 };
const report = await readPdf(new Uint8Array(pdfs.report), 'http://localhost/report.pdf', options);
const long = await readPdf(new Uint8Array(pdfs.long), 'http://localhost/long.pdf', options);
const paper = await readPdf(new Uint8Array(pdfs.paper), 'http://localhost/paper.pdf', options);
/** Pages a default-limit read gets through (it stops once it has the text the limit needs). */
async function pagesRead(bytes: Buffer): Promise<number> {
  const r = await readPdf(new Uint8Array(bytes), 'http://localhost/', { format: 'markdown' });
  return Number(/pages after (\d+) of/.exec(r.warnings.join(' '))?.[1] ?? r.pages);
}
const rows = [
  { name: 'report.pdf', pages: report.pages, ms: await median(() => readPdf(new Uint8Array(pdfs.report), 'http://localhost/', options)), f1: wordF1(markdownText(report.content), truth) },
  { name: 'paper.pdf (two justified columns)', pages: paper.pages, ms: await median(() => readPdf(new Uint8Array(pdfs.paper), 'http://localhost/', options)), f1: wordF1(markdownText(paper.content), paperTruth) },
  { name: 'long.pdf (all 120 pages)', pages: long.pages, ms: await median(() => readPdf(new Uint8Array(pdfs.long), 'http://localhost/', options)), f1: wordF1(markdownText(long.content), Array(40).fill(truth).join(' ')) },
  { name: 'long.pdf, default contentLimit', pages: await pagesRead(pdfs.long), ms: await median(() => readPdf(new Uint8Array(pdfs.long), 'http://localhost/', { format: 'markdown' })), f1: NaN },
  { name: 'huge.pdf (1,120 pages), default contentLimit', pages: await pagesRead(pdfs.huge), ms: await median(() => readPdf(new Uint8Array(pdfs.huge), 'http://localhost/', { format: 'markdown' })), f1: NaN },
];
const htmlMs = await median(() => readPage(html, 'http://localhost/report.html', options));
const lines = [
  '| PDF | pages read | ms (median) | ms per page read | word F1 vs source |', '| --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.name} | ${r.pages} | ${r.ms.toFixed(1)} | ${(r.ms / r.pages!).toFixed(2)} | ${Number.isNaN(r.f1) ? '—' : r.f1.toFixed(3)} |`),
  '', `The same report as HTML (readPage): ${htmlMs.toFixed(1)} ms; report.pdf costs ${(rows[0].ms / htmlMs).toFixed(1)}× its HTML read.`,
];
console.log(lines.join('\n'));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/pdf.json', import.meta.url), JSON.stringify({ runs: RUNS, rows, htmlMs }, null, 2) + '\n');
writeFileSync(new URL('./results/pdf.md', import.meta.url), lines.join('\n') + '\n');
