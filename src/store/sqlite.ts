// The embedded store: one SQLite file (WAL, busy timeout) shared safely by every worker thread and
// process of a server. Credits and rate-limit tokens move in single conditional statements, so
// concurrent requests can never overdraw a balance or a bucket.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Account, RateLimit, Store } from './store.ts';
import { generateKey, hashKey, keyPrefix, looksLikeKey } from './keys.ts';

export const DB_FILE = 'sightline.db';
/** How long a writer waits for another thread or process holding the lock. */
const BUSY_TIMEOUT_MS = 5000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  credits INTEGER NOT NULL CHECK (credits >= 0),
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rate_buckets (
  account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  tokens REAL NOT NULL,
  updated_ms INTEGER NOT NULL
);`;

interface Row { id: number; prefix: string; credits: number; active: number; created_at: string }

const toAccount = (r: Row): Account => ({ id: r.id, prefix: r.prefix, credits: r.credits, active: r.active === 1, created_at: r.created_at });

export function openSqliteStore(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DB_FILE), { timeout: BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);

  const cols = 'id, prefix, credits, active, created_at';
  const byHash = db.prepare<[string], Row>(`SELECT ${cols} FROM accounts WHERE key_hash = ?`);
  const byId = db.prepare<[number], Row>(`SELECT ${cols} FROM accounts WHERE id = ?`);
  const byPrefix = db.prepare<[string], Row>(`SELECT ${cols} FROM accounts WHERE prefix = ?`);
  const all = db.prepare<[], Row>(`SELECT ${cols} FROM accounts ORDER BY id`);
  const insert = db.prepare<[string, string, number, number, string], Row>(
    `INSERT INTO accounts (key_hash, prefix, credits, active, created_at) VALUES (?, ?, ?, ?, ?) RETURNING ${cols}`);
  const charge = db.prepare<[number, number, number], { credits: number }>(
    'UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= ? RETURNING credits');
  const give = db.prepare<[number, number], { credits: number }>(
    'UPDATE accounts SET credits = credits + ? WHERE id = ? RETURNING credits');
  const setCreditsStmt = db.prepare<[number, number], Row>(`UPDATE accounts SET credits = ? WHERE id = ? RETURNING ${cols}`);
  const setActiveStmt = db.prepare<[number, number], Row>(`UPDATE accounts SET active = ? WHERE id = ? RETURNING ${cols}`);
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

  return {
    findByHash(hash) {
      const row = byHash.get(hash);
      return row && toAccount(row);
    },
    takeToken(accountId, { rate, burst }: RateLimit, now = Date.now()) {
      if (take.get({ id: accountId, rate, burst, now })) return 0;
      const b = bucket.get(accountId);
      const tokens = b ? Math.min(burst, b.tokens + Math.max(0, now - b.updated_ms) * rate / 1000) : 0;
      return Math.max(1, Math.ceil((1 - tokens) / rate));
    },
    reserve(accountId, cost) {
      return charge.get(cost, accountId, cost)?.credits ?? null;
    },
    refund(accountId, cost) {
      const row = give.get(cost, accountId);
      if (!row) throw new Error(`no account with id ${accountId}`);
      return row.credits;
    },
    balance(accountId) {
      return mustGet(byId.get(accountId), accountId).credits;
    },
    createKey(credits, active) {
      const key = generateKey();
      const row = insert.get(hashKey(key), keyPrefix(key), credits, active ? 1 : 0, new Date().toISOString());
      return { key, account: toAccount(row!) };
    },
    listAccounts() {
      return all.all().map(toAccount);
    },
    resolve(ref) {
      if (looksLikeKey(ref)) return this.findByHash(hashKey(ref));
      if (/^\d+$/.test(ref)) { const row = byId.get(Number(ref)); return row && toAccount(row); }
      const rows = byPrefix.all(ref);
      return rows.length === 1 ? toAccount(rows[0]) : undefined;
    },
    setCredits(accountId, credits) {
      return mustGet(setCreditsStmt.get(credits, accountId), accountId);
    },
    setActive(accountId, active) {
      return mustGet(setActiveStmt.get(active ? 1 : 0, accountId), accountId);
    },
    ping() {
      ping.get();
    },
    close() {
      if (db.open) db.close();
    },
  };
}
