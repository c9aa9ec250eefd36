// POST /v1/observe, map and visual modes, end to end: the real server process loads the fixture pages in
// its Chromium (loopback opened with --egress-allow 127.0.0.1/32 only), collects, ranks with the Wasm
// core, and answers; boxes and selectors are checked against a separate Playwright browser.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { startServer, createKey, balance, removeDataDir, observe, tempDataDir, type ServerProcess } from './helpers/server.ts';
import { openFileScreenshots } from '../src/server/screenshots.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { launch } from './helpers/browser.ts';
import { readPng, isPng } from './helpers/png.ts';
import { GUARD_CASES } from './helpers/guard-cases.ts';
import { SightlineApi, SightlineApiError } from '../src/client/api.ts';

const TTL_S = 2;
let site: FixtureServer;
let special: Server;
let specialUrl: string;
let server: ServerProcess;
let closed: ServerProcess;
let key: string;
let browser: Browser;

/** Pages the fixtures folder cannot serve: redirects, private subresources, a page that never ends. */
function specialRoute(path: string, res: import('node:http').ServerResponse): void {
  if (path === '/to-metadata') { res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }); res.end(); return; }
  if (path === '/leaky') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body><h1>Leaky</h1><button>Go</button><img src="http://10.0.0.1/pixel.png"><iframe src="http://169.254.169.254/latest/meta-data/"></iframe>
      <script>fetch('http://192.168.1.1/steal').catch(() => {}); try { new WebSocket('ws://10.1.1.1/socket'); } catch {}</script></body></html>`);
    return;
  }
  if (path === '/pdf') { res.writeHead(200, { 'content-type': 'application/pdf' }); res.end('%PDF-1.4\n%%EOF\n'); return; }
  if (path === '/zip') { res.writeHead(200, { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="a.zip"' }); res.end('PK'); return; }
  if (path === '/hang') { res.writeHead(200, { 'content-type': 'text/html' }); res.write('<html><body><button>Wait'); return; }
  res.writeHead(404, { 'content-type': 'text/html' }); res.end('<h1>Not found</h1>');
}

before(async () => {
  site = await serveFixtures();
  special = createServer((req, res) => specialRoute(req.url ?? '/', res));
  await new Promise<void>((r) => special.listen(0, '127.0.0.1', () => r()));
  specialUrl = `http://127.0.0.1:${(special.address() as { port: number }).port}`;
  [server, closed, browser] = await Promise.all([
    startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--screenshot-ttl-s', String(TTL_S), '--page-timeout-ms', '4000']),
    startServer(['--rate-limit', '1000', '--rate-burst', '1000']),
    launch(),
  ]);
  key = await createKey(server.dataDir, 100_000);
});
after(async () => {
  await Promise.all([server.stop(), closed.stop(), browser.close(), site.close()]);
  removeDataDir(server.dataDir);
  removeDataDir(closed.dataDir);
  special.closeAllConnections();
  special.close();
});


const map = (page: string, options: object = {}, mode = 'map') => observe(server, key, { url: `${site.url}/${page}`, mode, options });

/** The fixture page in our own browser, at the server's viewport. */
async function reference(page: string): Promise<Page> {
  const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await p.goto(`${site.url}/${page}`, { waitUntil: 'load' });
  return p;
}

function near(actual: { x: number; y: number; width: number; height: number }, expected: { x: number; y: number; width: number; height: number } | null, what: string) {
  assert.ok(expected, `${what}: Playwright found no box`);
  for (const k of ['x', 'y', 'width', 'height'] as const) assert.ok(Math.abs(actual[k] - expected[k]) <= 1, `${what}.${k}: ${actual[k]} vs Playwright ${expected[k]}`);
}

describe('map mode', () => {
  test('login: the expected controls with roles, texts and Playwright\'s boxes; ids in order; 2 credits', async () => {
    const before = await balance(server.dataDir, key);
    const r = await map('login.html');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const b = r.body;
    assert.equal(b.status, 'success');
    assert.equal(b.engine, 'performance');
    assert.equal(b.credits_used, 2);
    assert.equal(await balance(server.dataDir, key), before - 2);
    assert.equal(b.credits_remaining, before - 2);
    assert.deepEqual(b.viewport, { width: 1280, height: 800 });
    const els: any[] = b.interactable_elements;
    assert.deepEqual(els.map((e) => e.id), els.map((_, i) => i));
    for (let i = 1; i < els.length; i++) assert.ok(els[i - 1].importance >= els[i].importance, 'most important first');
    const page = await reference('login.html');
    try {
      const expected: [string, string, string][] = [['#email', 'textbox', 'Email'], ['#password', 'textbox', 'Password'], ['#remember', 'checkbox', 'Keep me signed in'],
        ['#submit', 'button', 'Sign in'], ['a[href="/forgot"]', 'link', 'Forgot password?'], ['button[disabled]', 'button', 'Sign in with passkey']];
      for (const [selector, role, text] of expected) {
        const el = els.find((e) => e.role === role && e.text === text);
        assert.ok(el, `${role} "${text}" in ${JSON.stringify(els.map((e) => [e.role, e.text]))}`);
        near(el.bbox, await page.locator(selector).boundingBox(), selector);
        assert.equal(el.in_viewport, true);
        assert.equal(el.is_occluded, false);
        assert.equal(typeof el.visual_cues.cursor_type, 'string');
        assert.equal(el.attributes, undefined, 'attributes only in visual mode or when asked');
      }
      assert.equal(els.find((e) => e.text === 'Sign in' && e.role === 'button').visual_cues.is_prominent, true);
      assert.ok(els[0].importance > els.find((e) => e.role === 'link').importance, 'form inputs outrank links');
    } finally {
      await page.close();
    }
  });

  test('limit, filters and visual cues are applied; out-of-range options are refused without a charge', async () => {
    const all = (await map('shop.html', { limit: 500 })).body;
    assert.ok(all.elements_total > 3);
    const three = (await map('shop.html', { limit: 3 })).body;
    assert.equal(three.interactable_elements.length, 3);
    assert.deepEqual(three.interactable_elements.map((e: any) => e.text), all.interactable_elements.slice(0, 3).map((e: any) => e.text));
    const links = (await map('shop.html', { filter: { allowed_roles: ['link'] } })).body.interactable_elements;
    assert.ok(links.length > 0 && links.every((e: any) => e.role === 'link'), JSON.stringify(links.map((e: any) => e.role)));
    const inputs = (await map('search.html', { filter: { allowed_tags: ['input'] }, element_shape: 'dom' })).body.interactable_elements;
    assert.ok(inputs.length > 0 && inputs.every((e: any) => e.tag === 'input'), JSON.stringify(inputs.map((e: any) => e.tag)));
    const big = (await map('shop.html', { filter: { min_area: 5000 } })).body.interactable_elements;
    assert.ok(big.length > 0 && big.length < all.interactable_elements.length);
    assert.ok(big.every((e: any) => e.bbox.width * e.bbox.height >= 5000));
    const plain = (await map('shop.html', { include_visual_cues: false, limit: 5 })).body.interactable_elements;
    assert.ok(plain.every((e: any) => e.visual_cues === undefined));
    const withAttributes = (await map('login.html', { include_attributes: true })).body.interactable_elements;
    assert.deepEqual(withAttributes.find((e: any) => e.text === 'Email').attributes, { type: 'email', placeholder: 'you@example.com', name: 'Email' });
    // Options sent as null take their defaults, as on /v1/snapshot: the same answer as none.
    const nulls = (await map('shop.html', { limit: null, filter: null, render_quality: null, include_visual_cues: null, include_attributes: null, element_shape: null, goal: null, format: null, elements: null })).body;
    assert.equal(nulls.engine, 'performance');
    assert.deepEqual(nulls.interactable_elements.map((e: any) => [e.role, e.text, e.visual_cues?.background_color_name, e.attributes]), all.interactable_elements.slice(0, 50).map((e: any) => [e.role, e.text, e.visual_cues?.background_color_name, undefined]));
    const before = await balance(server.dataDir, key);
    for (const options of [{ limit: 501 }, { limit: 0 }, { filter: { min_area: 'big' } }, { render_quality: 'ultra' }, { element_shape: 'tree' }, { goal: 'x'.repeat(1001) }]) {
      const r = await map('shop.html', options);
      assert.equal(r.status, 400, JSON.stringify([options, r.body]));
      assert.equal(r.body.error, 'bad_request');
    }
    assert.equal(await balance(server.dataDir, key), before);
  });

  test('engines: performance skips images and lazy content (2 credits); precision loads them (10 credits)', async () => {
    const fast = (await map('lazy.html')).body;
    const full = (await map('lazy.html', { render_quality: 'precision' })).body;
    assert.equal(fast.engine, 'performance');
    assert.equal(fast.credits_used, 2);
    assert.equal(full.engine, 'precision');
    assert.equal(full.credits_used, 10);
    const buy = (b: any) => b.interactable_elements.find((e: any) => e.text === 'Buy print');
    assert.ok(buy(full).bbox.y >= buy(fast).bbox.y + 200, `the 300px image pushes the button down only when loaded: ${buy(fast).bbox.y} vs ${buy(full).bbox.y}`);
    assert.ok(!fast.interactable_elements.some((e: any) => e.text === 'Older photos'));
    assert.ok(full.interactable_elements.some((e: any) => e.text === 'Older photos'), 'lazy content was brought into view');
    const page = await reference('lazy.html');
    try {
      near(buy(full).bbox, await page.locator('#buy').boundingBox(), 'precision #buy');
    } finally {
      await page.close();
    }
    for (const b of [fast, full]) assert.ok(b.timings_ms.total >= b.timings_ms.navigation + b.timings_ms.collection);
  });

  test('dom shape: uid, tag, bbox w/h, attributes; every selector finds the same element (shadow DOM and frames too)', async () => {
    for (const name of ['login.html', 'shadow.html', 'frames.html']) {
      const r = await map(name, { element_shape: 'dom', limit: 100 });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const page = await reference(name);
      try {
        for (const e of r.body.interactable_elements) {
          assert.equal(typeof e.uid, 'string');
          assert.deepEqual(Object.keys(e.bbox).sort(), ['h', 'w', 'x', 'y']);
          assert.deepEqual(Object.keys(e.attributes).sort(), ['aria_label', 'placeholder', 'type']);
          assert.equal(typeof e.is_visible, 'boolean');
          assert.equal(typeof e.z_index, 'number');
          let scope: Page | ReturnType<Page['frameLocator']> = page;
          for (const frame of e.frames ?? []) scope = scope.frameLocator(frame);
          const found = scope.locator(e.selector);
          assert.equal(await found.count(), 1, `${name}: ${e.selector} finds one element`);
          const box = await found.boundingBox();
          near({ x: e.bbox.x, y: e.bbox.y, width: e.bbox.w, height: e.bbox.h }, box, `${name} ${e.selector}`);
        }
        if (name === 'login.html') {
          const email = r.body.interactable_elements.find((e: any) => e.selector === '#email');
          assert.deepEqual(email.attributes, { type: 'email', placeholder: 'you@example.com', aria_label: null });
          assert.equal(await page.evaluate((s) => document.querySelectorAll(s).length, email.selector), 1, 'plain CSS outside shadow roots');
        }
        if (name === 'frames.html') assert.ok(r.body.interactable_elements.some((e: any) => e.frames?.length), 'elements inside frames say which');
      } finally {
        await page.close();
      }
    }
  });

  test('consent walls and cookie bars are reported and what they cover is occluded; dismissed only when asked', async () => {
    const wall = (await map('consent.html')).body;
    assert.equal(wall.modal_detected, true);
    assert.deepEqual(wall.overlays.map((o: any) => [o.kind, o.dismissed]), [['consent', false]]);
    const find = (b: any, text: string) => b.interactable_elements.find((e: any) => e.text === text);
    assert.equal(find(wall, 'Subscribe').is_occluded, true);
    assert.equal(find(wall, 'Accept all').is_occluded, false);
    assert.ok(wall.interactable_elements.indexOf(find(wall, 'Accept all')) < wall.interactable_elements.indexOf(find(wall, 'Subscribe')), 'the reachable control ranks first');
    const dismissed = (await map('consent.html', { dismiss_overlays: true })).body;
    assert.deepEqual(dismissed.overlays.map((o: any) => [o.kind, o.dismissed]), [['consent', true]]);
    assert.equal(dismissed.modal_detected, false);
    assert.equal(find(dismissed, 'Subscribe').is_occluded, false);
    assert.equal(find(dismissed, 'Subscribe').text, 'Subscribe', 'the page itself was not clicked');
    const bar = (await map('cookie-bar.html')).body;
    assert.equal(bar.modal_detected, true);
    assert.equal(bar.overlays[0].kind, 'consent');
    assert.equal(find(bar, 'Checkout').is_occluded, true);
    assert.equal(find(bar, 'Continue shopping').is_occluded, false);
    const barGone = (await map('cookie-bar.html', { dismiss_overlays: true })).body;
    assert.equal(find(barGone, 'Checkout').is_occluded, false);
    const sticky = (await map('long.html')).body;
    assert.deepEqual([sticky.overlays, sticky.modal_detected], [[], false], 'a sticky header is part of the page, not a layer over it');
  });

  test('the client library: observe() returns the map result, and a refused URL throws with the error code', async () => {
    const api = new SightlineApi({ baseUrl: server.url, apiKey: key });
    const result = await api.observe({ url: `${site.url}/search.html`, mode: 'map', options: { limit: 2 } });
    assert.equal(result.engine, 'performance');
    assert.equal(result.interactable_elements.length, 2);
    await assert.rejects(api.observe({ url: 'http://10.0.0.1/', mode: 'map' }), (e: unknown) => {
      assert.ok(e instanceof SightlineApiError);
      assert.deepEqual([e.status, e.code], [403, 'blocked_url']);
      return true;
    });
  });

  test('failed loads cost nothing: 404, an unreachable port, a PDF, a download, a page that never finishes (504, its context closed)', async () => {
    const before = await balance(server.dataDir, key);
    for (const path of ['/pdf', '/zip']) {
      const r = await observe(server, key, { url: `${specialUrl}${path}`, mode: 'map' });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.equal(r.body.error, 'unsupported_content_type');
    }
    const missing = await map('no-such-page.html');
    assert.equal(missing.status, 502, JSON.stringify(missing.body));
    assert.equal(missing.body.error, 'http_error');
    const refusedPort = await observe(server, key, { url: 'http://127.0.0.1:9/', mode: 'map' });
    assert.equal(refusedPort.status, 502, JSON.stringify(refusedPort.body));
    assert.equal(refusedPort.body.error, 'unreachable');
    const hang = await observe(server, key, { url: `${specialUrl}/hang`, mode: 'visual' });
    assert.equal(hang.status, 504, JSON.stringify(hang.body));
    assert.equal(hang.body.error, 'timeout');
    assert.equal(await balance(server.dataDir, key), before);
    const health = await (await fetch(`${server.url}/healthz`)).json();
    assert.deepEqual({ open: health.browser.open, contexts: health.browser.contexts }, { open: 0, contexts: 0 });
  });
});

describe('visual mode', () => {
  test('a PNG of the viewport at a signed URL until expires_at, 404 and deleted after; 10 credits; attributes', async () => {
    const before = await balance(server.dataDir, key);
    const r = await map('login.html', {}, 'visual');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const b = r.body;
    assert.equal(b.engine, 'precision');
    assert.equal(b.credits_used, 10);
    assert.equal(await balance(server.dataDir, key), before - 10);
    const email = b.interactable_elements.find((e: any) => e.text === 'Email');
    assert.equal(email.attributes.placeholder, 'you@example.com');
    assert.equal(email.visual_cues, undefined);
    const shot = b.screenshot;
    assert.equal(shot.type, 'url');
    assert.equal(shot.format, 'png');
    const expires = Date.parse(shot.expires_at);
    assert.ok(expires > Date.now() && expires <= Date.now() + (TTL_S + 1) * 1000, shot.expires_at);
    assert.ok(shot.url.startsWith(`${server.url}/v1/screenshots/`), shot.url);
    const res = await fetch(shot.url); // no API key
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await res.arrayBuffer());
    assert.equal(png.length, shot.size_bytes);
    const image = readPng(png);
    assert.deepEqual([image.width, image.height], [1280, 800]);
    const tampered = shot.url.replace(/sig=./, (m: string) => m.endsWith('A') ? 'sig=B' : 'sig=A');
    assert.equal((await fetch(tampered)).status, 404);
    assert.equal((await fetch(shot.url.replace(/expires=\d+/, `expires=${Math.floor(expires / 1000) + 3600}`))).status, 404, 'the expiry is signed');
    const files = () => readdirSync(join(server.dataDir, 'screenshots')).filter((f) => shot.url.includes(`/${f.replace(/-\d+\.png$/, '')}.png?`));
    assert.equal(files().length, 1);
    await new Promise((res) => setTimeout(res, expires - Date.now() + 300));
    const late = await fetch(shot.url);
    assert.equal(late.status, 404);
    assert.equal((await late.json() as any).error_code, 'not_found');
    assert.equal(files().length, 0, 'the expired file is deleted');
  });

  test('--public-url sets the origin of screenshot URLs', async () => {
    const behindProxy = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--public-url', 'https://api.example.test/']);
    try {
      const r = await observe(behindProxy, await createKey(behindProxy.dataDir, 20), { url: `${site.url}/login.html`, mode: 'visual', options: { limit: 1 } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.match(r.body.screenshot.url, /^https:\/\/api\.example\.test\/v1\/screenshots\/[\w-]{32}\.png\?expires=\d+&sig=[\w-]+$/);
      // The same path and query on this server still serve the image.
      const res = await fetch(`${behindProxy.url}${new URL(r.body.screenshot.url).pathname}${new URL(r.body.screenshot.url).search}`);
      assert.equal(res.status, 200);
    } finally {
      await behindProxy.stop();
      removeDataDir(behindProxy.dataDir);
    }
  });

  test('the sweep deletes expired screenshots nobody asked for, and keeps live ones', async () => {
    const dir = tempDataDir();
    const store = openFileScreenshots(dir, 1);
    try {
      const png = readFileSync(new URL('./fixtures/pic.svg', import.meta.url)); // any bytes: the store does not parse them
      await store.save(png, 'http://x');
      const liveStore = openFileScreenshots(dir, 3600);
      const live = await liveStore.save(png, 'http://x');
      liveStore.close();
      assert.equal(readdirSync(join(dir, 'screenshots')).length, 2);
      await new Promise((res) => setTimeout(res, 2100));
      assert.equal(await store.sweep(), 1);
      assert.deepEqual(readdirSync(join(dir, 'screenshots')).map((f) => f.replace(/-\d+\.png$/, '')), [new URL(live.url).pathname.split('/').pop()!.replace('.png', '')]);
    } finally {
      store.close();
      removeDataDir(dir);
    }
  });

  test('base64 delivery, and annotate draws each element\'s box and id (set-of-marks)', async () => {
    const plain = (await map('login.html', { screenshot_delivery: 'base64' }, 'visual')).body;
    const marked = (await map('login.html', { screenshot_delivery: 'base64', annotate: true }, 'visual')).body;
    for (const b of [plain, marked]) {
      assert.equal(b.screenshot.type, 'base64');
      assert.equal(b.screenshot.url, undefined);
      const bytes = Buffer.from(b.screenshot.data, 'base64');
      assert.ok(isPng(bytes));
      assert.equal(bytes.length, b.screenshot.size_bytes);
    }
    assert.equal(marked.screenshot.annotated, true);
    const [a, m] = [readPng(Buffer.from(plain.screenshot.data, 'base64')), readPng(Buffer.from(marked.screenshot.data, 'base64'))];
    const blue = ([r, g, bl]: number[]) => Math.abs(r - 0x1a) < 30 && Math.abs(g - 0x73) < 30 && Math.abs(bl - 0xe8) < 30;
    let outlined = 0;
    for (const e of marked.interactable_elements.filter((x: any) => !x.is_occluded)) {
      const at = [e.bbox.x - 1, e.bbox.y + e.bbox.height / 2] as const; // the outline sits just outside the box
      if (blue(m.pixel(...at)) && !blue(a.pixel(...at))) outlined++;
    }
    assert.equal(outlined, marked.interactable_elements.filter((x: any) => !x.is_occluded).length, 'every visible element is outlined');
    assert.ok(!existsSync(join(server.dataDir, 'screenshots', 'x')), 'base64 stores nothing by name');
  });
});

describe('the egress guard in map and visual modes', () => {
  for (const mode of ['map', 'visual']) {
    test(`${mode}: every private address is refused (403) and every non-http scheme is invalid (400), without a charge`, async () => {
      const k = await createKey(closed.dataDir, 50);
      for (const c of [...GUARD_CASES, { url: `${site.url}/login.html`, status: 403, error: 'blocked_url' }]) {
        const r = await observe(closed, k, { url: c.url, mode });
        assert.equal(r.status, c.status, JSON.stringify([c.url, r.body]));
        assert.equal(r.body.error, c.error, c.url);
      }
      assert.equal(await balance(closed.dataDir, k), 50);
    });
  }

  test('the client library gets the same refusals as typed errors, without a charge', async () => {
    const k = await createKey(closed.dataDir, 20);
    const api = new SightlineApi({ baseUrl: closed.url, apiKey: k, retries: 0 });
    for (const c of GUARD_CASES) {
      await assert.rejects(api.observe({ url: c.url, mode: 'map' }), (err: unknown) => {
        assert.ok(err instanceof SightlineApiError, c.url);
        assert.equal(err.status, c.status, c.url);
        assert.equal(err.code, c.error, c.url);
        return true;
      });
    }
    assert.equal(await balance(closed.dataDir, k), 20);
  });

  test('a redirect to the metadata address is refused; a page\'s private image, iframe, fetch and WebSocket are not loaded', async () => {
    const before = await balance(server.dataDir, key);
    for (const mode of ['map', 'visual']) {
      const r = await observe(server, key, { url: `${specialUrl}/to-metadata`, mode });
      assert.equal(r.status, 403, JSON.stringify(r.body));
      assert.equal(r.body.error, 'blocked_url');
    }
    assert.equal(await balance(server.dataDir, key), before);
    const leaky = await observe(server, key, { url: `${specialUrl}/leaky`, mode: 'visual' });
    assert.equal(leaky.status, 200, JSON.stringify(leaky.body));
    const blocked = leaky.body.warnings.filter((w: string) => w.startsWith('blocked:')).join('\n');
    for (const target of ['10.0.0.1/pixel.png', '169.254.169.254/latest/meta-data']) assert.ok(blocked.includes(target), `${target} in ${blocked}`);
    await new Promise((res) => setTimeout(res, 300));
    const refusals = server.logs.filter((l) => l.msg === 'egress refused (browser)').map((l) => String(l.target)).join('\n');
    for (const target of ['192.168.1.1', '10.1.1.1']) assert.ok(refusals.includes(target), `${target} refused: ${refusals}`);
  });
});

describe('map under load', () => {
  test('30 concurrent map requests on 4 pages: each served, 429 past the key\'s share or 503 busy, exact credits, bounded memory, nothing left behind', async () => {
    const loaded = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--browser-pages', '4', '--browser-queue', '16']);
    const descendants = () => execSync(`ps -eo pid=,ppid=`, { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number))
      .reduce((tree, [pid, ppid]) => (tree.has(ppid) ? tree.add(pid) : tree), new Set([loaded.proc.pid!]));
    const rssMb = (pids: Set<number>) => [...pids].reduce((sum, pid) => {
      try { return sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024; } catch { return sum; }
    }, 0);
    try {
      const k = await createKey(loaded.dataDir, 1000);
      const pages = ['login.html', 'search.html', 'shop.html', 'consent.html', 'long.html', 'frames.html'];
      const round = () => Promise.all(Array.from({ length: 30 }, (_, i) => observe(loaded, k, { url: `${site.url}/${pages[i % pages.length]}`, mode: 'map' })));
      const first = await round();
      const afterFirst = rssMb(descendants());
      const second = await round();
      const afterSecond = rssMb(descendants());
      let served = 0;
      for (const r of [...first, ...second]) {
        assert.ok(r.status === 200 || (r.status === 503 && r.body.error === 'busy') || (r.status === 429 && r.body.error === 'rate_limited'), JSON.stringify(r.body));
        if (r.status === 200) { served++; assert.ok(r.body.interactable_elements.length > 0); }
      }
      assert.ok(served >= 8, `served ${served}`);
      assert.equal(await balance(loaded.dataDir, k), 1000 - 2 * served, 'exactly the served requests were charged');
      assert.ok(afterSecond < afterFirst * 1.5 + 100, `memory stays bounded: ${afterFirst.toFixed(0)} MiB, then ${afterSecond.toFixed(0)} MiB`);
      // A spare is prepared after the request that used one is answered: wait for it (a few seconds at most).
      let health = await (await fetch(`${loaded.url}/healthz`)).json();
      for (let i = 0; i < 50 && health.browser.spare < 2; i++) {
        await new Promise((res) => setTimeout(res, 100));
        health = await (await fetch(`${loaded.url}/healthz`)).json();
      }
      assert.deepEqual({ open: health.browser.open, queued: health.browser.queued, contexts: health.browser.contexts, launches: health.browser.launches },
        { open: 0, queued: 0, contexts: 0, launches: 2 }, 'both Chromiums (--map-browsers, default 2) served the load');
      assert.equal(health.browser.spare, 2, 'a spare context each (--map-spares, default 1) waits for the next request (and is closed with the server below)');
      const browserPids = [...descendants()].filter((p) => p !== loaded.proc.pid);
      assert.ok(browserPids.length > 0, 'Chromium runs under the server');
      assert.equal(await loaded.stop(), 0);
      // Running, not a zombie waiting for a reaper (the container's init may never reap orphans).
      const running = () => browserPids.filter((pid) => { try { return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; } });
      for (let i = 0; i < 20 && running().length; i++) await new Promise((res) => setTimeout(res, 100));
      assert.deepEqual(running(), [], 'no Chromium process outlives the server');
    } finally {
      if (loaded.proc.exitCode === null) await loaded.stop();
      removeDataDir(loaded.dataDir);
    }
  });
});

describe('--map-spares 0', () => {
  test('no context is prepared ahead: each map request creates its own, and is answered as with a spare', async () => {
    const cold = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--map-spares', '0']);
    try {
      const k = await createKey(cold.dataDir, 1000);
      for (const page of ['login.html', 'search.html']) {
        const r = await observe(cold, k, { url: `${site.url}/${page}`, mode: 'map' });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.ok(r.body.interactable_elements.length > 0);
      }
      // The used contexts close after their answers; then nothing is left open and no spare is made.
      let health: { browser: { contexts: number; spare: number; open: number } } | undefined;
      for (let i = 0; i < 30; i++) {
        health = await (await fetch(`${cold.url}/healthz`)).json();
        if (health!.browser.contexts === 0) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      await new Promise((res) => setTimeout(res, 300));
      health = await (await fetch(`${cold.url}/healthz`)).json();
      assert.deepEqual({ contexts: health!.browser.contexts, spare: health!.browser.spare, open: health!.browser.open }, { contexts: 0, spare: 0, open: 0 });
    } finally {
      await cold.stop();
      removeDataDir(cold.dataDir);
    }
  });
});
