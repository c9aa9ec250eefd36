// The framing uWebSockets.js 20.30 does not answer (HTTP/1.0, a request without Host, more than 48
// header fields) or answers by closing (framing it cannot read), and the Idempotency-Key bytes it drops,
// sent raw to the shipped front: Debian's haproxy with deploy/haproxy.cfg before a real API instance
// (docs/decisions.md, "HTTP framing at the front"). Each gets an answer in the API's error shape, and
// nothing behind an ambiguous request reaches the API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, account, removeDataDir, elements, type ServerProcess } from './helpers/server.ts';
import { startBalancer, type Balancer } from './helpers/haproxy.ts';
import { exchange, type Exchange } from './helpers/raw-http.ts';

let api: ServerProcess;
let lb: Balancer;
let port: number;

before(async () => {
  api = await startServer([]);
  lb = await startBalancer([`127.0.0.1:${api.port}`]);
  port = Number(new URL(lb.url).port);
});
after(async () => {
  await lb.stop();
  assert.equal(await api.stop(), 0);
  removeDataDir(api.dataDir);
});

/** The one answer's status and error code (the API's error shape). A well-framed request refused needs
 *  no close: haproxy knows where it ended. */
function answer(ex: Exchange): { status: number; code?: string } {
  assert.equal(ex.statuses.length, 1, `one answer: ${ex.text.slice(0, 300)}`);
  const body = JSON.parse(ex.text.slice(ex.text.indexOf('\r\n\r\n') + 4)) as { status: string; error: string; error_code: string };
  assert.equal(body.status, 'error');
  assert.equal(typeof body.error, 'string');
  return { status: Number(ex.statuses[0].slice(9, 12)), code: body.error_code };
}

/** haproxy's parser's own refusal: the status (its built-in HTML body, which 2.6 cannot change) and a close. */
function parserRefusal(ex: Exchange): { status: number; closed: boolean } {
  assert.equal(ex.statuses.length, 1, `one answer: ${ex.text.slice(0, 300)}`);
  return { status: Number(ex.statuses[0].slice(9, 12)), closed: ex.closed };
}

/** The smuggled request: another route, so a log line would show it ran. */
const SMUGGLED = 'GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n';
async function notRouted() {
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(!api.logs.some((l) => l.path === '/openapi.json'), 'the smuggled request never reached the API');
}
const post = (headers: string) => `POST /v1/snapshot HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n`;
const fields = (n: number) => `GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: n - 1 }, (_, i) => `X-F${i}: v\r\n`).join('')}\r\n`;

test('HTTP/1.0 is answered: 505 http_version_not_supported, closed (uWS never answers it)', async () => {
  for (const head of ['GET /healthz HTTP/1.0\r\n\r\n', 'GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n', 'POST /v1/snapshot HTTP/1.0\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}']) {
    const ex = await exchange(port, [head]);
    assert.deepEqual(answer(ex), { status: 505, code: 'http_version_not_supported' }, head);
    assert.ok(ex.closed, head);
  }
});

test('conflicting Content-Length and unknown Transfer-Encoding: 400 from haproxy\'s parser, closed, nothing behind them reaches the API', async () => {
  for (const headers of [`Content-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n`, 'Content-Length: 0, 5\r\n', 'Content-Length: abc\r\n', 'Content-Length: +5\r\n',
    'Transfer-Encoding: gzip\r\n', 'Transfer-Encoding: foo\r\n', 'Transfer-Encoding: chunked, gzip\r\n', 'Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n']) {
    assert.deepEqual(parserRefusal(await exchange(port, [post(headers) + '0\r\n\r\n' + SMUGGLED])), { status: 400, closed: true }, headers);
  }
  await notRouted();
});

test('Transfer-Encoding with Content-Length: read as chunked (RFC 9112 §6.3), answered, the connection closed after it, nothing behind it reaches the API', async () => {
  const ex = await exchange(port, [post('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n') + '0\r\n\r\n' + SMUGGLED]);
  assert.deepEqual(answer(ex), { status: 401, code: 'unauthorized' }, 'the API answered the one request (no key sent)');
  assert.ok(ex.closed, 'closed after it');
  await notRouted();
});

test('no Host: 400 bad_request (uWS closes it unanswered)', async () => {
  assert.deepEqual(answer(await exchange(port, ['GET /healthz HTTP/1.1\r\nAccept: */*\r\n\r\n'])), { status: 400, code: 'bad_request' });
});

test('too many header fields: 47 served, 48 to 100 answered 431 headers_too_large, above 100 400 from haproxy\'s parser', async () => {
  const most = await exchange(port, [fields(47)], 800);
  assert.deepEqual(most.statuses, ['HTTP/1.1 200 OK'], '47 fields and haproxy\'s X-Forwarded-For are uWS\'s 48');
  for (const n of [48, 60, 100]) assert.deepEqual(answer(await exchange(port, [fields(n)])), { status: 431, code: 'headers_too_large' }, `${n} fields`);
  // tune.http.maxhdr (101, the request line included): haproxy's parser refuses before any rule can say 431.
  assert.deepEqual(parserRefusal(await exchange(port, [fields(101)])), { status: 400, closed: true });
  // A head over 4 KiB still reaches the API in one piece, which answers 431 itself.
  assert.deepEqual(answer(await exchange(port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(5000)}\r\n\r\n`])), { status: 431, code: 'headers_too_large' });
});

test('Idempotency-Key checked on its raw bytes at the front: Latin-1 and UTF-8 "café" both 400, never one key; a valid key still replays', async () => {
  const key = await createKey(api.dataDir, 5);
  const body = JSON.stringify({ url: 'https://example.test/', raw_elements: elements(3) });
  const request = (value: Buffer) => Buffer.concat([Buffer.from(post(`Authorization: Bearer ${key}\r\nContent-Length: ${body.length}\r\n`).slice(0, -2)),
    Buffer.from('Idempotency-Key: '), value, Buffer.from(`\r\n\r\n${body}`)]);
  for (const [what, value] of [['Latin-1 café', Buffer.from('caf\u00e9', 'latin1')], ['UTF-8 café', Buffer.from('caf\u00e9', 'utf8')], ['empty', Buffer.alloc(0)],
    ['a leading non-ASCII byte', Buffer.from('\u00e9k-1', 'latin1')], ['256 characters', Buffer.from('k'.repeat(256))]] as const) {
    const a = answer(await exchange(port, [request(value)]));
    assert.deepEqual([a.status, a.code], [400, 'bad_request'], what);
  }
  const twice = answer(await exchange(port, [post(`Authorization: Bearer ${key}\r\nContent-Length: ${body.length}\r\nIdempotency-Key: a\r\nIdempotency-Key: a\r\n`) + body]));
  assert.deepEqual([twice.status, twice.code], [400, 'bad_request'], 'two fields');
  assert.equal((await account(api.dataDir, key)).credits, 5, 'refused keys cost nothing');
  // "caf" is a key like any other: sent twice it is charged once.
  for (let i = 0; i < 2; i++) assert.deepEqual((await exchange(port, [request(Buffer.from('caf'))], 800)).statuses, ['HTTP/1.1 200 OK']);
  assert.equal((await account(api.dataDir, key)).credits, 4);
});
