// Meaning for the goal rerank: cosines between the goal's and an element's texts in the distilled
// embedding table (src/rank/goal-embed.bin, held by the core across requests: the door hands over only
// each request's token ids). A text's vector is the mean of its tokens' rows (row = int8 × scale); the
// mean's length cancels in the cosine, so the sum is used. Only + - * / and sqrt: identical in Wasm and JS.
// A text the door numbered keeps its sum (whatever the goal) and its cosine (for one goal) across requests.
import { I32In, Param } from "./layout";
import { count, i32In, param, embIds, embTable, embTableScales, embSlots, embKept, embKeptEpoch, embKeptSlot, embSums, embSumNorm, embSumSlot } from "./state";

class Spans {
  dim: i32;
  goal: Float64Array;
  goalNorm: f64 = 0;
  /** Cosine of the span starting at an EMB_IDS offset (elements with one text share its span). */
  memo: Float64Array;
  done: Uint8Array;
  /** Offsets in the table of the tokens of the span being summed, and their rows' scales. */
  base: Int32Array = new Int32Array(64);
  scale: Float64Array = new Float64Array(64);

  /** Param.EMB_EPOCH: kept cosines of this epoch are this goal's (a kept sum is any goal's). */
  epoch: i32;

  constructor(dim: i32) {
    this.dim = dim;
    this.epoch = i32(param(Param.EMB_EPOCH));
    this.goal = new Float64Array(dim);
    this.memo = new Float64Array(embIds.length);
    this.done = new Uint8Array(embIds.length);
    this.sumDot(0, i32(param(Param.EMB_GOAL_LEN)), this.goal, -1);
    let g: f64 = 0;
    for (let d = 0; d < dim; d++) g += unchecked(this.goal[d]) * unchecked(this.goal[d]);
    this.goalNorm = Math.sqrt(g);
  }

  cosine(start: i32, len: i32): f64 {
    if (len <= 0 || this.goalNorm == 0) return 0;
    if (unchecked(this.done[start]) != 0) return unchecked(this.memo[start]);
    // A text the door numbered: its cosine with this goal may be kept from an earlier request, and its
    // sum from any earlier request.
    // The rings' sizes are powers of two (0: nothing kept).
    const tag = unchecked(embSlots[start]), nKept = embKept.length, nSums = embSumNorm.length;
    const k = nKept > 0 && tag > 0 ? (tag - 1) & (nKept - 1) : -1;
    const j = nSums > 0 && tag > 0 ? (tag - 1) & (nSums - 1) : -1;
    let c: f64;
    if (k >= 0 && unchecked(embKeptSlot[k]) == tag && unchecked(embKeptEpoch[k]) == this.epoch) c = unchecked(embKept[k]);
    else {
      if (j >= 0 && unchecked(embSumSlot[j]) == tag) c = this.keptDot(j);
      else {
        c = this.sumDot(start, len, null, j);
        if (j >= 0) unchecked(embSumSlot[j] = tag);
      }
      if (k >= 0) { unchecked(embKept[k] = c); unchecked(embKeptEpoch[k] = this.epoch); unchecked(embKeptSlot[k] = tag); }
    }
    unchecked(this.memo[start] = c);
    unchecked(this.done[start] = 1);
    return c;
  }

  /** The cosine from the sum kept at `j` (sumDot's dot product: the same additions in the same order). */
  keptDot(j: i32): f64 {
    const dim = this.dim, goal = this.goal, at = j * dim;
    let dot: f64 = 0;
    for (let d = 0; d < dim; d++) dot += unchecked(embSums[at + d]) * unchecked(goal[d]);
    const n = unchecked(embSumNorm[j]);
    return n > 0 ? dot / (Math.sqrt(n) * this.goalNorm) : 0;
  }

  /**
   * The span's sum, four dimensions at a time in registers with every token added in span order (each
   * dimension's sum is the same as one token at a time), and in the same pass the dot product with the
   * goal and the squared norm, dimension by dimension in order: the cosine, or with `out` the sum
   * itself (the goal's vector). With `keep` >= 0 the sum and its squared norm are kept there.
   */
  sumDot(start: i32, len: i32, out: Float64Array | null, keep: i32): f64 {
    const dim = this.dim, table = embTable, ids = embIds, scales = embTableScales, goal = this.goal;
    if (len > this.base.length) { this.base = new Int32Array(len); this.scale = new Float64Array(len); }
    const base = this.base, scale = this.scale;
    for (let k = 0; k < len; k++) {
      const id = unchecked(ids[start + k]);
      unchecked(base[k] = id * dim);
      unchecked(scale[k] = unchecked(scales[id]));
    }
    let dot: f64 = 0, n: f64 = 0, d = 0;
    for (; d + 4 <= dim; d += 4) {
      let a0: f64 = 0, a1: f64 = 0, a2: f64 = 0, a3: f64 = 0;
      for (let k = 0; k < len; k++) {
        const b = unchecked(base[k]) + d, s = unchecked(scale[k]);
        a0 += s * f64(unchecked(table[b]));
        a1 += s * f64(unchecked(table[b + 1]));
        a2 += s * f64(unchecked(table[b + 2]));
        a3 += s * f64(unchecked(table[b + 3]));
      }
      if (out !== null) { unchecked(out[d] = a0); unchecked(out[d + 1] = a1); unchecked(out[d + 2] = a2); unchecked(out[d + 3] = a3); continue; }
      if (keep >= 0) { const at = keep * dim + d; unchecked(embSums[at] = a0); unchecked(embSums[at + 1] = a1); unchecked(embSums[at + 2] = a2); unchecked(embSums[at + 3] = a3); }
      dot += a0 * unchecked(goal[d]); n += a0 * a0;
      dot += a1 * unchecked(goal[d + 1]); n += a1 * a1;
      dot += a2 * unchecked(goal[d + 2]); n += a2 * a2;
      dot += a3 * unchecked(goal[d + 3]); n += a3 * a3;
    }
    for (; d < dim; d++) {
      let a: f64 = 0;
      for (let k = 0; k < len; k++) a += unchecked(scale[k]) * f64(unchecked(table[unchecked(base[k]) + d]));
      if (out !== null) { unchecked(out[d] = a); continue; }
      if (keep >= 0) unchecked(embSums[keep * dim + d] = a);
      dot += a * unchecked(goal[d]); n += a * a;
    }
    if (keep >= 0) unchecked(embSumNorm[keep] = n);
    return n > 0 ? dot / (Math.sqrt(n) * this.goalNorm) : 0;
  }
}

/**
 * Each element's cosine with the goal for its own text, its link and its section (secId from the
 * rerank's sections(): > 0 a label the client sent, < 0 the heading -(id + 1) whose own text is the
 * label, 0 none). All 0 without a table or when the goal has no tokens in it.
 */
export function embedCosines(own: Float64Array, link: Float64Array, sec: Float64Array, secId: Int32Array): void {
  const dim = i32(param(Param.EMB_DIM));
  if (dim <= 0 || param(Param.EMB_GOAL_LEN) <= 0) return;
  const spans = new Spans(dim);
  for (let i = 0; i < count; i++) {
    unchecked(own[i] = spans.cosine(i32In(I32In.EMB_OWN_START, i), i32In(I32In.EMB_OWN_LEN, i)));
    unchecked(link[i] = spans.cosine(i32In(I32In.EMB_LINK_START, i), i32In(I32In.EMB_LINK_LEN, i)));
    // An element with no words (an icon link) is known by where it points.
    if (i32In(I32In.EMB_OWN_LEN, i) <= 0) unchecked(own[i] = unchecked(link[i]));
  }
  for (let i = 0; i < count; i++) {
    const id = unchecked(secId[i]);
    if (id > 0) unchecked(sec[i] = spans.cosine(i32In(I32In.EMB_SEC_START, i), i32In(I32In.EMB_SEC_LEN, i)));
    else if (id < 0) unchecked(sec[i] = unchecked(own[-id - 1]));
  }
}

