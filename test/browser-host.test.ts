// Browser hosts (`sightline browser-host`) end to end: real host processes running Debian's Chromium
// behind Playwright's server protocol with the egress proxy beside it, a real API server using them
// through --browser-ws, pages served from loopback. The host refuses an environment that would let
// traffic around its proxy, connections without the token and beyond its capacity; the egress guard's
// table holds through a remote host even when the API's own check is opened; a host killed mid-load
// costs nothing that was not served, the survivor takes over, and the restarted host is used again.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startServer, createKey, account, balance, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { GUARD_CASES } from './helpers/guard-cases.ts';
import { startHost, type HostProcess } from './helpers/browser-host.ts';
import { OBSERVE_COSTS } from '../src/server/routes/observe.ts';
import type { AddressInfo } from 'node:net';
import { freePort } from './helpers/free-port.ts';


/** Runs `sightline browser-host` expecting it to refuse to start: its exit code and what it said. */
function refusedHost(flags: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; text: string }> {
  return startHost(flags, { env }).then(async (h) => { await h.stop(); throw new Error('the host started'); }, (err) => ({ code: err.code, text: err.text }));
}

const hostHealth = async (h: HostProcess) => (await (await fetch(`http://127.0.0.1:${h.port}/healthz`)).json()) as { connections: number; pages: number; reserved: number; capacity: number };
const apiHosts = async (s: ServerProcess) => (await (await fetch(`${s.url}/healthz`)).json()).browser?.hosts as { endpoint: string; up: boolean }[] | undefined;
const waitFor = async (what: string, ok: () => Promise<boolean>, ms = 10_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await ok().catch(() => false)) return;
  assert.fail(`timed out waiting for ${what}`);
};

const API_FLAGS = ['--rate-limit', '1000', '--rate-burst', '1000'];
let site: FixtureServer;
const hosts: HostProcess[] = [];
const servers: ServerProcess[] = [];

before(async () => { site = await serveFixtures(); });
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(hosts.map((h) => h.stop()));
  for (const s of servers) removeDataDir(s.dataDir);
  await site.close();
});

describe('starting a browser host', () => {
  test('refuses an environment that would let loopback or private traffic bypass the proxy', async () => {
    for (const env of [{ NO_PROXY: 'localhost' }, { no_proxy: 'example.com,127.0.0.1' }, { NO_PROXY: '*' }, { no_proxy: '10.0.0.0/8' },
      { NO_PROXY: '[::1]' }, { PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK: '1' }]) {
      const r = await refusedHost(['--port', '0'], env);
      assert.equal(r.code, 2, JSON.stringify([env, r.text]));
      assert.match(r.text, /refusing to start: .*(NO_PROXY|no_proxy|PLAYWRIGHT_DISABLE).*bypass the egress proxy/, JSON.stringify(env));
    }
    // A public name in NO_PROXY names no way around the guard: the host starts.
    const h = await startHost(['--port', '0'], { env: { NO_PROXY: 'example.com' } });
    await h.stop();
  });

  test('an API instance refuses a --browser-ws entry that is not a ws:// URL', async () => {
    await assert.rejects(startServer(['--browser-ws', 'ws://127.0.0.1:9400/,http://127.0.0.1:9401/']), /exited with 2.*not a ws:\/\/ or wss:\/\/ URL/s);
  });

  test('a host whose Chromium dies exits non-zero (for its supervisor to restart it)', async () => {
    const h = await startHost(['--port', '0']);
    const exited = new Promise<number | null>((r) => h.proc.once('exit', (code) => r(code)));
    const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(h.proc.pid)], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/));
    const browser = children.find(([, comm]) => /chrom/.test(comm));
    assert.ok(browser, `Chromium runs under the host: ${JSON.stringify(children)}`);
    process.kill(Number(browser[0]), 'SIGKILL');
    assert.equal(await exited, 1);
    assert.match(h.out(), /Chromium exited: the browser host stops/);
  });

  test('refuses to listen beyond loopback without a token', async () => {
    const r = await refusedHost(['--port', '0', '--host', '0.0.0.0'], {});
    assert.equal(r.code, 2);
    assert.match(r.text, /set --token/);
  });
});

describe('token and capacity', () => {
  let h: HostProcess;
  before(async () => { h = await startHost(['--port', '0', '--pages', '4', '--token', 's3cret', '--egress-allow', '127.0.0.1/32']); hosts.push(h); });

  test('a connection without the token, or with a wrong one, is refused (401)', async () => {
    await assert.rejects(chromium.connect(h.ws, { timeout: 5000 }), /401/);
    await assert.rejects(chromium.connect(h.ws, { timeout: 5000, headers: { authorization: 'Bearer wrong' } }), /401/);
    assert.equal((await hostHealth(h)).connections, 0);
  });

  test('connections reserve pages; one beyond the capacity is refused (503) until pages are released; /healthz reports the load', async () => {
    const auth = { authorization: 'Bearer s3cret' };
    const first = await chromium.connect(h.ws, { timeout: 5000, headers: { ...auth, 'x-sightline-pages': '3' } });
    const context = await first.newContext();
    await context.newPage();
    await context.newPage();
    assert.deepEqual(await hostHealth(h), { status: 'ok', connections: 1, pages: 2, reserved: 3, capacity: 4 });
    await assert.rejects(chromium.connect(h.ws, { timeout: 5000, headers: { ...auth, 'x-sightline-pages': '2' } }), /503/);
    const small = await chromium.connect(h.ws, { timeout: 5000, headers: { ...auth, 'x-sightline-pages': '1' } });
    assert.equal((await hostHealth(h)).reserved, 4);
    await first.close();
    await waitFor('the reservation released', async () => (await hostHealth(h)).reserved === 1);
    const second = await chromium.connect(h.ws, { timeout: 5000, headers: { ...auth, 'x-sightline-pages': '2' } });
    assert.deepEqual(await hostHealth(h), { status: 'ok', connections: 2, pages: 0, reserved: 3, capacity: 4 });
    await Promise.all([small.close(), second.close()]);
  });

  test('an API instance with the wrong token answers 503 busy and charges nothing; with the token it serves', async () => {
    const [wrong, right] = await Promise.all([
      startServer([...API_FLAGS, '--egress-allow', '127.0.0.1/32', '--browser-ws', h.ws, '--browser-token', 'nope']),
      startServer([...API_FLAGS, '--egress-allow', '127.0.0.1/32', '--browser-ws', h.ws, '--browser-token', 's3cret', '--browser-pages', '2']),
    ]);
    servers.push(wrong, right);
    const k = await createKey(wrong.dataDir, 10);
    const r = await observe(wrong, k, { url: `${site.url}/login.html`, mode: 'map' });
    assert.equal(r.status, 503, JSON.stringify(r.body));
    assert.equal(r.body.error, 'busy');
    assert.equal(await balance(wrong.dataDir, k), 10);
    const k2 = await createKey(right.dataDir, 10);
    const ok = await observe(right, k2, { url: `${site.url}/login.html`, mode: 'map' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.ok(ok.body.interactable_elements.length > 0);
    assert.equal(await balance(right.dataDir, k2), 10 - OBSERVE_COSTS.map);
  });
});

describe('spares on a browser host (--map-spares, --map-path with --browser-ws)', () => {
  test('each API pool keeps its spares on the host and reserves them; 0 keeps none; legacy keeps at most 1', async () => {
    const h = await startHost(['--port', '0', '--pages', '12', '--egress-allow', '127.0.0.1/32']);
    hosts.push(h);
    const apiSpare = async (s: ServerProcess) => (await (await fetch(`${s.url}/healthz`)).json()).browser?.spare as number | undefined;
    const map = async (s: ServerProcess) => {
      const k = await createKey(s.dataDir, 10);
      const r = await observe(s, k, { url: `${site.url}/login.html`, mode: 'map' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.body.interactable_elements.length > 0);
    };
    const start = (extra: string[]) => startServer([...API_FLAGS, '--egress-allow', '127.0.0.1/32', '--browser-ws', h.ws, '--browser-pages', '2', ...extra]);
    const two = await start(['--map-spares', '2']);
    servers.push(two);
    await map(two);
    // The used context closes after the answer; two fresh ones stay open on the host, reserved beside the pool's 2 pages.
    await waitFor('two spares ready on the host', async () => (await apiSpare(two)) === 2 && (await hostHealth(h)).pages === 2);
    assert.equal((await hostHealth(h)).reserved, 4);
    await map(two);
    await waitFor('the spare used replaced', async () => (await apiSpare(two)) === 2 && (await hostHealth(h)).pages === 2);

    const none = await start(['--map-spares', '0']);
    servers.push(none);
    await map(none);
    await waitFor('the cold pool\'s context closed', async () => (await hostHealth(h)).pages === 2);
    assert.equal(await apiSpare(none), 0);
    assert.equal((await hostHealth(h)).reserved, 4 + 2);

    const legacy = await start(['--map-spares', '3', '--map-path', 'legacy']);
    servers.push(legacy);
    await map(legacy);
    await waitFor('the legacy pool\'s one spare', async () => (await apiSpare(legacy)) === 1 && (await hostHealth(h)).pages === 3);
    assert.equal((await hostHealth(h)).reserved, 4 + 2 + 3);
  });
});

describe('the egress guard through a remote browser host', () => {
  let fenced: HostProcess;
  let open: ServerProcess;
  let canary: Server;
  let canaryHits = 0;
  before(async () => {
    canary = createServer((_req, res) => { canaryHits++; res.writeHead(200, { 'content-type': 'text/html' }); res.end('<button>Reached</button>'); });
    await new Promise<void>((r) => canary.listen(0, '::', () => r())); // loopback over IPv4 and IPv6
    fenced = await startHost(['--port', '0']);
    hosts.push(fenced);
    // The API's own check is opened to everything: the host's proxy is the only fence left.
    open = await startServer([...API_FLAGS, '--egress-allow', '0.0.0.0/0,::/0', '--browser-ws', fenced.ws]);
    servers.push(open);
  });
  after(() => { canary.closeAllConnections(); canary.close(); });

  test('every private address of the table is refused by the host (403), nothing reaches loopback, nothing is charged', async () => {
    const port = (canary.address() as AddressInfo).port;
    const k = await createKey(open.dataDir, 100);
    const loopback = ['http://127.0.0.1', 'http://localhost', 'http://[::1]', 'http://[::ffff:127.0.0.1]', 'http://2130706433', 'http://0x7f000001', 'http://127.1']
      .map((u) => ({ url: `${u}:${port}/`, status: 403, error: 'blocked_url' }));
    const wrong: string[] = [];
    for (const mode of ['map', 'visual']) {
      for (const c of [...GUARD_CASES, ...loopback]) {
        const r = await observe(open, k, { url: c.url, mode });
        // Port 9 (discard) is on Chromium's unsafe-port list: it refuses before asking the proxy. The
        // same addresses on the canary's port, below the table, are refused by the host's guard.
        const unsafePort = /:9\/$/.test(c.url) && r.status === 502 && /ERR_UNSAFE_PORT/.test(r.body.message);
        if (!unsafePort && (r.status !== c.status || r.body.error !== c.error)) wrong.push(`${mode} ${c.url}: ${r.status} ${r.body.message}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.equal(canaryHits, 0, 'nothing reached the loopback server');
    assert.equal(await balance(open.dataDir, k), 100);
  });

  test('a redirect to the metadata address is refused; a page\'s private subresources are not loaded and the host logs them', async () => {
    const pages = createServer((req, res) => {
      if (req.url === '/to-metadata') { res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }); res.end(); return; }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><h1>Leaky</h1><button>Go</button><img src="http://10.0.0.1/pixel.png"><iframe src="http://127.0.0.1:${(canary.address() as AddressInfo).port}/"></iframe>
        <script>fetch('http://192.168.1.1/steal').catch(() => {});</script></body></html>`);
    });
    await new Promise<void>((r) => pages.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    // This host may reach the page server (127.0.0.1:<that port> only), nothing else inside.
    const allowing = await startHost(['--port', '0', '--egress-allow', '127.0.0.1/32']);
    hosts.push(allowing);
    const api = await startServer([...API_FLAGS, '--egress-allow', '0.0.0.0/0,::/0', '--browser-ws', allowing.ws]);
    servers.push(api);
    try {
      const k = await createKey(api.dataDir, 100);
      const redirected = await observe(api, k, { url: `${base}/to-metadata`, mode: 'map' });
      assert.equal(redirected.status, 403, JSON.stringify(redirected.body));
      assert.equal(redirected.body.error, 'blocked_url');
      const leaky = await observe(api, k, { url: `${base}/leaky`, mode: 'visual' });
      assert.equal(leaky.status, 200, JSON.stringify(leaky.body));
      assert.ok(leaky.body.warnings.join('\n').includes('10.0.0.1/pixel.png'), JSON.stringify(leaky.body.warnings));
      await waitFor('the host to log the page\'s refused fetch', async () => allowing.out().includes('192.168.1.1'));
      assert.match(allowing.out(), /"target":"http:\/\/10\.0\.0\.1\/pixel\.png","reason":"10\.0\.0\.1 is a private address/);
      // --egress-allow 127.0.0.1/32 opens the page server's address, and so the canary's: it is the
      // fenced host above that proves loopback stays closed.
      assert.equal(await balance(api.dataDir, k), 100 - OBSERVE_COSTS.visual, 'the visual, not the refused map');
    } finally {
      pages.closeAllConnections();
      pages.close();
    }
  });
});

describe('a fleet of two hosts', () => {
  test('a host killed mid-load: every request answered, only the served charged, the survivor serves, the restarted host is used again', async (t) => {
    const ports = [await freePort(), await freePort()];
    const hostFlags = (port: number) => ['--port', String(port), '--pages', '8', '--egress-allow', '127.0.0.1/32'];
    const [a, b] = await Promise.all(ports.map((p) => startHost(hostFlags(p))));
    hosts.push(a, b);
    const api = await startServer([...API_FLAGS, '--egress-allow', '127.0.0.1/32', '--browser-ws', `${a.ws},${b.ws}`, '--browser-pages', '4', '--browser-queue', '32', '--deadline-ms', '60000']);
    servers.push(api);
    // Ten keys of three requests each: one key alone would meet its share of the pages first (429).
    const keys = await Promise.all(Array.from({ length: 10 }, () => createKey(api.dataDir, 1000)));
    // A page whose document arrives after 800 ms: a kill finds navigations under way.
    let arrived = 0;
    const slow = createServer((req, res) => {
      arrived++;
      setTimeout(() => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(`<title>Slow</title><button>Continue ${req.url}</button><a href="/next">Next</a>`); }, 800);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
    t.after(() => { slow.closeAllConnections(); slow.close(); });
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const map = (i: number) => observe(api, keys[i % keys.length], { url: `${slowUrl}/page?i=${i}`, mode: 'map' });

    const burst = Promise.all(Array.from({ length: 30 }, (_, i) => map(i)));
    // Mid-load: both hosts' pages are busy (8 of them) and their documents have been asked for.
    await waitFor('8 navigations under way', async () => arrived >= 8 && (await hostHealth(a)).pages > 0);
    await a.kill();
    const answers = await burst;
    let served = 0;
    const statuses: Record<string, number> = {};
    for (const r of answers) {
      statuses[`${r.status} ${r.body.error ?? ''}`] = (statuses[`${r.status} ${r.body.error ?? ''}`] ?? 0) + 1;
      if (r.status === 200) { served++; assert.ok(r.body.interactable_elements.length > 0); continue; }
      // The page died with its host (500), no host was left (503), or a slow machine hit the deadline (504).
      assert.ok([500, 502, 503, 504].includes(r.status), JSON.stringify(r.body));
    }
    // Every hold resolved: nothing left held, and the ledger charges exactly the served requests.
    const accts = await Promise.all(keys.map((k) => account(api.dataDir, k)));
    assert.equal(accts.reduce((sum, a) => sum + a.held, 0), 0, 'no hold left');
    assert.equal(accts.reduce((sum, a) => sum + a.credits, 0), keys.length * 1000 - OBSERVE_COSTS.map * served, `exactly the served requests were charged: ${JSON.stringify(statuses)}`);
    for (const acct of accts) assert.equal(acct.ledger.reduce((sum, row) => sum + row.delta, 0), acct.credits, 'the ledger sums to the balance');
    assert.ok(served >= 15, `most requests were served (survivor and retries): ${JSON.stringify(statuses)}`);
    assert.ok(served < 30, `the pages loading on host a when it died failed: ${JSON.stringify(statuses)}`);
    const retried = api.logs.filter((l) => l.msg === 'retrying on another browser host').length;
    t.diagnostic(`answers ${JSON.stringify(statuses)}; retried on the survivor: ${retried}`);
    assert.ok(api.logs.some((l) => l.msg === 'browser host taken out' && l.host === a.ws), 'the API took host a out');

    // The dead host is out: later requests all succeed on the survivor.
    await waitFor('host a taken out', async () => (await apiHosts(api))?.find((h) => h.endpoint === a.ws)?.up === false);
    const later = await Promise.all(Array.from({ length: 6 }, (_, i) => map(i)));
    for (const r of later) assert.equal(r.status, 200, JSON.stringify(r.body));

    // Restarted on the same port: taken back, and used again.
    const again = await startHost(hostFlags(ports[0]));
    hosts.push(again);
    await waitFor('host a back', async () => (await apiHosts(api))?.find((h) => h.endpoint === a.ws)?.up === true);
    const after = await Promise.all(Array.from({ length: 8 }, (_, i) => map(i)));
    for (const r of after) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await hostHealth(again)).connections, 1, 'the API instance connected to the restarted host');
    const balances = await Promise.all(keys.map((k) => balance(api.dataDir, k)));
    assert.equal(balances.reduce((a, b) => a + b, 0), keys.length * 1000 - OBSERVE_COSTS.map * (served + 14));
  });
});
