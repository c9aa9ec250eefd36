// The a11y evaluation on the payloads of the collector that made the stored sets ("old payloads",
// read from git at OLD_REV: the pages, primary marks and recorded rankings as they were before
// recollect.ts) and on this checkout's files (the current collector's payloads, the marks remapped to
// their ids, the rankings re-recorded on them), in one run: the before and previous rankings as
// recorded with each, and this checkout's core on both. Only the payloads differ between a split's old
// and new rows; the core is the same. Aggregates only.
// Run: node --import tsx train/a11y/compare-collectors.ts [--test]   (--test adds the frozen test split:
// run it once, at the end; it prints its aggregate rows and nothing of its pages)
import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSplit, loadMarks, measure, rankAll, row, type EvalSplit, type PrimaryMark } from './evaluate.ts';
import type { A11yPage } from './collect-a11y.ts';

/** The last commit whose train/a11y files came from the old collectors (c314c1f's and bcbaa7c's). */
export const OLD_REV = '2459351f4724453e56fc0d9dad8f14cd674b2bcc';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const git = (path: string) => execFileSync('git', ['-C', ROOT, 'show', `${OLD_REV}:train/a11y/${path}`], { maxBuffer: 256 << 20 });
const json = <T>(path: string) => JSON.parse(git(path).toString()) as T;

const splits: EvalSplit[] = process.argv.includes('--test') ? ['tune', 'dev2', 'test'] : ['tune', 'dev2'];
const old = {
  marks: { ...json<{ pages: Record<string, PrimaryMark | null> }>('primary.json').pages, ...json<{ pages: Record<string, PrimaryMark | null> }>('primary-dev2.json').pages },
  before: json<Record<string, number[]>>('before.json'),
  previous: json<Record<string, number[]>>('previous.json'),
  pages: (split: EvalSplit) => (JSON.parse(gunzipSync(git(`${split}.json.gz`)).toString()) as { pages: A11yPage[] }).pages,
};
const now = {
  marks: loadMarks(),
  before: JSON.parse(readFileSync(new URL('./before.json', import.meta.url), 'utf8')) as Record<string, number[]>,
  previous: JSON.parse(readFileSync(new URL('./previous.json', import.meta.url), 'utf8')) as Record<string, number[]>,
  pages: loadSplit,
};
const lines = ['| split | payloads | ranking | pages | top-50 coverage pooled | lowest page | pages < 85% | primary action in top 10 | primary not collected | top 50 in viewport | controls in top 50 |',
  '|---|---|---|---|---|---|---|---|---|---|---|'];
for (const split of splits) {
  for (const [name, side] of [['old collector', old], ['current collector', now]] as const) {
    const pages = side.pages(split);
    const rows: [string, Map<string, number[]>][] = [
      ['before', new Map(Object.entries(side.before))],
      ['previous', new Map(Object.entries(side.previous))],
      ['now', await rankAll(pages)],
    ];
    for (const [ranking, ranked] of rows) {
      const m = measure(pages, ranked, side.marks);
      lines.push(`${row(`${split} | ${name} | ${ranking}`, m)} ${m.hits}/${m.controls} |`);
    }
  }
}
console.log(lines.join('\n'));
