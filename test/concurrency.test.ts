// Credits are exact under concurrency and across processes: 200 parallel snapshots against a key with
// 50 credits, served by two worker threads of one server plus a second server process, all sharing one
// SQLite store, end with exactly 50 successes, 150 × 402, a balance of 0 with nothing left held, and a
// ledger of one grant and 50 posts that adds up to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, balance, account, snapshot, removeDataDir, elements, tempDataDir } from './helpers/server.ts';

test('200 parallel requests, 50 credits, 2 workers + a second process: exactly 50 charged', async () => {
  const dataDir = tempDataDir();
  const unlimited = ['--rate-limit', '100000', '--rate-burst', '100000'];
  const [workers, other] = await Promise.all([
    startServer(['--workers', '2', ...unlimited], { dataDir }),
    startServer(unlimited, { dataDir }),
  ]);
  try {
    const key = await createKey(dataDir, 50);
    const body = { url: 'https://example.test/', raw_elements: elements(200) };
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      snapshot(i % 2 ? workers.url : other.url, key, body)));
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    assert.deepEqual({ ok: count(200), short: count(402), other: 200 - count(200) - count(402) }, { ok: 50, short: 150, other: 0 });
    assert.equal(await balance(dataDir, key), 0);
    const { held, ledger } = await account(dataDir, key);
    assert.equal(held, 0);
    assert.deepEqual(ledger.map((r) => r.kind).sort(), ['grant', ...Array(50).fill('post')].sort());
    assert.equal(ledger.reduce((sum, r) => sum + r.delta, 0), 0, 'the ledger adds up to available + held');
    // Every success saw a different balance: no charge was lost or doubled.
    const remaining = answers.filter((a) => a.status === 200).map((a) => a.body.credits_remaining).sort((a, b) => a - b);
    assert.deepEqual(remaining, Array.from({ length: 50 }, (_, i) => i));
    for (const a of answers.filter((x) => x.status === 402)) assert.equal(a.body.error_code, 'insufficient_credits');
    await new Promise((r) => setTimeout(r, 200));
    const servedBy = new Set(workers.logs.filter((l) => l.msg === 'request').map((l) => l.worker));
    assert.deepEqual([...servedBy].sort(), [0, 1], 'both worker threads served requests');
    assert.ok(other.logs.some((l) => l.msg === 'request'), 'the second process served requests');
  } finally {
    assert.equal(await workers.stop(), 0, 'workers shut down cleanly');
    assert.equal(await other.stop(), 0);
    removeDataDir(dataDir);
  }
});
