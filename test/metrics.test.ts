// GET /metrics on the running server: parsed with a Prometheus text parser from a package, and every
// counter checked to move by exactly what the test's requests should make it move, refunds and 429s
// included; the token and the loopback rule; and with --workers 2, one sum whichever worker answers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { Agent } from 'undici';
import parse, { type Family } from 'parse-prometheus-text-format';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { startServer, createKey, balance, removeDataDir, snapshot, elements, type ServerProcess } from './helpers/server.ts';

const TOKEN = 'metrics-token-for-tests';
let server: ServerProcess;
let fixtures: FixtureServer;

before(async () => {
  fixtures = await serveFixtures();
  // Burst 5 and a refill slow enough that nothing comes back during the test: the sixth request of a key is a 429.
  server = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '0.001', '--rate-burst', '5', '--metrics-token', TOKEN]);
});

after(async () => {
  await server?.stop();
  await fixtures?.close();
  if (server) removeDataDir(server.dataDir);
});

async function scrape(base: string, token = TOKEN, dispatcher?: Agent): Promise<Family[]> {
  const res = await fetch(`${base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {}, ...(dispatcher ? { dispatcher } : {}) } as RequestInit);
  assert.equal(res.status, 200, await res.clone().text());
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = parse(text);
  assert.ok(families.length > 10, 'the exposition parses');
  // The parser folds the series of a labelled histogram into one; read as untyped, each series's
  // `_count` line stays a sample with its labels.
  return [...families, ...parse(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped')).filter((f) => f.name.endsWith('_count'))];
}

const key = (labels: Record<string, string> = {}) => JSON.stringify(Object.entries(labels).sort());

/** Every series of a counter or gauge (by its labels), or of a histogram's `_count`. */
function series(families: Family[], name: string): Map<string, number> {
  const histogram = families.some((f) => f.name === name && f.type === 'HISTOGRAM');
  const out = new Map<string, number>();
  for (const family of families.filter((f) => f.name === (histogram ? `${name}_count` : name))) {
    for (const m of family.metrics) out.set(key(m.labels), Number(m.value));
  }
  return out;
}

/** What moved between two scrapes, series by series (unmoved ones left out). */
function moved(a: Family[], b: Family[], name: string): Record<string, number> {
  const before = series(a, name);
  const out: Record<string, number> = {};
  for (const [labels, value] of series(b, name)) {
    const delta = value - (before.get(labels) ?? 0);
    if (delta !== 0) out[labels] = delta;
  }
  return out;
}

const observe = (body: unknown, apiKey: string) => fetch(`${server.url}/v1/observe`, {
  method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
});

test('counters move by exactly the requests made: statuses, error codes, credits, refunds, 429s, egress refusals', async () => {
  const work = await createKey(server.dataDir, 100);
  const limited = await createKey(server.dataDir, 100);
  const page = { url: 'https://shop.example/', viewport: { width: 1280, height: 800 }, raw_elements: elements(5) };
  const m0 = await scrape(server.url);

  assert.equal((await snapshot(server.url, work, page)).status, 200);
  assert.equal((await snapshot(server.url, work, { url: 'x', raw_elements: 'nope' })).status, 400);
  assert.equal((await observe({ url: `${fixtures.url}/missing.html`, mode: 'read' }, work)).status, 502); // charged, then refunded
  assert.equal((await observe({ url: `${fixtures.url}/login.html`, mode: 'map', options: { limit: 10 } }, work)).status, 200);
  assert.equal((await observe({ url: 'http://10.1.2.3/', mode: 'read' }, limited)).status, 403);
  for (let i = 0; i < 4; i++) assert.equal((await snapshot(server.url, limited, page)).status, 200);
  const refused = await snapshot(server.url, limited, page);
  assert.equal(refused.status, 429);

  const m1 = await scrape(server.url);
  const req = (route: string, status: number, code = '') => key({ route, method: route === '/metrics' ? 'GET' : 'POST', status: String(status), error_code: code });
  assert.deepEqual(moved(m0, m1, 'sightline_http_requests_total'), {
    [req('/v1/snapshot', 200)]: 5, [req('/v1/snapshot', 400, 'bad_request')]: 1, [req('/v1/snapshot', 429, 'rate_limited')]: 1,
    [req('/v1/observe', 200)]: 1, [req('/v1/observe', 502, 'http_error')]: 1, [req('/v1/observe', 403, 'blocked_url')]: 1,
    [req('/metrics', 200)]: 1, // the first scrape, counted once it was answered
  });
  assert.deepEqual(moved(m0, m1, 'sightline_credits_charged_total'), { [key({ route: 'snapshot' })]: 5, [key({ route: 'observe' })]: 4 });
  assert.deepEqual(moved(m0, m1, 'sightline_credits_refunded_total'), { [key({ route: 'observe' })]: 2 });
  assert.deepEqual(moved(m0, m1, 'sightline_rate_limited_total'), { [key({ route: '/v1/snapshot' })]: 1 });
  assert.deepEqual(moved(m0, m1, 'sightline_egress_refusals_total'), { [key({ reason: 'private' })]: 1 });
  assert.deepEqual(moved(m0, m1, 'sightline_observe_duration_seconds'), {
    [key({ mode: 'read', engine: 'fetch', outcome: 'http_error' })]: 1,
    [key({ mode: 'map', engine: 'performance', outcome: 'ok' })]: 1,
    [key({ mode: 'read', engine: 'fetch', outcome: 'blocked_url' })]: 1,
  });
  assert.deepEqual(moved(m0, m1, 'sightline_ranking_duration_seconds'), { [key({ route: 'snapshot' })]: 5, [key({ route: 'observe' })]: 1 });
  assert.deepEqual(moved(m0, m1, 'sightline_extraction_duration_seconds'), {}, 'no page was extracted (the 404 never reached a thread)');
  assert.equal(moved(m0, m1, 'sightline_http_request_duration_seconds')[key({ route: '/v1/snapshot' })], 7);
  assert.equal(moved(m0, m1, 'sightline_http_request_body_bytes')[key({ route: '/v1/observe' })], 3);
  // What the store says agrees: charged less refunded.
  assert.equal(await balance(server.dataDir, work), 100 - 1 - 2);
  assert.equal(await balance(server.dataDir, limited), 100 - 4);
  // The browser pool started for the map and is idle again.
  assert.equal(series(m1, 'sightline_browser_launches_total').get(key()), 1);
  assert.equal(series(m1, 'sightline_browser_crashes_total').get(key()), 0);
  assert.equal(series(m1, 'sightline_browser_contexts').get(key()), 0);
  assert.equal(series(m1, 'sightline_browser_pages_open').get(key()), 0);
  assert.ok((series(m1, 'sightline_extract_workers').get(key()) ?? 0) >= 1);
});

test('a read that extracts a page is timed; the token is required when set', async () => {
  const reader = await createKey(server.dataDir, 10);
  const m0 = await scrape(server.url);
  assert.equal((await observe({ url: `${fixtures.url}/article.html`, mode: 'read' }, reader)).status, 200);
  const m1 = await scrape(server.url);
  assert.deepEqual(moved(m0, m1, 'sightline_extraction_duration_seconds'), { [key()]: 1 });
  for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
    const res = await fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
    assert.equal(res.status, 401, String(authorization));
    assert.equal(((await res.json()) as { error_code: string }).error_code, 'unauthorized');
  }
});

test('without a token, /metrics answers on loopback only', async () => {
  const open = await startServer(['--host', '0.0.0.0']);
  try {
    const port = new URL(open.url).port;
    await scrape(`http://127.0.0.1:${port}`, '');
    const outside = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
    if (!outside) return; // no other address on this machine to come from
    const res = await fetch(`http://${outside.address}:${port}/metrics`);
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { error_code: string }).error_code, 'forbidden');
  } finally {
    await open.stop();
    removeDataDir(open.dataDir);
  }
});

test('with --workers 2, every scrape sums both workers', async () => {
  const pair = await startServer(['--workers', '2', '--rate-limit', '1000', '--rate-burst', '1000']);
  try {
    const apiKey = await createKey(pair.dataDir, 100);
    const page = { url: 'https://shop.example/', raw_elements: elements(3) };
    const fresh = () => new Agent({ pipelining: 0 }); // a new connection each time: the kernel spreads them
    const N = 12;
    for (let i = 0; i < N; i++) {
      const dispatcher = fresh();
      const res = await fetch(`${pair.url}/v1/snapshot`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(page), dispatcher } as RequestInit);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      await dispatcher.close();
    }
    for (let i = 0; i < 6; i++) {
      const dispatcher = fresh();
      const families = await scrape(pair.url, '', dispatcher);
      await dispatcher.close();
      const ok = series(families, 'sightline_http_requests_total').get(key({ route: '/v1/snapshot', method: 'POST', status: '200', error_code: '' }));
      assert.equal(ok, N, `scrape ${i}`);
      assert.equal(series(families, 'sightline_credits_charged_total').get(key({ route: 'snapshot' })), N);
      assert.equal(series(families, 'sightline_http_requests_total').get(key({ route: '/metrics', method: 'GET', status: '200', error_code: '' })) ?? 0, i);
    }
  } finally {
    await pair.stop();
    removeDataDir(pair.dataDir);
  }
});
