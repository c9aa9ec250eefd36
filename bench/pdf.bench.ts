// PDF read mode: time per page and word F1 against the known text, no server. PDFs printed by the real
// Chromium from test/fixtures/pdf/ (a 3-page report with two columns, a table and running lines, and
// its body 40 times over: 120 pages). Each is read in process (readPdf, warm, median of runs), beside
// the HTML read of the same report (readPage) in the same run, so the ratio is what to compare.
// Then the corpus (test/fixtures/pdf/corpus.ts: 14 documents printed by Chromium, 10 real PDFs from
// pandoc + pdfTeX, LibreOffice and wkhtmltopdf): word F1 against each one's known text, pages per second; and the
// refusals (encrypted, image-only, truncated) and a rebuilt cross-reference table: how long each takes.
// Run: npm run bench:pdf. Writes bench/results/pdf.json and bench/results/pdf.md.
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPdf } from '../src/observe/pdf/pdf.ts';
import { readPage } from '../src/observe/read/read.ts';
import { markdownText, wordF1 } from './read/metrics.ts';
import { makePdfFixtures } from '../test/fixtures/pdf/make.ts';
import { makeCorpus, realDocs } from '../test/fixtures/pdf/corpus.ts';

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

// The corpus: each document read whole (median of runs), word F1 against its known text.
const corpus = [...await makeCorpus(), ...realDocs()];
const corpusRows: { name: string; engine: string; pages: number; ms: number; f1: number }[] = [];
for (const doc of corpus) {
  // A fresh copy for each read: pdf.js takes (detaches) the buffer it is given.
  const r = await readPdf(new Uint8Array(doc.bytes), 'http://localhost/doc.pdf', options);
  corpusRows.push({ name: doc.name, engine: doc.engine, pages: r.pages, ms: await median(() => readPdf(new Uint8Array(doc.bytes), 'http://localhost/doc.pdf', options)), f1: wordF1(markdownText(r.content), doc.known) });
}
const totalPages = corpusRows.reduce((a, r) => a + r.pages, 0), totalMs = corpusRows.reduce((a, r) => a + r.ms, 0);
const meanF1 = corpusRows.reduce((a, r) => a + r.f1, 0) / corpusRows.length;
lines.push('', `Corpus: ${corpusRows.length} documents with known text, ${totalPages} pages, ${(totalPages / totalMs * 1000).toFixed(0)} pages/s read whole; mean word F1 ${meanF1.toFixed(3)}, lowest ${Math.min(...corpusRows.map((r) => r.f1)).toFixed(3)}.`, '',
  '| document | made by | pages | ms (median) | pages/s | word F1 vs known text |', '| --- | --- | --- | --- | --- | --- |',
  ...corpusRows.map((r) => `| ${r.name} | ${r.engine} | ${r.pages} | ${r.ms.toFixed(1)} | ${(r.pages / r.ms * 1000).toFixed(0)} | ${r.f1.toFixed(3)} |`));

// Refusals and repairs: how long the reader takes to say no (or to rebuild a broken xref).
const reportText = pdfs.report.toString('latin1');
const xrefAt = reportText.lastIndexOf('\nxref');
const brokenXref = Buffer.from(reportText.slice(0, xrefAt) + reportText.slice(xrefAt).replace(/^(\d{10}) (\d{5}) n/gm, (_m, off: string, gen: string) => `${String(Number(off) + 7).padStart(10, '0')} ${gen} n`), 'latin1');
const edge: [string, Buffer][] = [
  ['encrypted (AES-256, user password)', pdfs.locked], ['image-only (a scan)', pdfs.scan],
  ['truncated (first half of report.pdf)', pdfs.report.subarray(0, Math.floor(pdfs.report.length / 2))], ['broken xref (rebuilt by pdf.js)', brokenXref],
];
lines.push('', '| edge case | outcome | ms (median) |', '| --- | --- | --- |');
for (const [name, bytes] of edge) {
  const attempt = async () => { try { await readPdf(new Uint8Array(bytes), 'http://localhost/', options); return 'read'; } catch (err) { return `422 ${(err as { code?: string }).code ?? (err as Error).message}`; } };
  lines.push(`| ${name} | ${await attempt()} | ${(await median(attempt)).toFixed(1)} |`);
}
console.log(lines.join('\n'));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/pdf.json', import.meta.url), JSON.stringify({ runs: RUNS, rows, htmlMs, corpus: corpusRows }, null, 2) + '\n');
writeFileSync(new URL('./results/pdf.md', import.meta.url), lines.join('\n') + '\n');
