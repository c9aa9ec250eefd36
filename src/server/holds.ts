// Credits as holds around a request's work (docs/decisions.md, "Holds"): reserve before the work, post
// when it succeeded for a request still being answered, void when it failed, when the client went away,
// or at the deadline. A hold resolves at most once, so whichever of post and void comes first wins; the
// router asks (releaseHold) before it answers 504, so a 504 is never charged. A hold whose process died
// is voided by the sweeper once its TTL passes.
import type { Logger } from 'pino';
import { SightlineError } from '../schema/errors.ts';
import type { Store } from '../store/store.ts';
import type { HttpRequest } from './http.ts';
import type { Metrics, PaidRoute } from './metrics.ts';

export interface HoldOptions {
  store: Store;
  /** How long a hold may stay unresolved before the sweeper voids it; longer than the deadline. */
  ttlMs: number;
  /** Credits held count as charged, holds voided as refunded (sightline_credits_*_total). */
  metrics?: Metrics;
  route?: PaidRoute;
}

/** Why the request's signal fired: `deadline` or `client_closed`. */
export const abortReason = (signal: AbortSignal) => (typeof signal.reason === 'string' ? signal.reason : 'aborted');

function cancelled(signal: AbortSignal): SightlineError {
  return abortReason(signal) === 'client_closed'
    ? new SightlineError('timeout', 'The client closed the connection before the answer')
    : new SightlineError('timeout', 'The request was cancelled at its deadline');
}

/**
 * Holds `cost` credits for `work`, then posts them when it succeeds; `work` gets the available credits
 * after the hold (the SPEC's credits_remaining). Throws insufficient_credits (nothing held) when short.
 */
export async function withHold<T>(options: HoldOptions, req: HttpRequest, accountId: number, cost: number, what: string, work: (available: number) => T | Promise<T>): Promise<T> {
  const { store, ttlMs, metrics, route } = options;
  if (req.signal.aborted) throw cancelled(req.signal);
  const hold = await store.reserve(accountId, cost, req.requestId, ttlMs);
  if (!hold) throw new SightlineError('insufficient_credits', `Insufficient credits: ${what} costs ${cost} credit${cost === 1 ? '' : 's'}`);
  if (metrics && route) metrics.charged(route, cost);

  let voiding: Promise<boolean> | undefined;
  let posting: Promise<boolean> | undefined;
  // A store that fails to void leaves the hold held: the sweeper voids it at its TTL, so nothing is
  // charged either way.
  const voidOnce = (reason: string) => (voiding ??= store.void(hold.id, reason).then((done) => {
    if (done && metrics && route) metrics.refunded(route, cost);
    return done;
  }, () => true));
  req.releaseHold = async (reason) => {
    if (await voidOnce(reason)) return 'voided';
    return posting && await posting.catch(() => false) ? 'posted' : 'voided';
  };
  const onAbort = () => void voidOnce(abortReason(req.signal));
  req.signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (req.signal.aborted) onAbort();
    let result: T;
    try {
      result = await work(hold.available);
    } catch (err) {
      // Work that used its whole budget is paid for even though it failed (a hostile page must not
      // hold the service's workers for free); a post that loses to a void (the deadline) charges nothing.
      if (err instanceof SightlineError && err.charge && !voiding && await store.post(hold.id)) {
        req.creditsUsed = cost;
        throw err;
      }
      await voidOnce(err instanceof SightlineError ? err.code : 'internal_error');
      throw err;
    }
    if (req.signal.aborted) {
      await voidOnce(abortReason(req.signal));
      throw cancelled(req.signal);
    }
    posting = voiding ? Promise.resolve(false) : store.post(hold.id);
    if (!(await posting)) {
      // Voided first: the deadline passed or the client left while the work finished.
      throw req.signal.aborted ? cancelled(req.signal) : new SightlineError('timeout', 'The request\'s hold expired before its work finished');
    }
    req.creditsUsed = cost;
    return result;
  } finally {
    req.signal.removeEventListener('abort', onAbort);
  }
}

/** Voids expired holds every `intervalMs` (and once at start: holds left by a process that died while
 *  this one was down). Returns a stop function. */
export function startSweeper(store: Store, intervalMs: number, logger: Logger): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const voided = await store.sweep();
      if (voided > 0) logger.warn({ voided }, 'sweeper voided expired holds (their process died or lost its store)');
    } catch (err) {
      logger.error({ err }, 'sweeper failed');
    } finally {
      running = false;
    }
  };
  void sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
