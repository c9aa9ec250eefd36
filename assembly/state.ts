// Request-scoped buffers of the core. `prepare` allocates them for one call; the JS door writes the
// inputs through views, calls `run`, and reads the outputs. Nothing here survives the next `prepare`
// except the goal-embedding table, which `loadTable` places once per process (per core instance).
import { Buf, F64In, I32In, F64Out, I32Out, F64Prev, I32Prev, Param, ModalField, MAX_MODALS, Feature } from "./layout";

export let count: i32 = 0;
export let prevCount: i32 = 0;

export let inF64 = new Float64Array(0);
export let inI32 = new Int32Array(0);
export let outF64 = new Float64Array(0);
export let outI32 = new Int32Array(0);
export let order = new Int32Array(0);
export let prevF64 = new Float64Array(0);
export let prevI32 = new Int32Array(0);
export let prevOut = new Int32Array(0);
export let params = new Float64Array(Param.COUNT);
export let roleAllow = new Int32Array(0);
export let tagAllow = new Int32Array(0);
export let modals = new Float64Array(0);
export let tokens = new Int32Array(0);
export let goal = new Int32Array(0);
export let weights = new Float64Array(0);
export let features = new Float64Array(0);
export let embIds = new Int32Array(0);
export let embSlots = new Int32Array(0);
/** The goal-embedding table (allocateTable): `tableTag` names it for the door (0: none loaded). */
export let embTable = new Int8Array(0);
export let embTableScales = new Float64Array(0);
export let tableTag: i32 = 0;
/** What the core computed for a text the door numbered (its slot: never reused while the table is held),
 *  kept across requests in rings indexed by slot modulo their size, each entry under 1 + its slot (0:
 *  empty). Its cosine with the goal and the epoch (the goal) it was computed in: */
export let embKept = new Float64Array(0);
export let embKeptEpoch = new Int32Array(0);
export let embKeptSlot = new Int32Array(0);
/** Whatever the goal, its tokens' summed vector (dim values) and that sum's squared norm: a new goal
 *  then costs a dot product per text, not a sum over its tokens' rows. */
export let embSums = new Float64Array(0);
export let embSumNorm = new Float64Array(0);
export let embSumSlot = new Int32Array(0);

/** `tokenCount` hashes of element text and `goalCount` of the goal (both 0 without a goal);
 *  `emitFeatures` 1 makes room for the rerank features (training). */
export function allocate(n: i32, nPrev: i32, roleCount: i32, tagCount: i32, tokenCount: i32, goalCount: i32, emitFeatures: i32): void {
  count = n;
  prevCount = nPrev;
  inF64 = new Float64Array(n * F64In.COUNT);
  inI32 = new Int32Array(n * I32In.COUNT);
  outF64 = new Float64Array(n * F64Out.COUNT);
  outI32 = new Int32Array(n * I32Out.COUNT);
  order = new Int32Array(n);
  prevF64 = new Float64Array(nPrev * F64Prev.COUNT);
  prevI32 = new Int32Array(nPrev * I32Prev.COUNT);
  prevOut = new Int32Array(nPrev);
  params = new Float64Array(Param.COUNT);
  roleAllow = new Int32Array(roleCount);
  tagAllow = new Int32Array(tagCount);
  modals = new Float64Array(MAX_MODALS * ModalField.COUNT);
  tokens = new Int32Array(tokenCount);
  goal = new Int32Array(goalCount);
  weights = new Float64Array(Feature.COUNT);
  features = new Float64Array(emitFeatures != 0 ? n * Feature.COUNT : 0);
  allocateEmbed(0);
}

/** The request's goal-embedding tokens, after `allocate`: `ids` table rows. */
export function allocateEmbed(ids: i32): void {
  embIds = new Int32Array(ids);
  embSlots = new Int32Array(ids);
}

/** Room for a goal-embedding table of `size` rows of `dim` values, named `tag` (the door fills it), for
 *  `slots` kept cosines and `sums` kept sums (each a power of two). */
export function allocateTable(size: i32, dim: i32, tag: i32, slots: i32, sums: i32): void {
  embTable = new Int8Array(size * dim);
  embTableScales = new Float64Array(size);
  embKept = new Float64Array(slots);
  embKeptEpoch = new Int32Array(slots);
  embKeptSlot = new Int32Array(slots);
  embSums = new Float64Array(sums * dim);
  embSumNorm = new Float64Array(sums);
  embSumSlot = new Int32Array(sums);
  tableTag = tag;
}

/** The buffer behind a Buf id: the one table the Wasm and JS entries both hand out from. */
export function buffer(b: i32): ArrayBufferView {
  if (b == Buf.IN_F64) return inF64;
  if (b == Buf.IN_I32) return inI32;
  if (b == Buf.OUT_F64) return outF64;
  if (b == Buf.OUT_I32) return outI32;
  if (b == Buf.ORDER) return order;
  if (b == Buf.PREV_F64) return prevF64;
  if (b == Buf.PREV_I32) return prevI32;
  if (b == Buf.PREV_OUT) return prevOut;
  if (b == Buf.PARAMS) return params;
  if (b == Buf.ROLE_ALLOW) return roleAllow;
  if (b == Buf.TAG_ALLOW) return tagAllow;
  if (b == Buf.TOKENS) return tokens;
  if (b == Buf.GOAL) return goal;
  if (b == Buf.WEIGHTS) return weights;
  if (b == Buf.FEATURES) return features;
  if (b == Buf.EMB_IDS) return embIds;
  if (b == Buf.EMB_TABLE) return embTable;
  if (b == Buf.EMB_TABLE_SCALES) return embTableScales;
  if (b == Buf.EMB_SLOTS) return embSlots;
  return modals;
}

// Column accessors: column c of element i lives at c * n + i.
export function f64In(c: i32, i: i32): f64 { return unchecked(inF64[c * count + i]); }
export function i32In(c: i32, i: i32): i32 { return unchecked(inI32[c * count + i]); }
export function f64Out(c: i32, i: i32): f64 { return unchecked(outF64[c * count + i]); }
export function setF64Out(c: i32, i: i32, v: f64): void { unchecked(outF64[c * count + i] = v); }
export function i32Out(c: i32, i: i32): i32 { return unchecked(outI32[c * count + i]); }
export function setI32Out(c: i32, i: i32, v: i32): void { unchecked(outI32[c * count + i] = v); }
export function param(p: i32): f64 { return unchecked(params[p]); }
export function setParam(p: i32, v: f64): void { unchecked(params[p] = v); }
