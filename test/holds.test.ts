// Credits as holds, end to end: the real server process over real HTTP on a real SQLite file, reading
// pages from a local HTTP server (loopback opened with --egress-allow). A request that passes its
// deadline answers 504 and is not charged, even when its page arrives later; a client that leaves is not
// charged; a hold left by a process killed with SIGKILL is voided by the server's sweeper; the ledger
// always adds up to the balance.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveSlowPage, type SlowSite } from './helpers/slow-site.ts';
import { startServer, createKey, account, removeDataDir, type ServerProcess } from './helpers/server.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ARTICLE = `<html><head><title>Held</title></head><body><article><h1>Holds</h1><p>${'A page that arrives late but arrives in full. '.repeat(20)}</p></article></body></html>`;

let pages: SlowSite;
let site: string;
/** A short deadline: 1 s of work at most (a quick read takes far less even on a loaded machine). */
let strict: ServerProcess;

before(async () => {
  pages = await serveSlowPage(ARTICLE);
  site = pages.url;
  strict = await startServer(['--egress-allow', '127.0.0.1/32', '--deadline-ms', '1000', '--page-timeout-ms', '5000', '--sweep-interval-ms', '100', '--rate-limit', '1000', '--rate-burst', '1000']);
});

after(async () => {
  await strict.stop();
  removeDataDir(strict.dataDir);
  pages.close();
});

function read(server: ServerProcess, key: string, url: string, signal?: AbortSignal) {
  return fetch(`${server.url}/v1/observe`, {
    method: 'POST', signal, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, mode: 'read' }),
  });
}

/** Waits until `check` passes (the sweeper and voids run in the server's own time). */
async function eventually<T>(what: string, get: () => Promise<T>, check: (value: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (check(value)) return value;
    if (Date.now() > until) assert.fail(`${what}: still ${JSON.stringify(value)} after ${ms} ms`);
    await sleep(50);
  }
}

const ledgerSum = (a: { ledger: { delta: number }[] }) => a.ledger.reduce((s, r) => s + r.delta, 0);

test('a request past --deadline-ms answers 504 and is not charged, even when its work finishes later', async () => {
  const key = await createKey(strict.dataDir, 10);
  const res = await read(strict, key, `${site}/wait/2000`);
  assert.equal(res.status, 504);
  const body = await res.json();
  assert.equal(body.error, 'timeout');
  assert.equal(body.credits_remaining, 10, 'the 504 already reports the whole balance');
  await sleep(1300); // the page has arrived by now
  const after = await account(strict.dataDir, key);
  assert.deepEqual([after.credits, after.held], [10, 0]);
  assert.deepEqual(after.ledger.map((r) => [r.kind, r.delta, r.reason]), [['grant', 10, 'key created'], ['void', 0, 'deadline']]);
  assert.equal(ledgerSum(after), after.credits + after.held);
  // A quick page on the same server is charged as usual.
  assert.equal((await read(strict, key, `${site}/wait/0`)).status, 200);
  const charged = await account(strict.dataDir, key);
  assert.deepEqual([charged.credits, charged.held, charged.ledger.at(-1)?.kind, charged.ledger.at(-1)?.delta], [9, 0, 'post', -1]);
});

test('a client that closes the connection mid-request is not charged (void: client_closed)', async () => {
  const key = await createKey(strict.dataDir, 5);
  const gone = new AbortController();
  const pending = read(strict, key, `${site}/wait/300`, gone.signal).catch((err: Error) => err.name);
  await sleep(100);
  gone.abort();
  assert.equal(await pending, 'AbortError');
  const after = await eventually('the hold is voided', () => account(strict.dataDir, key), (a) => a.ledger.some((r) => r.kind === 'void'));
  await sleep(400); // past the page's arrival: still nothing charged
  const settled = await account(strict.dataDir, key);
  assert.deepEqual([settled.credits, settled.held], [5, 0]);
  assert.equal(after.ledger.at(-1)?.reason, 'client_closed');
  assert.equal(ledgerSum(settled), 5);
});

test('a hold left by a process killed with SIGKILL is voided by the sweeper once its TTL passes', async () => {
  const key = await createKey(strict.dataDir, 20);
  const script = fileURLToPath(new URL('./helpers/hold-and-hang.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, strict.dataDir, key, '7', '1500'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const hold = await new Promise<{ id: number; requestId: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => { out += d; if (out.includes('\n')) resolve(JSON.parse(out)); });
    child.once('exit', (code) => reject(new Error(`the holding process exited with ${code} before holding`)));
  });
  const died = new Promise((r) => child.once('exit', (_code, signal) => r(signal)));
  child.kill('SIGKILL');
  assert.equal(await died, 'SIGKILL');
  const orphaned = await account(strict.dataDir, key);
  assert.deepEqual([orphaned.credits, orphaned.held], [13, 7], 'the dead process left its hold');
  assert.equal(ledgerSum(orphaned), orphaned.credits + orphaned.held);
  const swept = await eventually('the sweeper voids the orphan', () => account(strict.dataDir, key), (a) => a.held === 0, 6000);
  assert.equal(swept.credits, 20);
  const last = swept.ledger.at(-1)!;
  assert.deepEqual([last.kind, last.holdId, last.reason, last.requestId], ['void', hold.id, 'expired', hold.requestId]);
  assert.equal(ledgerSum(swept), 20);
  // The log line arrives through the server's stdout, maybe after the store shows the void.
  await eventually('the sweeper logs what it voided', async () => strict.logs.filter((l) => l.msg.startsWith('sweeper voided expired holds')).map((l) => l.voided), (counts) => counts.some((n) => Number(n) >= 1), 3000);
});
