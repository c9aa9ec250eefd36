// Fair under abuse (issue 36): hostile PDFs and pages cost bounded memory that goes back to the system,
// damaged PDFs answer 422 with the reason, and one key's hostile reads never become another key's
// latency. Real server processes read from a local HTTP server (loopback opened with --egress-allow).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, createKey, balance, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { servePages } from './helpers/fixtures.ts';
import { flateBomb, xobjectLaughs, nestedArrays, selfContainingTree, TABLE_ROWS } from './helpers/hostile-pdf.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const ARTICLE = readFileSync(new URL('read/article.html', FIXTURES), 'utf8');
/** About 7 MB of table rows (hostile-pdf.ts). */
const ROWS = TABLE_ROWS;

const PDFS: Record<string, Buffer> = {};
const FLAGS = ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000'];
let site: string;
let closePages: () => void;

before(async () => {
  Object.assign(PDFS, { bomb: flateBomb(1), laughs: xobjectLaughs(), nested: nestedArrays(), self: selfContainingTree() });
  const pages = await servePages((req, res) => {
    const name = /^\/(\w+)\.pdf$/.exec(req.url ?? '')?.[1];
    if (name && PDFS[name]) { res.writeHead(200, { 'content-type': 'application/pdf' }); res.end(PDFS[name]); return; }
    if (req.url === '/rows') { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(ROWS); return; }
    if (req.url === '/article') { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(ARTICLE); return; }
    res.writeHead(404); res.end();
  });
  site = pages.site;
  closePages = pages.close;
});
after(() => closePages?.());

/** The server process's resident memory in MiB (it runs the routes; extraction runs in its children). */
const rssMib = (server: ServerProcess) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.proc.pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hostile and damaged PDFs', () => {
  let server: ServerProcess;
  before(async () => { server = await startServer([...FLAGS, '--extract-timeout-ms', '8000']); });
  after(async () => { await server?.stop(); if (server) removeDataDir(server.dataDir); });

  test('a decompression bomb is refused before it is inflated (422 too_large, free); damaged PDFs answer 422 with the reason, free', async () => {
    const key = await createKey(server.dataDir, 10);
    const bomb = await observe(server, key, { url: `${site}/bomb.pdf` });
    assert.equal(bomb.status, 422, JSON.stringify(bomb.body));
    assert.equal(bomb.body.error, 'too_large');
    assert.match(bomb.body.message, /decompresses to more than 84 MB/);
    for (const [name, reason] of [['nested', /damaged: its objects are nested too deeply/], ['self', /damaged: Pages tree contains circular reference/]] as const) {
      const r = await observe(server, key, { url: `${site}/${name}.pdf` });
      assert.equal(r.status, 422, `${name}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error, 'unsupported_content_type');
      assert.match(r.body.message, reason);
    }
    assert.equal(await balance(server.dataDir, key), 10);
  });

  test('a PDF that draws itself 2^40 times uses its whole extraction time: 422 too_large, charged one credit', async () => {
    const key = await createKey(server.dataDir, 10);
    const r = await observe(server, key, { url: `${site}/laughs.pdf` });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.error, 'too_large');
    assert.match(r.body.message, /took more than 8000 ms/);
    assert.equal(await balance(server.dataDir, key), 9);
  });

  test('20 hostile PDFs and 20 hostile pages: the server\'s memory is back within 300 MiB of idle 10 s later; /metrics shows extraction memory and replacements', async () => {
    const keys = await Promise.all(Array.from({ length: 4 }, () => createKey(server.dataDir, 100)));
    for (let i = 0; i < 3; i++) assert.equal((await observe(server, keys[0], { url: `${site}/article` })).status, 200);
    await sleep(1000);
    const idle = rssMib(server);
    const hostile = [
      ...Array.from({ length: 20 }, (_, i) => `${site}/${['bomb', 'nested', 'self', 'bomb'][i % 4]}.pdf`),
      ...Array.from({ length: 20 }, () => `${site}/rows`),
    ];
    let peak = idle;
    const watch = setInterval(() => { peak = Math.max(peak, rssMib(server)); }, 100);
    // Each key within its share (one page read and a few waiting): four keys at a time.
    for (let i = 0; i < hostile.length; i += keys.length) {
      const answers = await Promise.all(keys.map((k, j) => (hostile[i + j] ? observe(server, k, { url: hostile[i + j] }) : undefined)));
      for (const a of answers) if (a) assert.ok([200, 422, 429].includes(a.status), JSON.stringify(a.body));
    }
    clearInterval(watch);
    await sleep(10_000);
    const after = rssMib(server);
    console.log(`server RSS: idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, 10 s after 40 hostile reads ${after.toFixed(0)} MiB`);
    assert.ok(after - idle <= 300, `RSS ${after.toFixed(0)} MiB, idle ${idle.toFixed(0)} MiB`);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /^sightline_extract_memory_bytes \d+/m);
    assert.ok(Number(/^sightline_extract_replaced_total (\d+)/m.exec(metrics)?.[1]) >= 1, 'rows past the time limit replaced their process');
    assert.match(metrics, /^sightline_extract_recycled_total \d+/m);
    // Still reads.
    assert.equal((await observe(server, keys[1], { url: `${site}/article` })).status, 200);
  });
});

/**
 * One abusive key (40 credits) keeps 18 reads of a PDF that never finishes in flight for `ms`; an honest
 * key reads a small page in a loop. Returns the honest answers' statuses and times, the abuser's statuses.
 */
async function abuse(server: ServerProcess, ms: number) {
  const abuser = await createKey(server.dataDir, 40);
  const honest = await createKey(server.dataDir, 1000);
  const end = Date.now() + ms;
  const abusive: number[] = [];
  const loops = Array.from({ length: 18 }, async () => {
    while (Date.now() < end) {
      const r = await observe(server, abuser, { url: `${site}/laughs.pdf` });
      abusive.push(r.status);
      if (r.status === 429) await sleep(Number(r.retryAfter ?? 1) * 1000);
    }
  });
  const honestAnswers: { status: number; ms: number }[] = [];
  const reader = (async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const r = await observe(server, honest, { url: `${site}/article` });
      honestAnswers.push({ status: r.status, ms: performance.now() - t0 });
      await sleep(200);
    }
  })();
  await Promise.all([...loops, reader]);
  const times = honestAnswers.map((a) => a.ms).sort((a, b) => a - b);
  return { honest: honestAnswers, p95: times[Math.floor(times.length * 0.95)], abusive, abuserBalance: await balance(server.dataDir, abuser) };
}

for (const workers of [1, 2]) {
  describe(`an abusive key and an honest one, ${workers} worker${workers === 1 ? '' : 's'}`, () => {
    let server: ServerProcess;
    before(async () => { server = await startServer([...FLAGS, '--workers', String(workers)]); });
    after(async () => { await server?.stop(); if (server) removeDataDir(server.dataDir); });

    test('18 hostile reads held in flight for 30 s: the honest key\'s reads all answer 200, never behind a hostile page; the abuser gets 429 and pays for pages that used their whole time', async () => {
      const run = await abuse(server, 30_000);
      const statuses = (list: number[]) => Object.entries(list.reduce<Record<number, number>>((c, s) => ({ ...c, [s]: (c[s] ?? 0) + 1 }), {})).map(([s, n]) => `${s}×${n}`).join(' ');
      console.log(`workers ${workers}: honest ${run.honest.length} reads, p95 ${run.p95.toFixed(0)} ms, max ${Math.max(...run.honest.map((a) => a.ms)).toFixed(0)} ms; abuser ${statuses(run.abusive)}, balance ${run.abuserBalance}/40`);
      assert.ok(run.honest.length >= 10);
      assert.deepEqual([...new Set(run.honest.map((a) => a.status))], [200]);
      // A hostile page holds its process for the whole extraction time (10 s): an honest read that waited
      // behind one would take longer than this.
      assert.ok(run.p95 < 5000, `honest p95 ${run.p95.toFixed(0)} ms`);
      assert.ok(run.abusive.includes(429), 'the abuser was held to its share');
      assert.ok(!run.abusive.includes(503));
      assert.ok(run.abuserBalance < 40, 'pages that used their whole time were charged');
    });
  });
}
