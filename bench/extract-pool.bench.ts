// The cost of reading pages in child processes (this tree, issue 36) against the worker threads they
// replaced (another checkout's pool, e.g. b9c6a2e), in one run: each pool reads the same real pages one
// at a time, the two interleaved page by page (alternating which goes first), so both see the same
// machine. Reports the per-page median time through each pool and their ratio.
//   git worktree add /tmp/before b9c6a2e && (cd /tmp/before && ln -s /work/main/node_modules .)
//   node --import tsx bench/extract-pool.bench.ts /tmp/before [pages]
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { ExtractPool } from '../src/observe/worker/extract-pool.ts';
import { importFrom } from './old-checkout.ts';
import { SHARED_DATA } from './payloads.ts';

const [dir, count = '60'] = process.argv.slice(2);
if (!dir) throw new Error('usage: extract-pool.bench.ts <other checkout> [pages]');
const articles = JSON.parse(readFileSync(join(SHARED_DATA, 'article-extraction-benchmark', 'ground-truth.json'), 'utf8')) as Record<string, { url: string }>;
const pages = Object.entries(articles).slice(0, Number(count)).map(([id, t]) => ({ url: t.url, html: gunzipSync(readFileSync(join(SHARED_DATA, 'article-extraction-benchmark', 'html', `${id}.html.gz`))).toString('utf8') }));
const { ExtractPool: OldPool } = await importFrom(dir, 'src/observe/worker/extract-pool.ts');
const options = { size: 1, maxQueue: 4, timeoutMs: 120_000, maxNodes: 200_000 };
const ours = new ExtractPool(options);
const theirs = new OldPool(options) as ExtractPool;
await new Promise((r) => setTimeout(r, 3000)); // both warm
const time = async (pool: ExtractPool, page: { url: string; html: string }) => {
  const t0 = performance.now();
  await pool.read(page.html, page.url, {});
  return performance.now() - t0;
};
const a: number[] = [], b: number[] = [];
for (const [i, page] of pages.entries()) {
  if (i % 2) { a.push(await time(ours, page)); b.push(await time(theirs, page)); } else { b.push(await time(theirs, page)); a.push(await time(ours, page)); }
}
await Promise.all([ours.close(), theirs.close()]);
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const ratios = a.map((x, i) => b[i] / x);
const result = {
  pages: pages.length, processes_ms_median: +median(a).toFixed(1), threads_ms_median: +median(b).toFixed(1),
  threads_over_processes_median: +median(ratios).toFixed(3), total_threads_over_processes: +(b.reduce((s, x) => s + x, 0) / a.reduce((s, x) => s + x, 0)).toFixed(3),
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/extract-pool.json', import.meta.url), JSON.stringify({ ...result, other: dir, date: new Date().toISOString() }, null, 2) + '\n');
