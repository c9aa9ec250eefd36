// Versioned migrations of the Postgres store. Each migration runs in its own transaction that first
// takes a transaction-level advisory lock (pg_advisory_xact_lock) and re-reads `schema_version`, so
// instances starting at once migrate exactly once: the others wait on the lock, then find the version
// reached. A transaction-level lock (not a session one) keeps this safe behind PgBouncer in
// transaction mode, where a session lock could be left on a server connection another client gets.
import type pg from 'pg';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

/** The advisory lock key every instance migrating one database takes (any fixed 64-bit number). */
export const MIGRATION_LOCK = 0x5167_6874_6c6e; // "Sightln"

export const PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    name: 'accounts, rate buckets, holds, the append-only ledger and idempotency records',
    sql: `
      CREATE TABLE accounts (
        id BIGSERIAL PRIMARY KEY,
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        credits BIGINT NOT NULL CHECK (credits >= 0),
        held BIGINT NOT NULL DEFAULT 0 CHECK (held >= 0),
        active BOOLEAN NOT NULL DEFAULT TRUE,
        created_at TEXT NOT NULL
      );
      CREATE INDEX accounts_prefix ON accounts (prefix);
      CREATE TABLE rate_buckets (
        account_id BIGINT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        tokens DOUBLE PRECISION NOT NULL,
        updated_ms BIGINT NOT NULL
      );
      CREATE TABLE holds (
        id BIGSERIAL PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        credits BIGINT NOT NULL CHECK (credits > 0),
        request_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('held', 'posted', 'voided')),
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL,
        resolved_ms BIGINT,
        spent BIGINT
      );
      CREATE INDEX holds_open ON holds (expires_ms) WHERE state = 'held';
      CREATE TABLE ledger (
        id BIGSERIAL PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        hold_id BIGINT REFERENCES holds(id),
        delta BIGINT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('grant', 'post', 'void')),
        request_id TEXT,
        reason TEXT,
        created_ms BIGINT NOT NULL
      );
      CREATE INDEX ledger_account ON ledger (account_id, id);
      CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the ledger is append-only'; END $$;
      CREATE TRIGGER ledger_no_change BEFORE UPDATE OR DELETE ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
      CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON ledger FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
      CREATE TABLE idempotency (
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'done')),
        status INTEGER,
        content_type TEXT,
        body TEXT,
        expires_ms BIGINT NOT NULL,
        PRIMARY KEY (account_id, key)
      );
      CREATE INDEX idempotency_expiry ON idempotency (expires_ms);
      -- A key deactivated (or activated) by any writer, this program or an operator's SQL, is announced
      -- to every instance, which drops it from its key cache at once.
      CREATE FUNCTION accounts_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_notify('sightline_accounts', NEW.id::text); RETURN NULL; END $$;
      CREATE TRIGGER accounts_changed AFTER UPDATE ON accounts FOR EACH ROW
        WHEN (OLD.active IS DISTINCT FROM NEW.active OR OLD.key_hash IS DISTINCT FROM NEW.key_hash)
        EXECUTE FUNCTION accounts_notify();`,
  },
  {
    version: 2,
    name: 'the observe cache (cached reads, issue 42)',
    sql: `
      CREATE TABLE observe_cache (
        key TEXT PRIMARY KEY,
        body TEXT,
        blob TEXT,
        stored_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
      );
      CREATE INDEX observe_cache_expiry ON observe_cache (expires_ms);`,
  },
];

export const PG_LATEST_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;

async function versionOf(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ v: number | null }>('SELECT max(version)::int AS v FROM schema_version');
  return rows[0].v ?? 0;
}

/** Brings the database to PG_LATEST_VERSION; returns the versions applied here (empty when none were due). */
export async function migratePostgres(pool: pg.Pool, nowMs = Date.now()): Promise<number[]> {
  const applied: number[] = [];
  const client = await pool.connect();
  try {
    for (const migration of PG_MIGRATIONS) {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)');
        if (await versionOf(client) < migration.version) {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_version (version, name, applied_ms) VALUES ($1, $2, $3)', [migration.version, migration.name, nowMs]);
          applied.push(migration.version);
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    }
    const version = await versionOf(client);
    if (version > PG_LATEST_VERSION) throw new Error(`the store is at schema version ${version}, newer than this program (${PG_LATEST_VERSION}): upgrade sightline`);
  } finally {
    client.release();
  }
  return applied;
}
