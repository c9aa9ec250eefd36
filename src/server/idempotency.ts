// Idempotency-Key on the charged routes (docs/decisions.md, "Idempotency keys"). The first outcome of a
// key is kept for 24 h by (account, key) with a hash of the request; a retry with the same key and
// request gets that outcome again (`Idempotent-Replayed: true`) without running or charging a second
// time; the same key with another request is a 422; a retry while the first still runs is a 409.
// Only outcomes a retry could not change are kept: a 5xx, 402, 408, 409 or 429 releases the key
// (nothing was charged), so the retry runs again.
import { createHash } from 'node:crypto';
import { SightlineError, badRequest } from '../schema/errors.ts';
import type { Store } from '../store/store.ts';
import type { HttpRequest, Reply } from './http.ts';

/** How long an outcome is kept. */
export const IDEMPOTENCY_KEEP_MS = 24 * 3600_000;
export const REPLAYED_HEADER = 'idempotent-replayed';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The header's value as a key: 1 to 255 visible ASCII characters, 0x21-0x7E (a UUID is the usual
 * choice). The transports hand over the value's bytes one character each (node:http decodes headers
 * as Latin-1) or UTF-8 decoded (uWS), so any byte outside that range shows as a character outside it.
 * uWS drops bytes above 0x7F at the two ends of a value, as it drops white space; the shipped front
 * (deploy/haproxy.cfg) checks the raw bytes before them (docs/decisions.md, "Idempotency-Key bytes").
 */
export function checkIdempotencyKey(value: string): string {
  if (!value) throw badRequest('Invalid Idempotency-Key header: empty (send 1 to 255 visible ASCII characters, or no header)');
  if (value.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw badRequest(`Invalid Idempotency-Key header: at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters (got ${value.length})`);
  if (!/^[\x21-\x7e]+$/.test(value)) throw badRequest('Invalid Idempotency-Key header: only visible ASCII characters (0x21-0x7E) are accepted, once');
  return value;
}

/** What makes two requests "the same": method, path and the exact body bytes. */
export function requestHash(req: Pick<HttpRequest, 'method' | 'path' | 'body'>): string {
  return createHash('sha256').update(`${req.method} ${req.path}\n`).update(req.body).digest('hex');
}

const RETRYABLE = new Set([402, 408, 409, 429]);
/** Whether an outcome is kept for replays. */
export const keepsOutcome = (status: number) => status < 500 && !RETRYABLE.has(status);

export interface IdempotencyDeps {
  store: Store;
  /** How long a claim blocks retries (409) before it is taken to belong to a dead process: the hold TTL. */
  lockMs: number;
}

/**
 * Runs `answer` once per (account, key): replays a kept outcome, refuses a reused or running key, or
 * runs and keeps (or releases) the outcome. `answer` never throws: it is the router's reply, errors
 * included.
 */
export async function idempotent(deps: IdempotencyDeps, req: HttpRequest, accountId: number, key: string, answer: () => Promise<Reply>): Promise<Reply> {
  const claim = await deps.store.claimIdempotency(accountId, key, requestHash(req), deps.lockMs);
  if (claim.state === 'mismatch') throw new SightlineError('idempotency_key_reused', `Idempotency-Key "${key.slice(0, 64)}" was already used with a different request: use a new key for a new request`);
  if (claim.state === 'running') {
    const err = new SightlineError('idempotency_in_progress', 'A request with this Idempotency-Key is still running: retry after it finishes');
    err.retryAfter = 1;
    throw err;
  }
  if (claim.state === 'done') {
    const { status, contentType, body } = claim.outcome;
    return { status, contentType, body, headers: { [REPLAYED_HEADER]: 'true' } };
  }
  const reply = await answer();
  try {
    if (keepsOutcome(reply.status)) {
      await deps.store.completeIdempotency(accountId, key, { status: reply.status, contentType: reply.contentType, body: String(reply.body) }, IDEMPOTENCY_KEEP_MS);
    } else {
      await deps.store.releaseIdempotency(accountId, key);
    }
  } catch {
    // The store failed after the work: the claim's lock expires at its TTL, then a retry runs again.
    // The answer itself stands.
  }
  return reply;
}
