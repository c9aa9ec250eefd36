// Versioned migrations of the SQLite store. `schema_version` holds the version reached; each migration
// runs in its own immediate transaction that re-reads the version first, so worker threads and
// processes opening one file at once migrate it exactly once. A database made before versioning (no
// `schema_version`, the tables of migration 1) is version 0 and upgrades in place, keys and balances kept.
import type { Database } from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  up(db: Database, nowMs: number): void;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'accounts and rate buckets (the schema before versioning; IF NOT EXISTS keeps old files as they are)',
    up(db) {
      db.exec(`
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
        );`);
    },
  },
  {
    version: 2,
    name: 'holds, the append-only ledger (opening balances as grants) and idempotency records',
    up(db, nowMs) {
      db.exec(`
        ALTER TABLE accounts ADD COLUMN held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0);
        CREATE TABLE holds (
          id INTEGER PRIMARY KEY,
          account_id INTEGER NOT NULL REFERENCES accounts(id),
          credits INTEGER NOT NULL CHECK (credits > 0),
          request_id TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('held', 'posted', 'voided')),
          created_ms INTEGER NOT NULL,
          expires_ms INTEGER NOT NULL,
          resolved_ms INTEGER,
          spent INTEGER
        );
        CREATE INDEX holds_open ON holds (expires_ms) WHERE state = 'held';
        CREATE TABLE ledger (
          id INTEGER PRIMARY KEY,
          account_id INTEGER NOT NULL REFERENCES accounts(id),
          hold_id INTEGER REFERENCES holds(id),
          delta INTEGER NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('grant', 'post', 'void')),
          request_id TEXT,
          reason TEXT,
          created_ms INTEGER NOT NULL
        );
        CREATE INDEX ledger_account ON ledger (account_id, id);
        CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
        CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
        CREATE TABLE idempotency (
          account_id INTEGER NOT NULL REFERENCES accounts(id),
          key TEXT NOT NULL,
          request_hash TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('running', 'done')),
          status INTEGER,
          content_type TEXT,
          body TEXT,
          expires_ms INTEGER NOT NULL,
          PRIMARY KEY (account_id, key)
        );
        CREATE INDEX idempotency_expiry ON idempotency (expires_ms);`);
      // Balances from before the ledger become its first rows, so the invariant holds from here on.
      db.prepare(`INSERT INTO ledger (account_id, delta, kind, reason, created_ms)
        SELECT id, credits, 'grant', 'opening balance (migration 2)', ? FROM accounts WHERE credits <> 0 ORDER BY id`).run(nowMs);
    },
  },
  {
    version: 3,
    name: 'the observe cache (cached reads, issue 42)',
    up(db) {
      db.exec(`
        CREATE TABLE observe_cache (
          key TEXT PRIMARY KEY,
          body TEXT,
          blob TEXT,
          stored_ms INTEGER NOT NULL,
          expires_ms INTEGER NOT NULL
        );
        CREATE INDEX observe_cache_expiry ON observe_cache (expires_ms);`);
    },
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** The version a database is at (0: new, or made before versioning). */
export function schemaVersion(db: Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
  if (!table) return 0;
  return (db.prepare('SELECT max(version) AS v FROM schema_version').get() as { v: number | null }).v ?? 0;
}

/** Brings the database to LATEST_VERSION; returns the versions applied here (empty when none were due). */
export function migrate(db: Database, nowMs = Date.now()): number[] {
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    const ran = db.transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)');
      if (schemaVersion(db) >= migration.version) return false;
      migration.up(db, nowMs);
      db.prepare('INSERT INTO schema_version (version, name, applied_ms) VALUES (?, ?, ?)').run(migration.version, migration.name, nowMs);
      return true;
    }).immediate();
    if (ran) applied.push(migration.version);
  }
  const version = schemaVersion(db);
  if (version > LATEST_VERSION) throw new Error(`the store is at schema version ${version}, newer than this program (${LATEST_VERSION}): upgrade sightline`);
  return applied;
}
