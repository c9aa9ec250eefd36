// npm run bench: every suite in turn, each in its own process (a fresh heap and JIT), with a header
// line per suite and the time each took. Suites print their own progress; results go to bench/results/.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SUITES = [
  ['rank', 'rank core: Wasm vs JS build, rank() vs JSON.parse'],
  ['rerank', 'the goal rerank\'s cost'],
  ['http', '/v1/snapshot over HTTP: uWS vs node:http, 1 vs 2 workers'],
  ['snapshot-parse', '/v1/snapshot: JSON body vs columnar body, in process and over HTTP, bytes on the wire'],
  ['compress', 'compressed bodies: bytes on the wire, their cost, requests/s with and without'],
  ['collect', 'the collector on every fixture page'],
  ['collect-large', 'the collector before and after on 5,000- and 20,000-element pages and the WCXB sample (about ten minutes)'],
  ['observe', 'observe map and visual latency on a warm pool'],
  ['map-latency', 'map latency: --map-path fast against legacy, back to back and paced, on the fixtures and 20 real WCXB pages (skipped without a WCXB checkout), and where the time goes'],
  ['prompt', 'tokens per element: the text form against our JSON'],
  ['read', 'read-mode extraction: ours, the old reader and Readability (minutes on the shared sample; the whole WCXB split takes far longer)'],
  ['pdf', 'PDF read mode: ms per page and word F1, beside the HTML read'],
  ['mcp-tokens', 'tokens per page snapshot: Playwright MCP against our text form'],
  ['fleet', '/v1/snapshot on SQLite vs Postgres + Redis, 1 and 3 instances behind haproxy'],
] as const;
const only = process.argv.slice(2);
const suites = only.length ? SUITES.filter(([name]) => only.includes(name)) : SUITES;
const t0 = performance.now();
const failed: string[] = [];
suites.forEach(([name, what], i) => {
  const started = performance.now();
  console.log(`\n== [${i + 1}/${suites.length}] ${name}: ${what}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`./${name}.bench.ts`, import.meta.url))], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(name);
  console.log(`== ${name}: ${run.status === 0 ? 'done' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(0)} s (total ${((performance.now() - t0) / 60000).toFixed(1)} min)`);
});
console.log(`\nResults: bench/results/*.md, *.json, *.svg${failed.length ? `\nFailed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
