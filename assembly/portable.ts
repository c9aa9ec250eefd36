// JS-build entry: the same core compiled as plain JavaScript (AssemblyScript's portable mode), used as
// the parity oracle in tests and the baseline in benchmarks. Buffers are handed out as typed arrays.
import { prepareBuffers } from "./core";
import { allocateEmbed, allocateTable, tableTag as heldTag } from "./state";

export { run, colorName, colorCount } from "./core";
export { buffer } from "./state";

export function prepare(n: i32, nPrev: i32, roleCount: i32, tagCount: i32, tokenCount: i32, goalCount: i32, emitFeatures: i32): void {
  prepareBuffers(n, nPrev, roleCount, tagCount, tokenCount, goalCount, emitFeatures);
}

/** After `prepare`: room for a request's goal-embedding tokens (assembly/embed.ts). */
export function prepareEmbed(ids: i32): void {
  allocateEmbed(ids);
}

/** Room for the goal-embedding table (module state: it outlives every request, as in Wasm). */
export function loadTable(size: i32, dim: i32, tag: i32, slots: i32, sums: i32): void {
  allocateTable(size, dim, tag, slots, sums);
}

/** The tag of the table loaded (0: none). */
export function tableTag(): i32 { return heldTag; }
