// Authenticated observe, end to end: a local site that answers only with a session cookie and an API
// header is read (fetched, and rendered), mapped and screenshotted through the real server; a redirect
// to another host (127.0.0.2, loopback opened for both) and third-party requests of the page must not
// receive the cookie or the header; credentials outside the allow-list are a 400 that costs nothing;
// and no secret appears in the server's logs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { startServer, createKey, balance, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';

const COOKIE = 'sess-7f3a9c-cookie-secret';
const TOKEN = 'tok-91b2e4-header-secret';
const STORED = 'ls-5d8e21-local-storage';

let home: Server, other: Server, port: Server;
let site: string, otherSite: string, portSite: string;
let server: ServerProcess;
let key: string;
/** What the other host saw: one entry per request, with the headers that matter here. */
const seenByOther: { path: string; cookie?: string; token?: string }[] = [];
/** What another port of the home host saw. */
const seenByPort: { path: string; cookie?: string; token?: string }[] = [];
/** Requests to the home host that carried no valid credentials. */
const refusedAtHome: string[] = [];

const DASHBOARD = (third: string) => `<!doctype html><html><head><title>Orders dashboard</title></head><body>
  <main><h1>Your orders</h1>
  <p>${'Order 1042 shipped on Tuesday and will arrive at the depot before noon; track it below. '.repeat(4)}</p>
  <button id="track">Track order 1042</button><a href="/invoices">Download invoice</a>
  <p id="stored"></p></main>
  <img src="${third}/pixel.gif" width="4" height="4"><script src="${third}/widget.js"></script>
  <script>document.getElementById('stored').textContent = 'Local storage says ' + (localStorage.getItem('token') || 'nothing');</script>
  </body></html>`;

function authorised(req: IncomingMessage): boolean {
  return (req.headers.cookie ?? '').split(/;\s*/).includes(`session=${COOKIE}`) && req.headers['x-api-token'] === TOKEN;
}

function homeRoute(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  if (path === '/to-other') { res.writeHead(302, { location: `${otherSite}/landing` }); res.end(); return; }
  if (path === '/to-port') { res.writeHead(302, { location: `${portSite}/landing` }); res.end(); return; }
  if (path === '/to-dashboard') { res.writeHead(302, { location: '/dashboard' }); res.end(); return; }
  if (!authorised(req)) { refusedAtHome.push(path); res.writeHead(401, { 'content-type': 'text/html' }); res.end('<h1>Log in first</h1>'); return; }
  if (path === '/dashboard') { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(DASHBOARD(otherSite)); return; }
  res.writeHead(404); res.end();
}

function otherRoute(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  seenByOther.push({ path, cookie: req.headers.cookie, token: req.headers['x-api-token'] as string | undefined });
  if (path === '/landing') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>Elsewhere</title></head><body><main><h1>Another host</h1><p>${'A page on another host that must see no credentials. '.repeat(6)}</p><button>Continue</button></main></body></html>`);
    return;
  }
  if (path === '/widget.js') { res.writeHead(200, { 'content-type': 'text/javascript' }); res.end('void 0;'); return; }
  res.writeHead(200, { 'content-type': 'image/gif' }); res.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
}

const CREDS = { cookies: [{ name: 'session', value: COOKIE, domain: '127.0.0.1', path: '/', httpOnly: true }], headers: { 'X-Api-Token': TOKEN } };

before(async () => {
  home = createServer(homeRoute);
  other = createServer(otherRoute);
  port = createServer((req, res) => {
    seenByPort.push({ path: req.url ?? '/', cookie: req.headers.cookie, token: req.headers['x-api-token'] as string | undefined });
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>Another port</title></head><body><main><h1>Another port</h1><p>${'Another service on the same host. '.repeat(8)}</p><button>Continue</button></main></body></html>`);
  });
  await Promise.all([new Promise<void>((r) => home.listen(0, '127.0.0.1', () => r())), new Promise<void>((r) => other.listen(0, '127.0.0.2', () => r())),
    new Promise<void>((r) => port.listen(0, '127.0.0.1', () => r()))]);
  portSite = `http://127.0.0.1:${(port.address() as { port: number }).port}`;
  site = `http://127.0.0.1:${(home.address() as { port: number }).port}`;
  otherSite = `http://127.0.0.2:${(other.address() as { port: number }).port}`;
  server = await startServer(['--egress-allow', '127.0.0.1/32,127.0.0.2/32', '--rate-limit', '1000', '--rate-burst', '1000', '--page-timeout-ms', '8000']);
  key = await createKey(server.dataDir, 10_000);
});
after(async () => {
  await server.stop();
  removeDataDir(server.dataDir);
  for (const s of [home, other, port]) { s.closeAllConnections(); s.close(); }
});

const leaked = () => seenByOther.filter((s) => s.cookie?.includes(COOKIE) || s.token === TOKEN);

test('without credentials the dashboard is a 401 from the site (502 http_error), and nothing is charged', async () => {
  const before = await balance(server.dataDir, key);
  const res = await observe(server, key, { url: `${site}/dashboard` });
  assert.equal(res.status, 502);
  assert.equal(res.body.error, 'http_error');
  assert.equal(await balance(server.dataDir, key), before);
});

test('read: the cookie and the header open the page, also after a redirect on the same host', async () => {
  for (const path of ['/dashboard', '/to-dashboard']) {
    const res = await observe(server, key, { url: `${site}${path}`, ...CREDS });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.title, 'Orders dashboard');
    assert.match(res.body.content, /Order 1042 shipped/);
    assert.equal(res.body.credits_used, 1);
  }
});

test('read: a redirect to another host drops the cookie and the header', async () => {
  seenByOther.length = 0;
  const res = await observe(server, key, { url: `${site}/to-other`, ...CREDS });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.title, 'Elsewhere');
  assert.ok(seenByOther.some((s) => s.path === '/landing'), 'the other host was reached');
  assert.deepEqual(leaked(), []);
});

test('a redirect to another port of the same host drops the header (another origin); the cookie goes, as in a browser', async () => {
  seenByPort.length = 0;
  for (const mode of ['read', 'map'] as const) {
    const res = await observe(server, key, { url: `${site}/to-port`, mode, ...CREDS });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  const landed = seenByPort.filter((s) => s.path === '/landing');
  assert.equal(landed.length, 2);
  for (const s of landed) {
    assert.equal(s.token, undefined, 'no header to another origin');
    assert.match(s.cookie ?? '', new RegExp(`session=${COOKIE}`), 'cookies do not isolate ports (RFC 6265)');
  }
});

test('read rendered in Chromium: storage state (its cookies and localStorage) and the header', async () => {
  seenByOther.length = 0;
  const res = await observe(server, key, {
    url: `${site}/dashboard`, options: { render: 'always' }, headers: CREDS.headers,
    storage_state: { cookies: CREDS.cookies, origins: [{ origin: site, localStorage: [{ name: 'token', value: STORED }] }] },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.rendered, true);
  assert.match(res.body.content, new RegExp(`Local storage says ${STORED}`));
  assert.ok(seenByOther.some((s) => s.path === '/widget.js'), 'the page\'s third-party script was loaded');
  assert.deepEqual(leaked(), [], 'third-party requests carried no credential');
});

test('map: the logged-in page is mapped; third parties and a cross-host redirect get nothing', async () => {
  seenByOther.length = 0;
  const res = await observe(server, key, { url: `${site}/dashboard`, mode: 'map', options: { render_quality: 'precision' }, ...CREDS });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.ok(res.body.interactable_elements.some((e: { text: string }) => e.text === 'Track order 1042'), 'the dashboard\'s button is mapped');
  assert.equal(res.body.credits_used, 10);
  assert.ok(seenByOther.some((s) => s.path === '/widget.js') && seenByOther.some((s) => s.path === '/pixel.gif'), 'third-party requests were made');
  const redirected = await observe(server, key, { url: `${site}/to-other`, mode: 'map', ...CREDS });
  assert.equal(redirected.status, 200, JSON.stringify(redirected.body));
  assert.ok(redirected.body.interactable_elements.some((e: { text: string }) => e.text === 'Continue'));
  assert.deepEqual(leaked(), []);
});

test('visual: the logged-in page is screenshotted', async () => {
  const res = await observe(server, key, { url: `${site}/dashboard`, mode: 'visual', options: { screenshot_delivery: 'base64' }, ...CREDS });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.ok(res.body.interactable_elements.some((e: { text: string }) => e.text === 'Track order 1042'));
  assert.ok(res.body.screenshot.size_bytes > 1000);
  assert.deepEqual(leaked(), []);
});

test('a cookie for another host is not sent to this one', async () => {
  const res = await observe(server, key, { url: `${site}/dashboard`, cookies: [{ name: 'session', value: COOKIE, domain: '127.0.0.2' }], headers: CREDS.headers });
  assert.equal(res.status, 502);
  assert.equal(res.body.error, 'http_error');
});

test('headers outside the allow-list are a 400 in the observe error shape, before any charge', async () => {
  const before = await balance(server.dataDir, key);
  for (const name of ['Host', 'Connection', 'Transfer-Encoding', 'Proxy-Authorization', 'Cookie', 'X-Forwarded-For', 'X-Real-IP', 'Forwarded']) {
    const res = await observe(server, key, { url: `${site}/dashboard`, headers: { [name]: 'x' } });
    assert.equal(res.status, 400, name);
    assert.equal(res.body.status, 'error');
    assert.equal(res.body.error, 'bad_request');
    assert.match(res.body.message, new RegExp(`headers\\.${name} is not allowed`));
  }
  const bad = await observe(server, key, { url: `${site}/dashboard`, headers: { 'X-Api-Token': `${TOKEN}\r\nX-Injected: 1` } });
  assert.equal(bad.status, 400);
  assert.doesNotMatch(JSON.stringify(bad.body), new RegExp(TOKEN), 'the refusal does not echo the value');
  assert.equal(await balance(server.dataDir, key), before);
});

test('a cookie the browser refuses (an expiry Playwright rejects) is a 400, free; a domain that is no host name never reaches it', async () => {
  const before = await balance(server.dataDir, key);
  const refused = await observe(server, key, { url: `${site}/dashboard`, mode: 'map', cookies: [{ name: 'session', value: COOKIE, expires: -5 }] });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.equal(refused.body.error, 'bad_request');
  assert.match(refused.body.message, /cookie was refused by the browser/);
  const odd = await observe(server, key, { url: `${site}/dashboard`, mode: 'map', cookies: [{ name: 'session', value: COOKIE, domain: 'a b/c' }] });
  assert.equal(odd.status, 400);
  assert.equal(await balance(server.dataDir, key), before);
});

test('no cookie, header or storage value reaches the server\'s logs', () => {
  const out = server.stdoutText() + server.stderr();
  assert.ok(out.includes('"request"'), 'requests were logged');
  for (const secret of [COOKIE, TOKEN, STORED]) assert.ok(!out.includes(secret), `${secret} is not logged`);
  assert.ok(refusedAtHome.includes('/dashboard'), 'the site did refuse a request without credentials');
});
