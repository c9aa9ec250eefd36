// What a slow or restless page does to a request, through the real server and Chromium: a request that
// hits the router's deadline costs nothing, even when its work would have finished later (waiting in
// the browser queue included), and a page that replaces its document right after load is read whole.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { startServer, createKey, balance, observe, removeDataDir, type ServerProcess } from './helpers/server.ts';

const DEADLINE_MS = 1200;
const SLOW_MS = 2500;
let site: Server;
let siteUrl: string;
/** Answers 504 after DEADLINE_MS, with one browser page. */
let server: ServerProcess;
/** Default deadline: restless pages. */
let calm: ServerProcess;

const page = (title: string, script = '') => `<!doctype html><html><head><title>${title}</title></head><body>
<h1>${title}</h1><button id="go">Continue to ${title}</button><a href="/elsewhere">Elsewhere</a>
<script>${script}</script></body></html>`;

/** Reloads once (sessionStorage survives the reload), `at` ms after the load event. */
const reloadOnce = (at: number) => `addEventListener('load', () => { if (!sessionStorage.done) { sessionStorage.done = 1; setTimeout(() => location.reload(), ${at}); } });`;

function route(url: URL, res: import('node:http').ServerResponse): void {
  const html = (body: string) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(body); };
  const at = Number(url.searchParams.get('at') ?? 0);
  switch (url.pathname) {
    // The document arrives after the router's deadline but well before the page timeout.
    case '/slow': setTimeout(() => html(page('Slow', 'document.body.append(Object.assign(document.createElement("p"), { textContent: "x".repeat(400) }))')), SLOW_MS); return;
    case '/reload': return html(page('Reloading', reloadOnce(at)));
    case '/relocate': return html(page('Leaving', `addEventListener('load', () => setTimeout(() => { location.href = '/landed'; }, ${at}));`));
    case '/landed': return html(page('Landed'));
    case '/restless': return html(page('Restless', 'setTimeout(() => location.reload(), 30);'));
    // Pages that send the browser to a refused address (10.0.0.1 and the metadata address are outside
    // --egress-allow): the proxy answers its refusal page, which must never be read as the caller's page.
    case '/to-private': {
      const target = url.searchParams.get('https') ? 'https://10.0.0.1/' : 'http://10.0.0.1/';
      const how = url.searchParams.get('how');
      if (how === 'meta') return html(page('Meta', '').replace('<head>', `<head><meta http-equiv="refresh" content="0;url=${target}">`));
      if (how === 'form') return html(page('Form', `document.body.insertAdjacentHTML('beforeend', '<form method="post" action="${target}x"><input name="a" value="b"></form>'); document.forms[0].submit();`));
      if (how === 'load') return html(page('Load', `addEventListener('load', () => { location.href = 'http://169.254.169.254/latest/meta-data/'; });`));
      return html(page('Script', `location.href = '${target}';`));
    }
    default: res.writeHead(404); res.end();
  }
}

before(async () => {
  site = createServer((req, res) => route(new URL(req.url ?? '/', 'http://x'), res));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  const common = ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000'];
  [server, calm] = await Promise.all([
    startServer([...common, '--deadline-ms', String(DEADLINE_MS), '--page-timeout-ms', '8000', '--browser-pages', '1']),
    startServer(common),
  ]);
});
after(async () => {
  await Promise.all([server.stop(), calm.stop()]);
  removeDataDir(server.dataDir);
  removeDataDir(calm.dataDir);
  site.closeAllConnections();
  site.close();
});

const health = async () => (await (await fetch(`${server.url}/healthz`)).json()) as { browser?: { open: number; queued: number; contexts: number } | null };

describe('a request answered 504 at the deadline', () => {
  test('map, visual and a rendered read cost nothing, running or queued, even after their page would have loaded', async () => {
    const k = await createKey(server.dataDir, 100);
    // One browser page: one request works on the slow page, two wait in the queue past the deadline.
    const started = Date.now();
    const answers = await Promise.all([
      observe(server, k, { url: `${siteUrl}/slow`, mode: 'map' }),
      observe(server, k, { url: `${siteUrl}/slow`, mode: 'visual' }),
      observe(server, k, { url: `${siteUrl}/slow`, options: { render: 'always' } }),
    ]);
    for (const a of answers) {
      assert.equal(a.status, 504, JSON.stringify(a.body));
      assert.equal(a.body.error, 'timeout');
    }
    assert.ok(Date.now() - started < DEADLINE_MS + 1500, 'answered at the deadline');
    // Past the time the slow page, its settling and the queued work would all have finished.
    await new Promise((r) => setTimeout(r, SLOW_MS * 2));
    assert.equal(await balance(server.dataDir, k), 100, 'nothing charged');
    const pool = (await health()).browser;
    assert.deepEqual({ open: pool?.open, queued: pool?.queued, contexts: pool?.contexts }, { open: 0, queued: 0, contexts: 0 }, 'no page left working');
  });

  test('the 504 body already shows the whole balance', async () => {
    const k = await createKey(server.dataDir, 30);
    const r = await observe(server, k, { url: `${siteUrl}/slow`, mode: 'visual' });
    assert.equal(r.status, 504);
    assert.equal(r.body.credits_remaining, 30);
  });
});

describe('a page that replaces its document right after load', () => {
  for (const at of [0, 50, 150]) {
    test(`reloading ${at} ms after load: five maps all answer 200 with the page's controls`, async () => {
      const k = await createKey(calm.dataDir, 100);
      for (let i = 0; i < 5; i++) {
        const r = await observe(calm, k, { url: `${siteUrl}/reload?at=${at}&i=${i}`, mode: 'map' });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.ok(r.body.interactable_elements.some((e: { text: string }) => e.text === 'Continue to Reloading'), JSON.stringify(r.body.interactable_elements));
      }
      assert.equal(await balance(calm.dataDir, k), 100 - 5 * 2);
    });
  }

  test('a script that sets location after load: the new document is collected, and the warning says so when it was caught mid-read', async () => {
    const k = await createKey(calm.dataDir, 100);
    for (const at of [0, 50, 150]) {
      const r = await observe(calm, k, { url: `${siteUrl}/relocate?at=${at}`, mode: 'map' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const texts = r.body.interactable_elements.map((e: { text: string }) => e.text);
      // Either the read finished before the script ran, or it read the landing page whole: never a mix.
      const landed = texts.includes('Continue to Landed');
      assert.ok(landed !== texts.includes('Continue to Leaving'), JSON.stringify(texts));
      if (landed) assert.match(r.body.url, /\/landed$/);
      if (r.body.warnings.some((w: string) => w.startsWith('navigated:'))) assert.ok(landed, 'a navigated warning comes with the new document');
    }
    const read = await observe(calm, k, { url: `${siteUrl}/relocate?at=0`, options: { render: 'always' } });
    assert.equal(read.status, 200, JSON.stringify(read.body));
  });

  test('a page that sends the browser to a refused address (meta refresh, script, form post, after load) is refused with 403 blocked_url, not read, and costs nothing', async () => {
    const k = await createKey(calm.dataDir, 100);
    for (const query of ['how=script', 'how=script&https=1', 'how=meta', 'how=form', 'how=load']) {
      for (const options of [{ mode: 'map' }, { mode: 'read', options: { render: 'always' } }]) {
        const r = await observe(calm, k, { url: `${siteUrl}/to-private?${query}`, ...options });
        assert.equal(r.status, 403, `${query} ${options.mode}: ${JSON.stringify(r.body).slice(0, 300)}`);
        assert.equal(r.body.error, 'blocked_url');
        assert.match(r.body.message, /egress guard/);
      }
    }
    assert.equal(await balance(calm.dataDir, k), 100, 'nothing charged');
  });

  test('a page that never stops reloading answers a clear error, not a crash, and costs nothing', async () => {
    const k = await createKey(calm.dataDir, 10);
    const r = await observe(calm, k, { url: `${siteUrl}/restless`, mode: 'map' });
    // It may also be caught between reloads and read whole: either is a clean answer.
    if (r.status !== 200) {
      assert.equal(r.status, 502, JSON.stringify(r.body));
      assert.equal(r.body.error, 'unreachable');
      assert.match(r.body.message, /replaced its document/);
      assert.equal(await balance(calm.dataDir, k), 10);
    }
  });
});
