// Read mode's extraction runs in child processes (src/observe/worker/extract-pool.ts): a hostile page (7 MB of
// table rows, several at once) must not freeze the server, a page over the time limit is refused with
// 422 too_large and its thread replaced, a page over the element limit is refused before parsing, the
// request's deadline cancels the work, and the pool answers exactly what readPage answers in process.
// Real server processes read from a local HTTP server (loopback opened with --egress-allow).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { startServer, createKey, balance, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { ExtractPool } from '../src/observe/worker/extract-pool.ts';
import { readPage, type ReadOptions } from '../src/observe/read/read.ts';
import { xobjectLaughs, TABLE_ROWS } from './helpers/hostile-pdf.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const ARTICLE = readFileSync(new URL('read/article.html', FIXTURES), 'utf8');
/** About 7 MB of table rows (hostile-pdf.ts). */
const ROWS = TABLE_ROWS;
/** About 7 MB of tiny rows: 350,000 elements, over the default limit of 200,000. */
const DENSE = Buffer.from(`<html><body><table>${Array.from({ length: 70_000 }, (_, i) => `<tr><td>${i}</td><td>x</td><td><b>y</b></td></tr>`).join('')}</table></body></html>`);

let pages: Server;
let site: string;
let wide: ServerProcess; // default limits, two extraction threads, a generous deadline
let strict: ServerProcess; // one thread, a queue of one, 1 s per page
let short: ServerProcess; // a 1.5 s request deadline, no practical page limit
const FLAGS = ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000'];

before(async () => {
  pages = createServer((req, res) => {
    const body = req.url === '/rows' ? ROWS : req.url === '/dense' ? DENSE : req.url === '/article' ? ARTICLE : undefined;
    if (body === undefined) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', () => r()));
  site = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
  [wide, strict, short] = await Promise.all([
    startServer([...FLAGS, '--extract-workers', '2', '--extract-timeout-ms', '120000', '--deadline-ms', '120000']),
    startServer([...FLAGS, '--extract-workers', '1', '--extract-queue', '1', '--extract-timeout-ms', '1000']),
    startServer([...FLAGS, '--extract-workers', '1', '--extract-timeout-ms', '120000', '--deadline-ms', '1500']),
  ]);
});
after(async () => {
  await Promise.all([wide, strict, short].map((s) => s?.stop()));
  for (const s of [wide, strict, short]) if (s) removeDataDir(s.dataDir);
  pages.closeAllConnections();
  pages.close();
});

const health = async (server: ServerProcess) => (await fetch(`${server.url}/healthz`)).json();

describe('a hostile page does not freeze the server', () => {
  test('three reads of a 7 MB table at once: /healthz keeps answering while they run, each in a small part of their time', async () => {
    // Three keys: one key reads one page at a time on two processes (its fair share leaves one free).
    const keys = await Promise.all(Array.from({ length: 3 }, () => createKey(wide.dataDir, 10)));
    const t0 = performance.now();
    let done = false;
    const reads = Promise.all(keys.map((key) => observe(wide, key, { url: `${site}/rows` }))).finally(() => { done = true; });
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${wide.url}/healthz`, { signal: AbortSignal.timeout(60_000) });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
    const answers = await reads;
    const seconds = (performance.now() - t0) / 1000;
    const max = Math.max(...latencies);
    const median = [...latencies].sort((a, b) => a - b)[latencies.length >> 1];
    console.log(`# 3 reads of ${(ROWS.length / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s; /healthz polled ${latencies.length} times, median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms`);
    for (const a of answers) {
      assert.equal(a.status, 200, JSON.stringify(a.body).slice(0, 300));
      // The page's heading, then the table (a table of rows reads as a listing, whose heading leads it).
      assert.ok(a.body.content.startsWith('# Inventory\n\nRow 0Quarterly figures') && a.body.content.length > 40_000, a.body.content.slice(0, 200));
      assert.equal(a.body.truncated, true);
    }
    // Relative, not a fixed time (the machine may be loaded): parsing on the serving thread would hold
    // /healthz for most of the reads' time; off it, each answer takes a small part of that time.
    assert.ok(max < seconds * 1000 / 4, `/healthz took up to ${max.toFixed(0)} ms of the reads' ${(seconds * 1000).toFixed(0)} ms`);
    assert.ok(latencies.length >= 5, `polled ${latencies.length} times while the reads ran`);
    for (const key of keys) assert.equal(await balance(wide.dataDir, key), 9);
  });

  test('a page over the element limit is refused before parsing: 422 too_large, quickly, no charge', async () => {
    const key = await createKey(wide.dataDir, 5);
    const t0 = performance.now();
    const r = await observe(wide, key, { url: `${site}/dense` });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.error, 'too_large');
    assert.match(r.body.message, /has 350\d+ elements, more than the 200000/);
    assert.ok(performance.now() - t0 < 3000, 'refused without reading the page');
    assert.equal(r.body.credits_remaining, 5);
    assert.equal(await balance(wide.dataDir, key), 5);
  });
});

describe('limits', () => {
  test('a page over the time limit: 422 too_large, charged (it used its whole time), the process is replaced and the next page reads', async () => {
    const key = await createKey(strict.dataDir, 5);
    const t0 = performance.now();
    const r = await observe(strict, key, { url: `${site}/rows` });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.error, 'too_large');
    assert.match(r.body.message, /took more than 1000 ms to read/);
    assert.ok(performance.now() - t0 < 4000, 'refused at the limit');
    assert.equal(await balance(strict.dataDir, key), 4, 'the read that used its whole extraction time is paid for');
    const h = await health(strict);
    assert.deepEqual({ workers: h.extract.workers, busy: h.extract.busy, queued: h.extract.queued }, { workers: 1, busy: 0, queued: 0 });
    assert.ok(h.extract.replaced >= 1);
    const next = await observe(strict, key, { url: `${site}/article` });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.match(next.body.content, /Most of the latency/);
    assert.equal(await balance(strict.dataDir, key), 3);
  });

  test('one process and a queue of one: extra pages get 503 busy with Retry-After; nothing is charged', async () => {
    // Six keys (one key alone would meet its share first: 429, tested below on the pool).
    const keys = await Promise.all(Array.from({ length: 6 }, () => createKey(strict.dataDir, 10)));
    const answers = await Promise.all(keys.map((k) => observe(strict, k, { url: `${site}/rows` })));
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.every((s) => s === 422 || s === 503), JSON.stringify(statuses));
    for (const b of answers.filter((a) => a.status === 503)) {
      assert.equal(b.body.error, 'busy');
      assert.equal(b.retryAfter, '1');
    }
    // Only the pages that used their whole time were charged.
    const spent = (await Promise.all(keys.map((k) => balance(strict.dataDir, k)))).reduce((a, b) => a + (10 - b), 0);
    assert.equal(spent, statuses.filter((s) => s === 422).length);
    const h = await health(strict);
    assert.deepEqual({ busy: h.extract.busy, queued: h.extract.queued }, { busy: 0, queued: 0 });
  });

  test('the request deadline terminates a running page: 504 timeout, no charge, a fresh thread reads the next page', async () => {
    const key = await createKey(short.dataDir, 5);
    const t0 = performance.now();
    const r = await observe(short, key, { url: `${site}/rows` });
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.equal(r.body.error, 'timeout');
    assert.ok(performance.now() - t0 < 4000, 'answered at the deadline');
    assert.equal(await balance(short.dataDir, key), 5);
    const h = await health(short);
    assert.deepEqual({ busy: h.extract.busy, queued: h.extract.queued, replaced: h.extract.replaced }, { busy: 0, queued: 0, replaced: 1 });
    // The fresh thread loads its parser first; on a loaded machine that alone may pass this server's
    // 1.5 s deadline, which costs nothing: the read is retried until the thread is warm.
    let next = await observe(short, key, { url: `${site}/article` });
    for (let i = 0; i < 5 && next.status === 504; i++) next = await observe(short, key, { url: `${site}/article` });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(await balance(short.dataDir, key), 4);
  });
});

describe('the pool in process', () => {
  test('answers exactly what readPage answers, on every fixture page and format', async () => {
    const pool = new ExtractPool({ size: 2, maxQueue: 1000, timeoutMs: 60_000, maxNodes: 200_000 });
    try {
      const files = [...readdirSync(FIXTURES).filter((f) => f.endsWith('.html')), 'read/article.html'];
      assert.ok(files.length >= 5);
      const cases: [string, ReadOptions][] = files.flatMap((f) => [
        [f, {}], [f, { format: 'text' }], [f, { format: 'html' }], [f, { mainContent: false, contentLimit: 2000 }],
      ] as [string, ReadOptions][]);
      const results = await Promise.all(cases.map(([f, options]) => pool.read(readFileSync(new URL(f, FIXTURES), 'utf8'), `http://127.0.0.1:8080/${f}`, options)));
      cases.forEach(([f, options], i) => {
        assert.deepEqual(results[i], readPage(readFileSync(new URL(f, FIXTURES), 'utf8'), `http://127.0.0.1:8080/${f}`, options), `${f} ${JSON.stringify(options)}`);
      });
    } finally {
      await pool.close();
    }
  });

  test('fair share: one key runs all processes but one and keeps a quarter of the queue waiting (429 beyond); another key still gets the free process', async () => {
    const pool = new ExtractPool({ size: 2, maxQueue: 4, timeoutMs: 60_000, maxNodes: 200_000 });
    const slow = xobjectLaughs(); // never finishes: holds its process until the pool closes
    try {
      const a = Array.from({ length: 4 }, () => pool.readPdf(slow, 'http://a/x.pdf', {}, undefined, 'a').then(() => 'read', (e) => e.code as string));
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual({ busy: pool.stats().busy, queued: pool.stats().queued }, { busy: 1, queued: 1 }, 'one running, one waiting');
      assert.deepEqual(await Promise.race([Promise.all([a[2], a[3]]), new Promise((r) => setTimeout(() => r('waiting'), 2000))]), ['rate_limited', 'rate_limited']);
      // Another key's page takes the process the first key may not have.
      const b = await pool.read(ARTICLE, 'http://b/', {}, undefined, 'b');
      assert.match(b.content, /Most of the latency/);
    } finally {
      await pool.close();
    }
  });

  test('a closed pool refuses work with busy, and an aborted signal cancels at once', async () => {
    const pool = new ExtractPool({ size: 1, maxQueue: 4, timeoutMs: 60_000, maxNodes: 200_000 });
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(pool.read(ARTICLE, 'http://x/', {}, ac.signal), { code: 'timeout' });
    const running = assert.rejects(pool.read(ROWS.toString(), 'http://x/', {}), { code: 'busy' });
    await pool.close();
    await running;
    await assert.rejects(pool.read(ARTICLE, 'http://x/', {}), { code: 'busy' });
  });
});
