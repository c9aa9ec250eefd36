// Dumps what the core's meaning features see, for refine.py (issue 37 item 2: refining the table's rows on
// train goals): for every goal of the real goal set's TRAIN split (and the template goals of the pages train.ts trains on), through the
// same encode() and JS core train/train.ts uses, the table rows of the goal's tokens and of every
// element's three views exactly as assembly/embed.ts reads them (own text, or its link when it has no
// words; link path and query; section label sent, or the inferred heading's own view), the score of the
// pinned base model (refine-base.json) without its EMB_* terms, and the EMB_* features the core computed
// with the start table (refine.py checks its cosines against them). Dev and test goals are never read
// past their split label.
// Run: node --import tsx train/embed/dump-tokens.ts [START_TABLE [OUT]]   -> OUT, default train/embed/.cache/tokens.json
// (START_TABLE: the table to refine, default train/embed/.cache/distilled/goal-embed.bin from table.py --out)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Buf, F64In, F64Out, Feature, Flag, I32In, Param, SECTION_HEADINGS_BACK } from '../../assembly/layout.ts';
import { heldOutTemplatePage } from '../template-split.ts';
import { jsBackend } from '../../src/rank/core-js.ts';
import { encode } from '../../src/rank/encode.ts';
import { parseEmbedTable, useEmbedTable } from '../../src/rank/embed-table.ts';
import { loadGoals } from '../real/evaluate.ts';
import type { DataPage } from '../build-data.ts';

const CACHE = new URL('./.cache/', import.meta.url);
const K = Feature.COUNT;
const EMB = [Feature.EMB_OWN, Feature.EMB_LINK, Feature.EMB_SECTION];
// REFINE_BASE (measurement only): another base's JSON ({ features, weights }), e.g. the shipped model's for
// refine.py --fixed-weights, so the fit targets exactly the weights the core ranks with.
const BASE = JSON.parse(readFileSync(process.env.REFINE_BASE ?? new URL('./refine-base.json', import.meta.url), 'utf8')) as { features: string[]; weights: number[] };
/** The base model's weights in Feature order; the EMB_* ones apart (they start refine.py's). A feature added
 *  after the base was pinned (ORDINAL_MAIN) has no term in it: weight 0, the base's own score. */
const LATER = new Set<number>([Feature.ORDINAL_MAIN]);
const wBase = Float64Array.from({ length: K }, (_, k) => {
  const at = BASE.features.indexOf(Feature[k]);
  if (at < 0 && LATER.has(k)) return 0;
  if (at < 0) throw new Error(`refine-base.json lacks ${Feature[k]}`);
  return EMB.includes(k) ? 0 : BASE.weights[at];
});
const wEmb = EMB.map((f) => BASE.weights[BASE.features.indexOf(Feature[f])]);

const START = process.argv[2] ?? new URL('./.cache/distilled/goal-embed.bin', import.meta.url).pathname;
useEmbedTable(parseEmbedTable(readFileSync(START)));
const core = jsBackend();
/** Distinct token lists, numbered (0: the empty list). */
const texts: number[][] = [[]];
const textIds = new Map<string, number>([['', 0]]);
const textId = (ids: ArrayLike<number>) => {
  const key = Array.from(ids).join(',');
  let t = textIds.get(key);
  if (t === undefined) { t = texts.length; texts.push(Array.from(ids)); textIds.set(key, t); }
  return t;
};
const round = (x: number) => Math.round(x * 1e9) / 1e9;

interface Goal { page: string; site: string; source: string; style: string; lang: string; goal: number; targets: number[]; views: number[]; base: number[]; emb: number[] }

function dumpGoal(page: string, site: string, source: string, style: string, lang: string, request: object, goal: string, isTarget: (e: { id: number }) => boolean): Goal | null {
  const enc = encode({ ...request, goal, options: { limit: 1 } }, core, { emitFeatures: true, limitCap: 1 });
  core.run();
  const n = enc.elements.length;
  const targets = enc.elements.flatMap((e, i) => (isTarget(e) ? [i] : []));
  if (!targets.length) return null;
  const params = core.f64(Buf.PARAMS);
  if (!(params[Param.EMB_DIM] > 0)) throw new Error('no goal-embedding table in build/');
  const ids = core.i32(Buf.EMB_IDS), in32 = core.i32(Buf.IN_I32), inF = core.f64(Buf.IN_F64), outF = core.f64(Buf.OUT_F64), feats = core.f64(Buf.FEATURES);
  const span = (col: I32In, i: number) => ids.subarray(in32[col * n + i], in32[col * n + i] + Math.max(0, in32[(col + 1) * n + i]));
  const own = new Int32Array(n), link = new Int32Array(n), sec = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    link[i] = textId(span(I32In.EMB_LINK_START, i));
    own[i] = in32[I32In.EMB_OWN_LEN * n + i] > 0 ? textId(span(I32In.EMB_OWN_START, i)) : link[i];
  }
  // The section each element sits in, as sections() finds it: the label sent, else the nearest heading
  // above it (by centre) whose box overlaps its column; an inferred one takes the heading's own view.
  const heads = Array.from({ length: n }, (_, i) => i).filter((i) => (in32[I32In.FLAGS * n + i] & Flag.HEADING) !== 0)
    .sort((a, b) => outF[F64Out.DOC_Y * n + a] - outF[F64Out.DOC_Y * n + b] || a - b);
  for (let i = 0; i < n; i++) {
    if (in32[I32In.SEC_ID * n + i] !== 0) { sec[i] = textId(span(I32In.EMB_SEC_START, i)); continue; }
    const y = outF[F64Out.DOC_Y * n + i], x0 = inF[F64In.X * n + i], x1 = x0 + inF[F64In.W * n + i];
    let lo = 0, hi = heads.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (outF[F64Out.DOC_Y * n + heads[mid]] < y) lo = mid + 1; else hi = mid; }
    for (let k = lo - 1; k >= 0 && k >= lo - SECTION_HEADINGS_BACK; k--) {
      const j = heads[k];
      if (j === i) continue;
      const hx0 = inF[F64In.X * n + j], hx1 = hx0 + inF[F64In.W * n + j];
      if (hx0 >= x1 || x0 >= hx1) continue;
      sec[i] = own[j];
      break;
    }
  }
  const views: number[] = [], base: number[] = [], emb: number[] = [];
  for (let i = 0; i < n; i++) {
    // A control the core gave no cosine for its words and link (the item-noun rule, assembly/rerank.ts) is
    // fitted as the core ranks it: with empty own and link views (its row still serves as a section label).
    const gated = feats[i * K + Feature.EMB_OWN] === 0 && feats[i * K + Feature.EMB_LINK] === 0;
    views.push(gated ? 0 : own[i], gated ? 0 : link[i], sec[i]);
    emb.push(...EMB.map((f) => round(feats[i * K + f])));
    let s = 0;
    for (let k = 0; k < K; k++) s += wBase[k] * feats[i * K + k];
    base.push(round(s));
  }
  return { page, site, source, style, lang, goal: textId(ids.subarray(0, params[Param.EMB_GOAL_LEN])), targets, views, base, emb };
}

const started = Date.now();
const goals: Goal[] = [];
for (const g of loadGoals()) {
  if (g.page.split !== 'train') continue;
  const d = dumpGoal(g.page.id, g.page.site, 'real', g.style, g.page.lang === 'en' ? 'en' : 'non-en', g.page.request, g.goal, (el) => g.targets.includes(el.id));
  if (d) goals.push(d);
}
const nReal = goals.length;
const data = JSON.parse(gunzipSync(readFileSync(new URL('../data/pages.json.gz', import.meta.url))).toString()) as { pages: DataPage[] };
for (const p of data.pages) {
  if (heldOutTemplatePage(p.id)) continue; // train/train.ts's held-out template pages stay held out
  for (const ex of p.examples) {
    const d = dumpGoal(p.id, `template:${p.template}`, 'template', 'template', 'en', p.request, ex.goal, (el) => el.id === ex.target);
    if (d) goals.push(d);
  }
}
mkdirSync(CACHE, { recursive: true });
writeFileSync(process.argv[3] ?? new URL('tokens.json', CACHE), JSON.stringify({ start: START, emb_weights: wEmb, texts, goals }));
console.log(`${nReal} real train goals, ${goals.length - nReal} template goals, ${texts.length} distinct token lists, ${((Date.now() - started) / 1000).toFixed(1)} s`);
