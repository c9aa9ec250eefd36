// The store contract: what the server needs from accounts, credits, rate limits and idempotency
// records. Backend-neutral and asynchronous, so the embedded SQLite store and a networked one
// (Postgres) implement the same interface and pass the same contract suite (test/store-contract.ts).
//
// Credits move as holds (docs/decisions.md, "Holds"): reserve() moves credits from available to held
// before work; post() spends a hold, void() gives it back, and sweep() voids holds whose TTL passed
// (the process that made them died). A hold resolves at most once. Every grant, post and void appends
// to an append-only ledger, so for every key `available + held == sum(ledger.delta)`.

export interface Account {
  id: number;
  /** The first characters of the key, safe to show. */
  prefix: string;
  /** Available credits (held credits are not included). */
  credits: number;
  /** Credits held by requests in flight. */
  held: number;
  active: boolean;
  created_at: string;
}

export interface RateLimit {
  /** Tokens added per second. */
  rate: number;
  /** Bucket size: the most requests accepted at once after a quiet period. */
  burst: number;
}

export interface Hold {
  id: number;
  accountId: number;
  credits: number;
  requestId: string;
  /** When the sweeper may void it (epoch ms). */
  expiresMs: number;
  /** The account's available credits right after the hold was taken. */
  available: number;
}

export interface Balance {
  available: number;
  held: number;
}

export type LedgerKind = 'grant' | 'post' | 'void';

/** One ledger row. `delta` changes `available + held`: a grant adds, a post spends, a void records a
 *  hold given back (delta 0: the credits only move from held to available). */
export interface LedgerRow {
  id: number;
  accountId: number;
  holdId: number | null;
  delta: number;
  kind: LedgerKind;
  requestId: string | null;
  /** Why: `expired`, `deadline`, `client_closed`, an error code, `set-credits`... */
  reason: string | null;
  createdMs: number;
}

/** A charge or a refund as the usage view shows it: a ledger `post` or `void`, newest first. */
export interface UsageRow {
  /** The ledger row's id; newer rows have larger ids (the usage view's cursor). */
  id: number;
  kind: 'post' | 'void';
  /** post: the credits spent; void: the credits the hold held and gave back. */
  credits: number;
  requestId: string | null;
  reason: string | null;
  createdMs: number;
}

/** A stored outcome of an idempotent request. */
export interface StoredOutcome {
  status: number;
  contentType: string;
  body: string;
}

/** What claiming an idempotency key found. */
export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'running' }
  | { state: 'mismatch' }
  | { state: 'done'; outcome: StoredOutcome };

/** A stored observe result (docs/decisions.md, "Cached reads"): its JSON inline, or the blob-store
 *  reference of a large one. */
export interface CachedEntry {
  body: string | null;
  blob: string | null;
  storedMs: number;
}

export interface Store {
  /** The account a key belongs to, by the key's hash. */
  findByHash(hash: string): Promise<Account | undefined>;
  /** Takes one token from the account's bucket. Resolves 0 when taken, else seconds until one is available. */
  takeToken(accountId: number, limit: RateLimit, nowMs?: number): Promise<number>;

  /** Moves `credits` from available to held, or resolves null (nothing held) when too few are available. */
  reserve(accountId: number, credits: number, requestId: string, ttlMs: number, nowMs?: number): Promise<Hold | null>;
  /** Spends a held hold (`actualCredits` ≤ its credits; the rest goes back). False when it was already
   *  posted or voided, or does not exist: nothing changes then. */
  post(holdId: number, actualCredits?: number, nowMs?: number): Promise<boolean>;
  /** Gives a held hold back. False when it was already posted or voided: nothing changes then. */
  void(holdId: number, reason: string, nowMs?: number): Promise<boolean>;
  /** Voids every hold whose TTL has passed and drops expired idempotency records and cache entries;
   *  resolves the number of holds voided. */
  sweep(nowMs?: number): Promise<number>;
  balance(accountId: number): Promise<Balance>;
  /** The account's ledger, oldest first. */
  ledger(accountId: number): Promise<LedgerRow[]>;
  /** The account's charges and refunds (ledger posts and voids; grants left out), newest first: at most
   *  `limit` rows, only rows whose id is below `beforeId` when it is given. */
  usage(accountId: number, limit: number, beforeId?: number): Promise<UsageRow[]>;

  /**
   * Claims (accountId, key) for a request whose body hashes to `requestHash`: `claimed` when it is new
   * (or its earlier claim's lock expired: that process died), `running` while another request holds it,
   * `mismatch` when the key was used with another body, `done` with the stored outcome.
   */
  claimIdempotency(accountId: number, key: string, requestHash: string, lockMs: number, nowMs?: number): Promise<IdempotencyClaim>;
  /** Stores the outcome of a claimed key until `keepMs` from now. */
  completeIdempotency(accountId: number, key: string, outcome: StoredOutcome, keepMs: number, nowMs?: number): Promise<void>;
  /** Forgets a claimed key whose outcome is not kept, so a retry runs again. */
  releaseIdempotency(accountId: number, key: string): Promise<void>;

  /** The cached result under `key` stored at or after `minStoredMs` and not expired, or undefined. */
  cacheGet(key: string, minStoredMs: number, nowMs?: number): Promise<CachedEntry | undefined>;
  /** Stores (or replaces with a newer one) the result under `key` until `expiresMs`. */
  cachePut(key: string, entry: CachedEntry, expiresMs: number): Promise<void>;

  /** Creates a key; the clear key is returned once and never stored. Its credits are a ledger grant. */
  createKey(credits: number, active: boolean): Promise<{ key: string; account: Account }>;
  listAccounts(): Promise<Account[]>;
  /** Finds an account by full key or by its shown prefix (unique). */
  resolve(ref: string): Promise<Account | undefined>;
  /** Sets the available credits; the difference is a ledger grant (held credits are untouched). */
  setCredits(accountId: number, credits: number): Promise<Account>;
  setActive(accountId: number, active: boolean): Promise<Account>;
  /** Rejects when the store cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The store cannot be reached (a networked store down, refusing or too slow): the server answers 503
 *  `store_unavailable` with Retry-After. Errors of the store's own logic are not this. */
export class StoreUnavailableError extends Error {
  /** Seconds a caller should wait before retrying. */
  readonly retryAfter: number;
  constructor(message: string, retryAfter = 1, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
    this.retryAfter = retryAfter;
  }
}
