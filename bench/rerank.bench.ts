// The goal rerank's cost: rank() of the same payload with and without a goal, at 1,000 and 5,000 real
// client elements, on the Wasm core and on the JS build, in two cases: the same goal every call (an agent
// that keeps its goal over several snapshots) and a new goal every call (50 distinct goals in turn,
// bench/goals.ts: nothing goal-dependent is kept). The goal adds filtering every element's text (JS, in
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
].join('\n');
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/rerank.json', import.meta.url), JSON.stringify({ node: process.version, date: new Date().toISOString(), goal: GOAL, new_goals: GOALS_50.length, rows, ratios }, null, 2) + '\n');
writeFileSync(new URL('./results/rerank.md', import.meta.url), md);
writeFileSync(new URL('./results/rerank.svg', import.meta.url), barChart('rank() with and without a goal, ms per call', rows.map((r) => ({ label: `n=${r.n}: ${r.case}`, value: 1000 / r.hz, group: r.case.includes('no goal') ? 'no goal' : r.case.includes('new goal') ? 'new goal' : 'same goal' })), ' ms'));
console.log('\n' + md);
