// The HTTP service end to end: the real `sightline serve` process over real HTTP, keys made with the
// real CLI, balances read back from the store. Every SPEC /v1/snapshot rule and error.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { sharedDir } from './helpers/shared-data.ts';
import { startServer, createKey, balance, snapshot, removeDataDir, elements, type ServerProcess } from './helpers/server.ts';

const page = (n = 10, extra: Record<string, unknown> = {}) => ({
  url: 'https://example.test/', viewport: { width: 1280, height: 800 }, raw_elements: elements(n), ...extra,
});

let server: ServerProcess;
let key: string;
let responseSchema: ReturnType<typeof Compile>;
let errorSchema: ReturnType<typeof Compile>;

before(async () => {
  server = await startServer(['--rate-limit', '100000', '--rate-burst', '100000']);
  key = await createKey(server.dataDir, 1_000_000);
  const doc = await (await fetch(`${server.url}/openapi.json`)).json();
  // Responses are checked against the published OpenAPI schemas: the docs cannot drift from the wire.
  const resolve = (schema: object) => JSON.parse(JSON.stringify(schema));
  responseSchema = Compile(resolve(doc.components.schemas.SnapshotResponse));
  errorSchema = Compile(resolve(doc.components.schemas.SnapshotError));
});

after(async () => {
  assert.equal(await server.stop(), 0, 'the server shuts down cleanly');
  removeDataDir(server.dataDir);
});

function assertError(res: { status: number; body: any }, status: number, code: string, message?: RegExp) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const valid: boolean = errorSchema.Check(res.body);
  assert.ok(valid, `error body matches the OpenAPI schema: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.status, 'error');
  assert.equal(res.body.error_code, code);
  if (message) assert.match(res.body.error, message);
}

describe('success', () => {
  test('ranks elements, charges one credit and reports the balance', async () => {
    const before = await balance(server.dataDir, key);
    const res = await snapshot(server.url, key, page(12));
    assert.equal(res.status, 200);
    const valid: boolean = responseSchema.Check(res.body);
    assert.ok(valid, [...responseSchema.Errors(res.body)].slice(0, 3).map((e) => `${e.instancePath} ${e.message}`).join('; '));
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.url, 'https://example.test/');
    assert.equal(res.body.credits_used, 1);
    assert.equal(res.body.credits_remaining, before - 1);
    assert.equal(await balance(server.dataDir, key), before - 1);
    assert.equal(res.body.elements.length, 12);
    const importance = res.body.elements.map((e: { importance: number }) => e.importance);
    assert.deepEqual(importance, [...importance].sort((a, b) => b - a), 'pre-sorted by importance');
    assert.ok(!Number.isNaN(Date.parse(res.body.timestamp)));
    assert.equal(res.headers.get('content-type'), 'application/json');
  });

  test('derives the viewport from element bounds when it is absent', async () => {
    const { viewport: _v, ...body } = page(8);
    const res = await snapshot(server.url, key, body);
    assert.equal(res.status, 200);
    assert.ok(res.body.viewport.width >= 1100 && res.body.viewport.height > 0, JSON.stringify(res.body.viewport));
  });

  test('options.limit: 50 by default, capped at 100', async () => {
    assert.equal((await snapshot(server.url, key, page(150))).body.elements.length, 50);
    assert.equal((await snapshot(server.url, key, page(150, { options: { limit: 7 } }))).body.elements.length, 7);
    assert.equal((await snapshot(server.url, key, page(150, { options: { limit: 5000 } }))).body.elements.length, 100);
    assertError(await snapshot(server.url, key, page(5, { options: { limit: 0 } })), 400, 'bad_request');
  });

  test('options.filter keeps only the allowed roles and large enough elements', async () => {
    const res = await snapshot(server.url, key, page(20, { options: { filter: { allowed_roles: ['button'] } } }));
    assert.ok(res.body.elements.length > 0);
    assert.ok(res.body.elements.every((e: { role: string }) => e.role === 'button'));
    const big = await snapshot(server.url, key, page(20, { options: { filter: { min_area: 10_000 } } }));
    assert.equal(big.body.elements.length, 0, 'every element is 200x30 = 6000 px²');
  });

  test('goal, client_metrics and client_diagnostics reach ml_rerank and diagnostics', async () => {
    const captcha = { detected: true, confidence: 0.9, evidence: { text_hits: ['verify you are human'], selector_hits: [], iframe_src_hits: ['recaptcha'], url_hits: [] } };
    const res = await snapshot(server.url, key, page(6, {
      goal: 'sign in',
      client_metrics: { ready_state: 'loading', quiet_ms: 50, node_count: 321 },
      client_diagnostics: { captcha },
    }));
    assert.equal(res.status, 200);
    assert.equal(res.body.ml_rerank.enabled, true);
    assert.equal(res.body.ml_rerank.candidate_count, 6);
    assert.ok(res.body.elements.every((e: { ml_probability?: number }) => typeof e.ml_probability === 'number'));
    const d = res.body.diagnostics;
    assert.equal(d.metrics.ready_state, 'loading');
    assert.equal(d.metrics.quiet_ms, 50);
    assert.equal(d.metrics.node_count, 321);
    assert.equal(d.metrics.raw_elements_count, 6);
    assert.deepEqual(d.captcha, captcha);
    assert.ok(d.reasons.includes('page_not_ready') && d.reasons.includes('captcha_detected'), d.reasons.join());
    assert.ok(d.confidence < 0.5);
    assert.equal(d.requires_vision, true);
  });

  test('a canvas-heavy page asks for vision', async () => {
    const res = await snapshot(server.url, key, {
      url: 'https://game.test/', viewport: { width: 1280, height: 800 },
      raw_elements: [{ id: 1, tag: 'canvas', rect: { x: 0, y: 0, width: 1280, height: 720 } }, ...elements(2, 740).map((e) => ({ ...e, id: e.id + 1 }))],
    });
    assert.equal(res.body.diagnostics.requires_vision, true);
    assert.match(res.body.diagnostics.requires_vision_reason, /canvas/);
  });

  test('a 20,000-element payload is ranked', async () => {
    const res = await snapshot(server.url, key, page(20_000, { options: { limit: 100 } }));
    assert.equal(res.status, 200);
    assert.equal(res.body.elements.length, 100);
    assert.equal(res.body.diagnostics.metrics.raw_elements_count, 20_000);
  });

  test('x-request-id is echoed, or made when absent, and logged', async () => {
    const mine = await snapshot(server.url, key, page(2), { 'x-request-id': 'agent-42.step-7' });
    assert.equal(mine.headers.get('x-request-id'), 'agent-42.step-7');
    const made = await snapshot(server.url, undefined, page(2));
    assert.match(made.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
    const bad = await snapshot(server.url, key, page(2), { 'x-request-id': 'x'.repeat(500) });
    assert.match(bad.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/, 'an overlong id is replaced');
    await new Promise((r) => setTimeout(r, 100));
    const line = server.logs.find((l) => l.req_id === 'agent-42.step-7');
    assert.ok(line, 'the request is in the structured log');
    assert.equal(line.status, 200);
    assert.equal(line.path, '/v1/snapshot');
    assert.equal(line.key, key.slice(0, 11));
    assert.ok(!JSON.stringify(server.logs).includes(key), 'the full key is never logged');
  });
});

describe('errors (SPEC bodies, no charge)', () => {
  test('401 for a missing, malformed or unknown key; no credits_remaining', async () => {
    assertError(await snapshot(server.url, undefined, page()), 401, 'unauthorized', /Missing API key/);
    assertError(await snapshot(server.url, undefined, page(), { authorization: `Basic ${key}` }), 401, 'unauthorized', /Bearer/);
    const unknown = await snapshot(server.url, 'sl_' + 'A'.repeat(32), page());
    assertError(unknown, 401, 'unauthorized', /Invalid API key/);
    assert.equal(unknown.body.credits_remaining, undefined);
  });

  test('403 for an inactive account, with its balance', async () => {
    const inactive = await createKey(server.dataDir, 7, true);
    const res = await snapshot(server.url, inactive, page());
    assertError(res, 403, 'account_inactive');
    assert.equal(res.body.credits_remaining, 7);
    assert.equal(await balance(server.dataDir, inactive), 7);
  });

  test('402 when the balance is short; an invalid request with no credits is still a 400', async () => {
    const empty = await createKey(server.dataDir, 0);
    const res = await snapshot(server.url, empty, page());
    assertError(res, 402, 'insufficient_credits');
    assert.equal(res.body.credits_remaining, 0);
    assertError(await snapshot(server.url, empty, { url: 'x' }), 400, 'bad_request', /Missing required field/);
    const one = await createKey(server.dataDir, 1);
    assert.equal((await snapshot(server.url, one, page())).status, 200);
    assertError(await snapshot(server.url, one, page()), 402, 'insufficient_credits');
    assert.equal(await balance(server.dataDir, one), 0);
  });

  const invalid: [string, unknown, RegExp][] = [
    ['missing url', { raw_elements: [] }, /^Missing required field: url/],
    ['missing raw_elements', { url: 'https://a.test/' }, /^Missing required field: raw_elements/],
    ['zero viewport width', { url: 'u', viewport: { width: 0, height: 800 }, raw_elements: [] }, /^Invalid viewport dimensions/],
    ['negative viewport height', { url: 'u', viewport: { width: 10, height: -1 }, raw_elements: [] }, /^Invalid viewport dimensions/],
    ['string viewport', { url: 'u', viewport: { width: '1280', height: 800 }, raw_elements: [] }, /^Invalid viewport dimensions/],
    ['raw_elements not an array', { url: 'u', raw_elements: {} }, /^Invalid element format/],
    ['element without rect', { url: 'u', raw_elements: [{ id: 1 }] }, /^Invalid element format: raw_elements\[0\]\.rect/],
    ['element with a string coordinate', { url: 'u', raw_elements: [{ id: 1, rect: { x: '1', y: 0, width: 1, height: 1 } }] }, /^Invalid element format: raw_elements\[0\]\.rect\.x/],
    ['element that is a number', { url: 'u', raw_elements: [5] }, /^Invalid element format/],
    ['body that is an array', [], /must be a JSON object/],
    ['body that is null', null, /must be a JSON object/],
    ['options.limit not a number', { url: 'u', raw_elements: [], options: { limit: 'ten' } }, /options\.limit/],
    ['a goal of 1,001 characters', { url: 'u', raw_elements: [], goal: 'x'.repeat(1001) }, /^Invalid request: goal must be at most 1000 characters \(got 1001\)/],
  ];
  for (const [name, body, message] of invalid) {
    test(`400 for ${name}`, async () => {
      const before = await balance(server.dataDir, key);
      const res = await snapshot(server.url, key, body);
      assertError(res, 400, 'bad_request', message);
      assert.equal(res.body.credits_remaining, before);
      assert.equal(await balance(server.dataDir, key), before, 'not charged');
    });
  }

  test('400 for invalid JSON, an empty body and non-JSON content types', async () => {
    const before = await balance(server.dataDir, key);
    assertError(await snapshot(server.url, key, '{"url": "u", raw_elements: ['), 400, 'bad_request', /^Invalid JSON payload/);
    assertError(await snapshot(server.url, key, ''), 400, 'bad_request', /^Invalid JSON payload: the body is empty/);
    assertError(await snapshot(server.url, key, Buffer.from([0xff, 0xfe, 0x00, 0x7b])), 400, 'bad_request', /^Invalid JSON payload/);
    // JSON text is UTF-8 (RFC 8259 §8.1): bytes that are not are refused, as the columnar body refuses
    // them, not turned into U+FFFD inside the caller's strings.
    const [head, tail] = JSON.stringify(page()).split('"Action 1"');
    const broken = Buffer.concat([Buffer.from(`${head}"Action `), Buffer.from([0xff, 0xc3]), Buffer.from(`"${tail}`)]);
    assertError(await snapshot(server.url, key, broken), 400, 'bad_request', /^Invalid JSON payload: the body is not valid UTF-8/);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
      assertError(await snapshot(server.url, key, page(), { 'content-type': type }), 400, 'bad_request', /Content-Type/);
    }
    assert.equal(await balance(server.dataDir, key), before, 'not charged');
    for (const type of ['application/json; charset=utf-8', 'application/vnd.agent+json']) {
      assert.equal((await snapshot(server.url, key, page(), { 'content-type': type })).status, 200, type);
    }
  });

  test('deeply nested JSON is refused or ignored, never a crash', async () => {
    const depth = 200_000;
    const nested = '['.repeat(depth) + ']'.repeat(depth);
    const before = await balance(server.dataDir, key);
    for (const body of [nested, `{"url":"u","raw_elements":${nested}}`, `{"url":"u","raw_elements":[{"id":1,"rect":{"x":0,"y":0,"width":1,"height":1},"attributes":${nested}}]}`]) {
      const res = await snapshot(server.url, key, body);
      assertError(res, 400, 'bad_request');
    }
    assert.equal(await balance(server.dataDir, key), before);
    const extra = await snapshot(server.url, key, `{"url":"u","raw_elements":[],"extra":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    assert.equal(extra.status, 200, 'unknown fields are accepted and ignored');
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });

  test('404 for unknown paths, 405 for wrong methods', async () => {
    const missing = await fetch(`${server.url}/v2/snapshot`, { method: 'POST', body: '{}' });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error_code, 'not_found');
    const wrong = await fetch(`${server.url}/v1/snapshot`);
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'POST');
    // Each path answers its own SPEC error body: observe's carries the code in `error` and a `message`
    // (and `error_code`, as every error body does).
    const observe = await fetch(`${server.url}/v1/observe`);
    assert.equal(observe.status, 405);
    assert.equal(observe.headers.get('allow'), 'POST');
    const body = await observe.json();
    assert.deepEqual(Object.keys(body).sort(), ['error', 'error_code', 'message', 'status']);
    assert.equal(body.error, 'method_not_allowed');
    assert.match(body.message, /accepts POST/);
  });
});

const payloads = sharedDir('real-client-payloads');
describe('real client payloads', { skip: payloads.missing }, () => {
  const dir = payloads.dir;
  const files = payloads.missing ? [] : readdirSync(dir).filter((f) => f.endsWith('.json'));
  test('the data set is there', () => assert.ok(files.length >= 9, `${files.length} payloads in ${dir}`));
  for (const file of files) {
    test(`accepts and ranks ${file} as sent`, async () => {
      const raw = readFileSync(join(dir, file));
      const sent = JSON.parse(raw.toString('utf8'));
      const res = await snapshot(server.url, key, raw);
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      const valid: boolean = responseSchema.Check(res.body);
      assert.ok(valid);
      assert.equal(res.body.url, sent.url);
      assert.ok(res.body.elements.length > 0 && res.body.elements.length <= (sent.options?.limit ?? 50));
      assert.equal(res.body.diagnostics.metrics.raw_elements_count, sent.raw_elements.length);
      const sentIds = new Set(sent.raw_elements.map((e: { id: number }) => e.id));
      assert.ok(res.body.elements.every((e: { id: number }) => sentIds.has(e.id)), 'ids echo the client\'s ids');
    });
  }
});

describe('service endpoints', () => {
  test('GET /healthz says which HTTP backend serves', async () => {
    const res = await fetch(`${server.url}/healthz`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, 'ok');
    assert.equal(body.http, 'uws-native');
  });

  test('GET /openapi.json is generated from the typebox schemas', async () => {
    const { SnapshotRequest } = await import('../src/schema/snapshot.ts');
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.components.schemas.SnapshotRequest, JSON.parse(JSON.stringify(SnapshotRequest)));
    const op = doc.paths['/v1/snapshot'].post;
    assert.deepEqual(Object.keys(op.responses).sort(), ['200', '400', '401', '402', '403', '408', '409', '413', '415', '422', '429', '431', '500', '503', '504']);
    assert.match(op.responses['503'].description, /store_unavailable/);
    assert.ok(op.responses['429'].headers['Retry-After']);
  });

  test('GET /openapi.json: both paid routes document every error the key, the body and the transport can give, and observe its modes and defaults', async () => {
    const { ERRORS } = await import('../src/schema/errors.ts');
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    // SPEC "Authentication": both endpoints answer 401 and 403 (inactive account); a body arrives late (408),
    // a head is too large (431), the server shuts down (503 busy) on either.
    const shared = ['unauthorized', 'account_inactive', 'insufficient_credits', 'request_timeout', 'payload_too_large', 'headers_too_large', 'rate_limited', 'busy', 'timeout'] as const;
    for (const path of ['/v1/snapshot', '/v1/observe']) {
      for (const code of shared) {
        const response = doc.paths[path].post.responses[String(ERRORS[code].status)];
        assert.match(response?.description ?? '', new RegExp(`\\b${code}\\b`), `${path} documents ${ERRORS[code].status} ${code}`);
      }
    }
    const observe = doc.components.schemas.ObserveRequest.properties;
    assert.deepEqual(observe.mode.anyOf.map((m: { const?: string }) => m.const ?? null), ['read', 'map', 'visual', null], 'null: the default, as on /v1/snapshot');
    assert.equal(observe.mode.default, 'read');
    assert.equal(observe.format.default, 'markdown');
  });
});
