// One deterministic sort for the core: a stable sort of an index array by an f64 key (insertion-sorted
// runs, then bottom-up merges), ties kept in index order. Written here (not Array#sort) so the Wasm and JS builds order identically.

/** Runs this long are sorted by insertion before the merges. */
const RUN: i32 = 16;

/** Sorts idx[0..len) ascending by key[idx[k]], stable. `tmp` must hold at least `len` entries.
 *  Runs of RUN entries are sorted by insertion, then merged bottom-up; two runs already in order (the
 *  right one's first key is not below the left one's last) are copied, not merged, so a nearly sorted
 *  array (doc_y in document order) costs about one pass. A stable sort's result is unique: any order
 *  of these steps gives the same permutation. */
export function sortByKey(idx: Int32Array, len: i32, key: Float64Array, tmp: Int32Array): void {
  for (let lo = 0; lo < len; lo += RUN) {
    const hi = min(lo + RUN, len);
    for (let i = lo + 1; i < hi; i++) {
      const v = unchecked(idx[i]);
      const kv = unchecked(key[v]);
      let j = i - 1;
      while (j >= lo && kv < unchecked(key[unchecked(idx[j])])) { unchecked(idx[j + 1] = unchecked(idx[j])); j--; }
      unchecked(idx[j + 1] = v);
    }
  }
  let src = idx;
  let dst = tmp;
  for (let width = RUN; width < len; width <<= 1) {
    for (let lo = 0; lo < len; lo += width << 1) {
      const mid = min(lo + width, len);
      const hi = min(lo + (width << 1), len);
      if (mid >= hi || !(unchecked(key[unchecked(src[mid])]) < unchecked(key[unchecked(src[mid - 1])]))) {
        for (let k = lo; k < hi; k++) unchecked(dst[k] = unchecked(src[k]));
        continue;
      }
      let a = lo;
      let b = mid;
      let o = lo;
      while (a < mid && b < hi) {
        const ia = unchecked(src[a]);
        const ib = unchecked(src[b]);
        if (unchecked(key[ib]) < unchecked(key[ia])) { unchecked(dst[o] = ib); b++; }
        else { unchecked(dst[o] = ia); a++; }
        o++;
      }
      while (a < mid) { unchecked(dst[o] = unchecked(src[a])); a++; o++; }
      while (b < hi) { unchecked(dst[o] = unchecked(src[b])); b++; o++; }
    }
    const t = src; src = dst; dst = t;
  }
  if (src !== idx) {
    for (let k = 0; k < len; k++) unchecked(idx[k] = unchecked(src[k]));
  }
}

/** Smallest power of two >= 2 * n (at least 16): the size of an open hash table for n keys. */
export function tableSize(n: i32): i32 {
  let size = 16;
  while (size < n * 2) size <<= 1;
  return size;
}

/** 32-bit wrapping multiply built from 16-bit halves: i32 `*` wraps in Wasm but not in plain JS. */
function mul32(a: i32, b: i32): i32 {
  const hi = ((a >>> 16) * (b & 0xffff) + (a & 0xffff) * (b >>> 16)) << 16;
  return (hi + (a & 0xffff) * (b & 0xffff)) | 0;
}

/** Integer hash (murmur3 finaliser) of three ints, identical in both builds. */
export function hash3(a: i32, b: i32, c: i32): i32 {
  let h = mul32(a, <i32>0x9e3779b1) ^ mul32(b, <i32>0x85ebca77) ^ mul32(c, <i32>0xc2b2ae3d);
  h ^= h >>> 16;
  h = mul32(h, <i32>0x85ebca6b);
  h ^= h >>> 13;
  h = mul32(h, <i32>0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
