// Faults inside the router, injected where no real input can cause them. A request that fails on our
// side after its credit was held gets the hold voided (a ledger row says why) and a 500 with
// the balance. Real router, route, store and Wasm ranker; the only fault injected is a ranker that throws
// after admitting the request, because no input can make the real one fail there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { createRouter } from '../src/server/router.ts';
import { createKeyLimits } from '../src/server/limits.ts';
import { snapshotRoute } from '../src/server/routes/snapshot.ts';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { tempDataDir, removeDataDir, elements } from './helpers/server.ts';

class FailingAfterAdmit extends Ranker {
  override rank(...args: Parameters<Ranker['rank']>): ReturnType<Ranker['rank']> {
    super.rank(...args);
    throw new Error('simulated fault after the charge');
  }
}

test('our failure after the hold: 500 internal_error, hold voided, cause logged with the request id', async () => {
  const dir = tempDataDir();
  const store = openSqliteStore(dir);
  const lines: any[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
  try {
    const { key, account } = await store.createKey(5, true);
    const ranker = new FailingAfterAdmit(await loadWasmCore());
    const router = createRouter({ routes: { 'POST /v1/snapshot': snapshotRoute({ store, ranker, limits: createKeyLimits({ store, rateLimit: { rate: 100, burst: 100 } }), holdTtlMs: 60_000 }) }, store, logger, deadlineMs: 1000 });
    const body = Buffer.from(JSON.stringify({ url: 'https://example.test/', raw_elements: elements(5) }));
    const reply = await router.handle({ method: 'POST', path: '/v1/snapshot', query: '', host: 'localhost', authorization: `Bearer ${key}`, contentType: 'application/json', requestId: 'req-1', remoteAddress: '127.0.0.1', body });
    assert.equal(reply.status, 500);
    const answer = JSON.parse(String(reply.body));
    assert.deepEqual(answer, { status: 'error', error: 'Internal error', error_code: 'internal_error', message: 'Internal error', credits_remaining: 5 });
    assert.deepEqual(await store.balance(account.id), { available: 5, held: 0 });
    assert.deepEqual((await store.ledger(account.id)).map((r) => [r.kind, r.delta, r.requestId, r.reason]), [['grant', 5, null, 'key created'], ['void', 0, 'req-1', 'internal_error']]);
    const logged = lines.find((l) => l.req_id === 'req-1');
    assert.equal(logged.status, 500);
    assert.match(JSON.stringify(logged.err), /simulated fault/);
    assert.ok(!reply.body.includes('simulated'), 'internal details stay in the log');
  } finally {
    await store.close();
    removeDataDir(dir);
  }
});

test('a route that passes the deadline gets 504 timeout and its abort signal fires', async () => {
  const dir = tempDataDir();
  const store = openSqliteStore(dir);
  const logger = pino({ level: 'silent' });
  try {
    let aborted = false;
    const slow = (req: { signal: AbortSignal }) => new Promise<never>((_, reject) => {
      req.signal.addEventListener('abort', () => { aborted = true; reject(new Error('stopped')); });
    });
    const router = createRouter({ routes: { 'POST /slow': slow }, store, logger, deadlineMs: 100 });
    const t0 = performance.now();
    const reply = await router.handle({ method: 'POST', path: '/slow', query: '', host: 'localhost', authorization: '', contentType: '', requestId: 'r', remoteAddress: '127.0.0.1', body: Buffer.alloc(0) });
    assert.equal(reply.status, 504);
    assert.equal(JSON.parse(String(reply.body)).error_code, 'timeout');
    assert.ok(aborted, 'the route was told to stop');
    assert.ok(performance.now() - t0 >= 95);
  } finally {
    await store.close();
    removeDataDir(dir);
  }
});
