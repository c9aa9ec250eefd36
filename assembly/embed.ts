// Meaning for the goal rerank: cosines between the goal's and an element's texts in the distilled
// embedding table (src/rank/goal-embed.bin, held by the core across requests: the door hands over only
// each request's token ids). A text's vector is the mean of its tokens' rows (row = int8 × scale); the
// mean's length cancels in the cosine, so the sum is used. Only + - * / and sqrt: identical in Wasm and JS.
import { I32In, Param } from "./layout";
import { count, i32In, param, embIds, embTable, embTableScales } from "./state";

class Spans {
  dim: i32;
  goal: Float64Array;
  goalNorm: f64 = 0;
  acc: Float64Array;
  /** Cosine of the span starting at an EMB_IDS offset (elements with one text share its span). */
  memo: Float64Array;
  done: Uint8Array;

  constructor(dim: i32) {
    this.dim = dim;
    this.goal = new Float64Array(dim);
    this.acc = new Float64Array(dim);
    this.memo = new Float64Array(embIds.length);
    this.done = new Uint8Array(embIds.length);
    sum(0, i32(param(Param.EMB_GOAL_LEN)), this.goal, dim);
    let n: f64 = 0;
    for (let d = 0; d < dim; d++) n += unchecked(this.goal[d]) * unchecked(this.goal[d]);
    this.goalNorm = Math.sqrt(n);
  }

  cosine(start: i32, len: i32): f64 {
    if (len <= 0 || this.goalNorm == 0) return 0;
    if (unchecked(this.done[start]) != 0) return unchecked(this.memo[start]);
    const acc = this.acc, goal = this.goal, dim = this.dim;
    sum(start, len, acc, dim);
    let dot: f64 = 0, n: f64 = 0;
    for (let d = 0; d < dim; d++) {
      const a = unchecked(acc[d]);
      dot += a * unchecked(goal[d]);
      n += a * a;
    }
    const c = n > 0 ? dot / (Math.sqrt(n) * this.goalNorm) : 0;
    unchecked(this.memo[start] = c);
    unchecked(this.done[start] = 1);
    return c;
  }
}

/** acc = the sum of the rows of EMB_IDS[start, start + len), each value int8 × its row's scale (an
 *  int8 times an f32 is exact in f64, so the order of operations is the only thing to keep). */
function sum(start: i32, len: i32, acc: Float64Array, dim: i32): void {
  const ids = embIds, rows = embTable, scales = embTableScales; // locals: the loop must not reload globals
  acc.fill(0);
  for (let k = start; k < start + len; k++) {
    const id = unchecked(ids[k]);
    const s = unchecked(scales[id]), base = id * dim;
    let d = 0;
    // Four lanes a step (each lane adds in the same order: the sums are exact as one at a time).
    for (; d + 4 <= dim; d += 4) {
      unchecked(acc[d] += s * f64(unchecked(rows[base + d])));
      unchecked(acc[d + 1] += s * f64(unchecked(rows[base + d + 1])));
      unchecked(acc[d + 2] += s * f64(unchecked(rows[base + d + 2])));
      unchecked(acc[d + 3] += s * f64(unchecked(rows[base + d + 3])));
    }
    for (; d < dim; d++) unchecked(acc[d] += s * f64(unchecked(rows[base + d])));
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

