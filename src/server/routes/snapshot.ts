// POST /v1/snapshot (SPEC): auth, rate limit, validation, a credit held before ranking and posted when
// the result is ready (voided if we fail), then the ranked result with what it cost.
import { SnapshotRequest, type SnapshotResponse, type SnapshotTextResponse } from '../../schema/snapshot.ts';
import { fieldWarnings } from '../../schema/fields.ts';
import type { Ranker } from '../../rank/ranker.ts';
import { toPrompt } from '../../rank/prompt.ts';
import type { Store } from '../../store/store.ts';
import type { KeyLimits } from '../limits.ts';
import { admit } from '../auth.ts';
import { readSnapshotBody } from '../body.ts';
import { withHold } from '../holds.ts';
import { json } from '../reply.ts';
import type { Route } from '../router.ts';
import type { Metrics } from '../metrics.ts';
import { fitElements } from '../../budget/elements.ts';

/** SPEC "Limits": one credit per snapshot. */
export const SNAPSHOT_COST = 1;

export interface SnapshotDeps {
  store: Store;
  ranker: Ranker;
  limits: KeyLimits;
  /** How long a hold may stay unresolved before the sweeper voids it. */
  holdTtlMs: number;
  metrics?: Metrics;
}

export function snapshotRoute({ store, ranker, limits, holdTtlMs, metrics }: SnapshotDeps): Route {
  return async (req) => {
    const account = await admit(store, req, limits);
    // Validated before the hold: an invalid request is a 400 even for a key with no credits.
    const request = readSnapshotBody(req, ranker);
    // Never a silent drop (fields.ts); the columnar body's header carries the request's own fields as sent.
    const warnings = fieldWarnings(SnapshotRequest, request);
    const started = performance.now();
    const options = request.options;
    const text = options?.format === 'text';
    const response = await withHold({ store, ttlMs: holdTtlMs, metrics, route: 'snapshot' }, req, account.id, SNAPSHOT_COST, 'a snapshot', async (available): Promise<SnapshotResponse> => {
      const ranked: SnapshotResponse = { ...ranker.rank(request, true), credits_used: SNAPSHOT_COST, credits_remaining: available, ...(warnings.length ? { warnings } : {}) };
      if (options?.max_tokens == null) return text ? { ...ranked, text: toPrompt(ranked) } : ranked;
      // The budget keeps the most important elements that fit: a prefix of the ranking.
      const fit = await fitElements(ranked.elements, options.max_tokens, text ? { text: (kept) => toPrompt({ ...ranked, elements: kept }) } : {});
      return { ...ranked, elements: fit.elements, ...(text ? { text: fit.text } : {}), token_count: fit.token_count, truncated: fit.truncated };
    });
    metrics?.ranking('snapshot', (performance.now() - started) / 1000);
    if (text && options?.elements === false) {
      const { elements: _, ...rest } = response;
      return json(200, { ...rest, text: rest.text! } satisfies SnapshotTextResponse);
    }
    return json(200, response);
  };
}
