// Error analysis of the goal rerank on the DEV split: every goal whose best target the goal puts lower than the
// no-goal order does ("worse than no goal", docs/rerank.md), with the target and the first elements of the goal's
// order, each with its place without and with the goal, its score and the terms of its score (feature x weight).
// The frozen test split is never ranked here. Run: node --import tsx train/real/worse.ts [--split train|dev] > worse.json
import { readFileSync } from 'node:fs';
import { Buf, Feature, I32Out } from '../../assembly/layout.ts';
import { jsBackend } from '../../src/rank/core-js.ts';
import { parseEmbedTable, useEmbedTable } from '../../src/rank/embed-table.ts';
import { encode } from '../../src/rank/encode.ts';
import { RERANK_MODEL } from '../../src/rank/rerank-model.ts';
import { loadGoals } from './evaluate.ts';

const split = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'dev';
if (split !== 'dev' && split !== 'train') throw new Error('worse.ts analyses the train or dev split only');
useEmbedTable(parseEmbedTable(readFileSync(new URL('../../src/rank/goal-embed.bin', import.meta.url))));
const core = jsBackend();
const K = Feature.COUNT, W = RERANK_MODEL.weights;
const rows = [];
for (const g of loadGoals()) {
  if (g.page.split !== split) continue;
  // limit 1: the order is the core's full fused order (the kept no-goal controls apply only within a limit).
  const enc = encode({ ...g.page.request, goal: g.goal, options: { limit: 1 } } as never, core, { emitFeatures: true, limitCap: 1 });
  core.run();
  const n = enc.elements.length, feats = core.f64(Buf.FEATURES), o = core.i32(Buf.OUT_I32);
  const plain = (i: number) => o[I32Out.HEURISTIC_INDEX * n + i], fused = (i: number) => o[I32Out.FUSED_INDEX * n + i];
  const targets = enc.elements.flatMap((e, i) => (g.targets.includes(e.id) ? [i] : []));
  const noGoal = Math.min(...targets.map((t) => (plain(t) >= 0 ? plain(t) : Infinity)));
  const withGoal = Math.min(...targets.map((t) => (fused(t) >= 0 ? fused(t) : Infinity)));
  if (!(withGoal > noGoal)) continue;
  const describe = (i: number) => {
    const e = enc.elements[i] as { role?: string; tag?: string; text?: string; name?: string; href?: string; attributes?: Record<string, unknown> };
    const terms: Record<string, number> = {};
    let score = 0;
    for (let k = 0; k < K; k++) { const v = feats[i * K + k] * W[k]; score += v; if (feats[i * K + k]) terms[Feature[k]] = +v.toFixed(2); }
    return { noGoal: plain(i), withGoal: fused(i), score: +score.toFixed(3), tag: e.tag, text: String(e.text || e.name || '').slice(0, 70), href: String(e.href ?? '').slice(0, 70), section: e.attributes?.section, terms };
  };
  const best = targets.filter((t) => fused(t) === withGoal)[0];
  const order = Array.from({ length: n }, (_, i) => i).filter((i) => fused(i) >= 0).sort((a, b) => fused(a) - fused(b));
  rows.push({ page: g.page.id, style: g.style, lang: g.page.lang, goal: g.goal, noGoal, withGoal, target: describe(best), first: order.slice(0, 3).map(describe) });
}
console.error(`${split}: ${rows.length} goals worse than no goal`);
console.log(JSON.stringify(rows, null, 1));
