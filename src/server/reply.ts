// The one place that turns results and errors into response bodies (SPEC "Errors"): snapshot errors are
// `status`, `error` (message), `error_code`; observe errors are `status`, `error` (short name),
// `message`; both with `credits_remaining` when the caller's key is known.
import { SightlineError } from '../schema/errors.ts';
import { StoreUnavailableError } from '../store/store.ts';
import type { SnapshotErrorBody } from '../schema/snapshot.ts';
import type { ObserveErrorBody } from '../schema/observe.ts';
import type { Reply } from './http.ts';

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(body), contentType: 'application/json', headers };
}

/** Any thrown value as a SightlineError; anything unexpected becomes internal_error (details only in logs). */
export function asSightlineError(err: unknown): SightlineError {
  if (err instanceof SightlineError) return err;
  if (err instanceof StoreUnavailableError) {
    const unavailable = new SightlineError('store_unavailable');
    unavailable.retryAfter = err.retryAfter;
    return unavailable;
  }
  return new SightlineError('internal_error');
}

export function errorReply(err: SightlineError, creditsRemaining?: number, shape: 'snapshot' | 'observe' = 'snapshot'): Reply {
  const body: SnapshotErrorBody | ObserveErrorBody = shape === 'observe'
    ? { status: 'error', error: err.code, message: err.message }
    : { status: 'error', error: err.message, error_code: err.code };
  if (creditsRemaining !== undefined) body.credits_remaining = creditsRemaining;
  const headers: Record<string, string> = {};
  if (err.retryAfter !== undefined) headers['retry-after'] = String(err.retryAfter);
  if (err.status === 413 || err.status === 408) headers.connection = 'close';
  return { ...json(err.status, body, headers), errorCode: err.code };
}
