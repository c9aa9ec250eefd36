// diff_status against the previous snapshot. Matching runs from the strictest evidence to the
// loosest, each element matched at most once:
//   1. same id, same content (identity + state), same box        -> unchanged (sameBox: on the screen or the page)
//   2. same content and box under another id (ids renumbered)     -> unchanged
//   3. same id and identity (role + text + name)                  -> MODIFIED if state differs, else MOVED
//   4. same identity under another id                             -> as 3
//   5. same id and role, different text                           -> MODIFIED
// Current elements left over are ADDED; previous ones left over are REMOVED (PREV_OUT = 0).
import { F64In, I32In, I32Out, F64Prev, I32Prev, Diff } from "./layout";
import { count, prevCount, f64In, i32In, setI32Out, prevF64, prevI32, prevOut } from "./state";
import { tableSize, hash3 } from "./sort";

const BOX_TOLERANCE: f64 = 2; // px: closer than this in x, y, width and height is the same box

function prevI(c: i32, p: i32): i32 { return unchecked(prevI32[c * prevCount + p]); }
function prevF(c: i32, p: i32): f64 { return unchecked(prevF64[c * prevCount + p]); }

/** The same box on the screen (a fixed bar, or the page did not scroll) or on the page (it scrolled): a
 *  scroll alone moves nothing. */
function sameBox(i: i32, p: i32): bool {
  if (Math.abs(f64In(F64In.X, i) - prevF(F64Prev.X, p)) > BOX_TOLERANCE
    || Math.abs(f64In(F64In.W, i) - prevF(F64Prev.W, p)) > BOX_TOLERANCE
    || Math.abs(f64In(F64In.H, i) - prevF(F64Prev.H, p)) > BOX_TOLERANCE) return false;
  const dy = f64In(F64In.Y, i) - prevF(F64Prev.Y, p);
  return Math.abs(dy) <= BOX_TOLERANCE || Math.abs(dy + f64In(F64In.SCROLL_Y, i) - prevF(F64Prev.SCROLL_Y, p)) <= BOX_TOLERANCE;
}

/** A hash multimap from a key of the previous elements to their indices, chained in prev order. */
class PrevIndex {
  heads: Int32Array = new Int32Array(tableSize(prevCount));
  next: Int32Array = new Int32Array(prevCount);
  constructor(public kind: i32) {
    const size = this.heads.length;
    this.heads.fill(-1);
    for (let p = prevCount - 1; p >= 0; p--) {
      const slot = this.keyOfPrev(p) & (size - 1);
      unchecked(this.next[p] = unchecked(this.heads[slot]));
      unchecked(this.heads[slot] = p);
    }
  }
  keyOfPrev(p: i32): i32 {
    if (this.kind == 0) return hash3(prevI(I32Prev.KEY_ID, p), 0, 0);
    if (this.kind == 1) return hash3(prevI(I32Prev.KEY_IDENT, p), prevI(I32Prev.KEY_STATE, p), 1);
    return hash3(prevI(I32Prev.KEY_IDENT, p), 0, 2);
  }
  keyOfCurrent(i: i32): i32 {
    if (this.kind == 0) return hash3(i32In(I32In.KEY_ID, i), 0, 0);
    if (this.kind == 1) return hash3(i32In(I32In.KEY_IDENT, i), i32In(I32In.KEY_STATE, i), 1);
    return hash3(i32In(I32In.KEY_IDENT, i), 0, 2);
  }
  first(i: i32): i32 { return unchecked(this.heads[this.keyOfCurrent(i) & (this.heads.length - 1)]); }
  after(p: i32): i32 { return unchecked(this.next[p]); }
}

export function computeDiff(): void {
  const n = count;
  const matched = new Int32Array(n);
  const byId = new PrevIndex(0);
  const byContent = new PrevIndex(1);
  const byIdentity = new PrevIndex(2);
  for (let pass = 1; pass <= 5; pass++) {
    for (let i = 0; i < n; i++) {
      if (unchecked(matched[i]) != 0) continue;
      const id = i32In(I32In.KEY_ID, i), ident = i32In(I32In.KEY_IDENT, i), state = i32In(I32In.KEY_STATE, i);
      const index = pass == 2 ? byContent : (pass == 4 ? byIdentity : byId);
      for (let p = index.first(i); p >= 0; p = index.after(p)) {
        if (unchecked(prevOut[p]) != 0) continue;
        const sameId = prevI(I32Prev.KEY_ID, p) == id;
        const sameIdent = prevI(I32Prev.KEY_IDENT, p) == ident;
        const sameState = prevI(I32Prev.KEY_STATE, p) == state;
        let status = -1;
        if (pass == 1) { if (sameId && sameIdent && sameState && sameBox(i, p)) status = Diff.NONE; }
        else if (pass == 2) { if (sameIdent && sameState && sameBox(i, p)) status = Diff.NONE; }
        else if (pass == 3) { if (sameId && sameIdent) status = sameState ? Diff.MOVED : Diff.MODIFIED; }
        else if (pass == 4) { if (sameIdent) status = sameState ? Diff.MOVED : Diff.MODIFIED; }
        else if (sameId && prevI(I32Prev.ROLE, p) == i32In(I32In.ROLE, i)) status = Diff.MODIFIED;
        if (status < 0) continue;
        // An element matched on identity alone whose box did not move changed only its state.
        if (status == Diff.MOVED && sameBox(i, p)) status = Diff.NONE;
        unchecked(prevOut[p] = 1);
        unchecked(matched[i] = 1);
        setI32Out(I32Out.DIFF, i, status);
        break;
      }
    }
  }
  for (let i = 0; i < n; i++) if (unchecked(matched[i]) == 0) setI32Out(I32Out.DIFF, i, Diff.ADDED);
}
