// rank() vs JSON.parse of the same 1,000-element payload (bench:check's rank-vs-parse-1k), for this
// checkout's ranker and another checkout's (the commit before a speed change), interleaved in one
// process so the machine's load hits both: 20 rounds, each side timed in 60 ms slices, medians. Timed by
// the process's CPU time (process.cpuUsage), not the clock: on a shared machine a slice's wall time also
// counts the time the process waited for a core, which lands on whichever side was running.
// `--wall` times by the clock instead, as bench:check does.
//   node --import tsx bench/rank-old-new.ts <checkout of the previous commit, built> [rounds] [--wall]
import { Ranker } from '../src/rank/ranker.ts';
import { rankerAt } from './old-checkout.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { payload } from './payloads.ts';
import { median, timeSlice as slice } from './stats.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const wall = process.argv.includes('--wall');
const timeSlice = (fn: () => unknown) => slice(fn, 60, wall);
const oldDir = args[0];
if (!oldDir) throw new Error('usage: node --import tsx bench/rank-old-new.ts <previous checkout, built> [rounds]');
const rounds = Number(args[1] ?? 20);
const oldRanker = await rankerAt(oldDir);
const newRanker = new Ranker(await loadWasmCore());
const p1k = payload(1000), t1k = JSON.stringify(p1k);


const sides = { old: () => oldRanker.rank(p1k), new: () => newRanker.rank(p1k) };
for (let i = 0; i < 3; i++) { sides.old(); sides.new(); JSON.parse(t1k); }
const ratios: Record<'old' | 'new', number[]> = { old: [], new: [] };
const ms: Record<'old' | 'new', number[]> = { old: [], new: [] };
for (let r = 0; r < rounds; r++) {
  for (const side of (r % 2 ? ['old', 'new'] : ['new', 'old']) as ('old' | 'new')[]) {
    // Within a side, alternate which of rank() and JSON.parse goes first, as bench:check does.
    let rank: number, parse: number;
    if (r % 2) { rank = timeSlice(sides[side]); parse = timeSlice(() => JSON.parse(t1k)); } else { parse = timeSlice(() => JSON.parse(t1k)); rank = timeSlice(sides[side]); }
    ratios[side].push(parse / rank);
    ms[side].push(rank);
  }
}
for (const side of ['old', 'new'] as const) console.log(`${side}: rank-vs-parse-1k ${median(ratios[side]).toFixed(3)}x, rank() ${median(ms[side]).toFixed(3)} ms${wall ? '' : ' of CPU'} (median of ${rounds} rounds)`);
console.log(`new/old rank() time: ${(median(ms.new) / median(ms.old)).toFixed(3)}`);
