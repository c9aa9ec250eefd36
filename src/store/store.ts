// The store contract: what the server needs from accounts, credits and rate limits. Every operation
// that moves credits or tokens is a single atomic step, so results stay exact across worker threads and
// processes sharing one store.

export interface Account {
  id: number;
  /** The first characters of the key, safe to show. */
  prefix: string;
  credits: number;
  active: boolean;
  created_at: string;
}

export interface RateLimit {
  /** Tokens added per second. */
  rate: number;
  /** Bucket size: the most requests accepted at once after a quiet period. */
  burst: number;
}

export interface Store {
  /** The account a key belongs to, by the key's hash. */
  findByHash(hash: string): Account | undefined;
  /** Takes one token from the account's bucket. Returns 0 when taken, else seconds until one is available. */
  takeToken(accountId: number, limit: RateLimit, nowMs?: number): number;
  /** Reserves `cost` credits. Returns the balance after the charge, or null (nothing charged) when short. */
  reserve(accountId: number, cost: number): number | null;
  /** Gives back credits reserved for a request that failed on our side. Returns the new balance. */
  refund(accountId: number, cost: number): number;
  balance(accountId: number): number;
  /** Creates a key; the clear key is returned once and never stored. */
  createKey(credits: number, active: boolean): { key: string; account: Account };
  listAccounts(): Account[];
  /** Finds an account by full key or by its shown prefix (unique). */
  resolve(ref: string): Account | undefined;
  setCredits(accountId: number, credits: number): Account;
  setActive(accountId: number, active: boolean): Account;
  /** Throws when the store cannot answer. */
  ping(): void;
  close(): void;
}
