// Many API instances behind one address, with the shipped deploy/haproxy.cfg: credits stay exact
// across processes. Three instances share one store (a SQLite file on one machine; Postgres with
// Redis for limits, as across machines); 600 concurrent snapshot requests through haproxy against a
// key holding 250 credits end with exactly 250 × 200 and 350 × 402, a balance of 0 with nothing held,
// and a ledger whose posts spend exactly the 250 granted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, account, snapshot, removeDataDir, elements, tempDataDir, type ServerProcess } from './helpers/server.ts';
import { startBalancer } from './helpers/haproxy.ts';
import { startPostgres } from './helpers/postgres.ts';
import { startRedis } from './helpers/redis.ts';
import { openPostgresStore } from '../src/store/postgres.ts';
import type { Account, LedgerRow } from '../src/store/store.ts';

const UNLIMITED = ['--rate-limit', '100000', '--rate-burst', '100000'];

interface Books {
  createKey(credits: number): Promise<string>;
  account(key: string): Promise<Account & { ledger: LedgerRow[] }>;
}

async function burst(instances: ServerProcess[], books: Books): Promise<void> {
  const lb = await startBalancer(instances.map((s) => `127.0.0.1:${s.port}`));
  try {
    const key = await books.createKey(250);
    const body = { url: 'https://example.test/', raw_elements: elements(100) };
    const answers = await Promise.all(Array.from({ length: 600 }, () => snapshot(lb.url, key, body)));
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    const others = answers.filter((a) => a.status !== 200 && a.status !== 402);
    assert.deepEqual(others.slice(0, 3).map((a) => `${a.status} ${JSON.stringify(a.body)}`), [], 'every answer is 200 or 402');
    assert.deepEqual({ ok: count(200), short: count(402), other: 600 - count(200) - count(402) }, { ok: 250, short: 350, other: 0 });
    const { credits, held, ledger } = await books.account(key);
    assert.deepEqual({ credits, held }, { credits: 0, held: 0 });
    assert.equal(-ledger.filter((r) => r.kind === 'post').reduce((sum, r) => sum + r.delta, 0), 250, 'the posts spend exactly the grant');
    assert.equal(ledger.reduce((sum, r) => sum + r.delta, 0), 0, 'the ledger adds up to available + held');
    const remaining = answers.filter((a) => a.status === 200).map((a) => a.body.credits_remaining).sort((a, b) => a - b);
    assert.deepEqual(remaining, Array.from({ length: 250 }, (_, i) => i), 'every success saw a different balance');
    await new Promise((r) => setTimeout(r, 200));
    for (const s of instances) assert.ok(s.logs.some((l) => l.msg === 'request'), `instance :${s.port} served requests`);
  } finally {
    await lb.stop();
  }
}

test('3 instances on one SQLite file behind haproxy: 600 concurrent requests, 250 credits, exactly 250 charged', async () => {
  const dataDir = tempDataDir();
  const instances = await Promise.all([0, 1, 2].map(() => startServer(UNLIMITED, { dataDir })));
  try {
    await burst(instances, { createKey: (credits) => createKey(dataDir, credits), account: (key) => account(dataDir, key) });
  } finally {
    for (const s of instances) assert.equal(await s.stop(), 0);
    removeDataDir(dataDir);
  }
});

test('3 instances on Postgres + Redis behind haproxy: 600 concurrent requests, 250 credits, exactly 250 charged', async () => {
  const [pgServer, redis] = await Promise.all([startPostgres(), startRedis()]);
  const url = await pgServer.createDatabase('deploy');
  const store = await openPostgresStore({ url });
  const dataDirs = [tempDataDir(), tempDataDir(), tempDataDir()]; // nothing shared on disk: as on three machines
  const instances = await Promise.all(dataDirs.map((dataDir) =>
    startServer([...UNLIMITED, '--store', url, '--redis', redis.url, '--instances', '3', '--redis-timeout-ms', '2000'], { dataDir })));
  try {
    await burst(instances, {
      createKey: async (credits) => (await store.createKey(credits, true)).key,
      account: async (key) => {
        const found = (await store.resolve(key))!;
        return { ...found, ledger: await store.ledger(found.id) };
      },
    });
    for (const s of instances) assert.ok(!s.logs.some((l) => /Redis limits unavailable/.test(String(l.msg))), 'limits stayed in Redis');
  } finally {
    for (const s of instances) assert.equal(await s.stop(), 0);
    await store.close();
    await redis.stop();
    pgServer.destroy();
    for (const d of dataDirs) removeDataDir(d);
  }
});
