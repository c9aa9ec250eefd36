// Thousands of malformed bodies at the running server (fast-check): never a 5xx, never a crash, and the
// balance moves by exactly the number of requests that succeeded (malformed ones cost nothing).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startServer, createKey, balance, snapshot, removeDataDir, elements, type ServerProcess, type Answer } from './helpers/server.ts';
import { encodeColumns, COLUMNS_TYPE } from '../src/rank/columns.ts';

let server: ServerProcess;
before(async () => { server = await startServer(['--rate-limit', '1000000', '--rate-burst', '1000000', '--log-level', 'warn']); });
after(async () => {
  assert.equal(await server.stop(), 0);
  removeDataDir(server.dataDir);
});

const valid = () => ({ url: 'https://example.test/', viewport: { width: 1280, height: 800 }, raw_elements: elements(4), options: { limit: 10 } });

/** Sets `value` at a path of keys/indices inside a copy of a valid request (creating objects as needed). */
function mutate(path: (string | number)[], value: unknown, remove: boolean): unknown {
  const root: any = valid();
  let node = root;
  for (const part of path.slice(0, -1)) {
    if (node[part] === null || typeof node[part] !== 'object') node[part] = {};
    node = node[part];
  }
  const last = path[path.length - 1];
  if (remove) delete node[last];
  else node[last] = value;
  return root;
}

const key = fc.constantFrom('url', 'viewport', 'raw_elements', 'options', 'goal', 'client_metrics', 'client_diagnostics', 'width', 'height',
  'id', 'tag', 'rect', 'x', 'y', 'text', 'attributes', 'styles', 'z_index', 'limit', 'filter', 'previous', 'iframe_content', 'captcha', 'evidence');
const path = fc.array(fc.oneof(key, fc.nat({ max: 5 })), { minLength: 1, maxLength: 5 });
const weird = fc.oneof(fc.jsonValue(), fc.constantFrom(-1, 0, 1e308, -1e308, '', 'NaN', [], {}, null, true, '\u0000', 'x'.repeat(5000)));

const body = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(path, weird, fc.boolean()).map(([p, v, r]) => JSON.stringify(mutate(p, v, r))) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.tuple(fc.nat({ max: 400 }), fc.string({ maxLength: 5 })).map(([cut, tail]) => JSON.stringify(valid()).slice(0, cut) + tail) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
);
const contentType = fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('', 'text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'a/b+json') });

test('malformed bodies: no 5xx, no crash, no charge', { timeout: 300_000 }, async () => {
  const apiKey = await createKey(server.dataDir, 1_000_000);
  const before = await balance(server.dataDir, apiKey);
  const statuses = new Map<number, number>();
  await fc.assert(fc.asyncProperty(body, contentType, async (payload, type) => {
    const res = await snapshot(server.url, apiKey, payload, { 'content-type': type }).catch((err) => {
      throw new Error(`no answer (${err.message}) for ${type} ${String(payload).slice(0, 500)}`);
    });
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    assert.ok(res.status === 200 || res.status === 400, `status ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    if (res.status === 400) {
      assert.equal(res.body.error_code, 'bad_request');
      assert.equal(typeof res.body.error, 'string');
    }
  }), { numRuns: Number(process.env.FUZZ_RUNS ?? 3000), seed: Number(process.env.FUZZ_SEED ?? 20261121) });
  const ok = statuses.get(200) ?? 0;
  assert.ok((statuses.get(400) ?? 0) > 1500, `mostly malformed: ${JSON.stringify([...statuses])}`);
  assert.equal(before - await balance(server.dataDir, apiKey), ok, 'charged exactly the successful requests');
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'still serving');
  assert.equal(server.proc.exitCode, null);
  assert.deepEqual(server.logs.filter((l) => l.msg === 'request failed'), []);
});

/** The answer without what differs between two calls: the time and the balance after each. */
const comparable = (a: Answer) => {
  if (a.status !== 200) return { status: a.status, body: a.body };
  const { timestamp: _t, credits_remaining: _c, ...rest } = a.body;
  return { status: a.status, body: rest };
};

test('malformed requests as columnar bodies answer exactly as their JSON twins', { timeout: 300_000 }, async () => {
  const apiKey = await createKey(server.dataDir, 1_000_000);
  const mutated = fc.tuple(path, weird, fc.boolean()).map(([p, v, r]) => mutate(p, v, r));
  let columnar = 0, rejected = 0;
  await fc.assert(fc.asyncProperty(mutated, async (request) => {
    const bytes = encodeColumns(request);
    if (!bytes) return; // not carried by the format: our client sends such a request as JSON
    columnar++;
    const json = await snapshot(server.url, apiKey, JSON.stringify(request));
    const cols = await snapshot(server.url, apiKey, Buffer.from(bytes), { 'content-type': COLUMNS_TYPE });
    if (json.status === 400) rejected++;
    assert.deepEqual(comparable(cols), comparable(json), JSON.stringify(request).slice(0, 500));
  }), { numRuns: Number(process.env.FUZZ_RUNS ?? 3000) / 3, seed: Number(process.env.FUZZ_SEED ?? 20261121) });
  assert.ok(columnar > 500 && rejected > 30, `${columnar} columnar, ${rejected} of them refused`);
});

test('corrupt columnar bodies: no 5xx, no crash, no charge', { timeout: 300_000 }, async () => {
  const apiKey = await createKey(server.dataDir, 1_000_000);
  const before = await balance(server.dataDir, apiKey);
  const good = encodeColumns({ ...valid(), raw_elements: [...elements(3), { ...elements(1)[0], id: 9, iframe_content: elements(2) }], goal: 'press action 1' })!;
  // Bytes overwritten at random places (the header, the columns, the preamble), cut short, or extended.
  const corrupt = fc.oneof(
    fc.array(fc.tuple(fc.nat({ max: good.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }).map((edits) => {
      const b = Buffer.from(good);
      for (const [at, v] of edits) b[at] = v;
      return b;
    }),
    fc.array(fc.tuple(fc.nat({ max: (good.length >> 2) - 1 }), fc.constantFrom(-1, -2, -3, -4, -5, -16, -17, 0, 1, 5, 1e6, -2147483648, 2147483647)), { minLength: 1, maxLength: 4 }).map((edits) => {
      const b = Buffer.from(good);
      for (const [at, v] of edits) b.writeInt32LE(v, at * 4);
      return b;
    }),
    fc.nat({ max: good.length }).map((cut) => Buffer.from(good.subarray(0, cut))),
    fc.uint8Array({ maxLength: 64 }).map((tail) => Buffer.concat([good, tail])),
  );
  let ok = 0;
  const statuses = new Map<number, number>();
  await fc.assert(fc.asyncProperty(corrupt, async (body) => {
    const res = await snapshot(server.url, apiKey, body, { 'content-type': COLUMNS_TYPE });
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    assert.ok(res.status === 200 || res.status === 400, `status ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    if (res.status === 200) ok++;
    else assert.equal(res.body.error_code, 'bad_request');
  }), { numRuns: Number(process.env.FUZZ_RUNS ?? 3000) / 3, seed: Number(process.env.FUZZ_SEED ?? 20261121) });
  assert.ok((statuses.get(400) ?? 0) > 300, `mostly refused: ${JSON.stringify([...statuses])}`);
  assert.equal(before - await balance(server.dataDir, apiKey), ok, 'charged exactly the successful requests');
  assert.equal(server.proc.exitCode, null);
  assert.deepEqual(server.logs.filter((l) => l.msg === 'request failed'), []);
});
