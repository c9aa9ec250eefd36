// Compressed bodies on the real server, on both transports (uWebSockets.js and node:http): requests in
// each Content-Encoding answer what their plain twin answers; a decompression bomb is refused with 413
// as soon as it passes the cap, costing no credit and little memory; a corrupt stream is 400 and an
// unknown coding 415, both free; responses are compressed by Accept-Encoding (br, gzip, identity, with
// q-values) when large, never when small; the client library's compressed calls work end to end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, createKey, balance, snapshot, removeDataDir, elements, type ServerProcess } from './helpers/server.ts';
import { sharedDir } from './helpers/shared-data.ts';
import { SightlineApi, SightlineApiError } from '../src/client/api.ts';
import { keyPrefix } from '../src/store/keys.ts';
import { encodeColumns } from '../src/rank/columns.ts';
import { compressReply, responseCoding, COMPRESS_MIN_BYTES } from '../src/server/reply.ts';

const MIB = 1024 * 1024;
const MAX_BODY_MB = 4;
const { dir, missing } = sharedDir('real-client-payloads');
/** The largest real client payload: a body worth compressing. */
const realBody = missing ? '' : readdirSync(dir).filter((f) => f.endsWith('.json'))
  .map((f) => readFileSync(join(dir, f), 'utf8')).sort((a, b) => b.length - a.length)[0];

const hasZstd = typeof (zlib as unknown as { zstdCompressSync?: unknown }).zstdCompressSync === 'function';
const encoders: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gzipSync(b),
  'x-gzip': (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  br: (b) => zlib.brotliCompressSync(b),
  ...(hasZstd ? { zstd: (b: Buffer) => (zlib as unknown as { zstdCompressSync: (b: Buffer) => Buffer }).zstdCompressSync(b) } : {}),
};

/** 1 GiB of zeros in about 1 MB of gzip: 1,024 members of 1 MiB each (concatenated members are one
 *  gzip stream, RFC 1952 §2.2), made from one compressed member so the test never holds 1 GiB. */
function gzipBomb(): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(MIB), { level: 9 });
  return Buffer.concat(Array.from({ length: 1024 }, () => member));
}

const servers: Record<'uws' | 'node', ServerProcess> = {} as never;

before(async () => {
  const flags = ['--max-body-mb', String(MAX_BODY_MB), '--rate-limit', '1000', '--rate-burst', '1000'];
  [servers.uws, servers.node] = await Promise.all([startServer(flags), startServer([...flags, '--http', 'node'])]);
});

after(async () => {
  for (const server of Object.values(servers)) {
    assert.equal(await server.stop(), 0);
    removeDataDir(server.dataDir);
  }
});

/** Drops what differs between two answers to the same request: the balance after it and the time. */
const comparable = (body: any) => ({ ...body, credits_remaining: undefined, timestamp: undefined });

/** One raw HTTP/1.1 request on its own socket: the status, headers and body as they came on the wire. */
function rawPost(port: number, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; head: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1', () => {
      const lines = Object.entries({ host: 'x', 'content-length': String(body.length), ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(`POST ${path} HTTP/1.1\r\n${lines}\r\n`);
      socket.write(body, () => { /* the server may close first: its answer is what counts */ });
    });
    let text = '';
    const done = () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, head: text, ms: performance.now() - started });
    };
    socket.on('data', (d) => {
      text += d;
      if (/\r\n\r\n[\s\S]*\}$/.test(text)) { done(); socket.destroy(); }
    });
    socket.on('close', done);
    socket.on('error', (err) => (text ? done() : reject(err)));
  });
}

/** A GET or POST whose answer is read as it came (node:http does not decode it). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function decode(coding: string | undefined, body: Buffer): Buffer {
  if (coding === 'br') return zlib.brotliDecompressSync(body);
  if (coding === 'gzip') return zlib.gunzipSync(body);
  assert.equal(coding, undefined);
  return body;
}

/** The access log line of the one /v1/snapshot request made with this key (the log comes through a
 *  pipe: wait for it). */
async function logLine(server: ServerProcess, key: string) {
  for (let i = 0; i < 150; i++) {
    const line = server.logs.find((l) => l.path === '/v1/snapshot' && l.key === keyPrefix(key));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

/** VmHWM (peak resident memory) of a process, in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

for (const backend of ['uws', 'node'] as const) {
  test(`${backend}: each request encoding gives the plain body's result, charged once each`, { skip: missing }, async () => {
    const server = servers[backend];
    const key = await createKey(server.dataDir, 100);
    const plain = await snapshot(server.url, key, realBody);
    assert.equal(plain.status, 200, JSON.stringify(plain.body).slice(0, 300));
    assert.ok(plain.body.elements.length > 0);
    for (const [coding, encode] of Object.entries(encoders)) {
      const encoded = encode(Buffer.from(realBody));
      assert.ok(encoded.length < realBody.length / 3, `${coding} made the body smaller`);
      const answer = await snapshot(server.url, key, encoded, { 'content-encoding': coding });
      assert.equal(answer.status, 200, `${coding}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      assert.deepEqual(comparable(answer.body), comparable(plain.body), coding);
    }
    // `identity` is no coding at all.
    assert.equal((await snapshot(server.url, key, realBody, { 'content-encoding': 'identity' })).status, 200);
    assert.equal(await balance(server.dataDir, key), 100 - 2 - Object.keys(encoders).length);
    const logged = await createKey(server.dataDir, 1);
    assert.equal((await snapshot(server.url, logged, zlib.brotliCompressSync(realBody), { 'content-encoding': 'br' })).status, 200);
    const line = await logLine(server, logged);
    assert.equal(line?.bytes_in, Buffer.byteLength(realBody), 'the log counts the decoded bytes');
    assert.equal(line?.encoding, 'br');
  });

  test(`${backend}: a gzip bomb (1 GiB of zeros) answers 413 at the cap, free and with little memory`, { skip: missing }, async () => {
    const server = servers[backend];
    const key = await createKey(server.dataDir, 10);
    const bomb = gzipBomb();
    assert.ok(bomb.length < 1.1 * MIB && bomb.length < MAX_BODY_MB * MIB, `the bomb itself is under the cap (${bomb.length} bytes)`);
    const peakBefore = peakRss(server.proc.pid!);
    const answer = await rawPost(server.port, '/v1/snapshot', { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb);
    assert.equal(answer.status, 413, answer.head.slice(0, 300));
    assert.match(answer.head, /"error_code":"payload_too_large"/);
    assert.match(answer.head, new RegExp(`the body limit is ${MAX_BODY_MB * MIB} bytes`));
    // Inflating the whole bomb would take 1 GiB and seconds; stopping at the cap takes a few MiB.
    const grew = peakRss(server.proc.pid!) - peakBefore;
    assert.ok(grew < 64 * MIB, `peak memory grew ${Math.round(grew / MIB)} MiB`);
    assert.ok(answer.ms < 5000, `answered in ${Math.round(answer.ms)} ms`);
    // A brotli bomb: 64 MiB of zeros in a few dozen bytes.
    const brBomb = zlib.brotliCompressSync(Buffer.alloc(64 * MIB), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
    const brAnswer = await rawPost(server.port, '/v1/snapshot', { authorization: `Bearer ${key}`, 'content-encoding': 'br' }, brBomb);
    assert.equal(brAnswer.status, 413, brAnswer.head.slice(0, 300));
    assert.equal(await balance(server.dataDir, key), 10, 'nothing charged');
    assert.equal((await snapshot(server.url, key, zlib.gzipSync(realBody), { 'content-encoding': 'gzip' })).status, 200, 'still serving');
  });

  test(`${backend}: a corrupt or truncated stream is 400, an unknown coding 415, both free`, { skip: missing }, async () => {
    const server = servers[backend];
    const key = await createKey(server.dataDir, 10);
    const gz = zlib.gzipSync(realBody);
    const garbage = Buffer.concat([gz.subarray(0, 10), Buffer.alloc(2000, 0xa5)]);
    const cases: [string, Buffer, string][] = [
      ['gzip', garbage, 'corrupt'],
      ['gzip', gz.subarray(0, gz.length >> 1), 'truncated'],
      ['br', Buffer.from('not brotli at all, just text'), 'corrupt'],
      ['deflate', Buffer.from(realBody), 'plain text declared deflate'],
    ];
    for (const [coding, body, what] of cases) {
      const answer = await snapshot(server.url, key, body, { 'content-encoding': coding });
      assert.equal(answer.status, 400, `${coding} ${what}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error_code, 'bad_request');
      assert.match(answer.body.error, new RegExp(`not valid ${coding}`));
    }
    const unknown = ['compress', 'gzip, br', ...(hasZstd ? [] : ['zstd'])];
    for (const coding of unknown) {
      const answer = await snapshot(server.url, key, realBody, { 'content-encoding': coding });
      assert.equal(answer.status, 415, `${coding}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error_code, 'unsupported_encoding');
      assert.match(answer.body.error, /Unsupported Content-Encoding/);
      assert.match(answer.headers.get('accept-encoding') ?? '', /gzip.*br/);
    }
    assert.equal(await balance(server.dataDir, key), 10, 'nothing charged');
  });

  test(`${backend}: responses follow Accept-Encoding when large, and small ones go plain`, { skip: missing }, async () => {
    const server = servers[backend];
    const key = await createKey(server.dataDir, 100);
    const post = (acceptEncoding?: string) => raw(`${server.url}/v1/snapshot`, {
      method: 'POST', body: realBody,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
    });
    const plain = await post();
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.length > COMPRESS_MIN_BYTES, 'the answer is large enough');
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const reference = comparable(JSON.parse(plain.body.toString()));
    const cases: [string, string | undefined][] = [
      ['br', 'br'], ['gzip', 'gzip'], ['gzip, deflate, br', 'br'], ['br;q=0.5, gzip', 'gzip'], ['gzip;q=0.2, br;q=0.9', 'br'],
      ['*', 'br'], ['identity', undefined], ['gzip;q=0, br;q=0', undefined], ['deflate', undefined], ['*;q=0, gzip', 'gzip'],
    ];
    for (const [accept, expected] of cases) {
      const answer = await post(accept);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], expected, accept);
      assert.equal(answer.headers.vary, 'Accept-Encoding', accept);
      if (expected) assert.ok(answer.body.length < plain.body.length / 3, `${accept}: ${answer.body.length} of ${plain.body.length} bytes`);
      assert.deepEqual(comparable(JSON.parse(decode(expected, answer.body).toString())), reference, accept);
    }
    // A small answer (an error body) is not compressed whatever the client accepts.
    const small = await raw(`${server.url}/v1/snapshot`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer nope', 'accept-encoding': 'br, gzip' } });
    assert.equal(small.status, 401);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.ok(small.body.length < COMPRESS_MIN_BYTES);
    assert.equal(JSON.parse(small.body.toString()).error_code, 'unauthorized');
    // Static pages too (the playground's script), and a large GET.
    const page = await raw(`${server.url}/docs/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(page.headers['content-encoding'], 'gzip');
    assert.ok(zlib.gunzipSync(page.body).length > 10 * page.body.length / 4);
  });

  test(`${backend}: the client library compresses large requests and reads compressed answers`, { skip: missing }, async () => {
    const server = servers[backend];
    const key = await createKey(server.dataDir, 100);
    const request = JSON.parse(realBody);
    const expected = comparable((await snapshot(server.url, key, realBody)).body);
    for (const compress of [undefined, 'gzip', false] as const) {
      const own = await createKey(server.dataDir, 1);
      const api = new SightlineApi({ baseUrl: server.url, apiKey: own, compress, columns: false });
      const result = await api.snapshot(request);
      assert.deepEqual(comparable(result), expected, String(compress));
      const line = await logLine(server, own);
      assert.equal(line?.encoding, compress === undefined ? 'br' : compress || undefined, `sent ${String(compress)}`);
      assert.equal(line?.bytes_in, Buffer.byteLength(JSON.stringify(request)));
      assert.equal(line?.encoding_out, 'br', 'the client asks for br answers');
    }
    // By default the client sends the columnar body, br-compressed too.
    for (const compress of [undefined, false] as const) {
      const own = await createKey(server.dataDir, 1);
      const result = await new SightlineApi({ baseUrl: server.url, apiKey: own, compress }).snapshot(request);
      assert.deepEqual(comparable(result), expected, `columns, ${String(compress)}`);
      const line = await logLine(server, own);
      assert.equal(line?.encoding, compress === undefined ? 'br' : undefined);
      assert.equal(line?.bytes_in, encodeColumns(request)!.length, 'the columnar body was sent');
    }
    // A small body goes plain.
    const own = await createKey(server.dataDir, 1);
    const api = new SightlineApi({ baseUrl: server.url, apiKey: own });
    const small = await api.snapshot({ url: 'https://example.test/', raw_elements: elements(2) });
    assert.equal(small.elements.length, 2);
    const line = await logLine(server, own);
    assert.ok(line);
    assert.equal(line.encoding, undefined);
    // Errors still arrive typed through a compressed request.
    const broke = new SightlineApi({ baseUrl: server.url, apiKey: key });
    await assert.rejects(broke.snapshot({ ...request, viewport: { width: -1, height: 5 } }),
      (err: unknown) => err instanceof SightlineApiError && err.status === 400 && /Invalid viewport/.test(err.message));
  });
}

test('OpenAPI documents Content-Encoding and 415 on both charged routes', async () => {
  const doc = await (await fetch(`${servers.uws.url}/openapi.json`)).json();
  for (const path of ['/v1/snapshot', '/v1/observe']) {
    const op = doc.paths[path].post;
    const header = op.parameters.find((p: { name: string }) => p.name === 'Content-Encoding');
    assert.deepEqual(header?.schema.enum, [...['gzip', 'deflate', 'br'], ...(hasZstd ? ['zstd'] : []), 'identity'], path);
    assert.match(op.responses['415'].description, /unsupported_encoding/, path);
    assert.match(op.responses['413'].description, /payload_too_large/, path);
  }
});

test('compressReply: never an image, never a small body, never twice; q-values decide', () => {
  const big = 'x'.repeat(COMPRESS_MIN_BYTES * 4);
  const png = { status: 200, body: Buffer.alloc(COMPRESS_MIN_BYTES * 4), contentType: 'image/png' };
  assert.equal(compressReply(png, 'br, gzip'), png);
  const small = { status: 200, body: 'x'.repeat(COMPRESS_MIN_BYTES - 1), contentType: 'application/json' };
  assert.equal(compressReply(small, 'br'), small);
  const json = { status: 200, body: big, contentType: 'application/json', headers: { 'x-request-id': 'r' } };
  const sent = compressReply(json, 'gzip');
  assert.equal(sent.headers?.['content-encoding'], 'gzip');
  assert.equal(json.body, big, 'the kept reply is unchanged');
  assert.equal(compressReply(sent, 'br'), sent, 'an encoded body is not encoded again');
  assert.equal(zlib.gunzipSync(sent.body as Buffer).toString(), big);
  assert.equal(responseCoding(undefined), undefined);
  assert.equal(responseCoding('GZIP;Q=1.0, BR;Q=0.999'), 'gzip');
  assert.equal(responseCoding('x-gzip'), 'gzip');
  assert.equal(responseCoding('br;q=0'), undefined);
});
