// The store's cost per charged request on Postgres against SQLite, in one run: what a snapshot asks of
// the store (find the key, take a rate token, reserve a hold, post it), sequential on one connection
// (latency per request) and with 32 requests in flight on a pool of 10 (requests per second). Postgres
// is a real server on loopback (test/helpers/postgres.ts: fsync off, synchronous_commit on), so a
// remote database adds its network round trips (3 statements per request) on top.
// npm run bench:store-postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { openPostgresStore } from '../src/store/postgres.ts';
import { hashKey } from '../src/store/keys.ts';
import type { Store } from '../src/store/store.ts';
import { startPostgres } from '../test/helpers/postgres.ts';

const SEQUENTIAL = 3000;
const CONCURRENT = 6000;
const IN_FLIGHT = 32;
const limit = { rate: 1e9, burst: 1e9 };

async function charge(store: Store, hash: string, i: number): Promise<void> {
  const account = (await store.findByHash(hash))!;
  if (await store.takeToken(account.id, limit)) throw new Error('rate limited');
  const hold = await store.reserve(account.id, 1, `r${i}`, 60_000);
  if (!hold || !(await store.post(hold.id))) throw new Error('not charged');
}

async function measure(store: Store): Promise<{ usPerRequest: number; perSecond: number }> {
  const { key } = await store.createKey(SEQUENTIAL + CONCURRENT + 100, true);
  const hash = hashKey(key);
  for (let i = 0; i < 50; i++) await charge(store, hash, -i); // warm
  let t = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) await charge(store, hash, i);
  const usPerRequest = (performance.now() - t) * 1000 / SEQUENTIAL;
  t = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < CONCURRENT) await charge(store, hash, SEQUENTIAL + next++);
  }));
  return { usPerRequest, perSecond: CONCURRENT / ((performance.now() - t) / 1000) };
}

const pg = await startPostgres();
try {
  for (let round = 0; round < 2; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'sb-'));
    const sqlite = openSqliteStore(dir);
    const lite = await measure(sqlite);
    await sqlite.close();
    rmSync(dir, { recursive: true });
    const url = await pg.createDatabase(`bench${round}`);
    const postgres = await openPostgresStore({ url, poolSize: 10 });
    const net = await measure(postgres);
    await postgres.close();
    console.log(`round ${round}: sqlite ${lite.usPerRequest.toFixed(0)} us/request sequential, ${lite.perSecond.toFixed(0)}/s with ${IN_FLIGHT} in flight; ` +
      `postgres ${net.usPerRequest.toFixed(0)} us/request, ${net.perSecond.toFixed(0)}/s; sequential ratio ${(net.usPerRequest / lite.usPerRequest).toFixed(1)}`);
  }
} finally {
  pg.destroy();
}
