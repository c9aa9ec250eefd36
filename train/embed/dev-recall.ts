// R@1/5/10/50, MRR and the worse-than-no-goal share of the shipped rerank on the DEV split only (train/real/evaluate.ts's scoring, which
// prints R@1/5/10), overall, by style and by language, as JSON: to compare goal-embedding tables.
// The split is fixed to dev here: the frozen test split is never ranked by this script.
// Run: node --import tsx train/embed/dev-recall.ts [label] > file.json
import { score, type Scored } from '../real/evaluate.ts';

const rows = await score((page) => page.split === 'dev');
const summary = (group: Scored[]) => ({
  goals: group.length,
  ...Object.fromEntries([1, 5, 10, 50].map((k) => [`R@${k}`, +(group.filter((r) => r.model < k).length / group.length).toFixed(3)])),
  MRR: +(group.reduce((s, r) => s + 1 / (r.model + 1), 0) / group.length).toFixed(3),
  // the share of goals whose best target the goal puts lower than the no-goal order does
  worse: +(group.filter((r) => r.model > r.heuristic).length / group.length).toFixed(3),
});
const by = (key: (r: Scored) => string) => {
  const groups = new Map<string, Scored[]>();
  for (const r of rows) groups.set(key(r), [...groups.get(key(r)) ?? [], r]);
  return Object.fromEntries([...groups].sort().map(([k, g]) => [k, summary(g)]));
};
console.log(JSON.stringify({ label: process.argv[2] ?? '', split: 'dev', all: summary(rows), style: by((r) => r.style), lang: by((r) => r.lang) }, null, 1));
