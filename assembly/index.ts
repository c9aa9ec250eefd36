// Wasm entry. Memory is request-scoped: `prepare` resets the stub runtime's heap, so nothing is ever
// freed piecemeal and a call never leaks. The one exception is the goal-embedding table: `loadTable`
// puts it first on the heap, and every `prepare` takes those bytes again before anything else (the stub
// hands the same address back and does not clear it), so the table is written into the core once per
// process, not per request. The JS build (assembly/portable.ts) has the same surface.
import { prepareBuffers } from "./core";
import { allocateEmbed, allocateTable, buffer, tableTag as heldTag } from "./state";

export { run, colorName, colorCount } from "./core";

/** Bytes at the start of the heap that hold the table (0: none loaded). */
let held: usize = 0;

export function prepare(n: i32, nPrev: i32, roleCount: i32, tagCount: i32, tokenCount: i32, goalCount: i32, emitFeatures: i32): void {
  heap.reset();
  if (held > 0) heap.alloc(held);
  prepareBuffers(n, nPrev, roleCount, tagCount, tokenCount, goalCount, emitFeatures);
}

/** Byte offset of a buffer's data in linear memory. */
export function bufferPtr(b: i32): usize { return buffer(b).dataStart; }

/** Size of a buffer in bytes. */
export function bufferBytes(b: i32): i32 { return buffer(b).byteLength; }

/** After `prepare`: room for a request's goal-embedding tokens (assembly/embed.ts). */
export function prepareEmbed(ids: i32): void {
  allocateEmbed(ids);
}

/** Room for the goal-embedding table, held until the next `loadTable` (the door fills EMB_TABLE and
 *  EMB_TABLE_SCALES, then prepares a request). Ends any request in progress. */
export function loadTable(size: i32, dim: i32, tag: i32, slots: i32, sums: i32): void {
  heap.reset();
  const start = heap.alloc(0);
  heap.free(start); // the last block: freeing it gives its bytes back
  allocateTable(size, dim, tag, slots, sums);
  const end = heap.alloc(0);
  heap.free(end);
  held = end - start;
}

/** The tag of the table loaded (0: none). */
export function tableTag(): i32 { return heldTag; }
