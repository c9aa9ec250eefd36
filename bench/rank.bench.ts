// Rank core benchmark: rank() end to end and the core alone, Wasm vs the JS build of the same source,
// at 100 / 1,000 / 5,000 / 20,000 elements, with JSON.parse of the same payload for scale.
// Run: npm run bench. Writes bench/results/rank.json and bench/results/rank.md.
import Benchmark from 'benchmark';
import { writeFileSync, mkdirSync } from 'node:fs';
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { jsBackend } from '../src/rank/core-js.ts';
import { payload } from './payloads.ts';
import { coreOnly } from './core-only.ts';
import { barChart } from './chart.ts';

const SIZES = (process.env.BENCH_SIZES ?? '100,1000,5000,20000').split(',').map(Number);
const wasm = new Ranker(await loadWasmCore());
const js = new Ranker(jsBackend());

interface Row { n: number; bytes: number; case: string; hz: number; meanMs: number; rme: number; samples: number }
const rows: Row[] = [];

function run(n: number): Promise<void> {
  const body = payload(n);
  const text = JSON.stringify(body);
  const coreWasm = coreOnly(wasm.core, body);
  const coreJs = coreOnly(js.core, body);
  return new Promise((resolve) => {
    new Benchmark.Suite(`n=${n}`)
      .add('rank() wasm', () => wasm.rank(body))
      .add('rank() js build', () => js.rank(body))
      .add('core wasm', coreWasm)
      .add('core js build', coreJs)
      .add('JSON.parse', () => JSON.parse(text))
      .on('cycle', (event: Benchmark.Event) => {
        const b = event.target as unknown as Benchmark;
        rows.push({ n, bytes: text.length, case: b.name!, hz: b.hz!, meanMs: b.stats.mean * 1000, rme: b.stats.rme, samples: b.stats.sample.length });
        process.stdout.write(`  n=${n} ${String(b)}\n`);
      })
      .on('complete', () => resolve())
      .run({ async: false });
  });
}

console.log(`rank benchmark: sizes ${SIZES.join(', ')} (node ${process.version})`);
for (const n of SIZES) await run(n);

const hz = (n: number, name: string) => rows.find((r) => r.n === n && r.case === name)!.hz;
const ratios = SIZES.map((n) => ({
  n,
  bytes: rows.find((r) => r.n === n)!.bytes,
  rank_wasm_vs_js: hz(n, 'rank() wasm') / hz(n, 'rank() js build'),
  core_wasm_vs_js: hz(n, 'core wasm') / hz(n, 'core js build'),
  rank_wasm_vs_json_parse: hz(n, 'rank() wasm') / hz(n, 'JSON.parse'),
}));

const fmt = (v: number, d = 2) => v.toFixed(d);
const ms = (n: number, name: string) => fmt(1000 / hz(n, name), 3);
const md = [
  `# Rank core benchmark`,
  ``,
  `Command: \`npm run bench\` (bench/rank.bench.ts). Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  `Payloads: real client elements (../shared/data/real-client-payloads) repeated to n. Mean time per call, ms.`,
  ``,
  `| n | payload | rank() wasm | rank() js build | core wasm | core js build | JSON.parse | rank wasm/js | core wasm/js | rank vs JSON.parse |`,
  `|---|---|---|---|---|---|---|---|---|---|`,
  ...ratios.map((r) => `| ${r.n} | ${(r.bytes / 1024).toFixed(0)} KiB | ${ms(r.n, 'rank() wasm')} | ${ms(r.n, 'rank() js build')} | ${ms(r.n, 'core wasm')} | ${ms(r.n, 'core js build')} | ${ms(r.n, 'JSON.parse')} | ${fmt(r.rank_wasm_vs_js)}x | ${fmt(r.core_wasm_vs_js)}x | ${fmt(r.rank_wasm_vs_json_parse)}x faster |`),
  ``,
].join('\n');
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/rank.json', import.meta.url), JSON.stringify({ node: process.version, date: new Date().toISOString(), rows, ratios }, null, 2));
writeFileSync(new URL('./results/rank.md', import.meta.url), md);
writeFileSync(new URL('./results/rank.svg', import.meta.url), barChart('Rank core: speed ratios in one run (higher is faster)', ratios.flatMap((r) => [
  { label: `n=${r.n}: rank() wasm / js build`, value: r.rank_wasm_vs_js, group: 'rank' },
  { label: `n=${r.n}: core wasm / js build`, value: r.core_wasm_vs_js, group: 'core' },
  { label: `n=${r.n}: rank() vs JSON.parse`, value: r.rank_wasm_vs_json_parse, group: 'parse' },
])));
console.log('\n' + md);
