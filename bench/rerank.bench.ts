// The goal rerank's cost: rank() of the same payload with and without a goal, at 1,000 and 5,000 real
// client elements, on the Wasm core and on the JS build. The goal adds tokenising every element's text
// (JS, in the encoder) and the rerank pass (core). Run: npm run bench:rerank. Writes
// bench/results/rerank.json and bench/results/rerank.md.
import Benchmark from 'benchmark';
import { writeFileSync, mkdirSync } from 'node:fs';
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { jsBackend } from '../src/rank/core-js.ts';
import { payload } from './payloads.ts';
import { barChart } from './chart.ts';

const SIZES = (process.env.BENCH_SIZES ?? '1000,5000').split(',').map(Number);
const GOAL = 'open the second article about the election results';
const wasm = new Ranker(await loadWasmCore());
const js = new Ranker(jsBackend());

interface Row { n: number; case: string; hz: number; rme: number }
const rows: Row[] = [];
for (const n of SIZES) {
  const plain = payload(n);
  const goal = { ...plain, goal: GOAL };
  await new Promise<void>((resolve) => {
    new Benchmark.Suite(`n=${n}`)
      .add('wasm, no goal', () => wasm.rank(plain))
      .add('wasm, goal', () => wasm.rank(goal))
      .add('js build, no goal', () => js.rank(plain))
      .add('js build, goal', () => js.rank(goal))
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
const ratios = SIZES.map((n) => ({ n, wasm_goal_cost: hz(n, 'wasm, no goal') / hz(n, 'wasm, goal'), js_goal_cost: hz(n, 'js build, no goal') / hz(n, 'js build, goal'), goal_wasm_vs_js: hz(n, 'wasm, goal') / hz(n, 'js build, goal') }));
const md = [
  `Goal: "${GOAL}". Mean time per rank() call, ms; the payload as in the rank benchmark.`, '',
  '| n | wasm, no goal | wasm, goal | goal costs (wasm) | js build, no goal | js build, goal | goal costs (js) | with goal: wasm vs js |',
  '|---|---|---|---|---|---|---|---|',
  ...ratios.map((r) => `| ${r.n} | ${ms(r.n, 'wasm, no goal')} | ${ms(r.n, 'wasm, goal')} | ${r.wasm_goal_cost.toFixed(2)}x | ${ms(r.n, 'js build, no goal')} | ${ms(r.n, 'js build, goal')} | ${r.js_goal_cost.toFixed(2)}x | ${r.goal_wasm_vs_js.toFixed(2)}x faster |`),
  '',
].join('\n');
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/rerank.json', import.meta.url), JSON.stringify({ node: process.version, date: new Date().toISOString(), goal: GOAL, rows, ratios }, null, 2) + '\n');
writeFileSync(new URL('./results/rerank.md', import.meta.url), md);
writeFileSync(new URL('./results/rerank.svg', import.meta.url), barChart('rank() with and without a goal, ms per call', rows.map((r) => ({ label: `n=${r.n}: ${r.case}`, value: 1000 / r.hz, group: r.case.includes('goal') && !r.case.includes('no goal') ? 'goal' : 'no goal' })), ' ms'));
console.log('\n' + md);
