// Many API instances behind one address, with the shipped deploy/haproxy.cfg: credits stay exact
// across processes. Three instances share one store; 600 concurrent snapshot requests through haproxy
// against a key holding 250 credits end with exactly 250 × 200 and 350 × 402, a balance of 0 with
// nothing held, and a ledger whose posts spend exactly the 250 granted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, account, snapshot, removeDataDir, elements, tempDataDir, type ServerProcess } from './helpers/server.ts';
import { startBalancer } from './helpers/haproxy.ts';

const UNLIMITED = ['--rate-limit', '100000', '--rate-burst', '100000'];

async function burst(instances: ServerProcess[], dataDir: string): Promise<void> {
  const lb = await startBalancer(instances.map((s) => `127.0.0.1:${s.port}`));
  try {
    const key = await createKey(dataDir, 250);
    const body = { url: 'https://example.test/', raw_elements: elements(100) };
    const answers = await Promise.all(Array.from({ length: 600 }, () => snapshot(lb.url, key, body)));
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    assert.deepEqual({ ok: count(200), short: count(402), other: 600 - count(200) - count(402) }, { ok: 250, short: 350, other: 0 });
    const { credits, held, ledger } = await account(dataDir, key);
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
    await burst(instances, dataDir);
  } finally {
    for (const s of instances) assert.equal(await s.stop(), 0);
    removeDataDir(dataDir);
  }
});
