// POST /v1/snapshot (SPEC): auth, rate limit, validation, a credit reserved before ranking and given
// back if we fail, then the ranked result with what it cost.
import { SightlineError } from '../../schema/errors.ts';
import type { SnapshotRequest, SnapshotResponse, SnapshotTextResponse } from '../../schema/snapshot.ts';
import type { Ranker } from '../../rank/ranker.ts';
import { toPrompt } from '../../rank/prompt.ts';
import type { RateLimit, Store } from '../../store/store.ts';
import { admit } from '../auth.ts';
import { parseJsonBody } from '../body.ts';
import { json } from '../reply.ts';
import type { Route } from '../router.ts';
import type { Metrics } from '../metrics.ts';

/** SPEC "Limits": one credit per snapshot. */
export const SNAPSHOT_COST = 1;

export interface SnapshotDeps {
  store: Store;
  ranker: Ranker;
  rateLimit: RateLimit;
  metrics?: Metrics;
}

export function snapshotRoute({ store, ranker, rateLimit, metrics }: SnapshotDeps): Route {
  return (req) => {
    const account = admit(store, req, rateLimit);
    const body = parseJsonBody(req);
    let remaining = null as number | null;
    const started = performance.now();
    try {
      const result = ranker.rank(body, () => {
        remaining = store.reserve(account.id, SNAPSHOT_COST);
        if (remaining === null) {
          throw new SightlineError('insufficient_credits', `Insufficient credits: a snapshot costs ${SNAPSHOT_COST} credit`);
        }
        metrics?.charged('snapshot', SNAPSHOT_COST);
      });
      metrics?.ranking('snapshot', (performance.now() - started) / 1000);
      req.creditsUsed = SNAPSHOT_COST;
      const response: SnapshotResponse = { ...result, credits_used: SNAPSHOT_COST, credits_remaining: remaining! };
      // The ranker validated the body: options are typed from here on.
      const options = (body as SnapshotRequest).options;
      if (options?.format !== 'text') return json(200, response);
      const text = toPrompt(result);
      if (options.elements === false) {
        const { elements: _, ...rest } = response;
        return json(200, { ...rest, text } satisfies SnapshotTextResponse);
      }
      return json(200, { ...response, text });
    } catch (err) {
      // Charged but failed on our side: give the credit back. (Validation errors throw before the charge.)
      if (remaining !== null && req.creditsUsed === undefined) {
        store.refund(account.id, SNAPSHOT_COST);
        metrics?.refunded('snapshot', SNAPSHOT_COST);
      }
      throw err;
    }
  };
}
