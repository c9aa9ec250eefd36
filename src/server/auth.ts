// Bearer auth (SPEC "Authentication"): 401 for a missing or unknown key, 403 for an inactive account.
import { SightlineError } from '../schema/errors.ts';
import { hashKey, looksLikeKey } from '../store/keys.ts';
import type { Account, Store } from '../store/store.ts';
import type { HttpRequest } from './http.ts';
import type { KeyLimits } from './limits.ts';

/** The account behind the bearer key (401 when missing or unknown). Activity is checked separately so a
 * 403 can still report the account's credits. */
export async function findAccount(store: Store, header: string): Promise<Account> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!header) throw new SightlineError('unauthorized', 'Missing API key: send the header "Authorization: Bearer <API_KEY>"');
  if (!match) throw new SightlineError('unauthorized', 'Invalid Authorization header: expected "Bearer <API_KEY>"');
  const account = looksLikeKey(match[1]) ? await store.findByHash(hashKey(match[1])) : undefined;
  if (!account) throw new SightlineError('unauthorized', 'Invalid API key');
  return account;
}

export function assertActive(account: Account): void {
  if (!account.active) throw new SightlineError('account_inactive', 'Account inactive: this API key is deactivated');
}

/** The key (401) and the account (403), found once per request: the idempotency check and the route
 *  both need them. */
export async function authenticate(store: Store, req: HttpRequest): Promise<Account> {
  if (req.account) return req.account;
  const account = await findAccount(store, req.authorization);
  req.account = account;
  assertActive(account);
  return account;
}

/**
 * What every paid route does first: the key (401), the account (403, with its balance in the error),
 * one token from the key's bucket (429 with Retry-After), then, with `--key-concurrency`, a lease among
 * the key's requests in progress (429 beyond; the router releases it when the route's work ends).
 * Returns the account.
 */
export async function admit(store: Store, req: HttpRequest, limits: KeyLimits): Promise<Account> {
  const account = await authenticate(store, req);
  const { rateLimit } = limits;
  const wait = await limits.take(account.id);
  if (wait > 0) {
    const err = new SightlineError('rate_limited', `Rate limit exceeded: at most ${rateLimit.rate} requests per second (burst ${rateLimit.burst}) per key; retry in ${wait} s`);
    err.retryAfter = wait;
    throw err;
  }
  if (limits.keyConcurrency > 0) {
    const lease = await limits.lease(account.id);
    if (!lease) {
      const err = new SightlineError('rate_limited', `Too many requests at once: at most ${limits.keyConcurrency} in progress per key; retry when one has finished`);
      err.retryAfter = 1;
      throw err;
    }
    req.releaseLease = () => lease.release();
  }
  return account;
}
