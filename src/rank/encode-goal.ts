// The goal's part of encoding: per element, hashes of its own words (text, name, aria label,
// placeholder, value), of its context (href path, nearby text) and of its own trigrams, written into
// TOKENS with their spans; the goal's hashes, intent and ordinal; the model's weights. Only runs when
// the request has a goal.
import { Buf, Feature, I32In, Param } from '../../assembly/layout.ts';
import type { RawElement } from '../schema/snapshot.ts';
import { parseGoal, trigramHashes, wordHashes, type GoalParts } from './goal.ts';
import { RERANK_MODEL } from './rerank-model.ts';
import type { CoreBackend } from './backend.ts';

export interface GoalTokens { goal: GoalParts; own: number[][]; ctx: number[][]; tri: number[][]; total: number }

function ownText(e: RawElement): string {
  const a = e.attributes;
  const redacted = a?.value_redacted === true || a?.value_redacted === 'true';
  return [e.text, a?.name, a?.aria_label, (a as { placeholder?: string } | null | undefined)?.placeholder, redacted ? '' : a?.value, a?.inferred_label]
    .filter((t): t is string => !!t).join(' ');
}

function hrefWords(href: string): string {
  try {
    const url = new URL(href, 'http://x.invalid/');
    return decodeURIComponent(url.pathname + ' ' + url.search).replace(/[/_.=&?+-]+/g, ' ');
  } catch {
    return '';
  }
}

export function goalTokens(elements: RawElement[], goal: string): GoalTokens {
  const parts = parseGoal(goal);
  const own: number[][] = [], ctx: number[][] = [], tri: number[][] = [];
  let total = 0;
  for (const e of elements) {
    const text = ownText(e);
    const o = wordHashes(text);
    const c = wordHashes(`${e.attributes?.href ? hrefWords(e.attributes.href) : ''} ${e.attributes?.nearby_text ?? ''}`);
    const t = trigramHashes(text);
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
