// Cached reads (options.max_age_s) through the real server: a stored read or map answers with cached
// and cached_at and costs the mode's credits, without loading the page again; other options, an old
// entry, a goal or credentials load the page; a large result lives in the blob store; /metrics counts
// hits and misses; a hit's latency against a miss's on 20 WCXB pages; and three instances on one
// Postgres share their hits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, createKey, balance, removeDataDir, observe, cli, tempDataDir, type ServerProcess } from './helpers/server.ts';
import { serveLargePages, wcxbIds, WCXB, type LargePages } from './helpers/large-pages.ts';
import { startPostgres } from './helpers/postgres.ts';

let site: Server;
let siteUrl: string;
let server: ServerProcess;
let key: string;
let large: LargePages;
/** Requests the site served, by path. */
const served = new Map<string, number>();
const FLAGS = ['--egress-allow', '127.0.0.1/32', '--rate-limit', '100000', '--rate-burst', '100000'];

before(async () => {
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const n = (served.get(path) ?? 0) + 1;
    served.set(path, n);
    const body = path.startsWith('/big')
      ? `<html><head><title>Big</title></head><body><article><h1>Big</h1>${Array.from({ length: 1500 }, (_, i) => `<p>Paragraph ${i} of a page far larger than a row of the store should hold.</p>`).join('')}</article></body></html>`
      : `<html><head><title>Visit ${n}</title></head><body><main><h1>Visit ${n} of ${path}</h1><p>${'This page counts its visits, so a result that was not loaded again says so. '.repeat(5)}</p><button>Go</button><a href="/x">Next</a></main></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  [server, large] = await Promise.all([startServer(FLAGS), serveLargePages()]);
  key = await createKey(server.dataDir, 100_000);
});
after(async () => {
  await Promise.all([server.stop(), large.close()]);
  removeDataDir(server.dataDir);
  site.closeAllConnections();
  site.close();
});

test('read: a second request within max_age_s is answered from the store, charged 1 credit, marked cached', async () => {
  const url = `${siteUrl}/a`;
  const before = await balance(server.dataDir, key);
  const first = await observe(server, key, { url, options: { max_age_s: 600 } });
  assert.equal(first.status, 200);
  assert.equal(first.body.cached, false);
  assert.equal(first.body.cached_at, undefined);
  const second = await observe(server, key, { url, options: { max_age_s: 600 } });
  assert.equal(second.status, 200);
  assert.equal(second.body.cached, true);
  assert.ok(Date.parse(second.body.cached_at) <= Date.now() && Date.now() - Date.parse(second.body.cached_at) < 60_000);
  assert.equal(second.body.content, first.body.content);
  assert.match(second.body.content, /Visit 1 of \/a/);
  assert.equal(served.get('/a'), 1, 'the page was loaded once');
  assert.equal(second.body.credits_used, 1);
  assert.equal(second.body.credits_remaining, first.body.credits_remaining - 1);
  assert.equal(await balance(server.dataDir, key), before - 2);
  // A budget cuts the stored content like a fresh one.
  const budgeted = await observe(server, key, { url, options: { max_age_s: 600, max_tokens: 20 } });
  assert.equal(budgeted.body.cached, true);
  assert.ok(budgeted.body.token_count <= 20 && budgeted.body.truncated);
});

test('read: an entry older than max_age_s, another format, no max_age_s or credentials load the page again', async () => {
  const url = `${siteUrl}/b`;
  await observe(server, key, { url, options: { max_age_s: 600 } });
  await new Promise((r) => setTimeout(r, 1100));
  const old = await observe(server, key, { url, options: { max_age_s: 1 } });
  assert.equal(old.body.cached, false);
  assert.match(old.body.content, /Visit 2/);
  const text = await observe(server, key, { url, format: 'text', options: { max_age_s: 600 } });
  assert.equal(text.body.cached, false, 'another format is another entry');
  const plain = await observe(server, key, { url });
  assert.equal(plain.body.cached, undefined);
  assert.match(plain.body.content, /Visit 4/);
  for (const credentials of [{ cookies: [{ name: 's', value: 'x' }] }, { headers: { Authorization: 'Bearer x' } }, { storage_state: { cookies: [], origins: [{ origin: siteUrl, localStorage: [{ name: 'a', value: 'b' }] }] } }]) {
    const res = await observe(server, key, { url, options: { max_age_s: 600 }, ...credentials });
    assert.equal(res.status, 200);
    assert.equal(res.body.cached, undefined, `never cached with ${Object.keys(credentials)[0]}`);
    assert.ok(res.body.warnings.includes('not_cached: options.max_age_s does not apply to a request with cookies, headers or storage_state'));
  }
  assert.equal(served.get('/b'), 7);
});

test('read: a large result is kept in the blob store and read back whole', async () => {
  const url = `${siteUrl}/big`;
  const first = await observe(server, key, { url, options: { max_age_s: 600, contentLimit: 500_000 } });
  assert.ok(first.body.content.length > 64 * 1024, `${first.body.content.length} characters`);
  const blobs = readdirSync(join(server.dataDir, 'blobs'));
  assert.equal(blobs.length, 1);
  const second = await observe(server, key, { url, options: { max_age_s: 600, contentLimit: 500_000 } });
  assert.equal(second.body.cached, true);
  assert.equal(second.body.content, first.body.content);
  assert.equal(served.get('/big'), 1);
});

test('map: without a goal the result is cached (2 credits a hit); with a goal it is not', async () => {
  const url = `${siteUrl}/m`;
  const first = await observe(server, key, { url, mode: 'map', options: { max_age_s: 600 } });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.cached, false);
  const second = await observe(server, key, { url, mode: 'map', options: { max_age_s: 600 } });
  assert.equal(second.body.cached, true);
  assert.equal(second.body.credits_used, 2);
  assert.deepEqual(second.body.interactable_elements, first.body.interactable_elements);
  const goal = await observe(server, key, { url, mode: 'map', options: { max_age_s: 600, goal: 'go' } });
  assert.equal(goal.body.cached, undefined);
  assert.ok(goal.body.warnings.includes('not_cached: options.max_age_s does not apply to map with a goal'));
  const visual = await observe(server, key, { url, mode: 'visual', options: { max_age_s: 600, screenshot_delivery: 'base64' } });
  assert.equal(visual.body.cached, undefined, 'visual is never cached');
  assert.ok(visual.body.warnings.includes('not_cached: options.max_age_s does not apply to visual'));
  assert.equal(served.get('/m'), 3);
});

test('/metrics counts hits and misses and the hit ratio', async () => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1]);
  const hits = value(/sightline_observe_cache_total\{mode="read",result="hit"\} (\d+)/);
  const misses = value(/sightline_observe_cache_total\{mode="read",result="miss"\} (\d+)/);
  assert.ok(hits >= 3 && misses >= 4, `${hits} hits, ${misses} misses`);
  const mapHits = value(/sightline_observe_cache_total\{mode="map",result="hit"\} (\d+)/);
  const mapMisses = value(/sightline_observe_cache_total\{mode="map",result="miss"\} (\d+)/);
  assert.deepEqual([mapHits, mapMisses], [1, 1], 'a goal and visual are not cache requests');
  const ratio = value(/sightline_observe_cache_hit_ratio ([\d.]+)/);
  assert.ok(Math.abs(ratio - (hits + mapHits) / (hits + misses + mapHits + mapMisses)) < 0.01, `ratio ${ratio}`);
});

test('latency: a hit against a miss on 20 WCXB pages (p50)', { skip: WCXB.missing }, async (t) => {
  const ids = wcxbIds().slice(0, 20);
  const timed = async (url: string) => {
    const started = performance.now();
    const res = await observe(server, key, { url, options: { max_age_s: 600, render: 'never' } });
    assert.equal(res.status, 200);
    return { ms: performance.now() - started, cached: res.body.cached };
  };
  const misses: number[] = [], hits: number[] = [];
  for (const id of ids) {
    const miss = await timed(`${large.url}/wcxb/${id}.html`);
    assert.equal(miss.cached, false);
    misses.push(miss.ms);
    const hit = await timed(`${large.url}/wcxb/${id}.html`);
    assert.equal(hit.cached, true);
    hits.push(hit.ms);
  }
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  t.diagnostic(`p50 miss ${p50(misses).toFixed(1)} ms, p50 hit ${p50(hits).toFixed(1)} ms, ratio ${(p50(misses) / p50(hits)).toFixed(1)}x`);
  assert.ok(p50(hits) < p50(misses), `hit p50 ${p50(hits)} ms is below miss p50 ${p50(misses)} ms`);
});

test('three instances on one Postgres share their hits', async () => {
  const pg = await startPostgres();
  const dirs = [tempDataDir(), tempDataDir(), tempDataDir()];
  try {
    const url = await pg.createDatabase(`cache${process.pid}`);
    const instances = await Promise.all(dirs.map((dataDir) => startServer(['--store', url, ...FLAGS], { dataDir })));
    try {
      const pgKey = cli(['keys', 'create', '--credits', '100', '--store', url], dirs[0]).trimEnd().split('\n').at(-1)!;
      const page = `${siteUrl}/shared`;
      const answers = [];
      for (const instance of instances) answers.push(await observe(instance, pgKey, { url: page, options: { max_age_s: 600 } }));
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
      assert.deepEqual(answers.map((a) => a.body.cached), [false, true, true]);
      assert.equal(served.get('/shared'), 1, 'loaded once for the three');
      assert.deepEqual(answers.map((a) => a.body.credits_remaining), [99, 98, 97]);
    } finally {
      await Promise.all(instances.map((s) => s.stop()));
    }
  } finally {
    dirs.forEach(removeDataDir);
    pg.destroy();
  }
});
