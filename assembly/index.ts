// Wasm entry. Memory is request-scoped: `prepare` resets the stub runtime's heap, so nothing is ever
// freed piecemeal and a call never leaks. The JS build (assembly/portable.ts) has the same surface.
import { prepareBuffers } from "./core";
import { allocateEmbed, buffer } from "./state";

export { run, colorName, colorCount } from "./core";

export function prepare(n: i32, nPrev: i32, roleCount: i32, tagCount: i32, tokenCount: i32, goalCount: i32, emitFeatures: i32): void {
  heap.reset();
  prepareBuffers(n, nPrev, roleCount, tagCount, tokenCount, goalCount, emitFeatures);
}

/** Byte offset of a buffer's data in linear memory. */
export function bufferPtr(b: i32): usize { return buffer(b).dataStart; }

/** Size of a buffer in bytes. */
export function bufferBytes(b: i32): i32 { return buffer(b).byteLength; }

/** After `prepare`: room for a request's goal-embedding tokens and rows (assembly/embed.ts). */
export function prepareEmbed(ids: i32, rows: i32, dim: i32): void {
  allocateEmbed(ids, rows, dim);
}
