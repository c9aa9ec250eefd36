// The Postgres store on a real postgres process: the same contract suite as SQLite (several pools on one
// database standing in for several instances), its migrations under concurrent starts, the append-only
// ledger, the key cache kept honest by LISTEN/NOTIFY, and unavailability.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { openPostgresStore } from '../src/store/postgres.ts';
import { PG_LATEST_VERSION } from '../src/store/postgres-migrations.ts';
import { hashKey } from '../src/store/keys.ts';
import { StoreUnavailableError, type Store } from '../src/store/store.ts';
import { startPostgres, type PostgresServer } from './helpers/postgres.ts';
import { storeContract, assertLedgerInvariant } from './helpers/store-contract.ts';

let server: PostgresServer;
before(async () => { server = await startPostgres(); });
after(() => server?.destroy());

let made = 0;
async function freshDatabase(): Promise<{ name: string; url: string }> {
  const name = `t${process.pid}_${made++}`;
  return { name, url: await server.createDatabase(name) };
}

storeContract('postgres', {
  async create() {
    const { name, url } = await freshDatabase();
    const open: Store[] = [];
    return {
      async open() {
        const store = await openPostgresStore({ url, poolSize: 4 });
        open.push(store);
        return store;
      },
      async destroy() {
        for (const store of open) await store.close();
        await server.dropDatabase(name);
      },
    };
  },
});

test('postgres: instances starting at once migrate exactly once', async () => {
  const { name, url } = await freshDatabase();
  try {
    const stores = await Promise.all(Array.from({ length: 6 }, () => openPostgresStore({ url, poolSize: 2 })));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_version ORDER BY version');
      assert.deepEqual(rows.map((r) => r.version), Array.from({ length: PG_LATEST_VERSION }, (_, i) => i + 1));
    } finally {
      await client.end();
    }
    const { key } = await stores[0].createKey(3, true);
    assert.equal((await stores[5].findByHash(hashKey(key)))?.credits, 3);
    await Promise.all(stores.map((s) => s.close()));
  } finally {
    await server.dropDatabase(name);
  }
});

test('postgres: the ledger is append-only (UPDATE, DELETE and TRUNCATE are refused)', async () => {
  const { name, url } = await freshDatabase();
  const store = await openPostgresStore({ url });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await store.createKey(4, true);
    await assert.rejects(client.query('UPDATE ledger SET delta = 1000'), /append-only/);
    await assert.rejects(client.query('DELETE FROM ledger'), /append-only/);
    await assert.rejects(client.query('TRUNCATE ledger'), /append-only/);
    assert.equal((await client.query('SELECT sum(delta)::int AS s FROM ledger')).rows[0].s, 4);
  } finally {
    await client.end();
    await store.close();
    await server.dropDatabase(name);
  }
});

test('postgres: two instances (two pools), 400 reserves against 150 credits, posts and voids racing: exact totals', async () => {
  const { name, url } = await freshDatabase();
  const a = await openPostgresStore({ url, poolSize: 8 });
  const b = await openPostgresStore({ url, poolSize: 8 });
  try {
    const { account } = await a.createKey(150, true);
    const holds = await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 ? a : b).reserve(account.id, 1, `r${i}`, 60_000)));
    const got = holds.filter((h) => h !== null);
    assert.equal(got.length, 150);
    assert.deepEqual(await a.balance(account.id), { available: 0, held: 150 });
    // Every third hold voided, the rest posted, each raced by the other instance doing the opposite.
    const results = await Promise.all(got.flatMap((h, i) => (i % 3 === 0
      ? [a.void(h.id, 'failed'), b.post(h.id)]
      : [a.post(h.id), b.void(h.id, 'late')])));
    assert.equal(results.filter(Boolean).length, 150, 'each hold resolved exactly once');
    const ledger = await b.ledger(account.id);
    const posts = ledger.filter((r) => r.kind === 'post').length;
    const voids = ledger.filter((r) => r.kind === 'void').length;
    assert.equal(posts + voids, 150);
    assert.deepEqual(await b.balance(account.id), { available: voids, held: 0 });
    const { ledgerSum } = await assertLedgerInvariant(a, account.id);
    assert.equal(ledgerSum, 150 - posts);
  } finally {
    await a.close();
    await b.close();
    await server.dropDatabase(name);
  }
});

test('postgres: keys are cached, and a deactivation or a credit change on one instance reaches the other at once', async () => {
  const { name, url } = await freshDatabase();
  const one = await openPostgresStore({ url, keyCacheMs: 60_000 });
  const two = await openPostgresStore({ url, keyCacheMs: 60_000 });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    assert.ok(one.cacheLive() && two.cacheLive());
    const { key, account } = await one.createKey(5, true);
    const hash = hashKey(key);
    assert.equal((await two.findByHash(hash))?.active, true);
    // The cache answers: a change written behind the store's back (no notification) is not seen yet.
    await client.query('ALTER TABLE accounts DISABLE TRIGGER accounts_changed');
    await client.query('UPDATE accounts SET prefix = $1 WHERE id = $2', ['sl_cached!', account.id]);
    await client.query('ALTER TABLE accounts ENABLE TRIGGER accounts_changed');
    assert.equal((await two.findByHash(hash))?.prefix, account.prefix, 'served from the cache');

    await one.setActive(account.id, false);
    await waitFor(async () => (await two.findByHash(hash))?.active === false, 'the revocation reaches instance two');
    assert.equal((await two.findByHash(hash))?.prefix, 'sl_cached!', 'read again from the database');

    await one.setActive(account.id, true);
    await waitFor(async () => (await two.findByHash(hash))?.active === true, 'reactivation reaches instance two');
    await one.setCredits(account.id, 42);
    await waitFor(async () => (await two.findByHash(hash))?.credits === 42, 'a credit change reaches instance two');

    // An operator's own SQL is announced too (the trigger), not only this program's writes.
    await client.query('UPDATE accounts SET active = false WHERE id = $1', [account.id]);
    await waitFor(async () => (await one.findByHash(hash))?.active === false && (await two.findByHash(hash))?.active === false, 'SQL deactivation reaches both');
  } finally {
    await client.end();
    await one.close();
    await two.close();
    await server.dropDatabase(name);
  }
});

test('postgres: an unreachable store fails fast with StoreUnavailableError', async () => {
  const { name, url } = await freshDatabase();
  const store = await openPostgresStore({ url, connectTimeoutMs: 1000 });
  const { account } = await store.createKey(5, true);
  await store.close();
  await server.dropDatabase(name);
  // Nothing listens on this port.
  const dead = `postgres://postgres@127.0.0.1:${server.port === 1 ? 2 : 1}/x`;
  const started = Date.now();
  await assert.rejects(openPostgresStore({ url: dead, connectTimeoutMs: 1000 }), StoreUnavailableError);
  assert.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`);
  // A store whose database goes away mid-life answers with the same error.
  const { name: name2, url: url2 } = await freshDatabase();
  const live = await openPostgresStore({ url: url2, connectTimeoutMs: 1000 });
  await server.dropDatabase(name2);
  await assert.rejects(live.reserve(account.id, 1, 'r', 60_000), StoreUnavailableError);
  await assert.rejects(live.ping(), StoreUnavailableError);
  await live.close();
});

async function waitFor(check: () => Promise<boolean>, what: string, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) assert.fail(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
