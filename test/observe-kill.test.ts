// Faults across API processes in observe's map mode, through the real server processes and Chromium:
// an instance killed (SIGKILL) in the middle of a map leaves its credit hold, and another instance's
// sweeper voids it once its TTL passes; an idempotent retry of a map returns the first outcome and
// charges once. Both instances share one SQLite store, as instances share Postgres across machines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, account, removeDataDir, tempDataDir, type ServerProcess } from './helpers/server.ts';
import { serveSlowPage, type SlowSite } from './helpers/slow-site.ts';

const PAGE = '<!doctype html><title>Slow</title><h1>Slow</h1><a href="/a">First link</a><button>Go</button>';
let site: SlowSite;
let dataDir: string;
let survivor: ServerProcess;
const flags = ['--egress-allow', '127.0.0.1/32', '--deadline-ms', '4000', '--hold-ttl-ms', '5000', '--sweep-interval-ms', '200', '--rate-limit', '1000', '--rate-burst', '1000'];

before(async () => {
  site = await serveSlowPage(PAGE);
  dataDir = tempDataDir();
  survivor = await startServer(flags, { dataDir });
});
after(async () => {
  await survivor.stop();
  site.close();
  removeDataDir(dataDir);
});

function map(server: ServerProcess, key: string, url: string, idempotencyKey?: string) {
  return fetch(`${server.url}/v1/observe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    body: JSON.stringify({ url, mode: 'map', options: { limit: 5 } }),
  });
}

test('an instance killed mid-map leaves its hold; another instance\'s sweeper voids it after the TTL', async () => {
  const key = await createKey(dataDir, 20);
  const doomed = await startServer(flags, { dataDir });
  const pending = map(doomed, key, `${site.url}/wait/3000`).catch((err: Error) => err);
  // The hold is taken before the page loads: wait until the store shows it.
  for (let i = 0; i < 100 && (await account(dataDir, key)).held === 0; i++) await new Promise((r) => setTimeout(r, 50));
  const held = await account(dataDir, key);
  assert.ok(held.held > 0, 'the map holds credits while it works');
  doomed.proc.kill('SIGKILL');
  await doomed.exited;
  assert.ok(await pending instanceof Error, 'the caller of the killed instance gets no answer');
  assert.equal((await account(dataDir, key)).held, held.held, 'nothing resolved the hold of the dead process');
  let swept = await account(dataDir, key);
  for (let i = 0; i < 200 && swept.held > 0; i++) { await new Promise((r) => setTimeout(r, 50)); swept = await account(dataDir, key); }
  assert.deepEqual([swept.credits, swept.held], [20, 0], 'the survivor\'s sweeper gave the credits back');
  const last = swept.ledger.at(-1)!;
  assert.deepEqual([last.kind, last.reason], ['void', 'expired']);
  assert.equal(swept.ledger.reduce((sum, r) => sum + r.delta, 0), 20, 'the ledger adds up');
});

test('an idempotent retry of a map returns the first outcome, replayed, and charges once', async () => {
  const key = await createKey(dataDir, 20);
  const first = await map(survivor, key, `${site.url}/wait/0`, 'map-once');
  assert.equal(first.status, 200);
  const body = await first.json() as { credits_used: number; credits_remaining: number; interactable_elements: unknown[] };
  assert.ok(body.interactable_elements.length >= 2);
  const again = await map(survivor, key, `${site.url}/wait/0`, 'map-once');
  assert.equal(again.status, 200);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(await again.json(), body);
  const after = await account(dataDir, key);
  assert.deepEqual([after.credits, after.held], [20 - body.credits_used, 0], 'charged once');
  assert.equal(after.ledger.filter((r) => r.kind === 'post').length, 1);
});
