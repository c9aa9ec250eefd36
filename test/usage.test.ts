// The usage view end to end: the real server process over real HTTP on a real SQLite file. Snapshots
// that succeed (charged), an observe whose page fails (its hold voided: a refund) and requests that
// never held anything (400, 402) are made; GET /v1/usage then lists exactly the charges and refunds,
// newest first, with the x-request-id each response carried, and a balance equal to the store's.
// Also: pages by cursor, 401/403/400/405/429, no charge for asking, `sightline keys usage` (table and
// --json, the same data), and the client library's api.usage().
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { Compile } from 'typebox/compile';
import { startServer, createKey, account, cliAsync, snapshot, elements, removeDataDir, type ServerProcess } from './helpers/server.ts';
import { UsageResponse } from '../src/schema/usage.ts';
import { SightlineApi, SightlineApiError } from '../src/client/index.ts';

const shape = Compile(UsageResponse);
let server: ServerProcess;
let pages: Server;
let site: string;

before(async () => {
  pages = createServer((req, res) => {
    if (req.url === '/broken') { res.writeHead(500, { 'content-type': 'text/html' }); res.end('<p>down</p>'); return; }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>Fine</title></head><body><article><h1>Fine</h1><p>${'A page that reads well. '.repeat(30)}</p></article></body></html>`);
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', () => r()));
  site = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
  server = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000']);
});

after(async () => {
  await server?.stop();
  if (server) removeDataDir(server.dataDir);
  pages?.close();
});

async function usage(key: string | undefined, query = ''): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${server.url}/v1/usage${query}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function observe(key: string, url: string): Promise<{ status: number; body: any; requestId: string }> {
  const res = await fetch(`${server.url}/v1/observe`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url, mode: 'read' }),
  });
  return { status: res.status, body: await res.json(), requestId: res.headers.get('x-request-id')! };
}

/** Charges and a refund, newest last: the expected entries with the request ids the responses carried. */
async function makeHistory(key: string) {
  const made: { type: 'charge' | 'refund'; credits: number; request_id: string; reason: string | null }[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await snapshot(server.url, key, { url: 'https://shop.example/', viewport: { width: 1280, height: 800 }, raw_elements: elements(6 + i) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    made.push({ type: 'charge', credits: 1, request_id: res.headers.get('x-request-id')!, reason: null });
  }
  const failed = await observe(key, `${site}/broken`);
  assert.equal(failed.status, 502, JSON.stringify(failed.body));
  assert.equal(failed.body.error, 'http_error');
  made.push({ type: 'refund', credits: 1, request_id: failed.requestId, reason: 'http_error' });
  // Refused before anything was held: no entry.
  const invalid = await snapshot(server.url, key, { url: 'https://shop.example/', raw_elements: [{ id: 1 }] });
  assert.equal(invalid.status, 400);
  const read = await observe(key, `${site}/fine`);
  assert.equal(read.status, 200, JSON.stringify(read.body));
  made.push({ type: 'charge', credits: 1, request_id: read.requestId, reason: null });
  return made;
}

test('GET /v1/usage lists exactly the charges and refunds, newest first, with their request ids, and the balance', async () => {
  const key = await createKey(server.dataDir, 20);
  const made = await makeHistory(key);
  const started = Date.now();
  const answer = await usage(key);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.ok(shape.Check(answer.body), JSON.stringify([...shape.Errors(answer.body)][0]));
  const { body } = answer;
  assert.deepEqual(body.entries.map(({ time: _, ...rest }: { time: string }) => rest), [...made].reverse());
  assert.equal(new Set(made.map((m) => m.request_id)).size, made.length, 'each request has its own id');
  const times = body.entries.map((e: { time: string }) => Date.parse(e.time));
  assert.ok(times.every((t: number, i: number) => t <= started && (i === 0 || t <= times[i - 1])), 'times fall, none in the future');
  const stored = await account(server.dataDir, key);
  assert.deepEqual(body.balance, { available: stored.credits, held: stored.held });
  assert.deepEqual(body.balance, { available: 16, held: 0 });
  assert.equal(body.key, stored.prefix);
  assert.equal(body.next_cursor, null);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  // Asking is free.
  assert.equal((await usage(key)).body.balance.available, 16);
  assert.equal((await account(server.dataDir, key)).credits, 16);
  // Another key sees only its own.
  const other = await createKey(server.dataDir, 3);
  assert.deepEqual((await usage(other)).body, { status: 'success', key: (await account(server.dataDir, other)).prefix, balance: { available: 3, held: 0 }, entries: [], next_cursor: null });
});

test('?limit= pages newest first and next_cursor walks to the oldest entry', async () => {
  const key = await createKey(server.dataDir, 20);
  const made = (await makeHistory(key)).map((m) => m.request_id).reverse();
  const seen: string[] = [];
  let cursor: string | null = '';
  let pagesRead = 0;
  while (cursor !== null) {
    const answer = await usage(key, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.entries.length <= 2);
    seen.push(...answer.body.entries.map((e: { request_id: string }) => e.request_id));
    cursor = answer.body.next_cursor;
    pagesRead++;
  }
  assert.deepEqual(seen, made);
  assert.equal(pagesRead, 3, '5 entries in pages of 2');
  assert.deepEqual((await usage(key, '?limit=500')).body.entries.map((e: { request_id: string }) => e.request_id), made);
  assert.equal((await usage(key, '?limit=5')).body.next_cursor, null, 'exactly a page: no empty page after it');
});

test('errors: 401 without a key, 400 for bad queries in the SPEC error body, 403 inactive, 405 for POST', async () => {
  const key = await createKey(server.dataDir, 7);
  const none = await usage(undefined);
  assert.equal(none.status, 401);
  assert.deepEqual(Object.keys(none.body).sort(), ['error', 'error_code', 'message', 'status']);
  assert.equal(none.body.error_code, 'unauthorized');
  assert.equal((await usage('sl_' + 'x'.repeat(32))).status, 401);
  for (const [query, says] of [
    ['?limit=0', /limit must be >= 1 \(got "0"\)/], ['?limit=501', /limit must be <= 500/], ['?limit=abc', /limit must be integer \(got "abc"\)/],
    ['?limit=', /limit must be integer/], ['?limit=2.5', /limit must be integer/], ['?limit=1&limit=2', /limit is given 2 times/],
    ['?cursor=abc', /cursor must be the next_cursor/], ['?cursor=0', /cursor must be/], ['?limt=5', /unknown parameter "limt"/],
  ] as const) {
    const answer = await usage(key, query);
    assert.equal(answer.status, 400, query);
    assert.equal(answer.body.status, 'error');
    assert.equal(answer.body.error_code, 'bad_request', query);
    assert.match(answer.body.error, says, query);
    assert.equal(answer.body.credits_remaining, 7, 'the key is known: its balance is in the error');
  }
  const post = await fetch(`${server.url}/v1/usage`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET');
  const inactive = await createKey(server.dataDir, 2, true);
  const refused = await usage(inactive);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error_code, 'account_inactive');
});

test('names of Object.prototype are unknown parameters like any other: 400, never a prototype touched', async () => {
  const key = await createKey(server.dataDir, 3);
  for (const name of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', '__proto__[limit]']) {
    for (const query of [`?${encodeURIComponent(name)}=1`, `?limit=2&${encodeURIComponent(name)}=1`, `?${name}=%7B%7D`]) {
      const answer = await usage(key, query);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error_code, 'bad_request', query);
      assert.equal(answer.body.error, `Invalid query: unknown parameter ${JSON.stringify(name)} (use limit, cursor)`, query);
    }
  }
  // The server still answers plain queries afterwards (nothing shared was changed).
  const fine = await usage(key, '?limit=1');
  assert.equal(fine.status, 200);
  assert.deepEqual(Object.keys(fine.body).sort(), ['balance', 'entries', 'key', 'next_cursor', 'status']);
});

test('usage takes a token from the key\'s rate bucket like the other /v1 routes', async () => {
  const strict = await startServer(['--rate-limit', '0.1', '--rate-burst', '2']);
  try {
    const key = await createKey(strict.dataDir, 5);
    const get = () => fetch(`${strict.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    assert.deepEqual([(await get()).status, (await get()).status], [200, 200]);
    const third = await get();
    assert.equal(third.status, 429);
    assert.equal((await third.json()).error_code, 'rate_limited');
    assert.ok(Number(third.headers.get('retry-after')) >= 1);
  } finally {
    await strict.stop();
    removeDataDir(strict.dataDir);
  }
});

test('sightline keys usage KEY: the same entries as a table, and --json equal to the API\'s answer', async () => {
  const key = await createKey(server.dataDir, 20);
  const made = (await makeHistory(key)).reverse();
  const api = (await usage(key)).body;
  const prefix = api.key;
  const json = JSON.parse(await cliAsync(['keys', 'usage', prefix, '--json'], server.dataDir));
  assert.deepEqual(json, api);
  const table = (await cliAsync(['keys', 'usage', key], server.dataDir)).trimEnd().split('\n');
  assert.equal(table[0], `key ${prefix}…  available 16  held 0`);
  assert.match(table[1], /^time\s+type\s+credits\s+request id\s+reason$/);
  const rows = table.slice(2).map((line) => line.split(/\s+/));
  assert.deepEqual(rows.map((r) => [r[1], r[2], r[3], r[4] ?? null]), made.map((m) => [m.type, String(m.credits), m.request_id, m.reason]));
  assert.ok(!table.join('\n').includes(key), 'the full key is not printed');
  const limited = (await cliAsync(['keys', 'usage', prefix, '--limit', '2'], server.dataDir)).trimEnd().split('\n');
  assert.equal(limited.length, 5, limited.join('\n'));
  const more = /--cursor (\d+)$/.exec(limited[4]);
  assert.ok(more, limited[4]);
  const older = JSON.parse(await cliAsync(['keys', 'usage', prefix, '--json', '--limit', '2', '--cursor', more[1]], server.dataDir));
  assert.deepEqual(older.entries.map((e: { request_id: string }) => e.request_id), made.slice(2, 4).map((m) => m.request_id));
  await assert.rejects(cliAsync(['keys', 'usage', prefix, '--limit', '0'], server.dataDir), (err: { status: number; stderr: string }) => err.status === 2 && /--limit must be >= 1/.test(err.stderr));
  const fresh = await createKey(server.dataDir, 1);
  assert.match(await cliAsync(['keys', 'usage', fresh], server.dataDir), /no charges or refunds/);
});

test('the client library: api.usage() and its pages, errors as SightlineApiError', async () => {
  const key = await createKey(server.dataDir, 20);
  const made = (await makeHistory(key)).reverse();
  const api = new SightlineApi({ baseUrl: server.url, apiKey: key });
  const all = await api.usage();
  assert.deepEqual(all.entries.map((e) => e.request_id), made.map((m) => m.request_id));
  assert.deepEqual(all.balance, { available: 16, held: 0 });
  const first = await api.usage({ limit: 3 });
  assert.equal(first.entries.length, 3);
  const rest = await api.usage({ limit: 3, cursor: first.next_cursor! });
  assert.deepEqual([...first.entries, ...rest.entries], all.entries);
  assert.equal(rest.next_cursor, null);
  await assert.rejects(api.usage({ limit: 0 }), (err: SightlineApiError) => err.status === 400 && err.code === 'bad_request' && err.creditsRemaining === 16);
  await assert.rejects(new SightlineApi({ baseUrl: server.url, apiKey: 'sl_' + 'y'.repeat(32) }).usage(), (err: SightlineApiError) => err.status === 401);
});
