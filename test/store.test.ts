// The SQLite store: the backend-neutral contract suite on a real file shared by several connections,
// and the versioned migrations, from a database the pre-versioning code made (its source kept verbatim
// in test/fixtures/store-v0/, taken from git history).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, DB_FILE } from '../src/store/sqlite.ts';
import { LATEST_VERSION } from '../src/store/sqlite-migrations.ts';
import { hashKey } from '../src/store/keys.ts';
import type { Store } from '../src/store/store.ts';
import { openSqliteStore as openLegacyStore } from './fixtures/store-v0/sqlite.ts';
import { tempDataDir, removeDataDir } from './helpers/server.ts';
import { storeContract, assertLedgerInvariant } from './helpers/store-contract.ts';

storeContract('sqlite', {
  async create() {
    const dir = tempDataDir();
    const open: Store[] = [];
    return {
      async open() {
        const store = openSqliteStore(dir);
        open.push(store);
        return store;
      },
      async destroy() {
        for (const store of open) await store.close();
        removeDataDir(dir);
      },
    };
  },
});

test('sqlite: a database from before versioning upgrades in place: keys, balances and states kept', async () => {
  const dir = tempDataDir();
  try {
    const legacy = openLegacyStore(dir);
    const rich = legacy.createKey(7, true);
    const off = legacy.createKey(3, false);
    const broke = legacy.createKey(0, true);
    assert.equal(legacy.reserve(rich.account.id, 2), 5, 'the old code charged in place');
    assert.equal(legacy.takeToken(rich.account.id, { rate: 1, burst: 2 }, 1000), 0);
    legacy.close();
    const before = new Database(join(dir, DB_FILE));
    const newTables = before.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('schema_version', 'ledger', 'holds')").get() as { n: number };
    assert.equal(newTables.n, 0, 'the old schema has no versions, holds or ledger');
    before.close();

    const store = openSqliteStore(dir);
    try {
      assert.equal((await store.findByHash(hashKey(rich.key)))?.credits, 5);
      assert.deepEqual(await store.balance(rich.account.id), { available: 5, held: 0 });
      assert.deepEqual(await store.balance(off.account.id), { available: 3, held: 0 });
      assert.equal((await store.resolve(off.key))?.active, false);
      assert.equal((await store.resolve(broke.account.prefix))?.credits, 0);
      for (const { account } of [rich, off, broke]) await assertLedgerInvariant(store, account.id);
      assert.deepEqual((await store.ledger(rich.account.id)).map((r) => [r.kind, r.delta, r.reason]), [['grant', 5, 'opening balance (migration 2)']]);
      assert.equal(await store.takeToken(rich.account.id, { rate: 1, burst: 2 }, 1000), 0, 'the rate bucket was kept (one token left)');
      assert.equal(await store.takeToken(rich.account.id, { rate: 1, burst: 2 }, 1000), 1);
      // The upgraded store works like a new one.
      const hold = (await store.reserve(rich.account.id, 5, 'after-upgrade', 60_000))!;
      assert.equal(await store.post(hold.id), true);
      await assertLedgerInvariant(store, rich.account.id);
    } finally {
      await store.close();
    }
    // Opening again migrates nothing twice.
    const again = openSqliteStore(dir);
    assert.equal((await again.ledger(rich.account.id)).length, 2);
    await again.close();
    const db = new Database(join(dir, DB_FILE));
    assert.deepEqual(db.prepare('SELECT version FROM schema_version ORDER BY version').all().map((r) => (r as { version: number }).version), [1, 2, 3]);
    assert.equal(LATEST_VERSION, 3);
    // A file from a newer program is refused rather than misread.
    db.prepare("INSERT INTO schema_version (version, name, applied_ms) VALUES (99, 'from the future', 0)").run();
    db.close();
    assert.throws(() => openSqliteStore(dir), /schema version 99, newer than this program/);
  } finally {
    removeDataDir(dir);
  }
});

test('sqlite: the ledger is append-only', async () => {
  const dir = tempDataDir();
  try {
    const store = openSqliteStore(dir);
    await store.createKey(4, true);
    await store.close();
    const db = new Database(join(dir, DB_FILE));
    assert.throws(() => db.prepare('UPDATE ledger SET delta = 1000').run(), /append-only/);
    assert.throws(() => db.prepare('DELETE FROM ledger').run(), /append-only/);
    db.close();
  } finally {
    removeDataDir(dir);
  }
});
