// Filters and the top-k: a bounded heap keeps the `limit` best of the elements that pass the filters
// (O(n log k)), then they are written to ORDER best first. "Best" is importance, then doc_y (higher
// on the page first), then document order; or, when a goal rerank applies, its fused rank.
import { F64In, I32In, F64Out, I32Out, OutFlag, Param } from "./layout";
import { count, f64In, i32In, f64Out, i32Out, setI32Out, param, setParam, order, roleAllow, tagAllow } from "./state";

function better(a: i32, b: i32): bool {
  // A confident goal rerank orders by its fused rank (computed over the same filtered elements).
  if (param(Param.OUT_RERANK_APPLIED) != 0) return i32Out(I32Out.FUSED_INDEX, a) < i32Out(I32Out.FUSED_INDEX, b);
  const ia = i32Out(I32Out.IMPORTANCE, a), ib = i32Out(I32Out.IMPORTANCE, b);
  if (ia != ib) return ia > ib;
  const ya = f64Out(F64Out.DOC_Y, a), yb = f64Out(F64Out.DOC_Y, b);
  if (ya != yb) return ya < yb;
  return a < b;
}

/** Restores the heap below `at`; the root holds the worst kept element. */
function siftDown(heap: Int32Array, size: i32, at: i32): void {
  let p = at;
  while (true) {
    const l = 2 * p + 1, r = l + 1;
    let worst = p;
    if (l < size && better(unchecked(heap[worst]), unchecked(heap[l]))) worst = l;
    if (r < size && better(unchecked(heap[worst]), unchecked(heap[r]))) worst = r;
    if (worst == p) return;
    const t = unchecked(heap[p]); unchecked(heap[p] = unchecked(heap[worst])); unchecked(heap[worst] = t);
    p = worst;
  }
}

function siftUp(heap: Int32Array, at: i32): void {
  let c = at;
  while (c > 0) {
    const p = (c - 1) >> 1;
    if (!better(unchecked(heap[p]), unchecked(heap[c]))) return;
    const t = unchecked(heap[p]); unchecked(heap[p] = unchecked(heap[c])); unchecked(heap[c] = t);
    c = p;
  }
}

export function passes(i: i32, minArea: f64, byRole: bool, byTag: bool): bool {
  if (minArea > 0 && f64In(F64In.W, i) * f64In(F64In.H, i) < minArea) return false;
  if (byRole) {
    const role = i32In(I32In.ROLE, i);
    if (role < 0 || role >= roleAllow.length || unchecked(roleAllow[role]) == 0) return false;
  }
  if (byTag) {
    const tag = i32In(I32In.TAG, i);
    if (tag < 0 || tag >= tagAllow.length || unchecked(tagAllow[tag]) == 0) return false;
  }
  return true;
}

/** Fills ORDER and returns how many elements it holds. */
export function selectTop(): i32 {
  const limit = i32(param(Param.LIMIT));
  const minArea = param(Param.MIN_AREA);
  const byRole = param(Param.FILTER_ROLES) != 0, byTag = param(Param.FILTER_TAGS) != 0;
  const heap = order; // the heap lives in ORDER's first `limit` slots
  let size = 0, matched = 0;
  for (let i = 0; i < count; i++) {
    if (!passes(i, minArea, byRole, byTag)) continue;
    matched++;
    setI32Out(I32Out.FLAGS, i, i32Out(I32Out.FLAGS, i) | OutFlag.SELECTED);
    if (size < limit) { unchecked(heap[size] = i); siftUp(heap, size); size++; }
    else if (limit > 0 && better(i, unchecked(heap[0]))) { unchecked(heap[0] = i); siftDown(heap, size, 0); }
  }
  setParam(Param.OUT_MATCHED, f64(matched));
  // Heap sort in place: repeatedly move the worst kept element to the end.
  for (let end = size - 1; end > 0; end--) {
    const t = unchecked(heap[0]); unchecked(heap[0] = unchecked(heap[end])); unchecked(heap[end] = t);
    siftDown(heap, end, 0);
  }
  return size;
}
