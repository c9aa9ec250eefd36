// JS-build entry: the same core compiled as plain JavaScript (AssemblyScript's portable mode), used as
// the parity oracle in tests and the baseline in benchmarks. Buffers are handed out as typed arrays.
import { Buf } from "./layout";
import { prepareBuffers } from "./core";
import { inF64, inI32, outF64, outI32, order, prevF64, prevI32, prevOut, params, roleAllow, tagAllow, modals } from "./state";

export { run, bufferLength, colorName, colorCount } from "./core";

export function prepare(n: i32, nPrev: i32, roleCount: i32, tagCount: i32): void {
  prepareBuffers(n, nPrev, roleCount, tagCount);
}

export function buffer(b: i32): Float64Array | Int32Array {
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
  return modals;
}
