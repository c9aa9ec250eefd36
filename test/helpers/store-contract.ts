// The store contract as a suite any backend can run: `storeContract('sqlite', backend)` registers the
// tests; a backend gives fresh, empty stores and lets several connections share one (as worker threads
// and processes share a store). test/store.test.ts runs it on SQLite, test/store-postgres.test.ts on Postgres.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashKey, looksLikeKey } from '../../src/store/keys.ts';
import type { Store } from '../../src/store/store.ts';

export interface StoreBackend {
  /** A fresh, empty store: `open()` gives one more connection to it; `destroy()` closes them all and
   *  removes it. */
  create(): Promise<{ open(): Promise<Store>; destroy(): Promise<void> }>;
}

/** available + held equals the sum of the ledger, and held equals the sum of the holds still held. */
export async function assertLedgerInvariant(store: Store, accountId: number): Promise<{ available: number; held: number; ledgerSum: number }> {
  const { available, held } = await store.balance(accountId);
  const ledgerSum = (await store.ledger(accountId)).reduce((sum, row) => sum + row.delta, 0);
  assert.equal(available + held, ledgerSum, `account ${accountId}: available ${available} + held ${held} = ledger sum ${ledgerSum}`);
  return { available, held, ledgerSum };
}

export function storeContract(name: string, backend: StoreBackend): void {
  /** Runs fn with `connections` connections to one fresh store. */
  async function withStores(connections: number, fn: (...stores: Store[]) => Promise<void>): Promise<void> {
    const made = await backend.create();
    try {
      const stores: Store[] = [];
      for (let i = 0; i < connections; i++) stores.push(await made.open());
      await fn(...stores);
    } finally {
      await made.destroy();
    }
  }
  const T0 = 1_700_000_000_000;

  test(`${name}: keys are random, stored only as hashes, and found by key, prefix or id`, () => withStores(1, async (store) => {
    const a = await store.createKey(5, true);
    const b = await store.createKey(0, false);
    assert.notEqual(a.key, b.key);
    assert.ok(looksLikeKey(a.key));
    assert.equal((await store.findByHash(hashKey(a.key)))?.id, a.account.id);
    assert.equal((await store.resolve(a.key))?.id, a.account.id);
    assert.equal((await store.resolve(a.account.prefix))?.id, a.account.id);
    assert.equal((await store.resolve(String(b.account.id)))?.active, false);
    assert.equal(await store.resolve('sl_' + 'x'.repeat(32)), undefined);
    assert.deepEqual((await store.ledger(a.account.id)).map((r) => [r.kind, r.delta]), [['grant', 5]]);
    assert.deepEqual(await store.ledger(b.account.id), [], 'no grant row for zero credits');
  }));

  test(`${name}: reserve holds credits, post spends them, void gives them back, each with a ledger row`, () => withStores(1, async (store) => {
    const { account } = await store.createKey(10, true);
    const a = await store.reserve(account.id, 3, 'req-a', 60_000, T0);
    assert.ok(a);
    assert.equal(a.available, 7);
    assert.equal(a.expiresMs, T0 + 60_000);
    assert.deepEqual(await store.balance(account.id), { available: 7, held: 3 });
    await assertLedgerInvariant(store, account.id);
    const b = await store.reserve(account.id, 4, 'req-b', 60_000, T0);
    assert.deepEqual(await store.balance(account.id), { available: 3, held: 7 });
    assert.equal(await store.reserve(account.id, 4, 'req-c', 60_000, T0), null, 'short: nothing held');
    assert.deepEqual(await store.balance(account.id), { available: 3, held: 7 });

    assert.equal(await store.post(a.id, undefined, T0 + 5), true);
    assert.deepEqual(await store.balance(account.id), { available: 3, held: 4 });
    assert.equal(await store.void(b!.id, 'bad_request', T0 + 6), true);
    assert.deepEqual(await store.balance(account.id), { available: 7, held: 0 });
    const rows = await store.ledger(account.id);
    assert.deepEqual(rows.map((r) => [r.kind, r.delta, r.holdId, r.requestId, r.reason]), [
      ['grant', 10, null, null, 'key created'],
      ['post', -3, a.id, 'req-a', null],
      ['void', 0, b!.id, 'req-b', 'bad_request'],
    ]);
    assert.equal(rows[1].createdMs, T0 + 5);
    const totals = await assertLedgerInvariant(store, account.id);
    assert.equal(totals.ledgerSum, 7);
  }));

  test(`${name}: usage lists posts and voids newest first with their credits, pages by id, and leaves out grants and other keys`, () => withStores(2, async (one, two) => {
    const { account } = await one.createKey(20, true);
    const other = (await one.createKey(5, true)).account;
    const a = (await one.reserve(account.id, 2, 'req-a', 60_000, T0))!;
    const b = (await two.reserve(account.id, 10, 'req-b', 60_000, T0))!;
    const c = (await one.reserve(account.id, 3, 'req-c', 60_000, T0))!;
    const held = (await one.reserve(account.id, 1, 'req-held', 60_000, T0))!;
    const theirs = (await one.reserve(other.id, 1, 'theirs', 60_000, T0))!;
    assert.deepEqual(await one.usage(account.id, 10), [], 'holds still held are not charges yet');
    await one.post(a.id, undefined, T0 + 1);
    await two.void(b.id, 'http_error', T0 + 2);
    await one.post(c.id, 1, T0 + 3); // a post of fewer credits than held: the charge is what was spent
    await one.setCredits(account.id, 50);
    await one.post(theirs.id, undefined, T0 + 4);
    const rows = await two.usage(account.id, 10);
    assert.deepEqual(rows.map((r) => [r.kind, r.credits, r.requestId, r.reason, r.createdMs]), [
      ['post', 1, 'req-c', null, T0 + 3],
      ['void', 10, 'req-b', 'http_error', T0 + 2],
      ['post', 2, 'req-a', null, T0 + 1],
    ]);
    assert.ok(rows[0].id > rows[1].id && rows[1].id > rows[2].id, 'ids fall: the cursor');
    // Pages: the newest two, then what is older than the last of them.
    const first = await one.usage(account.id, 2);
    assert.deepEqual(first.map((r) => r.requestId), ['req-c', 'req-b']);
    assert.deepEqual((await one.usage(account.id, 2, first[1].id)).map((r) => r.requestId), ['req-a']);
    assert.deepEqual(await one.usage(account.id, 2, rows[2].id), []);
    // The sweeper's voids are refunds too.
    await one.sweep(T0 + 60_000);
    const swept = (await one.usage(account.id, 1))[0];
    assert.deepEqual([swept.kind, swept.credits, swept.requestId, swept.reason], ['void', 1, 'req-held', 'expired']);
    assert.equal(held.credits, 1);
    assert.deepEqual((await one.usage(other.id, 10)).map((r) => r.requestId), ['theirs']);
    assert.deepEqual(await one.usage(987_654, 10), [], 'an unknown account has no rows');
    await assert.rejects(one.usage(account.id, 0), RangeError);
  }));

  test(`${name}: a hold resolves at most once: double post, post after void and void after post are no-ops`, () => withStores(1, async (store) => {
    const { account } = await store.createKey(5, true);
    const a = (await store.reserve(account.id, 2, 'a', 60_000))!;
    const b = (await store.reserve(account.id, 2, 'b', 60_000))!;
    assert.equal(await store.post(a.id), true);
    assert.equal(await store.post(a.id), false);
    assert.equal(await store.void(a.id, 'late'), false);
    assert.equal(await store.void(b.id, 'failed'), true);
    assert.equal(await store.post(b.id), false);
    assert.equal(await store.void(b.id, 'again'), false);
    assert.equal(await store.post(987_654), false, 'an unknown hold');
    assert.deepEqual(await store.balance(account.id), { available: 3, held: 0 });
    assert.equal((await store.ledger(account.id)).length, 3);
    await assertLedgerInvariant(store, account.id);
  }));

  test(`${name}: post of fewer credits than held gives the rest back; more than held is refused`, () => withStores(1, async (store) => {
    const { account } = await store.createKey(10, true);
    const hold = (await store.reserve(account.id, 10, 'r', 60_000))!;
    await assert.rejects(store.post(hold.id, 11), RangeError);
    assert.deepEqual(await store.balance(account.id), { available: 0, held: 10 }, 'a refused post changes nothing');
    assert.equal(await store.post(hold.id, 4), true);
    assert.deepEqual(await store.balance(account.id), { available: 6, held: 0 });
    assert.deepEqual((await store.ledger(account.id)).at(-1)?.delta, -4);
    await assertLedgerInvariant(store, account.id);
    await assert.rejects(store.reserve(account.id, 0, 'zero', 60_000), RangeError);
  }));

  test(`${name}: sweep voids only holds past their TTL, once`, () => withStores(2, async (one, two) => {
    const { account } = await one.createKey(10, true);
    const short = (await one.reserve(account.id, 3, 'dies', 1000, T0))!;
    const long = (await two.reserve(account.id, 2, 'lives', 60_000, T0))!;
    assert.equal(await two.sweep(T0 + 999), 0, 'nothing expired yet');
    assert.equal(await two.sweep(T0 + 1000), 1);
    assert.equal(await one.sweep(T0 + 1000), 0, 'already voided');
    assert.deepEqual(await one.balance(account.id), { available: 8, held: 2 });
    const voided = (await one.ledger(account.id)).at(-1)!;
    assert.deepEqual([voided.kind, voided.holdId, voided.reason, voided.requestId], ['void', short.id, 'expired', 'dies']);
    assert.equal(await one.post(short.id), false, 'a swept hold cannot be posted');
    assert.equal(await one.post(long.id), true);
    await assertLedgerInvariant(one, account.id);
  }));

  test(`${name}: exact under concurrency: 200 holds against 50 credits over 4 connections`, () => withStores(4, async (...stores) => {
    const { account } = await stores[0].createKey(50, true);
    const holds = await Promise.all(Array.from({ length: 200 }, (_, i) => stores[i % 4].reserve(account.id, 1, `r${i}`, 60_000)));
    const got = holds.filter((h) => h !== null);
    assert.equal(got.length, 50);
    assert.equal(new Set(got.map((h) => h.id)).size, 50);
    assert.deepEqual(await stores[1].balance(account.id), { available: 0, held: 50 });
    // Every hold posted and voided at once from two connections: exactly one of each pair wins.
    const results = await Promise.all(got.flatMap((h, i) => [stores[i % 4].post(h.id), stores[(i + 1) % 4].void(h.id, 'race')]));
    const wins = results.filter(Boolean).length;
    assert.equal(wins, 50);
    const { available, held } = await stores[2].balance(account.id);
    const posted = (await stores[2].ledger(account.id)).filter((r) => r.kind === 'post').length;
    assert.equal(held, 0);
    assert.equal(available, 50 - posted);
    await assertLedgerInvariant(stores[3], account.id);
  }));

  test(`${name}: set-credits sets what is available and records the difference as a grant`, () => withStores(1, async (store) => {
    const { account } = await store.createKey(5, true);
    await store.reserve(account.id, 2, 'r', 60_000);
    assert.equal((await store.setCredits(account.id, 20)).credits, 20);
    assert.deepEqual(await store.balance(account.id), { available: 20, held: 2 });
    assert.deepEqual((await store.ledger(account.id)).map((r) => [r.kind, r.delta, r.reason]), [['grant', 5, 'key created'], ['grant', 17, 'set-credits']]);
    await assertLedgerInvariant(store, account.id);
    assert.equal((await store.setActive(account.id, false)).active, false);
    const [listed] = await store.listAccounts();
    assert.deepEqual([listed.credits, listed.held, listed.active], [20, 2, false]);
  }));

  test(`${name}: token bucket: burst, refill by elapsed time, Retry-After seconds, shared between connections`, () => withStores(2, async (one, two) => {
    const { account } = await one.createKey(0, true);
    const limit = { rate: 2, burst: 3 };
    const t = 1_000_000;
    assert.deepEqual([await one.takeToken(account.id, limit, t), await two.takeToken(account.id, limit, t), await one.takeToken(account.id, limit, t)], [0, 0, 0]);
    assert.equal(await two.takeToken(account.id, limit, t), 1, 'the bucket is shared: empty for the other connection too');
    assert.equal(await one.takeToken(account.id, limit, t + 499), 1, 'not yet refilled');
    assert.equal(await two.takeToken(account.id, limit, t + 500), 0, 'half a second at 2/s gives a token');
    assert.equal(await one.takeToken(account.id, { rate: 0.1, burst: 3 }, t + 500), 10, 'slow refill: ten seconds to wait');
    assert.equal(await one.takeToken(account.id, limit, t + 60_000), 0, 'refilled, capped at the burst');
    assert.equal(await one.takeToken(account.id, limit, t + 60_000), 0);
    assert.equal(await one.takeToken(account.id, limit, t + 60_000), 0);
    assert.equal(await one.takeToken(account.id, limit, t + 60_000), 1);
  }));

  test(`${name}: idempotency keys: claimed once, running, mismatch, done, per account, expiring`, () => withStores(2, async (one, two) => {
    const a = (await one.createKey(1, true)).account;
    const b = (await one.createKey(1, true)).account;
    assert.deepEqual(await one.claimIdempotency(a.id, 'k1', 'h1', 1000, T0), { state: 'claimed' });
    assert.deepEqual(await two.claimIdempotency(a.id, 'k1', 'h1', 1000, T0 + 1), { state: 'running' });
    assert.deepEqual(await two.claimIdempotency(a.id, 'k1', 'h2', 1000, T0 + 1), { state: 'mismatch' });
    assert.deepEqual(await two.claimIdempotency(b.id, 'k1', 'h2', 1000, T0 + 1), { state: 'claimed' }, 'keys are per account');
    const outcome = { status: 200, contentType: 'application/json', body: '{"ok":true}' };
    await one.completeIdempotency(a.id, 'k1', outcome, 24 * 3600_000, T0 + 2);
    assert.deepEqual(await two.claimIdempotency(a.id, 'k1', 'h1', 1000, T0 + 3), { state: 'done', outcome });
    assert.deepEqual(await two.claimIdempotency(a.id, 'k1', 'h2', 1000, T0 + 3), { state: 'mismatch' });
    assert.deepEqual(await two.claimIdempotency(a.id, 'k1', 'h2', 1000, T0 + 2 + 24 * 3600_000), { state: 'claimed' }, 'kept 24 h, then forgotten');
    // A claim whose process died: its lock expires and the next request takes it over.
    assert.deepEqual(await one.claimIdempotency(a.id, 'k2', 'h', 1000, T0), { state: 'claimed' });
    assert.deepEqual(await two.claimIdempotency(a.id, 'k2', 'h', 1000, T0 + 1000), { state: 'claimed' });
    // A released claim (an outcome not kept) lets a retry run again.
    assert.deepEqual(await one.claimIdempotency(a.id, 'k3', 'h', 1000, T0), { state: 'claimed' });
    await one.releaseIdempotency(a.id, 'k3');
    assert.deepEqual(await two.claimIdempotency(a.id, 'k3', 'h', 1000, T0 + 1), { state: 'claimed' });
    // Releasing a completed key does not forget its outcome.
    await one.completeIdempotency(a.id, 'k3', outcome, 10_000, T0 + 2);
    await one.releaseIdempotency(a.id, 'k3');
    assert.equal((await two.claimIdempotency(a.id, 'k3', 'h', 1000, T0 + 3)).state, 'done');
    // The sweeper drops expired records.
    await one.sweep(T0 + 20_000);
    assert.deepEqual(await two.claimIdempotency(a.id, 'k3', 'other', 1000, T0 + 3), { state: 'claimed' }, 'swept: the key is free');
  }));

  test(`${name}: observe cache: found within its age by any connection, a newer entry wins, expired ones swept`, () => withStores(2, async (one, two) => {
    const now = 1_000_000_000;
    await one.cachePut('k', { body: '{"a":1}', blob: null, storedMs: now }, now + 60_000);
    assert.deepEqual(await two.cacheGet('k', now - 1000, now + 10), { body: '{"a":1}', blob: null, storedMs: now });
    assert.equal(await two.cacheGet('k', now + 1, now + 10), undefined, 'older than asked for');
    assert.equal(await two.cacheGet('k', 0, now + 60_000), undefined, 'expired');
    assert.equal(await two.cacheGet('other', 0, now), undefined);
    await two.cachePut('k', { body: null, blob: 'ref-2', storedMs: now + 5 }, now + 60_000);
    await one.cachePut('k', { body: '{"old":1}', blob: null, storedMs: now - 5 }, now + 60_000);
    assert.deepEqual(await one.cacheGet('k', 0, now + 10), { body: null, blob: 'ref-2', storedMs: now + 5 }, 'an older result does not replace a newer one');
    await one.sweep(now + 60_001);
    assert.equal(await two.cacheGet('k', 0, now), undefined, 'the sweep dropped it');
  }));

  test(`${name}: ping answers; after close it rejects, and closing twice is harmless`, () => withStores(1, async (store) => {
    await store.ping();
    await store.close();
    await assert.rejects(store.ping());
    await store.close();
  }));
}
