// The networked store: Postgres through `pg` (docs/decisions.md, "Postgres store"). The same contract
// and semantics as the SQLite store: every check-and-change is one conditional statement (data-modifying
// CTEs) or a short transaction, so row locks make it exact when many processes share one database, and
// a hold resolves at most once (the second resolver waits on the hold's row lock, then finds it no longer
// `held`). Keys are cached in process for a few seconds; deactivations and credit changes are announced
// with NOTIFY and drop the cached key in every instance at once. A failure to reach the database becomes
// StoreUnavailableError (503 store_unavailable), answered fast thanks to short timeouts.
import pg from 'pg';
import type { Account, Hold, IdempotencyClaim, LedgerKind, LedgerRow, RateLimit, Store, UsageRow } from './store.ts';
import { StoreUnavailableError } from './store.ts';
import { generateKey, hashKey, keyPrefix, looksLikeKey } from './keys.ts';
import { migratePostgres } from './postgres-migrations.ts';

/** The channel announcing an account whose key must not be served from a cache any more. */
export const ACCOUNTS_CHANNEL = 'sightline_accounts';

export interface PostgresOptions {
  /** postgres://… for queries (may point at PgBouncer in transaction mode). */
  url: string;
  /** A direct connection for LISTEN (a session feature PgBouncer's transaction mode cannot carry);
   *  default: `url`. */
  listenUrl?: string;
  /** Connections in this process's pool. */
  poolSize?: number;
  /** How long a cached key is trusted without a notification (0: no cache). */
  keyCacheMs?: number;
  /** Time to open a connection, and for one statement, before the store counts as unavailable. */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Run the migrations when opening (default true). */
  migrate?: boolean;
}

/** The Postgres store: the contract plus what moving a SQLite store over needs. */
export interface PostgresStore extends Store {
  /** Copies one account by its key hash (the clear key is never known) with `credits` as a grant; false
   *  when an account with this hash exists already (nothing changes then). */
  importAccount(account: { keyHash: string; prefix: string; credits: number; active: boolean; createdAt: string }): Promise<boolean>;
  /** Whether the key cache is in use (it is only while the LISTEN connection is up). */
  cacheLive(): boolean;
}

// BIGINT columns come back as numbers: every value here (credits, ids, epoch ms) is a safe integer.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser,
};

interface Row { id: number; prefix: string; credits: number; held: number; active: boolean; created_at: string }
const COLS = 'id, prefix, credits, held, active, created_at';
const toAccount = (r: Row): Account => ({ id: r.id, prefix: r.prefix, credits: r.credits, held: r.held, active: r.active, created_at: r.created_at });

/** SQLSTATE classes meaning the server is not there to answer: connection exceptions (08), operator
 *  intervention such as a shutdown (57P), insufficient resources such as too many connections (53),
 *  a refused login (28) or a database that is not there (3D000). */
const UNAVAILABLE_SQLSTATE = /^(08|57P|53|28|3D000)/;

/** Whether an error from `pg` means the database could not be reached (rather than a refused statement). */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof pg.DatabaseError) return UNAVAILABLE_SQLSTATE.test(err.code ?? '') || err.code === '57014'; // 57014: statement timeout
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  if (code && NETWORK_CODES.has(code)) return true;
  return /Connection terminated|timeout|connection error|Connection ended|not queryable|Client was closed/i.test(err.message);
}

/** Socket errors: refused, reset, unreachable, no such socket file. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOENT']);

/**
 * At most `max` store calls at once; the rest wait here, in order. pg's pool counts its connection
 * timeout from the moment a caller asks, so without this a burst queued behind its own busy connections
 * would time out and answer 503 store_unavailable although Postgres is fine; behind the gate the timeout
 * measures only connecting to Postgres. (Waiting here is bounded by the request's deadline.)
 */
function gate(max: number) {
  let free = max;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next(); else free++;
    }
  };
}

const unavailable = (err: unknown) => (isUnavailable(err) ? new StoreUnavailableError(`the Postgres store is unavailable: ${(err as Error).message}`, 1, { cause: err }) : err);

/** Opens the store (migrating it unless told not to). Rejects with StoreUnavailableError when the
 *  database cannot be reached. */
export async function openPostgresStore(options: PostgresOptions): Promise<PostgresStore> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const statementTimeoutMs = options.statementTimeoutMs ?? 5000;
  const keyCacheMs = options.keyCacheMs ?? 5000;
  const poolSize = options.poolSize ?? 10;
  const slot = gate(poolSize);
  const pool = new pg.Pool({
    connectionString: options.url, max: poolSize, types,
    connectionTimeoutMillis: connectTimeoutMs,
    // Client side, so it holds behind PgBouncer too (no startup parameters needed).
    query_timeout: statementTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  // An idle connection that dies (the server stopped) is reported here; without a listener it would
  // crash the process. The next query opens a new connection or fails as unavailable.
  pool.on('error', () => {});
  let closed = false;

  const q = async <R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> => {
    if (closed) throw new Error('the store is closed');
    return slot(async () => {
      try {
        return (await pool.query<R>(text, values)).rows;
      } catch (err) {
        throw unavailable(err);
      }
    });
  };
  /** Runs fn in one short transaction on one connection. */
  const tx = async <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    if (closed) throw new Error('the store is closed');
    return slot(() => inTransaction(fn));
  };
  const inTransaction = async <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw unavailable(err);
    }
    let broken: unknown;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      broken = err;
      await client.query('ROLLBACK').catch(() => {});
      throw unavailable(err);
    } finally {
      client.release(broken !== undefined && isUnavailable(broken) ? (broken as Error) : undefined);
    }
  };

  if (options.migrate !== false) {
    try {
      await migratePostgres(pool);
    } catch (err) {
      await pool.end().catch(() => {});
      throw unavailable(err);
    }
  }

  // The key cache and the connection that keeps it honest. While LISTEN is down nothing is cached, so a
  // deactivation can never be missed.
  const cache = new Map<string, { account: Account; at: number }>();
  const hashesById = new Map<number, Set<string>>();
  // Bumped by every notification: a key read from the database while one arrived is not cached (the
  // read may have started before the change committed).
  let generation = 0;
  const forget = (id: number) => {
    generation++;
    for (const hash of hashesById.get(id) ?? []) cache.delete(hash);
    hashesById.delete(id);
  };
  let listening = false;
  let listener: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = 250;
  const listen = async () => {
    if (closed || keyCacheMs <= 0) return;
    const client = new pg.Client({ connectionString: options.listenUrl ?? options.url, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
    listener = client;
    const lost = () => {
      if (listener !== client) return;
      listening = false;
      listener = undefined;
      generation++;
      cache.clear();
      hashesById.clear();
      client.end().catch(() => {});
      if (!closed) {
        retryTimer = setTimeout(() => void listen(), retryMs);
        retryTimer.unref();
        retryMs = Math.min(retryMs * 2, 5000);
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      if (n.channel === ACCOUNTS_CHANNEL) forget(Number(n.payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${ACCOUNTS_CHANNEL}`);
      if (listener !== client || closed) { await client.end().catch(() => {}); return; }
      listening = true;
      retryMs = 250;
    } catch {
      lost();
    }
  };
  await listen();

  const wholeCredits = (n: number, what: string) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a whole number >= 0 (got ${n})`);
  };
  const one = async (text: string, values: unknown[], id: number): Promise<Account> => {
    const [row] = await q<Row>(text, values);
    if (!row) throw new Error(`no account with id ${id}`);
    return toAccount(row);
  };

  // A hold resolves in one statement: the hold's row (locked; matched only while `held`), the account's
  // balances and the ledger row change together or not at all.
  const RESOLVE = `
    WITH h AS (
      UPDATE holds SET state = $2, resolved_ms = $3, spent = coalesce($4::bigint, credits)
      WHERE id = $1 AND state = 'held' AND credits >= coalesce($4::bigint, 0)
      RETURNING account_id, credits, spent, request_id),
    a AS (
      UPDATE accounts SET held = accounts.held - h.credits, credits = accounts.credits + h.credits - h.spent
      FROM h WHERE accounts.id = h.account_id RETURNING accounts.id),
    l AS (
      INSERT INTO ledger (account_id, hold_id, delta, kind, request_id, reason, created_ms)
      SELECT account_id, $1, -spent, $5, request_id, $6, $3 FROM h RETURNING id)
    SELECT count(*)::int AS n FROM l, a`;
  const resolveHold = async (holdId: number, state: 'posted' | 'voided', spent: number | null, reason: string | null, now: number): Promise<boolean> => {
    const [{ n }] = await q<{ n: number }>(RESOLVE, [holdId, state, now, spent, state === 'posted' ? 'post' : 'void', reason]);
    if (n > 0) return true;
    if (spent !== null && spent > 0) {
      const [found] = await q<{ credits: number; state: string }>('SELECT credits, state FROM holds WHERE id = $1', [holdId]);
      if (found?.state === 'held' && found.credits < spent) throw new RangeError(`hold ${holdId} holds ${found.credits} credits: cannot post ${spent}`);
    }
    return false;
  };

  const refilled = 'least($3::float8, rate_buckets.tokens + greatest(0, $4::bigint - rate_buckets.updated_ms) * $2::float8 / 1000.0)';

  const store: PostgresStore = {
    async findByHash(hash) {
      const now = Date.now();
      const hit = cache.get(hash);
      if (hit && listening && now - hit.at < keyCacheMs) return hit.account;
      const seen = generation;
      const [row] = await q<Row>(`SELECT ${COLS} FROM accounts WHERE key_hash = $1`, [hash]);
      if (!row) return undefined;
      const account = toAccount(row);
      if (listening && keyCacheMs > 0 && seen === generation) {
        cache.set(hash, { account, at: now });
        let hashes = hashesById.get(account.id);
        if (!hashes) hashesById.set(account.id, hashes = new Set());
        hashes.add(hash);
      }
      return account;
    },
    async takeToken(accountId, { rate, burst }: RateLimit, now = Date.now()) {
      const taken = await q(`
        INSERT INTO rate_buckets (account_id, tokens, updated_ms) VALUES ($1, $3::float8 - 1, $4)
        ON CONFLICT (account_id) DO UPDATE SET tokens = ${refilled} - 1, updated_ms = greatest(rate_buckets.updated_ms, $4::bigint)
        WHERE ${refilled} >= 1
        RETURNING tokens`, [accountId, rate, burst, now]);
      if (taken.length) return 0;
      const [b] = await q<{ tokens: number; updated_ms: number }>('SELECT tokens, updated_ms FROM rate_buckets WHERE account_id = $1', [accountId]);
      const tokens = b ? Math.min(burst, b.tokens + Math.max(0, now - b.updated_ms) * rate / 1000) : 0;
      return Math.max(1, Math.ceil((1 - tokens) / rate));
    },
    async reserve(accountId, credits, requestId, ttlMs, now = Date.now()): Promise<Hold | null> {
      if (!Number.isSafeInteger(credits) || credits <= 0) throw new RangeError(`a hold needs a whole number of credits > 0 (got ${credits})`);
      const expiresMs = now + ttlMs;
      const [row] = await q<{ id: number; available: number }>(`
        WITH a AS (UPDATE accounts SET credits = credits - $2, held = held + $2 WHERE id = $1 AND credits >= $2 RETURNING credits)
        INSERT INTO holds (account_id, credits, request_id, state, created_ms, expires_ms)
        SELECT $1, $2, $3, 'held', $4, $5 FROM a
        RETURNING id, (SELECT credits FROM a) AS available`, [accountId, credits, requestId, now, expiresMs]);
      return row ? { id: row.id, accountId, credits, requestId, expiresMs, available: row.available } : null;
    },
    async post(holdId, actualCredits, now = Date.now()) {
      if (actualCredits !== undefined) wholeCredits(actualCredits, 'posted credits');
      return resolveHold(holdId, 'posted', actualCredits ?? null, null, now);
    },
    async void(holdId, reason, now = Date.now()) {
      return resolveHold(holdId, 'voided', 0, reason, now);
    },
    async sweep(now = Date.now()) {
      let voided = 0;
      // One statement per hold: each locks its hold and its account, never several accounts at once.
      for (const { id } of await q<{ id: number }>("SELECT id FROM holds WHERE state = 'held' AND expires_ms <= $1 ORDER BY id", [now])) {
        if (await resolveHold(id, 'voided', 0, 'expired', now)) voided++;
      }
      await q('DELETE FROM idempotency WHERE expires_ms <= $1', [now]);
      await q('DELETE FROM observe_cache WHERE expires_ms <= $1', [now]);
      return voided;
    },
    async balance(accountId) {
      const [row] = await q<{ credits: number; held: number }>('SELECT credits, held FROM accounts WHERE id = $1', [accountId]);
      if (!row) throw new Error(`no account with id ${accountId}`);
      return { available: row.credits, held: row.held };
    },
    async ledger(accountId) {
      const rows = await q<{ id: number; account_id: number; hold_id: number | null; delta: number; kind: LedgerKind; request_id: string | null; reason: string | null; created_ms: number }>(
        'SELECT * FROM ledger WHERE account_id = $1 ORDER BY id', [accountId]);
      return rows.map((r): LedgerRow => ({ id: r.id, accountId: r.account_id, holdId: r.hold_id, delta: r.delta, kind: r.kind, requestId: r.request_id, reason: r.reason, createdMs: r.created_ms }));
    },
    async usage(accountId, limit, beforeId) {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number >= 1 (got ${limit})`);
      const rows = await q<{ id: number; kind: 'post' | 'void'; credits: number; request_id: string | null; reason: string | null; created_ms: number }>(`
        SELECT l.id, l.kind, CASE l.kind WHEN 'post' THEN -l.delta ELSE coalesce(h.credits, 0) END AS credits, l.request_id, l.reason, l.created_ms
        FROM ledger l LEFT JOIN holds h ON h.id = l.hold_id
        WHERE l.account_id = $1 AND l.id < $2 AND l.kind IN ('post', 'void')
        ORDER BY l.id DESC LIMIT $3`, [accountId, beforeId ?? Number.MAX_SAFE_INTEGER, limit]);
      return rows.map((r): UsageRow => ({ id: r.id, kind: r.kind, credits: r.credits, requestId: r.request_id, reason: r.reason, createdMs: r.created_ms }));
    },
    async claimIdempotency(accountId, key, requestHash, lockMs, now = Date.now()): Promise<IdempotencyClaim> {
      for (;;) {
        // New, or its record expired (kept outcome or a dead process's lock): claim it in one statement.
        const claimed = await q(`
          INSERT INTO idempotency (account_id, key, request_hash, state, expires_ms) VALUES ($1, $2, $3, 'running', $4)
          ON CONFLICT (account_id, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'running',
            status = NULL, content_type = NULL, body = NULL, expires_ms = excluded.expires_ms
          WHERE idempotency.expires_ms <= $5
          RETURNING 1`, [accountId, key, requestHash, now + lockMs, now]);
        if (claimed.length) return { state: 'claimed' };
        const [row] = await q<{ request_hash: string; state: string; status: number | null; content_type: string | null; body: string | null }>(
          'SELECT request_hash, state, status, content_type, body FROM idempotency WHERE account_id = $1 AND key = $2 AND expires_ms > $3', [accountId, key, now]);
        if (!row) continue; // released between the two statements: claim again
        if (row.request_hash !== requestHash) return { state: 'mismatch' };
        if (row.state === 'running') return { state: 'running' };
        return { state: 'done', outcome: { status: row.status!, contentType: row.content_type!, body: row.body! } };
      }
    },
    async completeIdempotency(accountId, key, outcome, keepMs, now = Date.now()) {
      await q("UPDATE idempotency SET state = 'done', status = $3, content_type = $4, body = $5, expires_ms = $6 WHERE account_id = $1 AND key = $2 AND state = 'running'",
        [accountId, key, outcome.status, outcome.contentType, outcome.body, now + keepMs]);
    },
    async releaseIdempotency(accountId, key) {
      await q("DELETE FROM idempotency WHERE account_id = $1 AND key = $2 AND state = 'running'", [accountId, key]);
    },
    async cacheGet(key, minStoredMs, now = Date.now()) {
      const [row] = await q<{ body: string | null; blob: string | null; stored_ms: number }>(
        'SELECT body, blob, stored_ms FROM observe_cache WHERE key = $1 AND stored_ms >= $2 AND expires_ms > $3', [key, minStoredMs, now]);
      return row && { body: row.body, blob: row.blob, storedMs: row.stored_ms };
    },
    async cachePut(key, entry, expiresMs) {
      // A newer result replaces an older one, never the reverse (two instances storing at once).
      await q(`INSERT INTO observe_cache (key, body, blob, stored_ms, expires_ms) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (key) DO UPDATE SET body = EXCLUDED.body, blob = EXCLUDED.blob, stored_ms = EXCLUDED.stored_ms, expires_ms = EXCLUDED.expires_ms
        WHERE EXCLUDED.stored_ms >= observe_cache.stored_ms`, [key, entry.body, entry.blob, entry.storedMs, expiresMs]);
    },
    async createKey(credits, active) {
      wholeCredits(credits, 'credits');
      const key = generateKey();
      const now = Date.now();
      const [row] = await q<Row>(`
        WITH a AS (INSERT INTO accounts (key_hash, prefix, credits, active, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLS}),
        l AS (INSERT INTO ledger (account_id, delta, kind, reason, created_ms) SELECT id, $3, 'grant', 'key created', $6 FROM a WHERE $3::bigint <> 0)
        SELECT * FROM a`, [hashKey(key), keyPrefix(key), credits, active, new Date(now).toISOString(), now]);
      return { key, account: toAccount(row) };
    },
    async importAccount({ keyHash, prefix, credits, active, createdAt }) {
      wholeCredits(credits, 'credits');
      const rows = await q(`
        WITH a AS (INSERT INTO accounts (key_hash, prefix, credits, active, created_at) VALUES ($1, $2, $3, $4, $5)
          ON CONFLICT (key_hash) DO NOTHING RETURNING id),
        l AS (INSERT INTO ledger (account_id, delta, kind, reason, created_ms) SELECT id, $3, 'grant', 'migrated from sqlite', $6 FROM a WHERE $3::bigint <> 0)
        SELECT id FROM a`, [keyHash, prefix, credits, active, createdAt, Date.now()]);
      return rows.length > 0;
    },
    async listAccounts() {
      return (await q<Row>(`SELECT ${COLS} FROM accounts ORDER BY id`)).map(toAccount);
    },
    async resolve(ref) {
      if (looksLikeKey(ref)) return store.findByHash(hashKey(ref));
      if (/^\d+$/.test(ref)) {
        if (!Number.isSafeInteger(Number(ref))) return undefined;
        const [row] = await q<Row>(`SELECT ${COLS} FROM accounts WHERE id = $1`, [Number(ref)]);
        return row && toAccount(row);
      }
      const rows = await q<Row>(`SELECT ${COLS} FROM accounts WHERE prefix = $1 LIMIT 2`, [ref]);
      return rows.length === 1 ? toAccount(rows[0]) : undefined;
    },
    async setCredits(accountId, credits) {
      wholeCredits(credits, 'credits');
      return tx(async (c) => {
        const { rows: [before] } = await c.query<{ credits: number }>('SELECT credits FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
        if (!before) throw new Error(`no account with id ${accountId}`);
        const { rows: [after] } = await c.query<Row>(`UPDATE accounts SET credits = $2 WHERE id = $1 RETURNING ${COLS}`, [accountId, credits]);
        if (credits !== before.credits) {
          await c.query("INSERT INTO ledger (account_id, delta, kind, reason, created_ms) VALUES ($1, $2, 'grant', 'set-credits', $3)", [accountId, credits - before.credits, Date.now()]);
        }
        // Delivered at commit: every instance drops its cached copy of the account.
        await c.query('SELECT pg_notify($1, $2)', [ACCOUNTS_CHANNEL, String(accountId)]);
        return toAccount(after);
      });
    },
    async setActive(accountId, active) {
      // The accounts_changed trigger announces the change (docs/decisions.md).
      const account = await one(`UPDATE accounts SET active = $2 WHERE id = $1 RETURNING ${COLS}`, [accountId, active], accountId);
      forget(accountId);
      return account;
    },
    cacheLive: () => listening,
    async ping() {
      await q('SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      const l = listener;
      listener = undefined;
      listening = false;
      await Promise.all([pool.end().catch(() => {}), l?.end().catch(() => {})]);
    },
  };
  return store;
}
