// Word F1 of this checkout's read mode against another commit's, page by page in one process (the order
// alternated), on one fold of the WCXB tune part (aggregates per type only), or shingle F1 on the
// article-extraction-benchmark set; and new/old pages per second. Never the test part.
// Run: node --import tsx bench/read/compare-eval.ts --base <commit> (--fold a|b [--type article,…] | --articles)
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readPage } from '../../src/observe/read/read.ts';
import { unpackOldReader } from './old-reader.ts';
import { wcxbSplit, foldOf } from './wcxb-eval.ts';
import { loadPage, pageRefs } from './pages.ts';
import { aggregate, markdownText, shingleScores, wordF1 } from './metrics.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, fold: { type: 'string' }, type: { type: 'string' }, articles: { type: 'boolean' } } });
if (!values.base) throw new Error('--base <commit>');
if (!values.articles && values.fold !== 'a' && values.fold !== 'b') throw new Error('--fold a|b (the tune part only) or --articles');
const old = unpackOldReader(values.base);
if (!old) throw new Error(`commit ${values.base} is not in this clone`);
try {
  const oldRead = (await import(pathToFileURL(join(old.dir, 'src/observe/read/read.ts')).href) as { readPage: typeof readPage }).readPage;
  const OPTIONS = { format: 'markdown', contentLimit: 500_000 } as const;
  const pages = values.articles
    ? pageRefs().articles.map((ref) => { const p = loadPage(ref); return { url: p.url, html: p.html, truth: p.truth, type: 'article' }; })
    : (wcxbSplit('tune') ?? []).filter((p) => foldOf(p.url) === values.fold && (!values.type || values.type.split(',').includes(p.type)));
  const time = { old: 0, new: 0 };
  const scores: { type: string; old: ReturnType<typeof shingleScores> & { f1: number }; new: ReturnType<typeof shingleScores> & { f1: number } }[] = [];
  pages.forEach((p, i) => {
    const run = (which: 'old' | 'new') => {
      const t0 = performance.now();
      const md = (which === 'old' ? oldRead : readPage)(p.html, p.url, OPTIONS).content;
      time[which] += performance.now() - t0;
      const text = markdownText(md);
      return { ...shingleScores(text, p.truth), f1: wordF1(text, p.truth) };
    };
    const [a, b] = i % 2 ? [run('new'), run('old')] : [run('old'), run('new')];
    scores.push(i % 2 ? { type: p.type, new: a, old: b } : { type: p.type, old: a, new: b });
  });
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  console.log(`${values.articles ? 'articles' : `fold ${values.fold}`}: ${pages.length} pages, base ${values.base.slice(0, 7)} against this checkout; new/old pages per second ${(time.old / time.new).toFixed(2)}× (${(pages.length / time.new * 1000).toFixed(1)} against ${(pages.length / time.old * 1000).toFixed(1)})`);
  if (values.articles) {
    for (const w of ['old', 'new'] as const) { const a = aggregate(scores.map((s) => s[w])); console.log(`  ${w}: precision ${a.precision.toFixed(3)} recall ${a.recall.toFixed(3)} F1 ${a.f1.toFixed(3)}`); }
  } else {
    for (const t of [...new Set(scores.map((s) => s.type))].sort()) {
      const s = scores.filter((x) => x.type === t);
      console.log(`  ${t.padEnd(14)} ${String(s.length).padStart(4)}  old ${mean(s.map((x) => x.old.f1)).toFixed(4)}  new ${mean(s.map((x) => x.new.f1)).toFixed(4)}`);
    }
  }
} finally {
  old.remove();
}
