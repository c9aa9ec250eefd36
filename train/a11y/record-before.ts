// Records the top 50 of every a11y evaluation page (tune, dev2 and the test split) under the core of the checkout it runs
// in, so `npm run eval:importance` prints that ranking beside the current one. Writes before.json, or
// the file named by the first argument (previous.json). Keys: page id; values: ids, best first.
// before.json was written with the JS build of the core (identical to the Wasm core, tested) at the
// commit before issue 20's importance change; previous.json at c314c1f (issue 20's first round, before
// its second: the per-kind promotion cut, short action labels, query fields, unnamed x0.4). Nothing of
// the test split is printed: only the number of pages recorded.
// `--add` ranks only the pages the file does not hold yet (the pages added by `collect-a11y.ts --grow`)
// and keeps the rest; with CORE_DIR=<an export of an older commit's src/ and assembly/> it ranks them
// with that commit's core (JS build), so the recorded rankings of a grown tune split stay the old core's:
//   git archive d4b0c4b src assembly package.json | tar -x -C /tmp/old && ln -s $PWD/node_modules /tmp/old/
//   CORE_DIR=/tmp/old node --import tsx train/a11y/record-before.ts before.json --add
// Run in the checkout to record: node --import tsx train/a11y/record-before.ts [previous.json] [--add]
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { loadSplit, SPLITS, TOP } from './evaluate.ts';
import type { Ranker as RankerType } from '../../src/rank/ranker.ts';
import type { A11yPage } from './collect-a11y.ts';

const args = process.argv.slice(2);
const add = args.includes('--add');
const file = args.find((a) => !a.startsWith('--')) ?? 'before.json';
const target = new URL(`./${file}`, import.meta.url);
const dir = process.env.CORE_DIR ? `file://${process.env.CORE_DIR.replace(/\/$/, '')}/` : new URL('../../', import.meta.url).href;
const { Ranker } = await import(`${dir}src/rank/ranker.ts`) as { Ranker: typeof RankerType };
const { jsBackend } = await import(`${dir}src/rank/core-js.ts`);
const ranker = new Ranker(jsBackend());
const out: Record<string, number[]> = add && existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : {};
let added = 0;
for (const split of SPLITS) {
  for (const p of loadSplit(split) as A11yPage[]) {
    if (out[p.id]) continue;
    out[p.id] = ranker.rank({ ...p.request, options: { limit: TOP } }).elements.map((e: { id: number }) => e.id);
    added++;
  }
}
writeFileSync(target, JSON.stringify(out).replace(/\],"/g, '],\n"') + '\n');
console.log(added, 'pages recorded in', file, `(${Object.keys(out).length} in all)`);
