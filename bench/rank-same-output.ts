// Proof that a speed change left every ranking as it was: ranks every page of the a11y evaluation's
// development splits (tune, dev2, dev3's tune half; never test nor dev3-test) and the bench payloads,
// goal-less and with a few goals, with this checkout's ranker and with another checkout's (the commit
// before the change), and asserts byte-identical results (the timestamp aside) and identical input
// columns (what the encoder wrote into the core's buffers); and the same action-word
// matcher answers (namesPurchase, leadsWithPurchase) on every label.
//   git worktree add --detach /tmp/rank-old <commit> && ln -s "$PWD/node_modules" /tmp/rank-old/
//   (cd /tmp/rank-old && npm run build)
//   node --import tsx bench/rank-same-output.ts /tmp/rank-old
import { createHash } from 'node:crypto';
import { Ranker } from '../src/rank/ranker.ts';
import { importFrom, rankerAt } from './old-checkout.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { Buf } from '../assembly/layout.ts';
import { loadSplit } from '../train/a11y/evaluate.ts';
import { payload } from './payloads.ts';
import type { SnapshotRequest } from '../src/schema/snapshot.ts';

const oldDir = process.argv[2];
if (!oldDir) throw new Error('usage: node --import tsx bench/rank-same-output.ts <checkout of the previous commit, built>');
const at = (path: string) => importFrom(oldDir, path);
const oldRanker = await rankerAt(oldDir);
const newRanker = new Ranker(await loadWasmCore());

const GOALS = [undefined, 'add this to the cart', 'sign in to my account', 'search for running shoes', 'open the second article about the election'];
/** The result's text without its timestamp, and a digest of the core's input columns. */
function ranked(r: Ranker, request: SnapshotRequest): string {
  const { timestamp: _, ...rest } = r.rank(structuredClone(request));
  const cols = createHash('sha256').update(new Uint8Array(r.core.f64(Buf.IN_F64).slice().buffer)).update(new Uint8Array(r.core.i32(Buf.IN_I32).slice().buffer)).digest('hex');
  return `${JSON.stringify(rest)}\n${cols}`;
}

const sets: [string, SnapshotRequest[]][] = [
  ...(['tune', 'dev2', 'dev3'] as const).map((s) => [s, loadSplit(s).map((p) => p.request as SnapshotRequest)] as [string, SnapshotRequest[]]),
  ['bench payloads', [payload(100), payload(1000), payload(5000)]],
];
let compared = 0, differ = 0;
for (const [name, requests] of sets) {
  for (const request of requests) {
    for (const goal of GOALS) {
      // Limit 100 (the server's cap) shows more of each ranking than the evaluation's 50.
      const body = { ...request, ...(goal ? { goal } : {}), options: { ...request.options, limit: 100 } };
      if (ranked(oldRanker, body) !== ranked(newRanker, body)) { differ++; if (differ <= 5) console.error(`differs: ${name}, goal ${goal ?? "(none)"}`); }
      compared++;
    }
  }
  console.log(`${name}: ${requests.length} requests x ${GOALS.length} goals`);
}
// The action-word matchers alone, on every label the pages hold (text, aria-label, name, inferred label), any
// length: each matcher both checkouts export.
const oldWords = await at('src/rank/action-words.ts');
const newWords: Record<string, unknown> = await import('../src/rank/action-words.ts');
for (const name of ['namesPurchase', 'leadsWithPurchase'].filter((f) => typeof oldWords[f] === 'function' && typeof newWords[f] === 'function')) {
  const before = oldWords[name] as (t: string) => boolean, after = newWords[name] as (t: string) => boolean;
  let labels = 0, labelsDiffer = 0;
  for (const [, requests] of sets) for (const request of requests) for (const e of request.raw_elements) {
    for (const label of [e.text, e.attributes?.aria_label, e.attributes?.name, e.attributes?.inferred_label]) {
      if (!label) continue;
      labels++;
      if (before(label) !== after(label)) { labelsDiffer++; if (labelsDiffer <= 5) console.error(`${name} differs on a label`); }
    }
  }
  console.log(`${name} on ${labels} labels: ${labels - labelsDiffer} the same, ${labelsDiffer} differ`);
  differ += labelsDiffer ? 1 : 0;
  compared++;
}
console.log(`${compared - differ} passed, ${differ} failed`);
if (differ) process.exit(1);
