// Records the top 50 of every a11y evaluation page (both splits) under the core of the checkout it runs
// in, so `npm run eval:importance` prints that ranking beside the current one. before.json was written
// with the JS build of the core (identical to the Wasm core, tested) at commit <BEFORE> (the core before issue 20's importance change). Keys: page id; values: ids, best first.
import { writeFileSync } from 'node:fs';
import { loadSplit, rankAll } from './evaluate.ts';
const out: Record<string, number[]> = {};
for (const split of ['tune', 'test'] as const) for (const [id, ids] of await rankAll(loadSplit(split), 'js')) out[id] = ids;
writeFileSync(new URL('./before.json', import.meta.url), JSON.stringify(out).replace(/\],"/g, '],\n"') + '\n');
console.log(Object.keys(out).length, 'pages recorded');
