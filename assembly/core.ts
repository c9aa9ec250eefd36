// The rank core: one call ranks one request. The JS door (src/rank) fills the input buffers after
// `prepare`, calls `run`, and reads the outputs. The passes run in dependency order.
import { Param } from "./layout";
import { allocate, param } from "./state";
import { resolveViewport, computeGeometry } from "./geometry";
import { computeOcclusion } from "./occlusion";
import { computeScores } from "./score";
import { computeGroups } from "./group";
import { selectTop, markRepeats } from "./select";
import { computeRerank, rerankProbabilities } from "./rerank";
import { computeDiff } from "./diff";

export { colorName, colorCount } from "./palette";

/** Allocates the buffers for n elements, nPrev previous elements, the filter tables and the goal. */
export function prepareBuffers(n: i32, nPrev: i32, roleCount: i32, tagCount: i32, tokenCount: i32, goalCount: i32, emitFeatures: i32): void {
  allocate(n, nPrev, roleCount, tagCount, tokenCount, goalCount, emitFeatures);
}

/** Ranks the prepared elements; returns how many were selected into ORDER. One call per `prepare`:
 *  the passes allocate scratch space that only the next `prepare` releases. */
export function run(): i32 {
  resolveViewport();
  computeGeometry();
  computeOcclusion();
  computeScores();
  markRepeats();
  computeGroups();
  if (param(Param.HAS_GOAL) != 0) computeRerank();
  const selected = selectTop();
  if (param(Param.HAS_GOAL) != 0) rerankProbabilities(selected);
  if (param(Param.HAS_PREVIOUS) != 0) computeDiff();
  return selected;
}
