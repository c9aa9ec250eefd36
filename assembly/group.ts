// Geometric groups: the key x{round(x/40)}-h{round(height/20)} (left edge, halves away from zero),
// the dominant (most common) key, membership of the dominant group (same height bucket, x bucket
// within ±1), and group_index (0-based rank by doc_y inside each group).
import { F64In, I32In, F64Out, I32Out, Flag, OutFlag, Param } from "./layout";
import { count, f64In, i32In, f64Out, i32Out, setI32Out, setParam } from "./state";
import { sortByKey, tableSize, hash3 } from "./sort";

/** Every element top to bottom (doc_y, ties in document order), for the passes after this one. */
export let byDocY = new Int32Array(0);

const X_BUCKET: f64 = 40;
const H_BUCKET: f64 = 20;

function roundHalfAway(v: f64): i32 {
  return v < 0 ? -i32(Math.floor(-v + 0.5)) : i32(Math.floor(v + 0.5));
}

export function computeGroups(): void {
  const n = count;
  setParam(Param.OUT_DOMINANT, -1);
  if (n == 0) return;

  // Keys, then a group number per distinct key (numbered in order of first appearance).
  const size = tableSize(n);
  const table = new Int32Array(size);
  table.fill(-1);                       // slot -> group number
  const firstOf = new Int32Array(n);    // group number -> first element
  const sizeOf = new Int32Array(n);     // group number -> element count
  const groupOf = new Int32Array(n);    // element -> group number
  let groups = 0;
  for (let i = 0; i < n; i++) {
    const flags = i32In(I32In.FLAGS, i);
    let a: i32, b: i32;
    if ((flags & Flag.GROUP_SENT) != 0) { a = i32In(I32In.GROUP_A, i); b = i32In(I32In.GROUP_B, i); }
    else { a = roundHalfAway(f64In(F64In.X, i) / X_BUCKET); b = roundHalfAway(f64In(F64In.H, i) / H_BUCKET); }
    setI32Out(I32Out.GROUP_A, i, a);
    setI32Out(I32Out.GROUP_B, i, b);
    const opaque = (flags & Flag.GROUP_OPAQUE) != 0 ? 1 : 0;
    let slot = hash3(a, b, opaque) & (size - 1);
    let g = -1;
    while (true) {
      const t = unchecked(table[slot]);
      if (t < 0) break;
      const f = unchecked(firstOf[t]);
      if (i32Out(I32Out.GROUP_A, f) == a && i32Out(I32Out.GROUP_B, f) == b
        && ((i32In(I32In.FLAGS, f) & Flag.GROUP_OPAQUE) != 0 ? 1 : 0) == opaque) { g = t; break; }
      slot = (slot + 1) & (size - 1);
    }
    if (g < 0) {
      g = groups++;
      unchecked(table[slot] = g);
      unchecked(firstOf[g] = i);
    }
    unchecked(sizeOf[g] = unchecked(sizeOf[g]) + 1);
    unchecked(groupOf[i] = g);
  }

  // Most common key; ties go to the key that appears first.
  let dominant = 0;
  for (let g = 1; g < groups; g++) if (unchecked(sizeOf[g]) > unchecked(sizeOf[dominant])) dominant = g;
  const d = unchecked(firstOf[dominant]);
  setParam(Param.OUT_DOMINANT, f64(d));
  const da = i32Out(I32Out.GROUP_A, d), db = i32Out(I32Out.GROUP_B, d);
  const dOpaque = (i32In(I32In.FLAGS, d) & Flag.GROUP_OPAQUE) != 0;
  for (let i = 0; i < n; i++) {
    const opaque = (i32In(I32In.FLAGS, i) & Flag.GROUP_OPAQUE) != 0;
    const a = i32Out(I32Out.GROUP_A, i), b = i32Out(I32Out.GROUP_B, i);
    const member = opaque || dOpaque
      ? unchecked(groupOf[i]) == dominant
      : b == db && a >= da - 1 && a <= da + 1;
    if (member) setI32Out(I32Out.FLAGS, i, i32Out(I32Out.FLAGS, i) | OutFlag.IN_DOMINANT);
  }

  // group_index: walk all elements by doc_y and count within each group.
  const byY = new Int32Array(n);
  const docY = new Float64Array(n);
  for (let i = 0; i < n; i++) { unchecked(byY[i] = i); unchecked(docY[i] = f64Out(F64Out.DOC_Y, i)); }
  sortByKey(byY, n, docY, new Int32Array(n));
  byDocY = byY;
  const seen = new Int32Array(groups);
  for (let k = 0; k < n; k++) {
    const i = unchecked(byY[k]);
    const g = unchecked(groupOf[i]);
    setI32Out(I32Out.GROUP_INDEX, i, unchecked(seen[g]));
    unchecked(seen[g] = unchecked(seen[g]) + 1);
  }
}
