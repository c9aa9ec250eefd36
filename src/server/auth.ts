// Bearer auth (SPEC "Authentication"): 401 for a missing or unknown key, 403 for an inactive account.
import { SightlineError } from '../schema/errors.ts';
import { hashKey, looksLikeKey } from '../store/keys.ts';
import type { Account, Store } from '../store/store.ts';

/** The account behind the bearer key (401 when missing or unknown). Activity is checked separately so a
 * 403 can still report the account's credits. */
export function findAccount(store: Store, header: string): Account {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!header) throw new SightlineError('unauthorized', 'Missing API key: send the header "Authorization: Bearer <API_KEY>"');
  if (!match) throw new SightlineError('unauthorized', 'Invalid Authorization header: expected "Bearer <API_KEY>"');
  const account = looksLikeKey(match[1]) ? store.findByHash(hashKey(match[1])) : undefined;
  if (!account) throw new SightlineError('unauthorized', 'Invalid API key');
  return account;
}

export function assertActive(account: Account): void {
  if (!account.active) throw new SightlineError('account_inactive', 'Account inactive: this API key is deactivated');
}
