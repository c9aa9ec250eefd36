// The embedded store: one SQLite file (WAL, busy timeout) shared safely by every worker thread and
// process of a server. Every operation that moves credits runs in an immediate transaction (the write
// lock taken at BEGIN), and every check-and-change is one conditional statement inside it, so concurrent
// requests can never overdraw a balance or a bucket, and a hold resolves at most once.
// better-sqlite3 is synchronous; the methods are async only to meet the backend-neutral contract.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Account, Hold, IdempotencyClaim, LedgerKind, LedgerRow, RateLimit, Store, UsageRow } from './store.ts';
import { generateKey, hashKey, keyPrefix, looksLikeKey } from './keys.ts';
import { migrate } from './sqlite-migrations.ts';

export const DB_FILE = 'sightline.db';
/** How long a writer waits for another thread or process holding the lock. */
const BUSY_TIMEOUT_MS = 5000;

interface Row { id: number; prefix: string; credits: number; held: number; active: number; created_at: string }
interface HoldRow { account_id: number; credits: number; request_id: string }
interface LedgerDbRow { id: number; account_id: number; hold_id: number | null; delta: number; kind: LedgerKind; request_id: string | null; reason: string | null; created_ms: number }

const toAccount = (r: Row): Account => ({ id: r.id, prefix: r.prefix, credits: r.credits, held: r.held, active: r.active === 1, created_at: r.created_at });

/** Opens (creating and migrating as needed) the store file under `dataDir`. */
export function openSqliteStore(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DB_FILE), { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }

  const cols = 'id, prefix, credits, held, active, created_at';
  const byHash = db.prepare<[string], Row>(`SELECT ${cols} FROM accounts WHERE key_hash = ?`);
  const byId = db.prepare<[number], Row>(`SELECT ${cols} FROM accounts WHERE id = ?`);
  const byPrefix = db.prepare<[string], Row>(`SELECT ${cols} FROM accounts WHERE prefix = ?`);
  const all = db.prepare<[], Row>(`SELECT ${cols} FROM accounts ORDER BY id`);
  const insert = db.prepare<[string, string, number, number, string], Row>(
    `INSERT INTO accounts (key_hash, prefix, credits, active, created_at) VALUES (?, ?, ?, ?, ?) RETURNING ${cols}`);
  const setCreditsStmt = db.prepare<[number, number], Row>(`UPDATE accounts SET credits = ? WHERE id = ? RETURNING ${cols}`);
  const setActiveStmt = db.prepare<[number, number], Row>(`UPDATE accounts SET active = ? WHERE id = ? RETURNING ${cols}`);

  // Holds. Each resolving statement matches only a hold still `held`, so a second post or void finds
  // nothing and changes nothing.
  const holdCredits = db.prepare<[{ credits: number; id: number }], { credits: number }>(
    'UPDATE accounts SET credits = credits - @credits, held = held + @credits WHERE id = @id AND credits >= @credits RETURNING credits');
  const insertHold = db.prepare<[number, number, string, number, number], { id: number }>(
    "INSERT INTO holds (account_id, credits, request_id, state, created_ms, expires_ms) VALUES (?, ?, ?, 'held', ?, ?) RETURNING id");
  const resolveHold = db.prepare<[{ state: string; now: number; spent: number; id: number }], HoldRow>(
    "UPDATE holds SET state = @state, resolved_ms = @now, spent = @spent WHERE id = @id AND state = 'held' AND credits >= @spent RETURNING account_id, credits, request_id");
  const releaseHeld = db.prepare<[{ held: number; spent: number; id: number }], unknown>(
    'UPDATE accounts SET held = held - @held, credits = credits + @held - @spent WHERE id = @id');
  const holdSize = db.prepare<[number], { credits: number; state: string }>('SELECT credits, state FROM holds WHERE id = ?');
  const expired = db.prepare<[number], { id: number }>("SELECT id FROM holds WHERE state = 'held' AND expires_ms <= ? ORDER BY id");
  const append = db.prepare<[number, number | null, number, LedgerKind, string | null, string | null, number], unknown>(
    'INSERT INTO ledger (account_id, hold_id, delta, kind, request_id, reason, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const ledgerOf = db.prepare<[number], LedgerDbRow>('SELECT * FROM ledger WHERE account_id = ? ORDER BY id');
  // A void's row has delta 0: the credits it gave back are its hold's. The (account_id, id) index walks
  // the account's rows newest first from the cursor.
  const usageOf = db.prepare<[{ id: number; before: number; limit: number }], { id: number; kind: 'post' | 'void'; credits: number; request_id: string | null; reason: string | null; created_ms: number }>(`
    SELECT l.id, l.kind, CASE l.kind WHEN 'post' THEN -l.delta ELSE coalesce(h.credits, 0) END AS credits, l.request_id, l.reason, l.created_ms
    FROM ledger l LEFT JOIN holds h ON h.id = l.hold_id
    WHERE l.account_id = @id AND l.id < @before AND l.kind IN ('post', 'void')
    ORDER BY l.id DESC LIMIT @limit`);
  const balanceOf = db.prepare<[number], { credits: number; held: number }>('SELECT credits, held FROM accounts WHERE id = ?');

  // Idempotency records.
  const idemGet = db.prepare<[number, string], { request_hash: string; state: string; status: number | null; content_type: string | null; body: string | null; expires_ms: number }>(
    'SELECT request_hash, state, status, content_type, body, expires_ms FROM idempotency WHERE account_id = ? AND key = ?');
  const idemClaim = db.prepare<[number, string, string, number], unknown>(
    "INSERT OR REPLACE INTO idempotency (account_id, key, request_hash, state, expires_ms) VALUES (?, ?, ?, 'running', ?)");
  const idemDone = db.prepare<[{ id: number; key: string; status: number; type: string; body: string; expires: number }], unknown>(
    "UPDATE idempotency SET state = 'done', status = @status, content_type = @type, body = @body, expires_ms = @expires WHERE account_id = @id AND key = @key AND state = 'running'");
  const idemRelease = db.prepare<[number, string], unknown>("DELETE FROM idempotency WHERE account_id = ? AND key = ? AND state = 'running'");
  const idemExpire = db.prepare<[number], unknown>('DELETE FROM idempotency WHERE expires_ms <= ?');

  // The observe cache: a newer result replaces an older one, never the reverse.
  const cacheGet = db.prepare<[string, number, number], { body: string | null; blob: string | null; stored_ms: number }>(
    'SELECT body, blob, stored_ms FROM observe_cache WHERE key = ? AND stored_ms >= ? AND expires_ms > ?');
  const cachePut = db.prepare<[{ key: string; body: string | null; blob: string | null; stored: number; expires: number }], unknown>(`
    INSERT INTO observe_cache (key, body, blob, stored_ms, expires_ms) VALUES (@key, @body, @blob, @stored, @expires)
    ON CONFLICT (key) DO UPDATE SET body = excluded.body, blob = excluded.blob, stored_ms = excluded.stored_ms, expires_ms = excluded.expires_ms
    WHERE excluded.stored_ms >= observe_cache.stored_ms`);
  const cacheExpire = db.prepare<[number], unknown>('DELETE FROM observe_cache WHERE expires_ms <= ?');

  // Refill by elapsed time, capped at the burst, then take one token only if one is there: one statement,
  // so the check and the take cannot be split by another writer.
  const refilled = 'min(@burst, tokens + max(0, @now - updated_ms) * @rate / 1000.0)';
  const take = db.prepare<[{ id: number; rate: number; burst: number; now: number }], { tokens: number }>(`
    INSERT INTO rate_buckets (account_id, tokens, updated_ms) VALUES (@id, @burst - 1, @now)
    ON CONFLICT (account_id) DO UPDATE SET tokens = ${refilled} - 1, updated_ms = max(updated_ms, @now)
    WHERE ${refilled} >= 1
    RETURNING tokens`);
  const bucket = db.prepare<[number], { tokens: number; updated_ms: number }>('SELECT tokens, updated_ms FROM rate_buckets WHERE account_id = ?');

  const ping = db.prepare('SELECT 1');

  const mustGet = (row: Row | undefined, id: number): Account => {
    if (!row) throw new Error(`no account with id ${id}`);
    return toAccount(row);
  };
  const wholeCredits = (n: number, what: string) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a whole number >= 0 (got ${n})`);
  };

  /** Resolves a held hold as posted (spending `spent`) or voided (spent 0); false when not held. */
  const resolve = (holdId: number, state: 'posted' | 'voided', spent: number | undefined, reason: string | null, now: number): boolean => {
    let amount = spent;
    if (amount === undefined) {
      const hold = holdSize.get(holdId);
      if (!hold || hold.state !== 'held') return false;
      amount = hold.credits;
    }
    const hold = resolveHold.get({ state, now, spent: amount, id: holdId });
    if (!hold) {
      const found = holdSize.get(holdId);
      if (found?.state === 'held') throw new RangeError(`hold ${holdId} holds ${found.credits} credits: cannot post ${amount}`);
      return false;
    }
    releaseHeld.run({ held: hold.credits, spent: amount, id: hold.account_id });
    append.run(hold.account_id, holdId, -amount, state === 'posted' ? 'post' : 'void', hold.request_id, reason, now);
    return true;
  };

  const reserveTx = db.transaction((accountId: number, credits: number, requestId: string, ttlMs: number, now: number): Hold | null => {
    const row = holdCredits.get({ credits, id: accountId });
    if (!row) return null;
    const expiresMs = now + ttlMs;
    const { id } = insertHold.get(accountId, credits, requestId, now, expiresMs)!;
    return { id, accountId, credits, requestId, expiresMs, available: row.credits };
  });
  const resolveTx = db.transaction(resolve);
  const sweepTx = db.transaction((now: number): number => {
    let voided = 0;
    for (const { id } of expired.all(now)) if (resolve(id, 'voided', 0, 'expired', now)) voided++;
    idemExpire.run(now);
    cacheExpire.run(now);
    return voided;
  });
  const claimTx = db.transaction((accountId: number, key: string, requestHash: string, lockMs: number, now: number): IdempotencyClaim => {
    const row = idemGet.get(accountId, key);
    if (row && row.expires_ms > now) {
      if (row.request_hash !== requestHash) return { state: 'mismatch' };
      if (row.state === 'running') return { state: 'running' };
      return { state: 'done', outcome: { status: row.status!, contentType: row.content_type!, body: row.body! } };
    }
    idemClaim.run(accountId, key, requestHash, now + lockMs);
    return { state: 'claimed' };
  });
  const createTx = db.transaction((credits: number, active: boolean, now: number) => {
    const key = generateKey();
    const row = insert.get(hashKey(key), keyPrefix(key), credits, active ? 1 : 0, new Date(now).toISOString())!;
    if (credits !== 0) append.run(row.id, null, credits, 'grant', null, 'key created', now);
    return { key, account: toAccount(row) };
  });
  const setCreditsTx = db.transaction((accountId: number, credits: number, now: number) => {
    const before = mustGet(byId.get(accountId), accountId);
    const after = mustGet(setCreditsStmt.get(credits, accountId), accountId);
    if (credits !== before.credits) append.run(accountId, null, credits - before.credits, 'grant', null, 'set-credits', now);
    return after;
  });

  const store: Store = {
    async findByHash(hash) {
      const row = byHash.get(hash);
      return row && toAccount(row);
    },
    async takeToken(accountId, { rate, burst }: RateLimit, now = Date.now()) {
      if (take.get({ id: accountId, rate, burst, now })) return 0;
      const b = bucket.get(accountId);
      const tokens = b ? Math.min(burst, b.tokens + Math.max(0, now - b.updated_ms) * rate / 1000) : 0;
      return Math.max(1, Math.ceil((1 - tokens) / rate));
    },
    async reserve(accountId, credits, requestId, ttlMs, now = Date.now()) {
      if (!Number.isSafeInteger(credits) || credits <= 0) throw new RangeError(`a hold needs a whole number of credits > 0 (got ${credits})`);
      return reserveTx.immediate(accountId, credits, requestId, ttlMs, now);
    },
    async post(holdId, actualCredits, now = Date.now()) {
      if (actualCredits !== undefined) wholeCredits(actualCredits, 'posted credits');
      return resolveTx.immediate(holdId, 'posted', actualCredits, null, now);
    },
    async void(holdId, reason, now = Date.now()) {
      return resolveTx.immediate(holdId, 'voided', 0, reason, now);
    },
    async sweep(now = Date.now()) {
      return sweepTx.immediate(now);
    },
    async balance(accountId) {
      const row = balanceOf.get(accountId);
      if (!row) throw new Error(`no account with id ${accountId}`);
      return { available: row.credits, held: row.held };
    },
    async ledger(accountId) {
      return ledgerOf.all(accountId).map((r): LedgerRow => ({
        id: r.id, accountId: r.account_id, holdId: r.hold_id, delta: r.delta, kind: r.kind, requestId: r.request_id, reason: r.reason, createdMs: r.created_ms,
      }));
    },
    async usage(accountId, limit, beforeId) {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number >= 1 (got ${limit})`);
      return usageOf.all({ id: accountId, before: beforeId ?? Number.MAX_SAFE_INTEGER, limit }).map((r): UsageRow => ({
        id: r.id, kind: r.kind, credits: r.credits, requestId: r.request_id, reason: r.reason, createdMs: r.created_ms,
      }));
    },
    async claimIdempotency(accountId, key, requestHash, lockMs, now = Date.now()) {
      return claimTx.immediate(accountId, key, requestHash, lockMs, now);
    },
    async completeIdempotency(accountId, key, outcome, keepMs, now = Date.now()) {
      idemDone.run({ id: accountId, key, status: outcome.status, type: outcome.contentType, body: outcome.body, expires: now + keepMs });
    },
    async releaseIdempotency(accountId, key) {
      idemRelease.run(accountId, key);
    },
    async cacheGet(key, minStoredMs, now = Date.now()) {
      const row = cacheGet.get(key, minStoredMs, now);
      return row && { body: row.body, blob: row.blob, storedMs: row.stored_ms };
    },
    async cachePut(key, entry, expiresMs) {
      cachePut.run({ key, body: entry.body, blob: entry.blob, stored: entry.storedMs, expires: expiresMs });
    },
    async createKey(credits, active) {
      wholeCredits(credits, 'credits');
      return createTx.immediate(credits, active, Date.now());
    },
    async listAccounts() {
      return all.all().map(toAccount);
    },
    async resolve(ref) {
      if (looksLikeKey(ref)) return store.findByHash(hashKey(ref));
      if (/^\d+$/.test(ref)) { const row = byId.get(Number(ref)); return row && toAccount(row); }
      const rows = byPrefix.all(ref);
      return rows.length === 1 ? toAccount(rows[0]) : undefined;
    },
    async setCredits(accountId, credits) {
      wholeCredits(credits, 'credits');
      return setCreditsTx.immediate(accountId, credits, Date.now());
    },
    async setActive(accountId, active) {
      return mustGet(setActiveStmt.get(active ? 1 : 0, accountId), accountId);
    },
    async ping() {
      ping.get();
    },
    async close() {
      if (db.open) db.close();
    },
  };
  return store;
}
