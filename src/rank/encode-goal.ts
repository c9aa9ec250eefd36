// The goal's part of encoding: per element, hashes of its own words (text, name, aria label,
// placeholder, value), of its context (href path, nearby text) and of its own trigrams, written into
// TOKENS with their spans; the goal's hashes, intent and ordinal; the model's weights. Only runs when
// the request has a goal.
import { Buf, Feature, I32In, Param } from '../../assembly/layout.ts';
import type { RawElement } from '../schema/snapshot.ts';
import { parseGoal, textHashes, type GoalParts } from './goal.ts';
import { RERANK_MODEL } from './rerank-model.ts';
import type { CoreBackend } from './backend.ts';

export interface GoalTokens { goal: GoalParts; own: number[][]; ctx: number[][]; tri: number[][]; total: number }

/** Text, name, aria label, placeholder, value (unless redacted), inferred label: each once (a button's
 *  name usually repeats its text). */
function ownText(e: RawElement): string {
  const a = e.attributes;
  let out = e.text ?? '';
  if (!a) return out;
  const redacted = a.value_redacted === true || a.value_redacted === 'true';
  for (const t of [a.name, a.aria_label, (a as { placeholder?: string | null }).placeholder, redacted ? null : a.value, a.inferred_label]) {
    if (t && !out.includes(t)) out = out ? `${out} ${t}` : t;
  }
  return out;
}

/** The path and query of a link: "https://shop.example/cart?step=2" -> "/cart?step=2" (the tokeniser
 *  splits on the punctuation). The host names the site, not the link. */
function hrefWords(href: string): string {
  const scheme = href.indexOf('://');
  const path = scheme >= 0 ? href.indexOf('/', scheme + 3) : 0;
  if (path < 0) return '';
  const rest = href.slice(path);
  if (!rest.includes('%')) return rest;
  try { return decodeURIComponent(rest); } catch { return rest; }
}

export function goalTokens(elements: RawElement[], goal: string): GoalTokens {
  const parts = parseGoal(goal);
  const own: number[][] = [], ctx: number[][] = [], tri: number[][] = [];
  let total = 0;
  for (const e of elements) {
    const o: number[] = [], c: number[] = [], t: number[] = [];
    textHashes(ownText(e), o, t);
    const href = e.attributes?.href;
    textHashes(`${href ? hrefWords(href) : ''} ${e.attributes?.nearby_text ?? ''}`, c);
    own.push(o); ctx.push(c); tri.push(t);
    total += o.length + c.length + t.length;
  }
  return { goal: parts, own, ctx, tri, total };
}

/** The model's weights in Feature order (by name, so a reordered enum cannot misalign them). */
const WEIGHTS = (() => {
  const w = new Float64Array(Feature.COUNT);
  RERANK_MODEL.features.forEach((name, k) => {
    const at = (Feature as unknown as Record<string, number>)[name];
    if (at === undefined) throw new Error(`rerank model feature ${name} is unknown to the core`);
    w[at] = RERANK_MODEL.weights[k];
  });
  return w;
})();

export function goalCount(t: GoalTokens): number {
  return t.goal.words.length + t.goal.trigrams.length;
}

/** Writes the goal, the tokens and the model into the prepared core. */
export function writeGoal(core: CoreBackend, n: number, t: GoalTokens): void {
  const c = core.i32(Buf.IN_I32);
  const tokens = core.i32(Buf.TOKENS);
  let at = 0;
  const put = (list: number[], start: I32In, len: I32In, i: number) => {
    c[start * n + i] = at;
    c[len * n + i] = list.length;
    for (const h of list) tokens[at++] = h;
  };
  for (let i = 0; i < n; i++) {
    put(t.own[i], I32In.OWN_START, I32In.OWN_LEN, i);
    put(t.ctx[i], I32In.CTX_START, I32In.CTX_LEN, i);
    put(t.tri[i], I32In.TRI_START, I32In.TRI_LEN, i);
  }
  const goal = core.i32(Buf.GOAL);
  goal.set(t.goal.words, 0);
  goal.set(t.goal.trigrams, t.goal.words.length);
  core.f64(Buf.WEIGHTS).set(WEIGHTS);
  const params = core.f64(Buf.PARAMS);
  params[Param.HAS_GOAL] = 1;
  params[Param.GOAL_WORDS] = t.goal.words.length;
  params[Param.GOAL_TRIGRAMS] = t.goal.trigrams.length;
  params[Param.INTENT] = t.goal.intent;
  params[Param.ORDINAL] = t.goal.ordinal;
  params[Param.MIN_CONFIDENCE] = RERANK_MODEL.minConfidence;
  params[Param.FUSION] = RERANK_MODEL.fusion;
}
