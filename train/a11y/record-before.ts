// Records the top 50 of every a11y evaluation page (both splits) under the core of the checkout it runs
// in, so `npm run eval:importance` prints that ranking beside the current one. Writes before.json, or
// the file named by the first argument (previous.json). Keys: page id; values: ids, best first.
// before.json was written with the JS build of the core (identical to the Wasm core, tested) at the
// commit before issue 20's importance change; previous.json at c314c1f (issue 20's first round, before
// its second: the per-kind promotion cut, short action labels, query fields, unnamed x0.4). Nothing of
// the test split is printed: only the number of pages recorded.
// Run in the checkout to record: node --import tsx train/a11y/record-before.ts [previous.json]
import { writeFileSync } from 'node:fs';
import { loadSplit, rankAll } from './evaluate.ts';
const out: Record<string, number[]> = {};
for (const split of ['tune', 'test'] as const) for (const [id, ids] of await rankAll(loadSplit(split), 'js')) out[id] = ids;
const file = process.argv[2] ?? 'before.json';
writeFileSync(new URL(`./${file}`, import.meta.url), JSON.stringify(out).replace(/\],"/g, '],\n"') + '\n');
console.log(Object.keys(out).length, 'pages recorded in', file);
