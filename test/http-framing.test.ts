// HTTP framing on the wire (RFC 9112), raw sockets against the real server: what is refused with which
// status, and that nothing behind a refused request is ever routed (request smuggling). Where the
// native uWS parser answers nothing, the tests pin down what it does instead (docs/decisions.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, removeDataDir, elements, type ServerProcess } from './helpers/server.ts';
import { exchange, type Exchange } from './helpers/raw-http.ts';

let server: ServerProcess;

before(async () => { server = await startServer(); });
after(async () => {
  assert.equal(await server.stop(), 0);
  removeDataDir(server.dataDir);
});

/** The one response's status, headers and SPEC error body. */
function refusal(ex: Exchange, status: number, code: string) {
  assert.deepEqual(ex.statuses.map((s) => s.slice(9, 12)), [String(status)], ex.text.slice(0, 300));
  const [head, body] = ex.text.split('\r\n\r\n');
  assert.match(head, /^connection: close$/im, 'says it closes');
  assert.match(head, /^x-request-id: \S+$/im);
  const parsed = JSON.parse(body);
  assert.equal(parsed.status, 'error');
  assert.equal(parsed.error_code, code);
  assert.equal(typeof parsed.error, 'string');
  assert.ok(ex.closed, 'the connection is closed');
}

/** The smuggled request: a different route, so an answer or a log line would show it ran. */
const SMUGGLED = 'GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n';

/** Nothing reached /openapi.json (the access log has a line for every routed request). */
async function notRouted(target: ServerProcess, ex: Exchange) {
  await new Promise((r) => setTimeout(r, 100));
  assert.doesNotMatch(ex.text, /openapi/, 'no answer from the smuggled route');
  assert.ok(!target.logs.some((l) => l.path === '/openapi.json'), 'the smuggled request was never routed');
}

/** A request uWS never hands over: unanswered and unrouted; closed once its buffer (4 KiB) is full. */
async function neverAnswered(head: string) {
  const ex = await exchange(server.port, [head + SMUGGLED, `X-Fill: ${'a'.repeat(5000)}\r\n`]);
  assert.deepEqual(ex.statuses, [], ex.text.slice(0, 200));
  assert.ok(ex.closed, 'closed once more than 4 KiB wait unparsed');
  await notRouted(server, ex);
}

const post = (headers: string) => `POST /v1/snapshot HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n`;

test('two differing Content-Length headers: 400 and closed, and the bytes after them are never read as a request', async () => {
  refusal(await exchange(server.port, [post(`Content-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n`)]), 400, 'bad_request');
  // The smuggling payload (the first length says the body is empty, the second that it is the
  // smuggled request): whatever is answered, the request behind is not routed and the connection closes.
  const smuggle = await exchange(server.port, [post(`Content-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n`) + SMUGGLED]);
  assert.ok(smuggle.closed);
  assert.ok(smuggle.statuses.every((s) => s.startsWith('HTTP/1.1 400')), smuggle.text.slice(0, 200));
  await notRouted(server, smuggle);
  // A valid length followed by a second, invalid one.
  refusal(await exchange(server.port, [post('Content-Length: 2\r\nContent-Length: 2x\r\n') + '{}']), 400, 'bad_request');
});

test('a Content-Length uWS cannot read is closed unanswered, and nothing behind it runs', async () => {
  // uWS parses the value after handing the request over and closes at once: no answer can get out.
  for (const value of ['abc', '+5', `0, ${SMUGGLED.length}`]) {
    const ex = await exchange(server.port, [post(`Content-Length: ${value}\r\n`) + SMUGGLED]);
    assert.deepEqual(ex.statuses, [], value);
    assert.ok(ex.closed, value);
    await notRouted(server, ex);
  }
});

test('a Transfer-Encoding other than chunked: 400 and closed, and a request behind it never runs', async () => {
  refusal(await exchange(server.port, [post('Transfer-Encoding: gzip\r\n')]), 400, 'bad_request');
  refusal(await exchange(server.port, [post('Transfer-Encoding: chunked, gzip\r\n') + '0\r\n\r\n']), 400, 'bad_request');
  refusal(await exchange(server.port, [post('Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n') + '0\r\n\r\n']), 400, 'bad_request');
  // uWS reads all three as chunked: without the check the empty chunk ends the body and the rest is
  // the next request.
  for (const te of ['chunked, gzip', 'chunked\r\nTransfer-Encoding: gzip']) {
    const ex = await exchange(server.port, [post(`Transfer-Encoding: ${te}\r\n`) + '0\r\n\r\n' + SMUGGLED]);
    assert.ok(ex.closed, te);
    assert.ok(ex.statuses.every((s) => s.startsWith('HTTP/1.1 400')), ex.text.slice(0, 200));
    await notRouted(server, ex);
  }
});

test('Transfer-Encoding with Content-Length: uWS closes the connection unanswered, and nothing behind it runs', async () => {
  const ex = await exchange(server.port, [post('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n') + '0\r\n\r\n' + SMUGGLED]);
  assert.deepEqual(ex.statuses, []);
  assert.ok(ex.closed);
  await notRouted(server, ex);
});

test('an empty or repeated Host: 400 and closed; a missing one is closed unanswered by uWS', async () => {
  refusal(await exchange(server.port, ['GET /healthz HTTP/1.1\r\nHost:\r\n\r\n']), 400, 'bad_request');
  refusal(await exchange(server.port, ['GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n']), 400, 'bad_request');
  // uWS checks Host itself, before the request reaches us, and closes without an answer.
  const missing = await exchange(server.port, ['GET /openapi.json HTTP/1.1\r\nAccept: */*\r\n\r\n']);
  assert.deepEqual(missing.statuses, []);
  assert.ok(missing.closed);
  await notRouted(server, missing);
  // With no header at all uWS waits for more (it needs one header line to end the head).
  await neverAnswered('GET /openapi.json HTTP/1.1\r\n\r\n');
});

test('a head over 4 KiB: 431 and closed; over 48 header fields uWS never hands the request over', async () => {
  refusal(await exchange(server.port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(5000)}\r\n\r\n`]), 431, 'headers_too_large');
  const fields = (n: number) => `GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: n - 1 }, (_, i) => `X-F${i}: v\r\n`).join('')}`;
  const most = await exchange(server.port, [`${fields(48)}\r\n`], 500);
  assert.deepEqual(most.statuses, ['HTTP/1.1 200 OK'], '48 fields are served');
  await neverAnswered(fields(49));
});

test('HTTP/1.0 and malformed request lines are never answered by uWS: nothing runs, closed at 4 KiB', async () => {
  // uWS accepts only a request line ending in " HTTP/1.1"; anything else waits for more bytes until
  // 4 KiB are buffered (or its 10 s idle timeout), then the connection is closed.
  await neverAnswered('GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n');
  await neverAnswered('GET  /healthz  HTTP/1.1\r\nHost: x\r\n\r\n');
  await neverAnswered('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n');
});

test('valid framing is still served: chunked (any case), identical Content-Length twice, keep-alive', async () => {
  const key = await createKey(server.dataDir, 10);
  const body = JSON.stringify({ url: 'https://example.test/', raw_elements: elements(3) });
  const auth = `Authorization: Bearer ${key}\r\n`;
  const chunked = post(`${auth}Transfer-Encoding: Chunked\r\n`) + `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const twice = post(`${auth}Content-Length: ${body.length}\r\nContent-Length: ${body.length}\r\n`) + body;
  const ex = await exchange(server.port, [chunked, twice], 800);
  assert.deepEqual(ex.statuses, ['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK'], ex.text.slice(0, 300));
  assert.equal(ex.closed, false, 'kept alive');
});

test('node:http transport: the same refusals with the SPEC body, and HTTP/1.0 is served', async () => {
  const node = await startServer(['--http', 'node']);
  try {
    refusal(await exchange(node.port, [post(`Content-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n`) + SMUGGLED]), 400, 'bad_request');
    refusal(await exchange(node.port, [post('Transfer-Encoding: chunked, gzip\r\n') + '0\r\n\r\n' + SMUGGLED]), 400, 'bad_request');
    refusal(await exchange(node.port, [post('Transfer-Encoding: gzip\r\n')]), 400, 'bad_request');
    refusal(await exchange(node.port, ['GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n']), 400, 'bad_request');
    refusal(await exchange(node.port, ['GET /healthz HTTP/1.1\r\nAccept: */*\r\n\r\n']), 400, 'bad_request');
    refusal(await exchange(node.port, ['GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n']), 400, 'bad_request');
    refusal(await exchange(node.port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(5000)}\r\n\r\n`]), 431, 'headers_too_large');
    await notRouted(node, { text: '', closed: true, statuses: [] });
    const old = await exchange(node.port, ['GET /healthz HTTP/1.0\r\n\r\n']);
    assert.deepEqual(old.statuses, ['HTTP/1.1 200 OK']);
    assert.ok(old.closed);
  } finally {
    await node.stop();
    removeDataDir(node.dataDir);
  }
});
