// The rank core: one call ranks one request. The JS door (src/rank) fills the input buffers after
// `prepare`, calls `run`, and reads the outputs. The passes run in dependency order.
import { Param } from "./layout";
import { allocate, param, outI32, prevOut } from "./state";
import { resolveViewport, computeGeometry } from "./geometry";
import { computeOcclusion } from "./occlusion";
import { computeScores } from "./score";
import { computeGroups } from "./group";
import { selectTop } from "./select";
import { computeDiff } from "./diff";

export { bufferLength } from "./state";
export { colorName, colorCount } from "./palette";

/** Allocates the buffers for n elements, nPrev previous elements and the filter tables. */
export function prepareBuffers(n: i32, nPrev: i32, roleCount: i32, tagCount: i32): void {
  allocate(n, nPrev, roleCount, tagCount);
}

/** Ranks the prepared elements; returns how many were selected into ORDER. */
export function run(): i32 {
  // Passes OR flags into the outputs: start from zero so `run` can be repeated on the same input.
  outI32.fill(0);
  prevOut.fill(0);
  resolveViewport();
  computeGeometry();
  computeOcclusion();
  computeScores();
  computeGroups();
  const selected = selectTop();
  if (param(Param.HAS_PREVIOUS) != 0) computeDiff();
  return selected;
}
