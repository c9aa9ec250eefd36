// Idempotency-Key on /v1/snapshot and /v1/observe, end to end on the real server process and SQLite
// file: a retry returns the first outcome (Idempotent-Replayed: true) and is charged once; the same key
// with another body is a 422; a retry while the first still runs is a 409; outcomes nothing was charged
// for are not kept; the header is checked. And the client library: a connection that drops after the
// server answered is retried with the same key, so the call is charged once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createTcpServer, connect, type Server as TcpServer } from 'node:net';
import { SightlineApi } from '../src/client/api.ts';
import { openSqliteStore } from '../src/store/sqlite.ts';
import { serveSlowPage, type SlowSite } from './helpers/slow-site.ts';
import { startServer, createKey, account, snapshot, elements, removeDataDir, type ServerProcess } from './helpers/server.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ARTICLE = `<html><head><title>Once</title></head><body><article><h1>Once only</h1><p>${'Charged once however often it is asked for. '.repeat(20)}</p></article></body></html>`;
const page = (n = 5) => ({ url: 'https://example.test/', raw_elements: elements(n) });

let pages: SlowSite;
let site: string;
let server: ServerProcess;

before(async () => {
  pages = await serveSlowPage(ARTICLE);
  site = pages.url;
  server = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000']);
});

after(async () => {
  await server.stop();
  removeDataDir(server.dataDir);
  pages.close();
});

async function observe(key: string, body: unknown, idempotencyKey?: string) {
  const res = await fetch(`${server.url}/v1/observe`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const posts = async (key: string) => (await account(server.dataDir, key)).ledger.filter((r) => r.kind === 'post').length;

test('snapshot: a retry with the same key returns the first outcome, replayed, charged once', async () => {
  const key = await createKey(server.dataDir, 10);
  const first = await snapshot(server.url, key, page(), { 'idempotency-key': 'order-1' });
  assert.equal(first.status, 200);
  assert.equal(first.body.credits_remaining, 9);
  assert.equal(first.headers.get('idempotent-replayed'), null);
  await sleep(5); // a second ranking would carry another timestamp
  const again = await snapshot(server.url, key, page(), { 'idempotency-key': 'order-1' });
  assert.equal(again.status, 200);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(again.body, first.body, 'the stored outcome, byte for byte');
  const after = await account(server.dataDir, key);
  assert.deepEqual([after.credits, after.held, await posts(key)], [9, 0, 1]);
  // Without a key, the same request is a new request.
  await snapshot(server.url, key, page());
  await snapshot(server.url, key, page());
  assert.equal((await account(server.dataDir, key)).credits, 7);
  // Keys belong to an API key: another account's "order-1" is its own.
  const other = await createKey(server.dataDir, 3);
  const theirs = await snapshot(server.url, other, page(), { 'idempotency-key': 'order-1' });
  assert.equal(theirs.status, 200);
  assert.equal(theirs.headers.get('idempotent-replayed'), null);
  assert.equal(theirs.body.credits_remaining, 2);
});

test('the same key with a different body is a 422 in the SPEC error shape of each route', async () => {
  const key = await createKey(server.dataDir, 10);
  assert.equal((await snapshot(server.url, key, page(3), { 'idempotency-key': 'k-422' })).status, 200);
  const reused = await snapshot(server.url, key, page(4), { 'idempotency-key': 'k-422' });
  assert.equal(reused.status, 422);
  assert.equal(reused.body.status, 'error');
  assert.equal(reused.body.error_code, 'idempotency_key_reused');
  assert.match(reused.body.error, /already used with a different request/);
  assert.equal(reused.body.credits_remaining, 9);
  // The same key on another route is another request too.
  const observed = await observe(key, { url: `${site}/wait/0` }, 'k-422');
  assert.equal(observed.status, 422);
  assert.deepEqual(Object.keys(observed.body).sort(), ['credits_remaining', 'error', 'error_code', 'message', 'status']);
  assert.equal(observed.body.error, 'idempotency_key_reused');
  assert.equal((await account(server.dataDir, key)).credits, 9, 'nothing charged for either');
});

test('observe: a retry while the first still runs is a 409 with Retry-After; after it, the replay; one charge', async () => {
  const key = await createKey(server.dataDir, 10);
  const body = { url: `${site}/wait/800`, mode: 'read' };
  const first = observe(key, body, 'slow-1');
  await sleep(200);
  const early = await observe(key, body, 'slow-1');
  assert.equal(early.status, 409);
  assert.equal(early.body.error, 'idempotency_in_progress');
  assert.equal(early.headers.get('retry-after'), '1');
  const done = await first;
  assert.equal(done.status, 200);
  assert.equal(done.body.credits_remaining, 9);
  const replay = await observe(key, body, 'slow-1');
  assert.equal(replay.status, 200);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(replay.body, done.body);
  const after = await account(server.dataDir, key);
  assert.deepEqual([after.credits, after.held, await posts(key)], [9, 0, 1]);
});

test('an outcome nothing was charged for is not kept: a 402, topped up, retried with the same key runs', async () => {
  const key = await createKey(server.dataDir, 0);
  const short = await snapshot(server.url, key, page(), { 'idempotency-key': 'topup' });
  assert.equal(short.status, 402);
  const store = openSqliteStore(server.dataDir);
  try { await store.setCredits((await store.resolve(key))!.id, 2); } finally { await store.close(); }
  const paid = await snapshot(server.url, key, page(), { 'idempotency-key': 'topup' });
  assert.equal(paid.status, 200);
  assert.equal(paid.headers.get('idempotent-replayed'), null);
  assert.equal(paid.body.credits_remaining, 1);
  // A 400 is kept: the same invalid request gets the same answer without running.
  const bad = await snapshot(server.url, key, { url: 'x' }, { 'idempotency-key': 'bad' });
  assert.equal(bad.status, 400);
  const badAgain = await snapshot(server.url, key, { url: 'x' }, { 'idempotency-key': 'bad' });
  assert.equal(badAgain.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(badAgain.body, bad.body);
});

test('Idempotency-Key is checked: at most 255 visible ASCII characters, else 400', async () => {
  const key = await createKey(server.dataDir, 10);
  const long = await snapshot(server.url, key, page(), { 'idempotency-key': 'k'.repeat(256) });
  assert.equal(long.status, 400);
  assert.equal(long.body.error_code, 'bad_request');
  assert.match(long.body.error, /Idempotency-Key header: at most 255 characters/);
  // Raw bytes (non-ASCII, empty, repeated) are sent over a socket in the next test.
  const tab = await snapshot(server.url, key, page(), { 'idempotency-key': 'a\tb' });
  assert.equal(tab.status, 400);
  assert.match(tab.body.error, /Idempotency-Key header: only visible ASCII/);
  assert.equal((await snapshot(server.url, key, page(), { 'idempotency-key': 'a b' })).status, 400, 'a space is not visible');
  assert.equal((await snapshot(server.url, key, page(), { 'idempotency-key': 'k'.repeat(255) })).status, 200);
  assert.equal((await snapshot(server.url, key, page(), { 'idempotency-key': '~!"#$%&()*+,-./:;<=>?@[]^_`{|}' })).status, 200);
  assert.equal((await account(server.dataDir, key)).credits, 8, 'refused keys cost nothing');
  const unknown = await snapshot(server.url, 'sl_' + 'A'.repeat(32), page(), { 'idempotency-key': 'x' });
  assert.equal(unknown.status, 401, 'the key is checked before any record is read');
});

test('client: a connection lost after the server answered is retried with the same key, charged once', async () => {
  const key = await createKey(server.dataDir, 10);
  // A TCP relay that lets the first request through to the server but cuts the connection as its
  // answer comes back: the client cannot know the request ran.
  let cut = 1;
  const relay: TcpServer = createTcpServer((client) => {
    const upstream = connect(server.port, '127.0.0.1');
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.pipe(upstream);
    if (cut-- > 0) upstream.once('data', () => { client.destroy(); upstream.destroy(); });
    else upstream.pipe(client);
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()));
  try {
    const api = new SightlineApi({ baseUrl: `http://127.0.0.1:${(relay.address() as { port: number }).port}`, apiKey: key });
    const result = await api.snapshot(page());
    assert.equal(result.credits_remaining, 9);
    const after = await account(server.dataDir, key);
    assert.deepEqual([after.credits, after.held, await posts(key)], [9, 0, 1], 'ran once, charged once');
    assert.equal(cut, -1, 'the first attempt was cut');
    // A new call is a new key: charged again.
    assert.equal((await api.snapshot(page())).credits_remaining, 8);
  } finally {
    relay.close();
  }
});

test('OpenAPI documents the header, the replay header and both errors on each charged route', async () => {
  const doc = await (await fetch(`${server.url}/openapi.json`)).json();
  for (const path of ['/v1/snapshot', '/v1/observe']) {
    const op = doc.paths[path].post;
    assert.deepEqual(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), ['header:Idempotency-Key', 'header:Content-Encoding'], path);
    assert.equal(op.parameters[0].schema.maxLength, 255);
    assert.ok(op.responses['200'].headers['Idempotent-Replayed'], path);
    assert.match(op.responses['422'].description, /idempotency_key_reused/, path);
    assert.match(op.responses['409'].description, /idempotency_in_progress/, path);
    assert.ok(op.responses['409'].headers['Retry-After'], path);
  }
});

/** POST /v1/snapshot over a raw socket with `fields` (raw bytes: each an Idempotency-Key line, or
 *  none); the status and the SPEC error code. */
async function rawSnapshot(port: number, key: string, fields: Buffer[]): Promise<{ status: number; code?: string; error?: string }> {
  const body = JSON.stringify(page());
  const head = `POST /v1/snapshot HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`;
  const bytes = Buffer.concat([Buffer.from(head), ...fields.flatMap((f) => [Buffer.from('Idempotency-Key:'), f, Buffer.from('\r\n')]), Buffer.from(`Connection: close\r\n\r\n${body}`)]);
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d) => { text += d; });
  await new Promise<void>((resolve, reject) => { socket.on('close', () => resolve()); socket.on('error', reject); socket.write(bytes); });
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const parsed = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error_code?: string; error?: string };
  return { status, code: parsed.error_code, error: parsed.error };
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');
const utf8 = (s: string) => Buffer.from(s, 'utf8');

test('Idempotency-Key on its raw bytes, the same on uWS and node:http: empty, white space only, non-ASCII in Latin-1 and UTF-8, a space, two of them: 400 naming the header, free', async () => {
  const plain = await startServer(['--http', 'node']);
  try {
    for (const [name, target] of [['uws', server], ['node', plain]] as const) {
      const key = await createKey(target.dataDir, 5);
      const refused: [string, Buffer[]][] = [
        ['empty', [latin1('')]], ['white space only', [latin1('   ')]], ['a space inside', [latin1(' a b ')]],
        ['Latin-1 é inside', [latin1('caf\u00e9-1')]], ['UTF-8 é inside', [utf8('caf\u00e9-1')]],
        ['two fields', [latin1('k-1'), latin1('k-2')]], ['the same twice', [latin1('k-1'), latin1('k-1')]],
      ];
      // node:http sees every byte; uWS drops bytes above 0x7F at the ends of a value (the shipped front
      // checks those: front.test.ts).
      if (name === 'node') refused.push(['Latin-1 café', [latin1('caf\u00e9')]], ['UTF-8 café', [utf8('caf\u00e9')]]);
      for (const [what, fields] of refused) {
        const r = await rawSnapshot(target.port, key, fields);
        assert.deepEqual([r.status, r.code], [400, 'bad_request'], `${name}: ${what}: ${r.error}`);
        assert.match(r.error!, /Idempotency-Key header/, `${name}: ${what}`);
      }
      assert.equal((await account(target.dataDir, key)).credits, 5, `${name}: refused keys cost nothing`);
      const first = await rawSnapshot(target.port, key, [latin1(' k-1 ')]);
      const again = await rawSnapshot(target.port, key, [latin1('k-1')]);
      assert.deepEqual([first.status, again.status], [200, 200], name);
      assert.equal((await account(target.dataDir, key)).credits, 4, `${name}: one key (white space around a value is not part of it), charged once`);
      assert.equal((await rawSnapshot(target.port, key, [])).status, 200, `${name}: no header, no key`);
    }
  } finally {
    await plain.stop();
    removeDataDir(plain.dataDir);
  }
});

test('--http node sees non-ASCII bytes in the key and refuses them', async () => {
  const plain = await startServer(['--http', 'node']);
  try {
    const key = await createKey(plain.dataDir, 5);
    const accented = await snapshot(plain.url, key, page(), { 'idempotency-key': 'caf\u00e9' });
    assert.equal(accented.status, 400);
    assert.match(accented.body.error, /Idempotency-Key header: only visible ASCII/);
    const first = await snapshot(plain.url, key, page(), { 'idempotency-key': 'n-1' });
    const again = await snapshot(plain.url, key, page(), { 'idempotency-key': 'n-1' });
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await account(plain.dataDir, key)).credits, 4);
  } finally {
    await plain.stop();
    removeDataDir(plain.dataDir);
  }
});
