// Wasm entry. Memory is request-scoped: `prepare` resets the stub runtime's heap, so nothing is ever
// freed piecemeal and a call never leaks. The JS build (assembly/portable.ts) has the same surface.
import { Buf } from "./layout";
import { prepareBuffers } from "./core";
import { inF64, inI32, outF64, outI32, order, prevF64, prevI32, prevOut, params, roleAllow, tagAllow, modals } from "./state";

export { run, bufferLength, colorName, colorCount } from "./core";

export function prepare(n: i32, nPrev: i32, roleCount: i32, tagCount: i32): void {
  heap.reset();
  prepareBuffers(n, nPrev, roleCount, tagCount);
}

/** Byte offset of a buffer's data in linear memory. */
export function bufferPtr(b: i32): usize {
  if (b == Buf.IN_F64) return inF64.dataStart;
  if (b == Buf.IN_I32) return inI32.dataStart;
  if (b == Buf.OUT_F64) return outF64.dataStart;
  if (b == Buf.OUT_I32) return outI32.dataStart;
  if (b == Buf.ORDER) return order.dataStart;
  if (b == Buf.PREV_F64) return prevF64.dataStart;
  if (b == Buf.PREV_I32) return prevI32.dataStart;
  if (b == Buf.PREV_OUT) return prevOut.dataStart;
  if (b == Buf.PARAMS) return params.dataStart;
  if (b == Buf.ROLE_ALLOW) return roleAllow.dataStart;
  if (b == Buf.TAG_ALLOW) return tagAllow.dataStart;
  if (b == Buf.MODALS) return modals.dataStart;
  return 0;
}
