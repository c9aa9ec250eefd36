// Rank core benchmark: rank() end to end and the core alone, Wasm vs the JS build of the same source,
// at 100 / 1,000 / 5,000 / 20,000 elements, with JSON.parse of the same payload for scale.
// Run: npm run bench. Writes bench/results/rank.json and bench/results/rank.md.
import Benchmark from 'benchmark';
import { writeFileSync, mkdirSync } from 'node:fs';
import { Ranker } from '../src/rank/ranker.ts';
import { encode } from '../src/rank/encode.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { jsBackend } from '../src/rank/core-js.ts';
import type { CoreBackend } from '../src/rank/backend.ts';
import { ROLES } from '../src/rank/roles.ts';
import { Buf } from '../assembly/layout.ts';
import { payload } from './payloads.ts';
import { barChart } from './chart.ts';

const SIZES = (process.env.BENCH_SIZES ?? '100,1000,5000,20000').split(',').map(Number);
const wasm = new Ranker(await loadWasmCore());
const js = new Ranker(jsBackend());

/** The core alone: encode once, then per call `prepare` + copy the encoded columns back + `run`
 *  (a core call always starts with `prepare`, which releases the previous call's memory). */
function coreOnly(core: CoreBackend, body: unknown): () => number {
  const enc = encode(body, core);
  const n = enc.elements.length, nPrev = enc.previous.length;
  const tagCount = core.i32(Buf.TAG_ALLOW).length;
  const f64Bufs = [Buf.IN_F64, Buf.PARAMS, Buf.PREV_F64].map((b) => [b, core.f64(b).slice()] as const);
  const i32Bufs = [Buf.IN_I32, Buf.ROLE_ALLOW, Buf.TAG_ALLOW, Buf.PREV_I32].map((b) => [b, core.i32(b).slice()] as const);
  return () => {
    core.prepare(n, nPrev, ROLES.length, tagCount, 0, 0, 0);
    for (const [b, data] of f64Bufs) core.f64(b).set(data);
    for (const [b, data] of i32Bufs) core.i32(b).set(data);
    return core.run();
  };
}

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
