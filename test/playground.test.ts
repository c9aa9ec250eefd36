// The playground at / and the API reference at /docs, driven in real Chromium against the running
// server (`sightline serve`) and fixture pages on loopback: read, map and visual from the form, boxes
// against rows, hover, a goal, the API's errors in place, hostile page text, the payload tab, and the
// reference loading with nothing leaving loopback. Every state is saved as a screenshot in a temp
// folder (printed) for a person to look at. Any CSP violation or page error fails the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Compile } from 'typebox/compile';
import { launch } from './helpers/browser.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { startServer, createKey, balance, removeDataDir, tempDataDir, type ServerProcess } from './helpers/server.ts';
import { SnapshotResponse } from '../src/schema/snapshot.ts';
import { ReadResult, MapResult, VisualResult } from '../src/schema/observe.ts';
import { UsageResponse } from '../src/schema/usage.ts';
import { EXAMPLES } from '../src/server/openapi.ts';

let server: ServerProcess;
let fixtures: FixtureServer;
let browser: Browser;
let key: string;
const SHOTS = mkdtempSync(join(tmpdir(), 'sightline-playground-'));

before(async () => {
  fixtures = await serveFixtures();
  server = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000']);
  key = await createKey(server.dataDir, 1000);
  browser = await launch();
  process.stderr.write(`playground screenshots: ${SHOTS}\n`);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await fixtures?.close();
  if (server) removeDataDir(server.dataDir);
});

interface Watched { page: Page; context: BrowserContext; problems: string[]; requests: string[] }

/** A page on the playground that records CSP violations, page errors, dialogs and every request. */
async function open(path = '/', options: { storedKey?: string; viewport?: { width: number; height: number } } = {}): Promise<Watched> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1440, height: 1000 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  await context.exposeBinding('__reportViolation', (_source, text: string) => { problems.push(text); });
  await context.addInitScript((stored) => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as any).__reportViolation(`CSP: ${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
    if (stored && location.pathname === '/' && !localStorage.getItem('sightline.apiKey')) localStorage.setItem('sightline.apiKey', stored);
  }, options.storedKey ?? '');
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of (40[13]|429)/.test(msg.text())) problems.push(`console: ${msg.text()}`); });
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); void d.dismiss(); });
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(server.url + path);
  return { page, context, problems, requests };
}

async function shot(w: Watched, name: string): Promise<void> {
  await w.page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function runObserve(page: Page, fields: { url: string; mode: 'read' | 'map' | 'visual'; goal?: string; apiKey?: string; limit?: number }): Promise<void> {
  await page.getByLabel('URL', { exact: true }).fill(fields.url);
  await page.getByLabel('Mode').selectOption(fields.mode);
  if (fields.mode !== 'read') {
    await page.getByLabel('Goal').fill(fields.goal ?? '');
    if (fields.limit) await page.getByLabel('Limit').fill(String(fields.limit));
  }
  if (fields.apiKey !== undefined) await page.getByLabel('API key').first().fill(fields.apiKey);
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.locator('#busy').waitFor({ state: 'hidden' });
}

const rowTexts = (page: Page) => page.locator('#elements tbody tr td.text').allTextContents();

async function finish(w: Watched): Promise<void> {
  const leaked = w.requests.filter((u) => u.includes(key));
  assert.deepEqual(leaked, [], 'the key never appears in a URL');
  assert.deepEqual(w.problems, [], 'no CSP violation, page error or dialog');
  await w.context.close();
}

test('the page is served with a CSP that allows only its own scripts and styles', async () => {
  const res = await fetch(`${server.url}/`);
  assert.equal(res.status, 200);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /style-src 'self'(;|$)/);
  assert.match(csp, /default-src 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  const html = await res.text();
  assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handlers');
  assert.doesNotMatch(html, /<script>(?!<)/, 'no inline script');
});

test('map from the form: every listed element has a drawn box, hover pairs a row with its box', async () => {
  const w = await open();
  const { page } = w;
  for (const label of ['URL', 'Mode', 'Engine', 'Goal', 'Limit']) assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, `${label} has a label`);
  await runObserve(page, { url: `${fixtures.url}/search.html`, mode: 'map', apiKey: key, limit: 25 });
  assert.equal(await page.locator('#error').isHidden(), true, await page.locator('#error').textContent() ?? '');
  const rows = page.locator('#elements tbody tr');
  const boxes = page.locator('#stage g.box');
  const count = await rows.count();
  assert.ok(count > 5, `rows: ${count}`);
  assert.equal(await boxes.count(), count, 'one box per listed element');
  // The same ids in both.
  const rowIds = (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).sort();
  const boxIds = (await boxes.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-id')))).sort();
  assert.deepEqual(boxIds, rowIds);
  // Hover the third row: its box lights up, no other.
  const third = rows.nth(2);
  const id = await third.getAttribute('data-id');
  await third.hover();
  assert.deepEqual(await page.locator('#stage g.box.hot').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-id'))), [id]);
  await shot(w, '1-map-hover-row');
  // And the reverse: hover a box, its row lights up (the last one is painted on top of the others).
  await page.mouse.move(0, 0);
  const first = boxes.last();
  const firstId = await first.getAttribute('data-id');
  await first.locator('rect.frame').hover({ force: true });
  assert.deepEqual(await page.locator('#elements tr.hot').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id'))), [firstId]);
  // Credits, timings and the reproduction are shown.
  assert.match(await page.locator('#summary').innerText(), /Credits used\s+2/i);
  assert.match(await page.locator('#credits-left').innerText(), /^[\d,]+$/);
  assert.match(await page.locator('#facts').innerText(), /Timings/);
  const curl = await page.locator('#code-curl').innerText();
  assert.match(curl, /^curl -sS http:\/\/127\.0\.0\.1:\d+\/v1\/observe/);
  assert.match(curl, /\$SIGHTLINE_KEY/);
  assert.ok(!curl.includes(key), 'the curl command names the key by variable, not its value');
  await page.getByRole('tab', { name: 'Client library' }).click();
  assert.match(await page.locator('#code-client').innerText(), /api\.observe\(/);
  await page.getByRole('tab', { name: 'Response JSON' }).click();
  assert.equal(JSON.parse(await page.locator('#code-json').innerText()).status, 'success');
  // The key stays in this browser and comes back on the next visit.
  await page.reload();
  assert.equal(await page.getByLabel('API key').first().inputValue(), key);
  await finish(w);
});

test('a goal reorders the list and shows probabilities', async () => {
  const w = await open('/', { storedKey: key });
  const { page } = w;
  await runObserve(page, { url: `${fixtures.url}/search.html`, mode: 'map', limit: 25 });
  const plain = await rowTexts(page);
  assert.equal(await page.locator('th.prob-col').isVisible(), false, 'no probability column without a goal');
  await runObserve(page, { url: `${fixtures.url}/search.html`, mode: 'map', goal: 'sign in', limit: 25 });
  const ranked = await rowTexts(page);
  assert.notDeepEqual(ranked, plain, 'the goal changes the order');
  assert.equal(ranked[0], 'Sign in');
  assert.notEqual(plain[0], 'Sign in');
  assert.equal(await page.locator('th.prob-col').isVisible(), true);
  const probabilities = await page.locator('#elements tbody td.prob').allTextContents();
  assert.ok(probabilities.every((p) => /^\d+(\.\d)?%$/.test(p)), probabilities.join(' '));
  assert.match(await page.locator('#summary').innerText(), /Goal rerank\s+applied/i);
  await shot(w, '2-map-goal');
  await finish(w);
});

test('visual from the form: the screenshot loads under as many boxes as listed elements', async () => {
  const w = await open('/', { storedKey: key });
  const { page } = w;
  await runObserve(page, { url: `${fixtures.url}/shop.html`, mode: 'visual', limit: 20 });
  assert.equal(await page.locator('#error').isHidden(), true, await page.locator('#error').textContent() ?? '');
  assert.equal(await page.getByLabel('Engine').inputValue(), 'precision');
  const img = page.locator('#stage img');
  await img.waitFor();
  await page.waitForFunction(() => (document.querySelector('#stage img') as HTMLImageElement)?.complete);
  assert.equal(await img.evaluate((i: HTMLImageElement) => i.naturalWidth), 1280, 'the screenshot loaded');
  assert.equal(await page.locator('#stage g.box').count(), await page.locator('#elements tbody tr').count());
  assert.match(await page.locator('#summary').innerText(), /Credits used\s+10/i);
  await shot(w, '3-visual');
  await finish(w);
});

test('at 1280×800: the selects and the flags column fit, and "Full size" shows the screenshot at its own pixels', async () => {
  const w = await open('/', { storedKey: key, viewport: { width: 1280, height: 800 } });
  const { page } = w;
  // Every option of Mode and Engine shows whole in its select (text, padding and the arrow).
  const cut = await page.evaluate(() => ['mode', 'engine'].flatMap((id) => {
    const select = document.getElementById(id) as HTMLSelectElement;
    const style = getComputedStyle(select);
    const probe = document.createElement('span');
    probe.style.font = style.font;
    probe.style.whiteSpace = 'pre';
    probe.style.position = 'absolute';
    document.body.append(probe);
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16; // the arrow
    const over = [...select.options].filter((o) => { probe.textContent = o.text; return probe.getBoundingClientRect().width > room; }).map((o) => `${id}: ${o.text}`);
    probe.remove();
    return over;
  }));
  assert.deepEqual(cut, [], 'options cut off');
  await runObserve(page, { url: `${fixtures.url}/shop.html`, mode: 'visual', limit: 20 });
  assert.equal(await page.locator('#error').isHidden(), true, await page.locator('#error').textContent() ?? '');
  await page.waitForFunction(() => (document.querySelector('#stage img') as HTMLImageElement)?.complete);
  // The list shows its flags column whole: no horizontal scrolling, every flags cell inside.
  const list = await page.evaluate(() => {
    const wrap = document.querySelector('.list-wrap')!;
    const right = wrap.getBoundingClientRect().right;
    return { scrolls: wrap.scrollWidth > wrap.clientWidth, outside: [...document.querySelectorAll('#elements td.flags')].filter((td) => td.getBoundingClientRect().right > right + 0.5).length };
  });
  assert.deepEqual(list, { scrolls: false, outside: 0 });
  const imgWidth = () => page.locator('#stage img').evaluate((i) => i.getBoundingClientRect().width);
  const fitted = await imgWidth();
  assert.ok(fitted >= 800, `the fitted screenshot is ${fitted} px wide, not a thumbnail`);
  await page.getByRole('button', { name: 'Full size' }).click();
  assert.equal(Math.round(await imgWidth()), 1280, 'full size: one page pixel per CSS pixel');
  assert.equal(await page.locator('#stage-size').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('#stage g.box').count(), await page.locator('#elements tbody tr').count());
  await shot(w, '3b-visual-full-size');
  await page.getByRole('button', { name: 'Fit to width' }).click();
  assert.equal(Math.round(await imgWidth()), Math.round(fitted));
  await finish(w);
});

test('read from the form: Markdown rendered beside its source, title and description', async () => {
  const w = await open('/', { storedKey: key });
  const { page } = w;
  await runObserve(page, { url: `${fixtures.url}/article.html`, mode: 'read' });
  assert.equal(await page.locator('#error').isHidden(), true, await page.locator('#error').textContent() ?? '');
  assert.ok((await page.locator('#read-title').innerText()).length > 3);
  const raw = await page.locator('#read-raw').innerText();
  assert.match(raw, /^#+ /m, 'the source is Markdown');
  assert.ok(await page.locator('#read-rendered h1, #read-rendered h2').count() > 0, 'headings are rendered');
  assert.match(await page.locator('#summary').innerText(), /Credits used\s+1/i);
  await shot(w, '4-read');
  await finish(w);
});

test('API errors show in place: an invalid key (401) and a blocked URL (403)', async () => {
  const w = await open();
  const { page } = w;
  await runObserve(page, { url: `${fixtures.url}/search.html`, mode: 'map', apiKey: 'sl_notarealkeynotarealkeynotareal' });
  assert.equal(await page.locator('#error').isVisible(), true);
  assert.equal(await page.locator('#error-status').innerText(), '401');
  assert.equal(await page.locator('#error-code').innerText(), 'unauthorized');
  assert.equal(await page.locator('#error-message').innerText(), 'Invalid API key');
  await shot(w, '5-error-401');
  await runObserve(page, { url: 'http://10.0.0.1/admin', mode: 'map', apiKey: key });
  assert.equal(await page.locator('#error-status').innerText(), '403');
  assert.equal(await page.locator('#error-code').innerText(), 'blocked_url');
  assert.match(await page.locator('#error-message').innerText(), /10\.0\.0\.1 is a private address/);
  await shot(w, '6-error-403');
  // The 401 logged nothing of the key it was given, and the 403 cost nothing.
  assert.ok(!JSON.stringify(server.logs).includes('notarealkey'), 'the key is not logged');
  // Filter out what the browser reports for the failed fetches themselves.
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !/status of 40[13]/.test(p)));
  await finish(w);
});

test('page text with <script> in it shows as text and runs nothing (map and read)', async () => {
  const w = await open('/', { storedKey: key });
  const { page } = w;
  await runObserve(page, { url: `${fixtures.url}/hostile.html`, mode: 'map' });
  const texts = await rowTexts(page);
  assert.ok(texts.some((t) => t.includes('<script>window.__pwned=5</script>Buy now')), texts.join(' | '));
  assert.ok(texts.some((t) => t.includes('<img src=x onerror="window.__pwned=6">All deals')), texts.join(' | '));
  assert.equal(await page.locator('#elements script, #elements img, #stage script').count(), 0, 'no element made from page text');
  await shot(w, '7-hostile-map');
  await runObserve(page, { url: `${fixtures.url}/hostile.html`, mode: 'read' });
  assert.match(await page.locator('#read-title').innerText(), /<b>bold<\/b> <script>window.__pwned=1<\/script>/);
  assert.match(await page.locator('#read-description').innerText(), /<img src=x onerror/);
  assert.match(await page.locator('#read-rendered').innerText(), /<script>window.__pwned=3<\/script>/);
  assert.equal(await page.locator('#read-rendered script, #read-rendered img, #read-rendered [onerror]').count(), 0);
  assert.equal(await page.locator('#read-rendered a[href^="javascript:"]').count(), 0, 'no javascript: link');
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => (window as any).__pwned), undefined, 'nothing from the page ran');
  await shot(w, '8-hostile-read');
  await finish(w);
});

test('the snapshot payload tab draws the payload\'s boxes on a blank viewport', async () => {
  const w = await open('/', { storedKey: key });
  const { page } = w;
  await page.getByRole('tab', { name: 'Paste a snapshot payload' }).click();
  await page.getByRole('button', { name: 'Load an example' }).click();
  const payload = JSON.parse(await page.getByRole('textbox', { name: 'Snapshot payload' }).inputValue());
  const before = await balance(server.dataDir, key);
  await page.getByRole('button', { name: 'Run', exact: true }).last().click();
  await page.locator('#busy').waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#error').isHidden(), true, await page.locator('#error').textContent() ?? '');
  assert.equal(await page.locator('#stage g.box').count(), payload.raw_elements.length);
  assert.equal(await page.locator('#elements tbody tr').count(), payload.raw_elements.length);
  assert.equal(await page.locator('#stage img').count(), 0, 'no screenshot: a blank canvas');
  const viewBox = await page.locator('#stage svg').getAttribute('viewBox');
  assert.match(viewBox ?? '', /^0 0 1280 \d+$/, 'the canvas is the viewport wide');
  assert.equal(await balance(server.dataDir, key), before - 1);
  await shot(w, '9-payload');
  // A payload that is not JSON is said so in place, with nothing sent.
  await page.getByRole('textbox', { name: 'Snapshot payload' }).fill('{"url": ');
  await page.getByRole('button', { name: 'Run', exact: true }).last().click();
  assert.match(await page.locator('#error-message').innerText(), /not valid JSON/);
  await finish(w);
});

test('the Usage tab lists the key\'s charges and refunds with their request ids, and pages to older ones', async () => {
  const own = await createKey(server.dataDir, 30);
  const post = async (path: string, body: unknown, requestId: string) => {
    const res = await fetch(server.url + path, { method: 'POST', headers: { authorization: `Bearer ${own}`, 'content-type': 'application/json', 'x-request-id': requestId }, body: JSON.stringify(body) });
    return { status: res.status, id: res.headers.get('x-request-id') };
  };
  assert.deepEqual(await post('/v1/snapshot', EXAMPLES.snapshot.search.value, 'usage-one'), { status: 200, id: 'usage-one' });
  assert.deepEqual(await post('/v1/observe', { url: `${fixtures.url}/no-such-page.html`, mode: 'read' }, 'usage-two'), { status: 502, id: 'usage-two' });
  assert.deepEqual(await post('/v1/snapshot', EXAMPLES.snapshot.search.value, 'usage-three'), { status: 200, id: 'usage-three' });
  const w = await open('/', { storedKey: own });
  const { page } = w;
  await page.getByRole('tab', { name: 'Usage' }).click();
  assert.equal(await page.locator('#usage-key').inputValue(), own, 'the stored key fills the Usage tab too');
  await page.getByRole('button', { name: 'Show usage' }).click();
  await page.locator('#busy').waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#error').isHidden(), true, await page.locator('#error').textContent() ?? '');
  const cells = () => page.locator('#usage-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)));
  assert.deepEqual(await cells(), [['charge', '−1', 'usage-three', ''], ['refund', '+1', 'usage-two', 'http_error'], ['charge', '−1', 'usage-one', '']]);
  assert.match(await page.locator('#summary').innerText(), /Credits left\s+28/i);
  assert.equal(await page.locator('#credits-left').innerText(), '28');
  assert.equal(await page.locator('#usage-more').isHidden(), true, 'no older entries');
  assert.match(await page.locator('#code-curl').innerText(), /^curl -sS 'http:\/\/127\.0\.0\.1:\d+\/v1\/usage\?limit=50'/);
  await shot(w, '10-usage');
  // Two at a time: the older one comes with the button.
  await page.getByLabel('Entries').fill('2');
  await page.getByRole('button', { name: 'Show usage' }).click();
  await page.locator('#busy').waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#usage-table tbody tr').count(), 2);
  await page.getByRole('button', { name: 'Older entries' }).click();
  await page.locator('#usage-more').waitFor({ state: 'hidden' });
  assert.deepEqual((await cells()).map((row) => row[2]), ['usage-three', 'usage-two', 'usage-one']);
  // A bad value is the API's 400, in place.
  await page.getByLabel('Entries').fill('0');
  await page.getByRole('button', { name: 'Show usage' }).click();
  await page.locator('#busy').waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#error-status').innerText(), '400');
  assert.match(await page.locator('#error-message').innerText(), /limit must be >= 1/);
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !/status of 400/.test(p)));
  const leaked = w.requests.filter((u) => u.includes(own));
  assert.deepEqual(leaked, [], 'the key never appears in a URL');
  await finish(w);
});

test('/docs loads offline from this server and lists every route', async () => {
  const w = await open('/docs');
  const { page, requests } = w;
  await page.locator('.opblock').first().waitFor();
  await page.waitForLoadState('networkidle');
  const own = new URL(server.url).origin;
  assert.deepEqual(requests.filter((u) => !u.startsWith(own) && !u.startsWith('data:') && !u.startsWith('blob:')), [], 'no request leaves this server');
  const listed = await page.locator('.opblock-summary-path').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
  const doc = await (await fetch(`${server.url}/openapi.json`)).json() as { paths: Record<string, object> };
  assert.deepEqual([...new Set(listed)].sort(), Object.keys(doc.paths).sort(), 'every path of the document is on the page');
  // Every route the server serves is in the document (asset folders aside).
  const { buildRouter } = await import('../src/server/server.ts');
  const { resolveConfig } = await import('../src/server/config.ts');
  const { openSqliteStore } = await import('../src/store/sqlite.ts');
  const { createLogger } = await import('../src/server/logger.ts');
  const dir = tempDataDir();
  const store = openSqliteStore(dir);
  const built = await buildRouter(resolveConfig({ 'data-dir': dir }, {}), store, createLogger('silent'), 'test', 0);
  await built.dispose();
  store.close();
  removeDataDir(dir);
  const routes = built.routes.map((r) => r.split(' ')[1]).filter((p) => !['/playground/*', '/docs/*'].includes(p))
    .map((p) => p.replace(/\/\*$/, '/{file}'));
  assert.deepEqual([...new Set(routes)].sort(), Object.keys(doc.paths).sort());
  await shot(w, '11-docs');
  await finish(w);
});

test('the OpenAPI examples are real requests: each one answers 200 in its documented shape', async () => {
  const shapes = { read: Compile(ReadResult), map: Compile(MapResult), visual: Compile(VisualResult) };
  const snapshot = Compile(SnapshotResponse);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(server.url + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() as any };
  };
  // Each answer also fits its path's 200 schema in the served document, as a JSON Schema validator reads it.
  const doc = await (await fetch(`${server.url}/openapi.json`)).json();
  const inline = (s: unknown) => JSON.parse(JSON.stringify(s), (_k, v) => (v?.$ref ? doc.components.schemas[v.$ref.split('/').pop()] : v));
  const published = (path: string) => Compile(inline(doc.paths[path].post.responses['200'].content['application/json'].schema));
  const documented = { '/v1/snapshot': published('/v1/snapshot'), '/v1/observe': published('/v1/observe') };
  const fitsDocument = (path: keyof typeof documented, body: unknown, what: string) =>
    assert.ok(documented[path].Check(body), `${what}: ${path}'s 200 schema: ${JSON.stringify([...documented[path].Errors(body)][0])}`);
  for (const [name, example] of Object.entries(EXAMPLES.snapshot)) {
    const answer = await post('/v1/snapshot', example.value);
    assert.equal(answer.status, 200, `${name}: ${JSON.stringify(answer.body)}`);
    assert.ok(snapshot.Check(answer.body), `${name}: ${JSON.stringify([...snapshot.Errors(answer.body)][0])}`);
    fitsDocument('/v1/snapshot', answer.body, name);
    const text = await post('/v1/snapshot', { ...example.value, options: { ...example.value.options, format: 'text' } });
    assert.equal(text.status, 200, `${name} as text: ${JSON.stringify(text.body)}`);
    fitsDocument('/v1/snapshot', text.body, `${name} as text`);
  }
  for (const [mode, example] of Object.entries(EXAMPLES.observe)) {
    // The example's address is on the internet; the test sends the same request for a local page.
    const answer = await post('/v1/observe', { ...example.value, url: `${fixtures.url}/login.html` });
    assert.equal(answer.status, 200, `${mode}: ${JSON.stringify(answer.body)}`);
    const check = shapes[mode as keyof typeof shapes];
    assert.ok(check.Check(answer.body), `${mode}: ${JSON.stringify([...check.Errors(answer.body)][0])}`);
    fitsDocument('/v1/observe', answer.body, mode);
  }
  // GET /v1/usage's example is an answer: it and a real answer have the documented shape.
  const usage = Compile(UsageResponse);
  const real = await (await fetch(`${server.url}/v1/usage?limit=2`, { headers: { authorization: `Bearer ${key}` } })).json();
  for (const [name, example] of [...Object.entries(EXAMPLES.usage).map(([n, e]) => [n, e.value] as const), ['real answer', real] as const]) {
    assert.ok(usage.Check(example), `usage ${name}: ${JSON.stringify([...usage.Errors(example)][0])}`);
  }
  assert.equal(real.entries.length, 2);
});
