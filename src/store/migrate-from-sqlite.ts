// `sightline store migrate-from-sqlite PATH`: copies the accounts of a SQLite store file into Postgres:
// key hashes (clear keys were never stored), prefixes, states, creation times, and each balance as one
// ledger grant. A balance is available plus held: the server using the file must be stopped, and its
// holds would only have been voided (given back) by its sweeper. Accounts whose key hash is already in
// Postgres are left as they are, so running it again copies nothing twice. Read-only on the file.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { openPostgresStore } from './postgres.ts';

export interface MigrateResult { copied: number; skipped: number; credits: number }

export async function migrateFromSqlite(path: string, url: string): Promise<MigrateResult> {
  if (!existsSync(path)) throw new Error(`no SQLite store at ${path}`);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  let rows: { key_hash: string; prefix: string; credits: number; held?: number; active: number; created_at: string }[];
  try {
    rows = db.prepare('SELECT * FROM accounts ORDER BY id').all() as typeof rows;
  } finally {
    db.close();
  }
  const store = await openPostgresStore({ url, keyCacheMs: 0 });
  const result: MigrateResult = { copied: 0, skipped: 0, credits: 0 };
  try {
    for (const r of rows) {
      const credits = r.credits + (r.held ?? 0);
      if (await store.importAccount({ keyHash: r.key_hash, prefix: r.prefix, credits, active: r.active === 1, createdAt: r.created_at })) {
        result.copied++;
        result.credits += credits;
      } else {
        result.skipped++;
      }
    }
  } finally {
    await store.close();
  }
  return result;
}
