// The last step of `npm run train` (train-table.sh): the shipped ranker (the refined table under the weights
// fitted on the distilled one) on the real goal set's dev split, written into src/rank/goal-embed.json as
// `shipped_dev`. The model's own record (rerank-model.ts, realDev) scores the distilled table it was fitted
// with; this is what the package ranks with, and test/rerank-lists.test.ts checks the build reproduces it.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRanker } from '../../src/index.ts';
import { loadGoals } from '../real/evaluate.ts';

const RECORD = new URL('../../src/rank/goal-embed.json', import.meta.url);
const ranker = await createRanker({ limitCap: 100_000 });
const goals = loadGoals().filter((g) => g.page.split === 'dev'); // never the frozen test split
const hits = [1, 5, 10].map(() => 0);
for (const g of goals) {
  const ids = ranker.rank({ ...g.page.request, goal: g.goal, options: { limit: 100_000 } } as never).elements.map((e) => e.id);
  const best = ids.findIndex((id) => g.targets.includes(id));
  [1, 5, 10].forEach((k, i) => { if (best >= 0 && best < k) hits[i]++; });
}
const [r1, r5, r10] = hits.map((h) => h / goals.length);
const record = JSON.parse(readFileSync(RECORD, 'utf8'));
record.shipped_dev = { goals: goals.length, r1, r5, r10 };
writeFileSync(RECORD, `${JSON.stringify(record, null, 1)}\n`);
console.log(`shipped table on dev: ${goals.length} goals, R@1/5/10 ${[r1, r5, r10].map((x) => x.toFixed(3)).join('/')}`);
