// rank(): encode -> core -> decode. The one pipeline behind every door (snapshot endpoint, observe
// map/visual, the client library, the extension).
import type { RankResult, MlRerank, SnapshotRequest } from '../schema/snapshot.ts';
import { encode, validateRequest, type EncodeOptions, type Encoded } from './encode.ts';
import { decode } from './decode.ts';
import { diagnose } from './diagnostics.ts';
import type { CoreBackend } from './backend.ts';
import type { Decoded } from './decode.ts';
import { RERANK_MODEL } from './rerank-model.ts';
import { KEEP_BELOW } from './encode-goal.ts';

export type RankerOptions = EncodeOptions;

/** Probability the goal rerank must reach before it reorders anything (shipped with the model). */
export const MIN_RERANK_CONFIDENCE = RERANK_MODEL.minConfidence;

/** `is_high_confidence`: the calibrated probability says the first element is more likely the goal's
 *  target than not. Independent of MIN_RERANK_CONFIDENCE, which training may set to 0 (rerank always).
 *  Below it the list keeps the no-goal order's first visible controls (KEEP_BELOW, one value). */
export const HIGH_CONFIDENCE = KEEP_BELOW;

function rerankInfo(enc: Encoded, dec: Decoded): MlRerank {
  const base = { min_confidence: MIN_RERANK_CONFIDENCE, error: null, tags: [] as string[] };
  if (!dec.rerank) {
    return { ...base, enabled: false, applied: false, reason: 'no goal given', candidate_count: 0, top_probability: 0, is_high_confidence: false };
  }
  const top = Math.round(dec.rerank.topProbability * 1e6) / 1e6;
  const tags = [`model_v${RERANK_MODEL.version}`, ...(enc.goalIntent ? [enc.goalIntent] : []), ...(enc.goalOrdinal ? ['ordinal'] : [])];
  return {
    ...base, enabled: true, applied: dec.rerank.applied, tags,
    reason: dec.matched === 0 ? 'no candidates passed the filters'
      : dec.rerank.applied ? 'goal rerank applied' : `top probability ${top} is below min_confidence ${MIN_RERANK_CONFIDENCE}: heuristic order kept`,
    candidate_count: dec.matched, top_probability: top, is_high_confidence: dec.matched > 0 && top >= HIGH_CONFIDENCE,
  };
}

export class Ranker {
  constructor(readonly core: CoreBackend, readonly options: RankerOptions = {}) {}

  /** Checks a snapshot request without ranking it (bad_request SightlineError when invalid): the server
   *  validates before it holds credits, so an invalid request is refused before it can cost anything. */
  validate(request: unknown, typedElements = false): SnapshotRequest {
    return validateRequest(request, typedElements);
  }

  /**
   * Ranks a snapshot request synchronously. Throws a SightlineError (bad_request) on invalid input.
   * `validated`: the request already passed validate(), whose whole-request check is then skipped (frame
   * contents are still checked as they are flattened).
   */
  rank(request: unknown, validated = false): RankResult {
    const enc = encode(request, this.core, { ...this.options, validated });
    const selected = this.core.run();
    const dec = decode(this.core, enc, selected);
    return {
      status: 'success',
      url: enc.request.url,
      timestamp: new Date().toISOString(),
      viewport: dec.viewport,
      elements: dec.elements,
      dominant_group_key: dec.dominant_group_key,
      ml_rerank: rerankInfo(enc, dec),
      diagnostics: diagnose(enc, dec),
      modal_detected: dec.modal_detected,
      modal_grids: dec.modal_grids,
      error: null,
    };
  }
}
