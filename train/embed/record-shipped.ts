// The last step of `npm run train` (train-table.sh): the shipped ranker (the refined table under the weights
// fitted on the distilled one) on the real goal set's dev split, written into src/rank/goal-embed.json as
// `shipped_dev`. The model's own record (rerank-model.ts, realDev) scores the distilled table it was fitted
// with; this is what the package ranks with, and test/rerank-lists.test.ts checks the build reproduces it.
import { readFileSync, writeFileSync } from 'node:fs';
import { score, recall } from '../real/evaluate.ts';

const RECORD = new URL('../../src/rank/goal-embed.json', import.meta.url);
const rows = await score((page) => page.split === 'dev'); // never the frozen test split
const [r1, r5, r10] = [1, 5, 10].map((k) => recall(rows, 'model', k));
const record = JSON.parse(readFileSync(RECORD, 'utf8'));
record.shipped_dev = { goals: rows.length, r1, r5, r10 };
writeFileSync(RECORD, `${JSON.stringify(record, null, 1)}\n`);
console.log(`shipped table on dev: ${rows.length} goals, R@1/5/10 ${[r1, r5, r10].map((x) => x.toFixed(3)).join('/')}`);
