// Error analysis of the goal rerank on the DEV split (never the frozen test split): every goal of a style
// (default ordinal; "all" for every style) whose best target the shipped ranker does not put first, with the
// target and the first three of the goal's order, each with its place, score, text, section, sent list place
// and the terms of its score (feature x weight, the larger ones). GOAL=words keeps the goals containing them
// (and prints them even when first). Run: node --import tsx train/real/misses.ts [style] > misses.txt
import { readFileSync } from 'node:fs';
import { Buf, Feature, I32Out } from '../../assembly/layout.ts';
import { jsBackend } from '../../src/rank/core-js.ts';
import { parseEmbedTable, useEmbedTable } from '../../src/rank/embed-table.ts';
import { encode } from '../../src/rank/encode.ts';
import { RERANK_MODEL } from '../../src/rank/rerank-model.ts';
import { loadGoals } from './evaluate.ts';
useEmbedTable(parseEmbedTable(readFileSync(new URL('../../src/rank/goal-embed.bin', import.meta.url))));
const core = jsBackend();
const K = Feature.COUNT, W = RERANK_MODEL.weights;
const style = process.argv[2] ?? 'ordinal';
let n1 = 0, tot = 0;
for (const g of loadGoals()) {
  if (g.page.split !== 'dev' || (style !== 'all' && g.style !== style)) continue;
  if (process.env.GOAL && !g.goal.includes(process.env.GOAL)) continue;
  tot++;
  const enc = encode({ ...g.page.request, goal: g.goal, options: { limit: 1 } } as never, core, { emitFeatures: true, limitCap: 1 });
  core.run();
  const n = enc.elements.length, feats = core.f64(Buf.FEATURES), o = core.i32(Buf.OUT_I32);
  const fused = (i: number) => o[I32Out.FUSED_INDEX * n + i];
  const targets = enc.elements.flatMap((e, i) => (g.targets.includes(e.id) ? [i] : []));
  const withGoal = Math.min(...targets.map((t) => (fused(t) >= 0 ? fused(t) : Infinity)));
  if (withGoal === 0) n1++;
  if (withGoal === 0 && !(process.env.GOAL && g.goal.includes(process.env.GOAL))) continue;
  const describe = (i: number) => {
    const e = enc.elements[i] as any;
    const terms: string[] = [];
    let score = 0;
    for (let k = 0; k < K; k++) { const v = feats[i * K + k] * W[k]; score += v; if (feats[i * K + k] && Math.abs(v) > 0.05) terms.push(`${Feature[k]}=${v.toFixed(2)}`); }
    return `#${fused(i)} ${score.toFixed(2)} <${e.tag}${e.role ? ' ' + e.role : ''}> "${String(e.text || e.name || '').slice(0, 50)}" sec="${String(e.attributes?.section ?? '').slice(0, 30)}" list=${e.list_id ?? '-'}:${e.list_index ?? ''}/${e.list_length ?? ''} [${terms.join(' ')}]`;
  };
  const best = targets.filter((t) => fused(t) === withGoal)[0] ?? targets[0];
  const order = Array.from({ length: n }, (_, i) => i).filter((i) => fused(i) >= 0).sort((a, b) => fused(a) - fused(b));
  console.log(`\n== ${g.page.id} (${g.page.lang}) "${g.goal}" rank ${withGoal}`);
  console.log('  T ' + (best !== undefined ? describe(best) : 'no target in request'));
  for (const i of order.slice(0, 3)) console.log('    ' + describe(i));
}
console.log(`\n${style}: ${n1}/${tot} at R@1`);
