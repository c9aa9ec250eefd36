// rank() on requests whose strings are far longer than any label (one element's 27 MB text, a 27 MB nearby
// text, an 8 MB goal) and on the bench's ordinary 1,000-element payload, for this checkout's ranker and
// another checkout's (the commit before the change measured), interleaved in one process: medians of CPU
// time per call, a refusal (400 bad_request: a goal over GOAL_MAX_CHARS since stop 34) timed like a rank.
// The ordinary payloads show what a change costs where nothing is long.
//   git worktree add --detach /tmp/old <commit> && ln -s "$PWD/node_modules" /tmp/old/ && (cd /tmp/old && npm run build)
//   node --import tsx bench/long-strings.bench.ts /tmp/old [rounds]
import { writeFileSync, mkdirSync } from 'node:fs';
import { Ranker } from '../src/rank/ranker.ts';
import { rankerAt } from './old-checkout.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { payload } from './payloads.ts';
import { quantile } from './stats.ts';

const [oldDir, roundsArg] = process.argv.slice(2);
if (!oldDir) throw new Error('usage: node --import tsx bench/long-strings.bench.ts <previous checkout, built> [rounds]');
const rounds = Number(roundsArg ?? 5);
const oldRanker = await rankerAt(oldDir);
const newRanker = new Ranker(await loadWasmCore());

const huge = 'lorem ipsum dolor sit amet '.repeat(1_000_000);
const one = (extra: object) => ({ url: 'https://example.test/', viewport: { width: 1280, height: 800 }, goal: 'sign in',
  raw_elements: [{ id: 1, tag: 'a', rect: { x: 0, y: 0, width: 100, height: 18 }, text: 'Sign in', attributes: { href: 'https://example.test/login' } }], ...extra });
const cases: [string, unknown][] = [
  ['1,000 ordinary elements, no goal', payload(1000)],
  ['1,000 ordinary elements, a goal', { ...payload(1000), goal: 'open the pricing page' }],
  ['one element with a 27 MB text, a goal', one({ raw_elements: [{ id: 1, tag: 'a', rect: { x: 0, y: 0, width: 100, height: 18 }, text: huge, attributes: { href: 'https://example.test/' } }] })],
  ['one element with a 27 MB nearby text, a goal', one({ raw_elements: [{ id: 1, tag: 'a', rect: { x: 0, y: 0, width: 100, height: 18 }, text: 'x', attributes: { href: 'https://example.test/', nearby_text: huge } }] })],
  ['one element with a 27 MB aria-label, no goal', one({ goal: undefined, raw_elements: [{ id: 1, tag: 'button', rect: { x: 0, y: 0, width: 100, height: 18 }, text: '', attributes: { aria_label: huge } }] })],
  ['an 8 MB goal', one({ goal: 'sign in '.repeat(1_000_000) })],
  ['a 1,000-character goal (the longest accepted)', { ...payload(1000), goal: 'open the pricing page '.repeat(46).slice(0, 1000) }],
];
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
/** Ranks, or is refused with a clear error (a SightlineError), as the server would answer 400. */
function rankOrRefuse(r: Ranker, req: unknown): void {
  try { r.rank(req); } catch (err) { if (!(err instanceof Error && 'code' in err)) throw err; }
}
function time(r: Ranker, req: unknown): number {
  let calls = 0; const t0 = cpu(); let t = t0;
  do { rankOrRefuse(r, req); calls++; t = cpu(); } while (t - t0 < 50);
  return (t - t0) / calls;
}
const rows: string[] = ['| request | before, ms | after, ms | before ÷ after |', '|---|---|---|---|'];
for (const [name, req] of cases) {
  time(oldRanker, req); time(newRanker, req); // warm both before timing
  const before: number[] = [], after: number[] = [];
  for (let k = 0; k < rounds; k++) { before.push(time(oldRanker, req)); after.push(time(newRanker, req)); }
  const b = quantile(before, 0.5), a = quantile(after, 0.5);
  rows.push(`| ${name} | ${b.toFixed(2)} | ${a.toFixed(2)} | ${(b / a).toFixed(2)}× |`);
  process.stderr.write(`${name}: ${b.toFixed(2)} → ${a.toFixed(2)} ms\n`);
}
const md = [`Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; CPU time per rank() call, medians of ${rounds} interleaved rounds; before: ${oldDir}.`, '', ...rows, ''].join('\n');
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/long-strings.md', import.meta.url), md);
console.log(md);
