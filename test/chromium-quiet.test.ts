// Logs at info are about requests: Chromium's own calls out are switched off by flags where Chromium has
// one (AutofillServerCommunication: its form-field queries to content-autofill.googleapis.com), and the
// rest (component updates, account checks) die at the egress proxy as names that do not resolve, which
// is logged at debug; an address the guard refuses is still a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get, type Server } from 'node:http';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, LEAN_FLAG, PLAYWRIGHT_DISABLED_FEATURES, QUIET_FLAG, launchOptions } from '../src/observe/browser/browser-pool.ts';
import { startServer, createKey, removeDataDir, observe } from './helpers/server.ts';
import { servePages } from './helpers/fixtures.ts';

const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';
const FORM = '<!doctype html><title>Form</title><form><input name=email autocomplete=email><input name=name autocomplete=name><button>Go</button></form>';
const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as { port: number }).port)));

/** The hosts a Chromium launched with `flags` asks a proxy for, besides the page, within `ms` of showing a form. */
async function backgroundHosts(flags: string[], ms: number): Promise<string[]> {
  const hosts: string[] = [];
  const proxy = createServer((req, res) => {
    if (req.url!.startsWith('http://127.0.0.1')) { get(req.url!, (up) => { res.writeHead(up.statusCode!, up.headers); up.pipe(res); }); return; }
    hosts.push(new URL(req.url!).host);
    res.writeHead(403); res.end();
  });
  proxy.on('connect', (req, socket) => { hosts.push(req.url!.replace(/:\d+$/, '')); socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'); });
  const page = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(FORM); });
  const [proxyPort, pagePort] = await Promise.all([listen(proxy), listen(page)]);
  const browser = await chromium.launch(launchOptions(CHROMIUM, flags, `http://127.0.0.1:${proxyPort}`));
  try {
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(`http://127.0.0.1:${pagePort}/`);
    await tab.fill('input[name=email]', 'ada@example.com');
    await new Promise((r) => setTimeout(r, ms));
  } finally {
    await browser.close();
    proxy.closeAllConnections(); proxy.close(); page.close();
  }
  return [...new Set(hosts)].sort();
}

test('our launch flags switch off Chromium\'s autofill queries; with Playwright\'s alone it makes them (control)', async () => {
  const control = await backgroundHosts([...CHROMIUM_FLAGS, `--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`], 6000);
  assert.ok(control.includes('content-autofill.googleapis.com'), `control: ${control.join(', ')}`);
  for (const flag of [LEAN_FLAG, QUIET_FLAG]) {
    const hosts = await backgroundHosts([...CHROMIUM_FLAGS, flag], 6000);
    assert.ok(!hosts.includes('content-autofill.googleapis.com'), `${flag}: ${hosts.join(', ')}`);
  }
});

test('a map request: its info and warn lines are about it, Chromium\'s unresolved names go to debug', async (t) => {
  // Scripts, not images: map's performance engine does not load images.
  const pages = await servePages((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`${FORM}<script>fetch('http://10.0.0.1/pixel.png').catch(() => {}); fetch('http://no-such-host.invalid/pixel.png').catch(() => {});</script>`);
  });
  t.after(() => pages.close());
  for (const level of ['info', 'debug']) {
    const server = await startServer(['--egress-allow', '127.0.0.1/32', '--log-level', level]);
    try {
      const key = await createKey(server.dataDir, 10);
      const r = await observe(server, key, { url: `${pages.site}/`, mode: 'map' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await new Promise((res) => setTimeout(res, 3000)); // Chromium's background calls come in the seconds after launch
      const lines = server.logs as { level: number; msg: string; target?: string; path?: string }[];
      const warnings = lines.filter((l) => l.level >= 40);
      assert.deepEqual(warnings.map((l) => [l.msg, l.target]), [['egress refused (browser)', 'http://10.0.0.1/pixel.png']], JSON.stringify(warnings));
      const unresolved = lines.filter((l) => l.msg === 'egress: name not resolved (browser)');
      if (level === 'info') {
        assert.deepEqual(unresolved, []);
        const other = lines.filter((l) => l.level >= 30 && l.msg !== 'egress refused (browser)' && l.path !== '/v1/observe' && l.msg !== 'listening');
        assert.deepEqual(other.map((l) => l.msg), [], 'nothing else at info');
      } else {
        assert.ok(unresolved.some((l) => String(l.target).includes('no-such-host.invalid')), JSON.stringify(unresolved));
        assert.ok(unresolved.every((l) => l.level === 20));
      }
    } finally {
      await server.stop();
      removeDataDir(server.dataDir);
    }
  }
});
