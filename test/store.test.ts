// The SQLite store on its own: atomic credits and token buckets, shared by connections like the
// workers and processes of a server share it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { hashKey, looksLikeKey } from '../src/store/keys.ts';
import type { Store } from '../src/store/store.ts';
import { tempDataDir, removeDataDir } from './helpers/server.ts';

/** Runs fn with `connections` stores open on one fresh data directory, then closes and removes it. */
function withStores(connections: number, fn: (...stores: Store[]) => void): void {
  const dir = tempDataDir();
  const stores = Array.from({ length: connections }, () => openSqliteStore(dir));
  try {
    fn(...stores);
  } finally {
    for (const store of stores) store.close();
    removeDataDir(dir);
  }
}

test('keys are random, stored only as hashes, and found by key, prefix or id', () => withStores(1, (store) => {
  const a = store.createKey(5, true);
  const b = store.createKey(0, false);
  assert.notEqual(a.key, b.key);
  assert.ok(looksLikeKey(a.key));
  assert.equal(store.findByHash(hashKey(a.key))?.id, a.account.id);
  assert.equal(store.resolve(a.key)?.id, a.account.id);
  assert.equal(store.resolve(a.account.prefix)?.id, a.account.id);
  assert.equal(store.resolve(String(b.account.id))?.active, false);
  assert.equal(store.resolve('sl_' + 'x'.repeat(32)), undefined);
}));

test('reserve never overdraws; refund gives back exactly', () => withStores(1, (store) => {
  const { account } = store.createKey(3, true);
  assert.equal(store.reserve(account.id, 2), 1);
  assert.equal(store.reserve(account.id, 2), null, 'short: nothing charged');
  assert.equal(store.balance(account.id), 1);
  assert.equal(store.refund(account.id, 2), 3);
  assert.equal(store.reserve(account.id, 3), 0);
  assert.equal(store.reserve(account.id, 1), null);
}));

test('token bucket: burst, refill by elapsed time, Retry-After seconds, shared between connections', () => withStores(2, (one, two) => {
  const { account } = one.createKey(0, true);
  const limit = { rate: 2, burst: 3 };
  const t = 1_000_000;
  assert.deepEqual([one.takeToken(account.id, limit, t), two.takeToken(account.id, limit, t), one.takeToken(account.id, limit, t)], [0, 0, 0]);
  assert.equal(two.takeToken(account.id, limit, t), 1, 'the bucket is shared: empty for the other connection too');
  assert.equal(one.takeToken(account.id, limit, t + 499), 1, 'not yet refilled');
  assert.equal(two.takeToken(account.id, limit, t + 500), 0, 'half a second at 2/s gives a token');
  assert.equal(one.takeToken(account.id, { rate: 0.1, burst: 3 }, t + 500), 10, 'slow refill: ten seconds to wait');
  assert.equal(one.takeToken(account.id, limit, t + 60_000), 0, 'refilled, capped at the burst');
  assert.equal(one.takeToken(account.id, limit, t + 60_000), 0);
  assert.equal(one.takeToken(account.id, limit, t + 60_000), 0);
  assert.equal(one.takeToken(account.id, limit, t + 60_000), 1);
}));
