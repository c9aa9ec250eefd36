// The snapshot request a collection of a page makes: one place for the Node helpers (page.ts) and the
// page-injected rank bundle that Python drives (in-page.ts), so both rank the same request.
import type { CollectResult, CollectedElement } from '../collect/types.ts';
import type { SnapshotRequest, PreviousElement } from '../schema/snapshot.ts';

export interface RequestOptions {
  goal?: string;
  limit?: number;
  filter?: NonNullable<NonNullable<SnapshotRequest['options']>['filter']>;
  /** Elements of an earlier snapshot, for `diff_status`. */
  previous?: PreviousElement[];
  /** At most this many o200k tokens of elements (as JSON): the most important that fit, in rank order;
   *  the result then carries `token_count` and `truncated` (locally as through the API). */
  maxTokens?: number;
}

export function snapshotRequest(url: string, collected: CollectResult, options: RequestOptions): SnapshotRequest {
  return {
    url,
    viewport: collected.viewport,
    raw_elements: collected.raw_elements as CollectedElement[] as SnapshotRequest['raw_elements'],
    goal: options.goal,
    options: { limit: options.limit, filter: options.filter, previous: options.previous, max_tokens: options.maxTokens },
    client_metrics: collected.client_metrics,
    client_diagnostics: collected.client_diagnostics,
  };
}

/** A local rank has no server cap: the caller's `limit` (default 50) is the only bound. */
export const LOCAL_LIMIT_CAP = Number.MAX_SAFE_INTEGER;
