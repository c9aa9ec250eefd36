// Filters and the top-k: a bounded heap keeps the `limit` best of the elements that pass the filters
// (O(n log k)), then they are written to ORDER best first. "Best" is importance (content below every link,
// control and field: score.ts), then doc_y (higher on the page first), then document order; or, when a goal
// rerank applies, its fused rank. Static text that repeats a
// control's words where that control is (the span inside a button) never passes.
import { F64In, I32In, F64Out, I32Out, OutFlag, Param, Band } from "./layout";
import { count, f64In, i32In, f64Out, i32Out, setI32Out, param, setParam, order, roleAllow, tagAllow } from "./state";
import { sortByKey } from "./sort";

/** Controls scanned per static element for a repeat (a label repeated by hundreds of controls stays linear). */
const REPEAT_SCAN = 64;

/**
 * Marks OutFlag.REPEATS on static elements whose label (I32In.TEXT_KEY) is a control's and whose centre lies
 * in that control's box: a span inside "Open menu" saying "Open menu" adds nothing to the list (issue 38).
 */
export function markRepeats(): void {
  let m = 0;
  for (let i = 0; i < count; i++) if (i32In(I32In.TEXT_KEY, i) > 0) m++;
  if (m == 0) return;
  const idx = new Int32Array(m);
  const key = new Float64Array(count);
  let k = 0;
  for (let i = 0; i < count; i++) {
    const t = i32In(I32In.TEXT_KEY, i);
    if (t > 0) { unchecked(idx[k] = i); unchecked(key[i] = f64(t)); k++; }
  }
  sortByKey(idx, m, key, new Int32Array(m));
  let start = 0;
  while (start < m) {
    let end = start + 1;
    const t = unchecked(key[unchecked(idx[start])]);
    while (end < m && unchecked(key[unchecked(idx[end])]) == t) end++;
    if (end - start > 1) {
      for (let a = start; a < end; a++) {
        const s = unchecked(idx[a]);
        if (i32In(I32In.BAND, s) != Band.STATIC) continue;
        const cx = f64In(F64In.X, s) + f64In(F64In.W, s) / 2, cy = f64In(F64In.Y, s) + f64In(F64In.H, s) / 2;
        let scanned = 0;
        for (let b = start; b < end && scanned < REPEAT_SCAN; b++) {
          const c = unchecked(idx[b]);
          if (i32In(I32In.BAND, c) == Band.STATIC) continue;
          scanned++;
          const x = f64In(F64In.X, c), y = f64In(F64In.Y, c);
          if (cx >= x && cy >= y && cx <= x + f64In(F64In.W, c) && cy <= y + f64In(F64In.H, c)) {
            setI32Out(I32Out.FLAGS, s, i32Out(I32Out.FLAGS, s) | OutFlag.REPEATS);
            break;
          }
        }
      }
    }
    start = end;
  }
}

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
  if ((i32Out(I32Out.FLAGS, i) & OutFlag.REPEATS) != 0) return false;
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
