// The goal's cost before and after a change, in one process: this checkout's ranker and another
// checkout's (the commit before, built), interleaved round by round so the machine's load hits both.
// Per round and side: rank() without a goal, with a new goal every call (bench/goals.ts's 50 in turn)
// and with the same goal every call, each timed in 60 ms slices of the process's CPU time; medians of
// the times and of each round's goal/no-goal ratio.
//   node --import tsx bench/rerank-old-new.ts <checkout of the previous commit, built> [rounds] [--js] [--n=1000]
import { Ranker } from '../src/rank/ranker.ts';
import { importFrom, rankerAt } from './old-checkout.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { jsBackend } from '../src/rank/core-js.ts';
import { payload } from './payloads.ts';
import { GOALS_50 } from './goals.ts';
import { median, timeSlice } from './stats.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const oldDir = args[0];
if (!oldDir) throw new Error('usage: node --import tsx bench/rerank-old-new.ts <previous checkout, built> [rounds] [--js] [--n=1000]');
const rounds = Number(args[1] ?? 15);
const useJs = process.argv.includes('--js');
const n = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4) ?? 1000);
const SAME = 'open the second article about the election results';

const oldRanker: Ranker = useJs ? new (await importFrom(oldDir, 'src/rank/ranker.ts')).Ranker((await importFrom(oldDir, 'src/rank/core-js.ts')).jsBackend()) : await rankerAt(oldDir);
const newRanker = new Ranker(useJs ? jsBackend() : await loadWasmCore());
const plain = payload(n), same = { ...plain, goal: SAME };
const fresh = GOALS_50.map((goal) => ({ ...plain, goal }));


type Side = 'old' | 'new';
const rankers: Record<Side, Ranker> = { old: oldRanker, new: newRanker };
const next: Record<Side, number> = { old: 0, new: 0 };
const cases = {
  'no goal': (s: Side) => () => rankers[s].rank(plain),
  'new goal': (s: Side) => () => rankers[s].rank(fresh[next[s]++ % fresh.length]),
  'same goal': (s: Side) => () => rankers[s].rank(same),
};
type Case = keyof typeof cases;
const times: Record<string, number[]> = {};
for (const s of ['old', 'new'] as Side[]) for (const c of Object.keys(cases) as Case[]) for (let i = 0; i < 3; i++) cases[c](s)();
for (let r = 0; r < rounds; r++) {
  for (const s of (r % 2 ? ['old', 'new'] : ['new', 'old']) as Side[]) {
    const t: Record<string, number> = {};
    for (const c of Object.keys(cases) as Case[]) {
      if (c === 'same goal') cases[c](s)(); // the first call with it is a new goal
      t[c] = timeSlice(cases[c](s));
      (times[`${s} ${c}`] ??= []).push(t[c]);
    }
    (times[`${s} new/no`] ??= []).push(t['new goal'] / t['no goal']);
    (times[`${s} same/no`] ??= []).push(t['same goal'] / t['no goal']);
  }
  process.stderr.write(`\r  round ${r + 1}/${rounds}`);
}
process.stderr.write('\n');
const m = (k: string) => median(times[k]);
console.log(`${useJs ? 'JS build' : 'Wasm core'}, ${n} elements, ${rounds} rounds, CPU ms per rank() call (medians)\n`);
console.log('| checkout | no goal | new goal | same goal | new goal costs | same goal costs |');
console.log('|---|---|---|---|---|---|');
for (const s of ['old', 'new'] as Side[]) {
  console.log(`| ${s === 'old' ? `before (${oldDir})` : 'after (this one)'} | ${m(`${s} no goal`).toFixed(3)} | ${m(`${s} new goal`).toFixed(3)} | ${m(`${s} same goal`).toFixed(3)} | ${m(`${s} new/no`).toFixed(2)}x | ${m(`${s} same/no`).toFixed(2)}x |`);
}
