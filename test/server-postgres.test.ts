// The real server on a real Postgres: `sightline serve --store postgres://…` charges exactly, the
// `sightline keys` commands work against the same database (a deactivation reaches the running server
// at once through NOTIFY), `sightline store migrate-from-sqlite` copies a real SQLite store file, and
// Postgres stopped mid-burst gives only 200s and 503 store_unavailable, every 200 posted, with the
// sweeper voiding the orphaned holds once Postgres is back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openPostgresStore } from '../src/store/postgres.ts';
import { openSqliteStore, DB_FILE } from '../src/store/sqlite.ts';
import { startServer, snapshot, elements, cli, tempDataDir, removeDataDir, type Answer } from './helpers/server.ts';
import { startPostgres, type PostgresServer } from './helpers/postgres.ts';
import { assertLedgerInvariant } from './helpers/store-contract.ts';

let pg: PostgresServer;
before(async () => { pg = await startPostgres(); });
after(() => pg?.destroy());

let made = 0;
const database = async () => pg.createDatabase(`http${process.pid}_${made++}`);
const unlimited = ['--rate-limit', '100000', '--rate-burst', '100000'];
const body = { url: 'https://example.test/', raw_elements: elements(60) };

async function waitFor(check: () => Promise<boolean>, what: string, ms = 5000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) assert.fail(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

test('serve --store postgres (2 workers): exact charges; keys create, set-credits, deactivate and usage through the CLI reach the running server', async () => {
  const url = await database();
  const dataDir = tempDataDir();
  // Two worker threads: each has its own pool, key cache and LISTEN connection. Keys cached for ten
  // minutes: only a notification can make a worker drop one within this test.
  const server = await startServer(['--store', url, '--workers', '2', '--store-key-cache-ms', '600000', ...unlimited], { dataDir });
  const store = await openPostgresStore({ url });
  try {
    const key = cli(['keys', 'create', '--credits', '20', '--store', url], dataDir).trimEnd().split('\n').at(-1)!;
    const answers = await Promise.all(Array.from({ length: 60 }, () => snapshot(server.url, key, body)));
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    assert.deepEqual([count(200), count(402)], [20, 40]);
    assert.deepEqual(answers.filter((a) => a.status === 200).map((a) => a.body.credits_remaining).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
    const account = (await store.resolve(key))!;
    assert.deepEqual(await store.balance(account.id), { available: 0, held: 0 });
    const { ledgerSum } = await assertLedgerInvariant(store, account.id);
    assert.equal(ledgerSum, 0);
    assert.equal((await store.ledger(account.id)).filter((r) => r.kind === 'post').length, 20);

    assert.match(cli(['keys', 'set-credits', key, '3', '--store', url], dataDir), /\s3\s+active/);
    assert.equal((await snapshot(server.url, key, body)).body.credits_remaining, 2);
    assert.match(cli(['keys', 'list', '--store', url], dataDir), new RegExp(`${account.prefix}\\s+2\\s+active`));
    const usage = JSON.parse(cli(['keys', 'usage', key, '--json', '--store', url], dataDir));
    assert.equal(usage.entries.length, 21);

    // The server has the key cached (it served it just now); the CLI's deactivation is announced.
    assert.match(cli(['keys', 'deactivate', key, '--store', url], dataDir), /inactive/);
    await waitFor(async () => {
      // A kept-alive connection closing under a request is not what this checks: try again then.
      const tries = await Promise.all(Array.from({ length: 20 }, () => snapshot(server.url, key, body))).catch(() => []);
      return tries.length > 0 && tries.every((a) => a.status === 403);
    }, 'the deactivated key is refused by both workers', 15_000);
    await new Promise((r) => setTimeout(r, 200));
    const servedBy = new Set(server.logs.filter((l) => l.msg === 'request' && l.status === 403).map((l) => l.worker));
    assert.deepEqual([...servedBy].sort(), [0, 1], 'both workers refused it');
    assert.equal(existsSync(join(dataDir, DB_FILE)), false, 'no SQLite store was made');
    // The 503 the store can cause is documented where callers look.
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    for (const path of ['/v1/snapshot', '/v1/observe']) {
      const unavailable = doc.paths[path].post.responses['503'];
      assert.match(unavailable.description, /store_unavailable/, path);
      assert.ok(unavailable.headers['Retry-After'], path);
    }
  } finally {
    await store.close();
    assert.equal(await server.stop(), 0);
    removeDataDir(dataDir);
  }
});

test('store migrate-from-sqlite copies accounts, key hashes and balances (held included) once', async () => {
  const url = await database();
  const dataDir = tempDataDir();
  const sqlite = openSqliteStore(dataDir);
  const rich = await sqlite.createKey(7, true);
  const off = await sqlite.createKey(3, false);
  assert.ok(await sqlite.reserve(rich.account.id, 2, 'in-flight', 60_000), 'a hold the stopped server never resolved');
  await sqlite.close();
  let server;
  try {
    const path = join(dataDir, DB_FILE);
    assert.match(cli(['store', 'migrate-from-sqlite', path, '--store', url], dataDir), /copied 2 accounts \(10 credits as grants\); 0 already there/);
    assert.match(cli(['store', 'migrate-from-sqlite', path, '--store', url], dataDir), /copied 0 accounts \(0 credits as grants\); 2 already there/);
    server = await startServer(['--store', url, ...unlimited], { dataDir: tempDataDir() });
    const ok = await snapshot(server.url, rich.key, body);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.credits_remaining, 6, '7 credits: 5 available and 2 held, less this request');
    assert.equal((await snapshot(server.url, off.key, body)).status, 403, 'inactive stays inactive');
    const store = await openPostgresStore({ url });
    try {
      const listed = await store.listAccounts();
      assert.deepEqual(listed.map((a) => [a.prefix, a.active]), [[rich.account.prefix, true], [off.account.prefix, false]]);
      for (const a of listed) await assertLedgerInvariant(store, a.id);
      assert.deepEqual((await store.ledger(listed[1].id)).map((r) => [r.kind, r.delta, r.reason]), [['grant', 3, 'migrated from sqlite']]);
    } finally {
      await store.close();
    }
  } finally {
    if (server) { await server.stop(); removeDataDir(server.dataDir); }
    removeDataDir(dataDir);
  }
});

test('Postgres stopped immediately mid-burst: only 200s and 503 store_unavailable, every 200 posted, orphans voided after restart', async () => {
  const url = await database();
  const dataDir = tempDataDir();
  const setup = await openPostgresStore({ url });
  const { key, account } = await setup.createKey(100_000, true);
  // A hold of a process that died just before the stop: whatever the burst leaves, one orphan is sure.
  const orphan = (await setup.reserve(account.id, 5, 'died', 3000))!;
  await setup.close();
  const server = await startServer(['--store', url, ...unlimited, '--deadline-ms', '2000', '--hold-ttl-ms', '3000', '--sweep-interval-ms', '200'], { dataDir });
  try {
    const answers: (Answer | Error)[] = [];
    let stopped = false;
    let answeredBeforeStop = 0;
    const worker = async () => {
      while (answers.length < 400) {
        const answer = await snapshot(server.url, key, body).catch((err: Error) => err);
        answers.push(answer);
        if (!stopped && answers.length >= 120) {
          stopped = true;
          answeredBeforeStop = answers.length;
          pg.stopImmediate();
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const failures = answers.filter((a): a is Error => a instanceof Error);
    assert.deepEqual(failures.map((e) => e.message), [], 'every request was answered');
    const replies = answers as Answer[];
    const byStatus = new Map<number, number>();
    for (const a of replies) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
    assert.deepEqual([...byStatus.keys()].sort(), [200, 503], `statuses ${JSON.stringify([...byStatus])}`);
    for (const a of replies.filter((r) => r.status === 503)) {
      assert.equal(a.body.error_code, 'store_unavailable');
      assert.equal(a.headers.get('retry-after'), '1');
    }
    assert.ok(answeredBeforeStop > 0 && byStatus.get(503)! > 100, `503s after the stop: ${byStatus.get(503)}`);
    assert.equal(server.proc.exitCode, null, 'the server is still running');
    // It stays up and answers 503 while Postgres is down.
    assert.equal((await snapshot(server.url, key, body)).status, 503);
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 503, 'health says so, for a load balancer');
    assert.equal((await health.json()).error_code, 'store_unavailable');

    pg.start();
    const store = await openPostgresStore({ url });
    try {
      // The sweeper voids the holds whose post or void never reached the database.
      await waitFor(async () => (await store.balance(account.id)).held === 0, 'the sweeper voids orphaned holds', 15_000);
      const ledger = await store.ledger(account.id);
      assert.deepEqual(ledger.filter((r) => r.holdId === orphan.id).map((r) => [r.kind, r.reason]), [['void', 'expired']], 'the orphan was voided by the server\'s sweeper');
      const posted = new Set(ledger.filter((r) => r.kind === 'post').map((r) => r.requestId));
      const ok = replies.filter((r) => r.status === 200);
      for (const a of ok) assert.ok(posted.has(a.headers.get('x-request-id')), `200 ${a.headers.get('x-request-id')} has a committed post`);
      const { available, ledgerSum } = await assertLedgerInvariant(store, account.id);
      assert.equal(ledgerSum, available);
      assert.equal(available, 100_000 - posted.size);
      // Served again once Postgres is back.
      await waitFor(async () => (await snapshot(server.url, key, body)).status === 200, 'served after the restart', 10_000);
      process.stderr.write(`# fault: ${ok.length} × 200, ${byStatus.get(503)} × 503, ${posted.size} posts, ${ledger.filter((r) => r.reason === 'expired').length} holds voided by the sweeper\n`);
    } finally {
      await store.close();
    }
  } finally {
    await server.stop();
    pg.start();
    removeDataDir(dataDir);
  }
});
