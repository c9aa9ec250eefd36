// One set of names for errors: every error body carries `error_code` and `message` beside SPEC's own
// fields (snapshot: `error` is the message; observe: `error` is the code), the library's SightlineError
// and the client's SightlineApiError have the same property names with the same values for the same
// failure, and a missing key is a clear local error before any call (never "Bearer undefined").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, removeDataDir, snapshot, observe, type ServerProcess } from './helpers/server.ts';
import { SightlineApi, SightlineApiError } from '../src/client/api.ts';
import { createRanker, SightlineError } from '../src/index.ts';

let server: ServerProcess;
let key: string;

before(async () => {
  server = await startServer(['--rate-limit', '1', '--rate-burst', '3']);
  key = await createKey(server.dataDir, 100);
});
after(async () => {
  await server.stop();
  removeDataDir(server.dataDir);
});

test('snapshot and observe error bodies both carry error_code and message, beside SPEC\'s fields', async () => {
  const s = await snapshot(server.url, key, '{"url": ');
  assert.equal(s.status, 400);
  assert.equal(s.body.error_code, 'bad_request');
  assert.match(s.body.error, /^Invalid JSON payload/, 'SPEC: snapshot\'s error is the message');
  assert.equal(s.body.message, s.body.error);
  assert.equal(typeof s.body.credits_remaining, 'number');

  const o = await observe(server, key, { url: 'ftp://example.com/' });
  assert.equal(o.status, 400);
  assert.equal(o.body.error, 'invalid_url', 'SPEC: observe\'s error is the short name');
  assert.equal(o.body.error_code, 'invalid_url');
  assert.match(o.body.message, /ftp: URLs are not allowed/);

  for (const path of ['/v1/snapshot', '/v1/observe', '/v1/usage']) {
    const r = await fetch(`${server.url}${path}`, { method: path === '/v1/usage' ? 'GET' : 'POST', headers: { 'content-type': 'application/json' }, body: path === '/v1/usage' ? undefined : '{}' });
    const body = await r.json();
    assert.equal(r.status, 401, path);
    assert.equal(body.error_code, 'unauthorized', path);
    assert.match(body.message, /API key/, path);
  }
});

test('SightlineError and SightlineApiError: the same names and values for the same failure', async () => {
  const bad = { url: 'https://example.test/', raw_elements: [{ id: 'x', rect: { x: 0, y: 0, width: 1, height: 1 } }] };
  const ranker = await createRanker();
  let local: SightlineError | undefined;
  try { ranker.rank(bad); } catch (err) { local = err as SightlineError; }
  let remote: SightlineApiError | undefined;
  try { await new SightlineApi({ baseUrl: server.url, apiKey: key, columns: false }).snapshot(bad as never); } catch (err) { remote = err as SightlineApiError; }
  assert.ok(local instanceof SightlineError && remote instanceof SightlineApiError);
  for (const name of ['code', 'status', 'message'] as const) assert.equal(remote[name], local[name], name);
  assert.equal(remote.code, 'bad_request');

  // retryAfter: seconds on both (the server's 429 sets it on its SightlineError, the client reads it back).
  const hasty = new SightlineApi({ baseUrl: server.url, apiKey: await createKey(server.dataDir, 10), retries: 0 });
  const tiny = { url: 'https://example.test/', raw_elements: [{ id: 1, tag: 'button', text: 'Go', rect: { x: 0, y: 0, width: 90, height: 30 } }] };
  const calls = await Promise.allSettled(Array.from({ length: 6 }, () => hasty.snapshot(tiny)));
  const limited = calls.find((c) => c.status === 'rejected')?.reason as SightlineApiError | undefined;
  assert.ok(limited, 'a call beyond the burst of 3 is refused');
  assert.equal(limited.code, 'rate_limited');
  assert.equal(typeof limited.retryAfter, 'number');
  const names = (e: object) => Object.keys(e).filter((k) => ['code', 'status', 'retryAfter', 'errorCode', 'retryAfterS'].includes(k)).sort();
  const serverSide = Object.assign(new SightlineError('rate_limited'), { retryAfter: 1 });
  assert.deepEqual(names(limited), names(serverSide));
});

test('a missing API key is a local error naming it, before any request', () => {
  const unset = process.env.SIGHTLINE_SURELY_UNSET_KEY;
  for (const apiKey of [unset, '', '  ']) {
    assert.throws(() => new SightlineApi({ baseUrl: server.url, apiKey: apiKey as string }), (err: SightlineApiError) =>
      err instanceof SightlineApiError && err.code === 'missing_api_key' && err.status === 0
      && /^SightlineApi needs an API key: apiKey is (undefined|""|"  ") \(pass your key, e\.g\. process\.env\.SIGHTLINE_KEY/.test(err.message));
  }
  assert.throws(() => new SightlineApi({ baseUrl: 'localhost 8787', apiKey: key }), (err: SightlineApiError) => err.code === 'invalid_base_url');
});
