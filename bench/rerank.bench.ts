// The goal rerank's cost: rank() of the same payload with and without a goal, at 1,000 and 5,000 real
// client elements, on the Wasm core and on the JS build, in two cases: the same goal every call (an agent
// that keeps its goal over several snapshots) and a new goal every call (50 distinct goals in turn,
// bench/goals.ts: nothing goal-dependent is kept); and, on the Wasm core, real pages the process has not seen
// (32 pages of the a11y tune split with 600-1,600 elements, a new goal each, cycled: more texts than the door
// keeps, so what is kept per text is of no use). The goal adds filtering every element's text (JS, in
// the encoder) and the rerank pass (core). Run: npm run bench:rerank. Writes bench/results/rerank.json
// and bench/results/rerank.md.
import Benchmark from 'benchmark';
import { writeFileSync, mkdirSync } from 'node:fs';
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { jsBackend } from '../src/rank/core-js.ts';
import { payload } from './payloads.ts';
import { GOALS_50 } from './goals.ts';
import { barChart } from './chart.ts';
import { loadSplit } from '../train/a11y/evaluate.ts';

const SIZES = (process.env.BENCH_SIZES ?? '1000,5000').split(',').map(Number);
const GOAL = 'open the second article about the election results';
const wasm = new Ranker(await loadWasmCore());
const js = new Ranker(jsBackend());

interface Row { n: number; case: string; hz: number; rme: number }
const rows: Row[] = [];
for (const n of SIZES) {
  const plain = payload(n);
  const same = { ...plain, goal: GOAL };
  // One request per goal, made before timing: a call costs only the cycling.
  const fresh = GOALS_50.map((goal) => ({ ...plain, goal }));
  let k = 0, j = 0;
  await new Promise<void>((resolve) => {
    new Benchmark.Suite(`n=${n}`)
      .add('wasm, no goal', () => wasm.rank(plain))
      .add('wasm, same goal', () => wasm.rank(same))
      .add('wasm, new goal', () => wasm.rank(fresh[k++ % fresh.length]))
      .add('js build, no goal', () => js.rank(plain))
      .add('js build, same goal', () => js.rank(same))
      .add('js build, new goal', () => js.rank(fresh[j++ % fresh.length]))
      .on('cycle', (event: Benchmark.Event) => {
        const b = event.target as unknown as Benchmark;
        rows.push({ n, case: b.name!, hz: b.hz!, rme: b.stats.rme });
        process.stdout.write(`  n=${n} ${String(b)}\n`);
      })
      .on('complete', () => resolve())
      .run({ async: false });
  });
}
// Real pages, each new to the process when it comes round again.
const unseen = loadSplit('tune').map((p) => p.request).filter((q) => q.raw_elements.length >= 600 && q.raw_elements.length <= 1600).slice(0, 60);
const unseenN = Math.round(unseen.reduce((a, p) => a + p.raw_elements.length, 0) / unseen.length);
const unseenGoal = unseen.map((p, i) => ({ ...p, goal: GOALS_50[i % GOALS_50.length] }));
let u = 0, v = 0;
const unseenRows: Row[] = [];
await new Promise<void>((resolve) => {
  new Benchmark.Suite('unseen pages')
    .add('wasm, no goal, unseen page', () => wasm.rank(unseen[u++ % unseen.length]))
    .add('wasm, new goal, unseen page', () => wasm.rank(unseenGoal[v++ % unseenGoal.length]))
    .on('cycle', (event: Benchmark.Event) => {
      const b = event.target as unknown as Benchmark;
      unseenRows.push({ n: unseenN, case: b.name!, hz: b.hz!, rme: b.stats.rme });
      process.stdout.write(`  ${unseen.length} real pages ${String(b)}\n`);
    })
    .on('complete', () => resolve())
    .run({ async: false });
});
const unseenCost = unseenRows[0].hz / unseenRows[1].hz;
const hz = (n: number, c: string) => rows.find((r) => r.n === n && r.case === c)!.hz;
const ms = (n: number, c: string) => (1000 / hz(n, c)).toFixed(3);
const cost = (n: number, build: string, c: string) => hz(n, `${build}, no goal`) / hz(n, `${build}, ${c}`);
const ratios = SIZES.map((n) => ({
  n, wasm_same_goal_cost: cost(n, 'wasm', 'same goal'), wasm_new_goal_cost: cost(n, 'wasm', 'new goal'),
  js_same_goal_cost: cost(n, 'js build', 'same goal'), js_new_goal_cost: cost(n, 'js build', 'new goal'),
}));
const md = [
  `Mean time per rank() call, ms; the payload as in the rank benchmark. Same goal: "${GOAL}" every call; new goal: ${GOALS_50.length} distinct goals in turn (bench/goals.ts). Goal costs: the goal's time over the no-goal time.`, '',
  '| n | build | no goal | same goal | new goal | same goal costs | new goal costs |',
  '|---|---|---|---|---|---|---|',
  ...ratios.flatMap((r) => [
    `| ${r.n} | wasm | ${ms(r.n, 'wasm, no goal')} | ${ms(r.n, 'wasm, same goal')} | ${ms(r.n, 'wasm, new goal')} | ${r.wasm_same_goal_cost.toFixed(2)}x | ${r.wasm_new_goal_cost.toFixed(2)}x |`,
    `| ${r.n} | js build | ${ms(r.n, 'js build, no goal')} | ${ms(r.n, 'js build, same goal')} | ${ms(r.n, 'js build, new goal')} | ${r.js_same_goal_cost.toFixed(2)}x | ${r.js_new_goal_cost.toFixed(2)}x |`,
  ]),
  '',
  `Real pages the process has not seen (${unseen.length} pages of the a11y tune split, ${unseenN} elements on average, a new goal each, cycled): no goal ${(1000 / unseenRows[0].hz).toFixed(3)} ms, a new goal ${(1000 / unseenRows[1].hz).toFixed(3)} ms: the goal costs ${unseenCost.toFixed(2)}x.`,
  '',
].join('\n');
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/rerank.json', import.meta.url), JSON.stringify({ node: process.version, date: new Date().toISOString(), goal: GOAL, new_goals: GOALS_50.length, rows, ratios, unseen_pages: { pages: unseen.length, mean_elements: unseenN, rows: unseenRows, goal_cost: unseenCost } }, null, 2) + '\n');
writeFileSync(new URL('./results/rerank.md', import.meta.url), md);
writeFileSync(new URL('./results/rerank.svg', import.meta.url), barChart('rank() with and without a goal, ms per call', rows.map((r) => ({ label: `n=${r.n}: ${r.case}`, value: 1000 / r.hz, group: r.case.includes('no goal') ? 'no goal' : r.case.includes('new goal') ? 'new goal' : 'same goal' })), ' ms'));
console.log('\n' + md);
