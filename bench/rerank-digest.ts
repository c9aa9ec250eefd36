// One SHA-256 over every goal ranking's output, to show a speed change left every output as it was: run it
// before and after the change and compare the digests it prints (and the Wasm core's with the JS build's).
// Per build (Wasm, JS), in one process, in this order: every train and dev goal of the real goal set
// (never the test split) on its page, each ranked twice (first with what the previous goal left kept,
// then with everything kept for it), then the whole sequence once more (texts kept from other goals), then
// the bench payloads (100, 1,000 and 5,000 elements) under a few goals, each twice. What is hashed: the
// result without its timestamp (all elements: limit 100,000) and the core's rerank features.
//   node --import tsx bench/rerank-digest.ts [--quick]   (--quick: the dev split only, one pass)
import { createHash } from 'node:crypto';
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { jsBackend } from '../src/rank/core-js.ts';
import { Buf } from '../assembly/layout.ts';
import { loadGoals } from '../train/real/evaluate.ts';
import { payload } from './payloads.ts';
import type { CoreBackend } from '../src/rank/backend.ts';

const quick = process.argv.includes('--quick');
const goals = loadGoals().filter((g) => g.page.split === 'dev' || (!quick && g.page.split === 'train'));
const PAYLOAD_GOALS = ['open the second article about the election results', 'add this to the cart', 'sign in to my account', 'search for running shoes', 'Zum Warenkorb hinzufügen'];
const payloads = [payload(100), payload(1000), payload(5000)];

function digest(core: CoreBackend): { hex: string; ranked: number } {
  const ranker = new Ranker(core, { emitFeatures: true, limitCap: 100_000 });
  const hash = createHash('sha256');
  let ranked = 0;
  const rank = (request: object) => {
    const { timestamp: _, ...rest } = ranker.rank(request);
    hash.update(JSON.stringify(rest)).update(new Uint8Array(core.f64(Buf.FEATURES).slice().buffer));
    ranked++;
  };
  for (let pass = 0; pass < (quick ? 1 : 2); pass++) {
    for (const g of goals) {
      const request = { ...g.page.request, goal: g.goal, options: { limit: 100_000 } };
      rank(request);
      rank(request);
    }
  }
  for (const p of payloads) for (const goal of PAYLOAD_GOALS) for (let k = 0; k < 2; k++) rank({ ...p, goal, options: { limit: 100_000 } });
  return { hex: hash.digest('hex'), ranked };
}

const t0 = performance.now();
const wasm = digest(await loadWasmCore());
console.log(`wasm: ${wasm.hex} (${wasm.ranked} rankings, ${goals.length} goals)`);
const js = digest(jsBackend());
console.log(`js:   ${js.hex} (${js.ranked} rankings)`);
console.log(wasm.hex === js.hex ? 'the builds agree' : 'THE BUILDS DIFFER');
console.log(`(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
if (wasm.hex !== js.hex) process.exit(1);
