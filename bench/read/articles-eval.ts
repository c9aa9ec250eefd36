// Shingle precision, recall and F1 of read mode on the article-extraction-benchmark set (181 pages),
// as bench/read does for that set, without reading the WCXB split (so without its frozen test part).
// Run: node --import tsx bench/read/articles-eval.ts
import { readPage } from '../../src/observe/read/read.ts';
import { aggregate, markdownText, shingleScores } from './metrics.ts';
import { loadPage, pageRefs } from './pages.ts';

const refs = pageRefs().articles;  // the articles only: the WCXB parts are not read
const t0 = performance.now();
const scores = refs.map((ref) => {
  const p = loadPage(ref);
  return shingleScores(markdownText(readPage(p.html, p.url, { format: 'markdown', contentLimit: 500_000 }).content), p.truth);
});
const seconds = (performance.now() - t0) / 1000;
const a = aggregate(scores);
console.log(`articles: ${refs.length} pages, ${(refs.length / seconds).toFixed(1)} pages/s, precision ${a.precision.toFixed(3)} recall ${a.recall.toFixed(3)} F1 ${a.f1.toFixed(3)}`);
