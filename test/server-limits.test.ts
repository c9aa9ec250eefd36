// Limits of the running service: body cap (413), slow and aborted clients, rate limits (429 with
// Retry-After), the configurable limit cap, and graceful shutdown. Raw sockets where fetch would hide
// what the server does on the wire.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startServer, createKey, balance, snapshot, removeDataDir, elements, type ServerProcess } from './helpers/server.ts';

const page = (n = 5) => ({ url: 'https://example.test/', raw_elements: elements(n) });
const MIB = 1024 * 1024;

let server: ServerProcess;

before(async () => {
  server = await startServer(['--max-body-mb', '1', '--body-timeout-ms', '600', '--rate-limit', '1', '--rate-burst', '3', '--limit-cap', '20']);
});

after(async () => {
  assert.equal(await server.stop(), 0);
  removeDataDir(server.dataDir);
});

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads from the socket until the server closes it or a full response with a body has arrived. */
function response(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const done = () => resolve(text);
    socket.on('data', (d) => {
      text += d;
      const [head, body] = text.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head ?? '')?.[1];
      if (body !== undefined && length && Buffer.byteLength(body) >= Number(length)) done();
    });
    socket.on('close', done);
    socket.on('error', done);
  });
}

const head = (key: string, length?: number, extra = '') =>
  `POST /v1/snapshot HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${length === undefined ? '' : `Content-Length: ${length}\r\n`}${extra}\r\n`;

test('413 for a body over the cap, declared or not, and no charge', async () => {
  const key = await createKey(server.dataDir, 10);
  // Declared too large: answered at once, before any of the body is read.
  const early = await open(server.port);
  const earlyAnswer = response(early);
  early.write(head(key, 2 * MIB));
  assert.match(await earlyAnswer, /^HTTP\/1\.1 413[\s\S]*"error_code":"payload_too_large"/);
  early.destroy();
  // Not declared (chunked): refused once the bytes received pass the cap.
  const socket = await open(server.port);
  const answer = response(socket);
  socket.write(head(key, undefined, 'Transfer-Encoding: chunked\r\n'));
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  for (let i = 0; i < 6 && !socket.destroyed; i++) {
    socket.write(`${chunk.length.toString(16)}\r\n`);
    socket.write(chunk);
    socket.write('\r\n');
    await new Promise((r) => setTimeout(r, 20));
  }
  const text = await answer;
  assert.match(text, /^HTTP\/1\.1 413/, text.slice(0, 200));
  assert.match(text, /"error_code":"payload_too_large"/);
  socket.destroy();
  assert.equal(await balance(server.dataDir, key), 10);
  assert.equal((await snapshot(server.url, key, JSON.stringify(page(3)))).status, 200, 'a body under the cap still works');
});

test('a client that stops sending gets 408 and its connection closed, without a charge', async () => {
  const key = await createKey(server.dataDir, 10);
  const body = JSON.stringify(page(3));
  const socket = await open(server.port);
  const answer = response(socket);
  socket.write(head(key, Buffer.byteLength(body)) + body.slice(0, 20));
  const t0 = performance.now();
  const text = await answer;
  assert.match(text, /^HTTP\/1\.1 408/, text);
  assert.match(text, /"error_code":"request_timeout"/);
  assert.ok(performance.now() - t0 >= 500, 'waited for the body timeout');
  assert.equal(await balance(server.dataDir, key), 10);
});

test('a client that disconnects mid-body costs nothing and the server keeps serving', async () => {
  const key = await createKey(server.dataDir, 10);
  const body = JSON.stringify(page(50));
  for (let i = 0; i < 20; i++) {
    const socket = await open(server.port);
    socket.write(head(key, Buffer.byteLength(body)) + body.slice(0, 100 + i * 10));
    socket.destroy();
  }
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(await balance(server.dataDir, key), 10);
  assert.equal((await snapshot(server.url, key, body)).status, 200);
  assert.equal(await balance(server.dataDir, key), 9);
});

test('429 "Rate limit exceeded" with Retry-After past the burst; refused requests cost nothing', async () => {
  const key = await createKey(server.dataDir, 100);
  const answers = await Promise.all(Array.from({ length: 6 }, () => snapshot(server.url, key, page())));
  const ok = answers.filter((a) => a.status === 200);
  const limited = answers.filter((a) => a.status === 429);
  assert.equal(ok.length, 3, 'the burst');
  assert.equal(limited.length, 3);
  for (const a of limited) {
    assert.equal(a.body.error_code, 'rate_limited');
    assert.match(a.body.error, /^Rate limit exceeded/);
    assert.equal(a.body.credits_remaining, 97);
    assert.equal(a.headers.get('retry-after'), '1');
  }
  assert.equal(await balance(server.dataDir, key), 97);
  const other = await createKey(server.dataDir, 5);
  assert.equal((await snapshot(server.url, other, page())).status, 200, 'buckets are per key');
  await new Promise((r) => setTimeout(r, 1100));
  assert.equal((await snapshot(server.url, key, page())).status, 200, 'a token is back after Retry-After');
});

test('the options.limit cap is a server setting', async () => {
  const key = await createKey(server.dataDir, 10);
  const res = await snapshot(server.url, key, { ...page(60), options: { limit: 50 } });
  assert.equal(res.body.elements.length, 20);
});

test('graceful shutdown: stops accepting, finishes the request in flight, exits 0', async () => {
  const own = await startServer([]);
  const key = await createKey(own.dataDir, 5);
  const body = JSON.stringify(page(30));
  const socket = await open(own.port);
  const answer = response(socket);
  socket.write(head(key, Buffer.byteLength(body)) + body.slice(0, 50));
  await new Promise((r) => setTimeout(r, 100));
  own.proc.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  await assert.rejects(fetch(`${own.url}/healthz`), 'no new connections once shutting down');
  assert.equal(own.proc.exitCode, null, 'still running while a request is in flight');
  socket.write(body.slice(50));
  const text = await answer;
  assert.match(text, /^HTTP\/1\.1 200/, `${text.slice(0, 300)} exit=${own.proc.exitCode} ${JSON.stringify(own.logs)} ${own.stderr()}`);
  assert.match(text, /"credits_remaining":4/);
  assert.equal(await own.exited, 0);
  assert.equal(await balance(own.dataDir, key), 4);
  assert.ok(own.logs.some((l) => l.msg === 'stopped'));
  removeDataDir(own.dataDir);
});
