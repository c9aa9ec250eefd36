// The browser pool's warm spares (--map-spares, issue 19), through the real pool, egress proxy and
// Chromium: each spare is a fresh context with its page made ahead, handed to one request only and
// replaced after the answer; what one request's page stores is absent for the next; spares of a
// browser that crashed are never handed out, none outlive the pool, and 0 spares makes none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { AlternatingBrowsers, BrowserPool } from '../src/observe/browser/browser-pool.ts';
import { createEgressGuard } from '../src/observe/egress/egress.ts';
import { startEgressProxy } from '../src/observe/egress/egress-proxy.ts';
import { servePages, type PageServer } from './helpers/fixtures.ts';

const PAGE = `<!doctype html><title>Probe</title><button id="b">x</button><script>
  document.getElementById('b').textContent = [document.cookie.includes('probe=') ? 'cookie-found' : 'cookie-none',
    localStorage.getItem('probe') ? 'storage-found' : 'storage-none'].join(' ');
  document.cookie = 'probe=1; max-age=3600; path=/'; localStorage.setItem('probe', '1');
</script>`;

let site: PageServer;
let proxy: Awaited<ReturnType<typeof startEgressProxy>>;
before(async () => {
  site = await servePages((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(PAGE); });
  proxy = await startEgressProxy(createEgressGuard(['127.0.0.1/32']), () => undefined);
});
after(async () => { site.close(); await proxy.close(); });

const pool = (spares: number) => new BrowserPool({ executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', proxyUrl: proxy.url, size: 4, maxQueue: 4, spares });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `want` spares are ready on the browser (contexts with their page, not among `used`). */
async function sparesReady(browser: Browser, want: number, used: BrowserContext[]): Promise<BrowserContext[]> {
  for (let i = 0; i < 400; i++) {
    const ready = browser.contexts().filter((c) => !used.includes(c) && c.pages().length === 1);
    if (ready.length >= want) return ready;
    await sleep(25);
  }
  throw new Error(`${want} spares were never made`);
}
/** Our Chromium processes (descendants of this test process whose command line is Chromium's). */
function chromiumPids(): number[] {
  const rows = execSync('ps -eo pid=,ppid=', { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const tree = new Set([process.pid]);
  for (let grew = true; grew;) { grew = false; for (const [pid, ppid] of rows) if (tree.has(ppid) && !tree.has(pid)) { tree.add(pid); grew = true; } }
  return [...tree].filter((pid) => {
    try { return /chromium|chrome/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8')) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
  });
}

test('2 spares: each request gets a context made before it asked, used once, replaced after the answer; nothing stored carries over', async () => {
  const p = pool(2);
  try {
    const probe = (ahead: BrowserContext[]) => p.withPage(async (page) => {
      const sparesDuring = p.stats().spare;
      await page.goto(`${site.site}/probe`);
      return { context: page.context(), browser: page.context().browser()!, madeAhead: ahead.includes(page.context()), sparesDuring, text: await page.textContent('#b') };
    }, 10_000);
    const seen = [await probe([])];
    assert.equal(seen[0].madeAhead, false, 'the first request makes its own (the browser had just started)');
    const browser = seen[0].browser;
    for (let i = 1; i < 6; i++) {
      const ahead = await sparesReady(browser, 2, seen.map((s) => s.context));
      assert.equal(p.stats().spare, 2);
      seen.push(await probe(ahead));
    }
    // Back to back: the second request, arriving as the first is answered, takes the other spare.
    const ahead = await sparesReady(browser, 2, seen.map((s) => s.context));
    seen.push(await probe(ahead), await probe(ahead));
    for (const [i, s] of seen.entries()) {
      if (i > 0) assert.equal(s.madeAhead, true, `request ${i} got a spare made before it asked`);
      if (i > 0) assert.equal(s.sparesDuring, 1, `request ${i}: the other spare stays ready for a request arriving meanwhile`);
      assert.equal(s.text, 'cookie-none storage-none', `request ${i} saw nothing of the earlier ones`);
    }
    assert.equal(new Set(seen.map((s) => s.context)).size, seen.length, 'no context served twice');
    for (let i = 0; i < 100 && browser.contexts().some((c) => seen.some((s) => s.context === c)); i++) await sleep(25);
    assert.deepEqual(browser.contexts().filter((c) => seen.some((s) => s.context === c)), [], 'every used context was closed');
    assert.equal(p.stats().contexts, 0);
  } finally {
    await p.close();
  }
  assert.equal(p.stats().spare, 0, 'the spares are closed with the pool');
  for (let i = 0; i < 40 && chromiumPids().length; i++) await sleep(50);
  assert.deepEqual(chromiumPids(), [], 'no Chromium process outlives the pool');
});

test('0 spares: no context is made ahead; every request makes its own', async () => {
  const p = pool(0);
  try {
    for (let i = 0; i < 3; i++) {
      await p.withPage(async (page) => {
        assert.deepEqual(page.context().browser()!.contexts(), [page.context()], 'only this request\'s context exists');
        await page.goto(`${site.site}/probe`);
        assert.equal(await page.textContent('#b'), 'cookie-none storage-none');
      }, 10_000);
      await sleep(100);
      assert.equal(p.stats().spare, 0);
    }
  } finally {
    await p.close();
  }
});

test('a browser crash: the dead browser\'s spares are never handed out, the next request runs on a new browser that gets its own', async () => {
  const p = pool(2);
  try {
    const used = await p.withPage(async (page) => page.context(), 10_000);
    const first = used.browser()!;
    await sparesReady(first, 2, [used]);
    assert.equal(p.stats().spare, 2);
    for (const pid of chromiumPids()) { try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ } }
    for (let i = 0; i < 200 && first.isConnected(); i++) await sleep(25);
    assert.equal(first.isConnected(), false);
    assert.equal(p.stats().spare, 0, 'the dead browser\'s spares are forgotten');
    const second = await p.withPage(async (page) => {
      await page.goto(`${site.site}/probe`);
      return { context: page.context(), browser: page.context().browser()!, text: await page.textContent('#b') };
    }, 10_000);
    assert.notEqual(second.browser, first, 'served by a new browser');
    assert.equal(second.text, 'cookie-none storage-none');
    assert.deepEqual([p.stats().launches, p.stats().crashes], [2, 1]);
    await sparesReady(second.browser, 2, [second.context]);
    assert.equal(p.stats().spare, 2, 'the new browser gets its spares');
  } finally {
    await p.close();
  }
  assert.equal(p.stats().spare, 0);
  for (let i = 0; i < 40 && chromiumPids().length; i++) await sleep(50);
  assert.deepEqual(chromiumPids(), [], 'no Chromium process outlives the pool');
});

/** Our Chromium processes' command lines, each as its arguments (a zygote's child rewrites its own
 *  as one string). */
const commandLines = () => chromiumPids().map((pid) => { try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'); } catch { return []; } });

test('lean renderers: one renderer process per page (no omnibox WebUI, no spare renderer), Playwright\'s disabled features kept', async () => {
  const renderersFor = async (leanRenderers: boolean) => {
    const p = new BrowserPool({ executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', proxyUrl: proxy.url, size: 4, maxQueue: 4, spares: 1, leanRenderers });
    try {
      const used = await p.withPage(async (page) => page.context(), 10_000);
      const browser = used.browser()!;
      await sparesReady(browser, 1, [used]);
      return await p.withPage(async (page) => {
        await page.goto(`${site.site}/probe`);
        assert.equal(await page.textContent('#b'), 'cookie-none storage-none');
        for (let i = 0; i < 200 && browser.contexts().includes(used); i++) await sleep(25);
        await sleep(700); // whatever Chromium starts beside a page, or ends with a closed one, has by now
        const lines = commandLines();
        const main = lines.find((args) => !args.join(' ').includes('--type='))!;
        const disabled = main.filter((a) => a.startsWith('--disable-features=')).map((a) => a.slice('--disable-features='.length).split(','));
        return { renderers: lines.filter((args) => args.join(' ').includes('--type=renderer')).length, pages: browser.contexts().reduce((n, c) => n + c.pages().length, 0), disabled };
      }, 15_000);
    } finally {
      await p.close();
    }
  };
  const lean = await renderersFor(true);
  assert.equal(lean.pages, 1, 'this request\'s page (it took the spare; the next is made after its answer)');
  assert.equal(lean.renderers, lean.pages, 'one renderer process per page, none else');
  // Chromium keeps the last --disable-features only: ours must hold all Playwright's own (the first).
  assert.ok(lean.disabled.length >= 2);
  const ours = new Set(lean.disabled.at(-1));
  assert.deepEqual(lean.disabled[0].filter((f) => !ours.has(f)), [], 'every feature Playwright turns off stays off');
  const plain = await renderersFor(false);
  assert.equal(plain.pages, 1);
  assert.ok(plain.renderers > plain.pages, `Chromium's own defaults start more renderers than pages (${plain.renderers} for ${plain.pages})`);
});

test('two browsers: a request right after an answer goes to the other browser, whose spare was made ahead; nothing stored carries over; both close', async () => {
  const pair = new AlternatingBrowsers({ executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', proxyUrl: proxy.url, size: 4, maxQueue: 4, spares: 1 }, 2);
  try {
    const probe = (ahead: BrowserContext[]) => pair.withPage(async (page) => {
      await page.goto(`${site.site}/probe`);
      return { context: page.context(), browser: page.context().browser()!, madeAhead: ahead.includes(page.context()), text: await page.textContent('#b') };
    }, 10_000);
    // Back to back from the start: the second request does not wait for the first browser's spare.
    const seen = [await probe([])];
    seen.push(await probe([]));
    const [a, b] = [seen[0].browser, seen[1].browser];
    assert.notEqual(a, b, 'the second request went to the other browser');
    for (let round = 0; round < 2; round++) {
      const ahead = [...await sparesReady(a, 1, seen.map((s) => s.context)), ...await sparesReady(b, 1, seen.map((s) => s.context))];
      const first = await probe(ahead);
      const second = await probe(ahead); // right after the answer: the first's browser is making its spare
      assert.equal(first.madeAhead && second.madeAhead, true, 'both took a spare made before they asked');
      assert.notEqual(first.browser, second.browser, 'and they ran on different browsers');
      seen.push(first, second);
    }
    for (const [i, s] of seen.entries()) assert.equal(s.text, 'cookie-none storage-none', `request ${i} saw nothing of the earlier ones`);
    assert.equal(new Set(seen.map((s) => s.context)).size, seen.length, 'no context served twice');
    assert.equal(pair.stats().launches, 2);
    for (let i = 0; i < 100 && pair.stats().open; i++) await sleep(25);
    assert.deepEqual({ open: pair.stats().open, queued: pair.stats().queued }, { open: 0, queued: 0 });
  } finally {
    await pair.close();
  }
  assert.equal(pair.stats().spare, 0, 'the spares are closed with the browsers');
  for (let i = 0; i < 40 && chromiumPids().length; i++) await sleep(50);
  assert.deepEqual(chromiumPids(), [], 'no Chromium process outlives the pair');
});
