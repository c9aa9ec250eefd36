// rank(): encode -> core -> decode. The one pipeline behind every door (snapshot endpoint, observe
// map/visual, the client library, the extension).
import type { RankResult, MlRerank } from '../schema/snapshot.ts';
import { encode, type EncodeOptions, type Encoded } from './encode.ts';
import { decode } from './decode.ts';
import { diagnose } from './diagnostics.ts';
import type { CoreBackend } from './backend.ts';

export type RankerOptions = EncodeOptions;

/** Probability the goal rerank must reach before it reorders anything. */
export const MIN_RERANK_CONFIDENCE = 0.5;

function rerankInfo(enc: Encoded): MlRerank {
  const goal = enc.request.goal?.trim();
  return {
    enabled: false,
    applied: false,
    reason: goal ? 'goal-aware rerank is not available in this version' : 'no goal given',
    candidate_count: 0,
    top_probability: 0,
    min_confidence: MIN_RERANK_CONFIDENCE,
    is_high_confidence: false,
    tags: [],
    error: null,
  };
}

export class Ranker {
  constructor(readonly core: CoreBackend, readonly options: RankerOptions = {}) {}

  /**
   * Ranks a snapshot request synchronously. Throws a SightlineError (bad_request) on invalid input.
   * `admit` runs after the request is validated and before the core works: the server charges credits
   * there, so an invalid request is refused before it can cost anything. If it throws, nothing is ranked.
   */
  rank(request: unknown, admit?: (request: Encoded['request']) => void): RankResult {
    const enc = encode(request, this.core, this.options);
    admit?.(enc.request);
    const selected = this.core.run();
    const dec = decode(this.core, enc, selected);
    return {
      status: 'success',
      url: enc.request.url,
      timestamp: new Date().toISOString(),
      viewport: dec.viewport,
      elements: dec.elements,
      dominant_group_key: dec.dominant_group_key,
      ml_rerank: rerankInfo(enc),
      diagnostics: diagnose(enc, dec),
      modal_detected: dec.modal_detected,
      modal_grids: dec.modal_grids,
      error: null,
    };
  }
}
