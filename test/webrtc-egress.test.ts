// WebRTC must not go around the egress guard. The real server runs inside a network namespace this test
// creates (Chromium gathers no WebRTC candidates on a host with loopback only), joined to the test by a
// veth pair: 10.200.X.2 in the namespace (the server), 10.200.X.1 outside (the page server, opened with
// --egress-allow 10.200.X.1/32) and 10.200.X.3 outside (the refused target: UDP and TCP listeners, and
// the namespace's only DNS server); an mDNS listener hears multicast from the namespace. A hostile page
// asks for STUN and TURN on the refused address, by address and by host name: in map mode and in a
// rendered read, and in map mode through a browser host (`sightline browser-host`, also in the namespace),
// nothing may reach the refused address except through the proxy, and Chromium launched
// with the pool's flags must not resolve a single name itself.
// Needs root (ip netns); no traffic leaves the namespace and the veth pair.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type AddressInfo } from 'node:net';
import { createSocket, type Socket } from 'node:dgram';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer, createKey, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { startHost, type HostProcess } from './helpers/browser-host.ts';
import { renderChromium } from '../src/observe/browser/render-chromium.ts';

const root = process.getuid?.() === 0;
const skip = !root && !process.env.CI ? 'needs root to create a network namespace (ip netns)' : false;

const NS = `slrtc${process.pid}`;
const NET = `10.200.${1 + (process.pid % 250)}`;
const OUTSIDE = `${NET}.1`; // the page server: allowed
const INSIDE = `${NET}.2`; // the Sightline server and its Chromium
const REFUSED = `${NET}.3`; // not allowed: nothing may reach it from the browser
const VETH = `slw${process.pid}`;
const ETC = `/etc/netns/${NS}`; // `ip netns exec` mounts these over /etc/hosts and /etc/resolv.conf

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

interface Packet { port: number; from: string; bytes: number; what: string }
const heard: Packet[] = [];
const tcpHeard: string[] = [];
let udp: Socket;
let dns: Socket;
let mdns: Socket;
let turnTcp: TcpServer;
let pages: Server;
let server: ServerProcess | undefined;
/** A browser host in the namespace, and an API server there that uses it (--browser-ws). */
let host: HostProcess | undefined;
let remote: ServerProcess | undefined;
let key: string;
let udpPort: number;
let tcpPort: number;

/** The name asked in a DNS query, for the failure message. */
function dnsName(msg: Buffer): string {
  const labels: string[] = [];
  for (let i = 12; i < msg.length && msg[i] !== 0; i += msg[i] + 1) labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('latin1'));
  return labels.join('.');
}

/** `describe` returns undefined for a datagram that does not count (see the DNS listener). */
function listen(port: number, describe: (msg: Buffer) => string | undefined): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (msg, from) => {
    const what = describe(msg);
    if (what) heard.push({ port: (socket.address() as AddressInfo).port, from: `${from.address}:${from.port}`, bytes: msg.length, what });
  });
  return new Promise((resolve, reject) => { socket.once('error', reject); socket.bind(port, REFUSED, () => resolve(socket)); });
}

function hostilePage(): string {
  const turn = (host: string, port: number, transport: string) => ({ urls: `turn:${host}:${port}?transport=${transport}`, username: 'u', credential: 'p' });
  const servers = [
    { urls: `stun:${REFUSED}:${udpPort}` },
    turn(REFUSED, udpPort, 'udp'),
    turn('turn.sightline.test', udpPort, 'udp'), // in the namespace's hosts file: the refused address
    turn('unlisted.sightline.test', udpPort, 'udp'), // resolvable only by asking the DNS server (the refused address)
    turn(REFUSED, tcpPort, 'tcp'), // through the proxy, which refuses it
    turn('turn-tcp.sightline.test', tcpPort, 'tcp'), // Chromium resolves TURN host names itself, over TCP too
    { urls: `turns:turns.sightline.test:${tcpPort}`, username: 'u', credential: 'p' },
  ];
  return `<!doctype html><html><head><title>WebRTC probe</title></head><body><main><h1>WebRTC probe</h1>
    <p>This page asks its browser for STUN and TURN servers on an address the egress guard refuses.</p>
    <button>Go</button><pre id="log">started</pre></main>
    <script>
      const log = document.getElementById('log');
      const note = (line) => { log.textContent += '\\n' + line; };
      const servers = ${JSON.stringify(servers)};
      // one connection with every server, and one per server (an error on one must not hide the others)
      Promise.all([servers, ...servers.map((s) => [s])].map(async (iceServers, i) => {
        const pc = new RTCPeerConnection({ iceServers });
        pc.onicecandidate = (e) => { if (e.candidate) note('candidate ' + i + ' ' + e.candidate.type + ' ' + e.candidate.protocol + ' ' + e.candidate.address); };
        pc.onicecandidateerror = (e) => note('icecandidateerror ' + i + ' ' + e.url + ' ' + e.errorCode);
        pc.createDataChannel('probe');
        await pc.setLocalDescription(await pc.createOffer());
        note('offered ' + i);
        await new Promise((done) => { pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') done(); }; setTimeout(done, 4000); });
        note('gathered ' + i);
      })).then(() => note('probe finished'), (err) => note('probe failed ' + err));
    </script></body></html>`;
}

before(async () => {
  if (skip) return;
  ip('netns', 'add', NS);
  ip('link', 'add', VETH, 'type', 'veth', 'peer', 'name', `${VETH}n`, 'netns', NS);
  ip('addr', 'add', `${OUTSIDE}/24`, 'dev', VETH);
  ip('addr', 'add', `${REFUSED}/24`, 'dev', VETH);
  ip('link', 'set', VETH, 'up');
  ip('-n', NS, 'addr', 'add', `${INSIDE}/24`, 'dev', `${VETH}n`);
  ip('-n', NS, 'link', 'set', `${VETH}n`, 'up');
  ip('-n', NS, 'link', 'set', 'lo', 'up');
  mkdirSync(ETC, { recursive: true });
  writeFileSync(`${ETC}/hosts`, `127.0.0.1 localhost\n${REFUSED} turn.sightline.test\n`);
  writeFileSync(`${ETC}/resolv.conf`, `nameserver ${REFUSED}\n`);

  udp = await listen(0, (msg) => `${msg.length} bytes, first ${msg.subarray(0, 4).toString('hex')}`);
  udpPort = (udp.address() as AddressInfo).port;
  // The namespace's only DNS server. The server's egress proxy resolves here every host the browser asks
  // it for (Chromium's background requests to Google hosts too): that is the guard at work, so only names
  // of the page's count, and among those not the ones the proxy was asked for (see nothingHeard).
  dns = await listen(53, (msg) => (dnsName(msg).endsWith('.sightline.test') ? `DNS query for ${dnsName(msg)}` : undefined));
  // Every name is NXDOMAIN at once: lookups left unanswered would hold the server's exit for a minute.
  dns.on('message', (msg, from) => {
    const reply = Buffer.from(msg);
    reply[2] |= 0x80; // a response
    reply[3] = (reply[3] & 0xf0) | 3; // NXDOMAIN
    dns.send(reply, from.port, from.address);
  });
  // WebRTC announces its host candidates' mDNS names by multicast on the local network
  ip('-n', NS, 'route', 'add', '224.0.0.0/4', 'dev', `${VETH}n`);
  mdns = createSocket({ type: 'udp4', reuseAddr: true });
  mdns.on('message', (msg, from) => { if (from.address === INSIDE) heard.push({ port: 5353, from: `${from.address}:${from.port}`, bytes: msg.length, what: 'mDNS multicast' }); });
  await new Promise<void>((resolve, reject) => { mdns.once('error', reject); mdns.bind(5353, () => resolve()); });
  mdns.addMembership('224.0.0.251', OUTSIDE);
  turnTcp = createTcpServer((socket) => { tcpHeard.push(`${socket.remoteAddress}:${socket.remotePort}`); socket.destroy(); });
  await new Promise<void>((resolve) => turnTcp.listen(0, REFUSED, () => resolve()));
  tcpPort = (turnTcp.address() as AddressInfo).port;
  pages = createHttpServer((req, res) => {
    res.writeHead(req.url === '/rtc' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/rtc' ? hostilePage() : 'not found');
  });
  await new Promise<void>((resolve) => pages.listen(0, OUTSIDE, () => resolve()));

  // --log-level debug: names the proxy could not resolve are logged at debug (egress-proxy.ts logBlocked).
  server = await startServer(['--host', INSIDE, '--egress-allow', `${OUTSIDE}/32`, '--rate-limit', '1000', '--rate-burst', '1000', '--page-timeout-ms', '8000', '--log-level', 'debug'],
    { prefix: ['ip', 'netns', 'exec', NS] });
  key = await createKey(server.dataDir, 1000);
  host = await startHost(['--port', '0', '--egress-allow', `${OUTSIDE}/32`, '--log-level', 'debug'], { prefix: ['ip', 'netns', 'exec', NS] });
  remote = await startServer(['--host', INSIDE, '--egress-allow', `${OUTSIDE}/32`, '--rate-limit', '1000', '--rate-burst', '1000', '--page-timeout-ms', '8000', '--browser-ws', host.ws],
    { prefix: ['ip', 'netns', 'exec', NS] });
});

after(async () => {
  if (skip) return;
  if (server) { await server.stop(); removeDataDir(server.dataDir); }
  if (remote) { await remote.stop(); removeDataDir(remote.dataDir); }
  await host?.stop();
  pages?.closeAllConnections();
  await Promise.all([
    new Promise((r) => (pages ? pages.close(r) : r(undefined))),
    new Promise((r) => (turnTcp ? turnTcp.close(r) : r(undefined))),
    new Promise((r) => (udp ? udp.close(() => r(undefined)) : r(undefined))),
    new Promise((r) => (dns ? dns.close(() => r(undefined)) : r(undefined))),
    new Promise((r) => (mdns ? mdns.close(() => r(undefined)) : r(undefined))),
  ]);
  try { ip('netns', 'del', NS); } catch { /* not created */ }
  try { ip('link', 'del', VETH); } catch { /* gone with the namespace */ }
  rmSync(ETC, { recursive: true, force: true });
});

const pageUrl = () => `http://${OUTSIDE}:${(pages.address() as AddressInfo).port}/rtc`;
const settle = () => new Promise((r) => setTimeout(r, 500)); // packets in flight when the context closed
/** Host names the egress proxy was asked for (and refused): the guard's own lookups of them are expected. */
const refusals = () => [...server!.logs, ...(host?.logs() ?? [])].filter((l) => l.msg === 'egress refused (browser)' || l.msg === 'egress: name not resolved (browser)');
const proxied = () => new Set(refusals().map((l) => String(l.target).replace(/:\d+$/, '')));
const nothingHeard = (what: string) => {
  const asked = proxied();
  const direct = heard.filter((p) => !(p.what.startsWith('DNS query for ') && asked.has(p.what.slice('DNS query for '.length))));
  assert.deepEqual(direct, [], `${what}: the browser sent UDP to ${REFUSED} (refused): ${JSON.stringify(direct, null, 1)}`);
  assert.deepEqual(tcpHeard, [], `${what}: the browser opened TCP to ${REFUSED} (refused) outside the guard`);
};

describe('WebRTC and the egress guard', { skip }, () => {
  test('control: the namespace reaches the refused address, so silence means the browser sent nothing', async () => {
    execFileSync('ip', ['netns', 'exec', NS, process.execPath, '-e',
      `const s = require('node:dgram').createSocket('udp4'); s.send('control', ${udpPort}, '${REFUSED}', () => s.close());`]);
    await settle();
    assert.equal(heard.length, 1, 'the control datagram did not arrive');
    assert.match(heard[0].from, new RegExp(`^${INSIDE.replaceAll('.', '\\.')}:`));
    heard.length = 0;
  });

  test('map: a page asking for STUN and TURN on a refused address sends it nothing', async () => {
    const r = await observe(server!, key, { url: pageUrl(), mode: 'map', options: { render_quality: 'precision' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.interactable_elements.some((e: { text: string }) => e.text === 'Go'), 'the page loaded');
    await settle();
    nothingHeard('map');
    // TURN over TCP to an address went to the proxy, which refused it
    const refused = server!.logs.filter((l) => l.msg === 'egress refused (browser)').map((l) => l.target);
    assert.ok(refused.includes(`${REFUSED}:${tcpPort}`), `no refusal of ${REFUSED}:${tcpPort} in ${JSON.stringify(refused)}`);
  });

  test('rendered read: the same page, rendered for its content, sends it nothing', async () => {
    const r = await observe(server!, key, { url: pageUrl(), options: { render: 'always' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.rendered, true);
    assert.match(r.body.content, /offered 0/, 'the script created its connections');
    await settle();
    nothingHeard('read');
  });

  test('map through a browser host: the remote Chromium sends the refused address nothing either', async () => {
    heard.length = 0;
    const k = await createKey(remote!.dataDir, 100);
    const r = await observe(remote!, k, { url: pageUrl(), mode: 'map', options: { render_quality: 'precision' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.interactable_elements.some((e: { text: string }) => e.text === 'Go'), 'the page loaded');
    await settle();
    nothingHeard('map through a browser host');
    // TURN over TCP went to the host's proxy, which refused it (and logged it there, not in the API)
    const refused = host!.logs().filter((l) => l.msg === 'egress refused (browser)').map((l) => l.target);
    assert.ok(refused.includes(`${REFUSED}:${tcpPort}`), `no refusal of ${REFUSED}:${tcpPort} in ${JSON.stringify(refused)}`);
  });

  test('Chromium with the pool\'s flags resolves no host name itself: only the proxy does (the headless shell and --chromium)', async () => {
    // The pool's launch, in the namespace, with a proxy that is not there: any query now is Chromium's own.
    const chromiumPath = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';
    for (const exe of new Set([renderChromium('auto', chromiumPath), chromiumPath])) {
      heard.length = 0;
      const script = `
        import { chromium } from 'playwright-core';
        import { CHROMIUM_FLAGS } from ${JSON.stringify(fileURLToPath(new URL('../src/observe/browser/browser-pool.ts', import.meta.url)))};
        const browser = await chromium.launch({ executablePath: process.env.EXE, headless: true,
          chromiumSandbox: false, args: CHROMIUM_FLAGS, proxy: { server: 'http://127.0.0.1:9', bypass: '<-loopback>' } });
        const page = await browser.newPage();
        await page.route('http://probe.test/', (route) => route.fulfill({ contentType: 'text/html', body: process.env.PAGE }));
        await page.goto('http://probe.test/');
        await page.waitForFunction(() => document.getElementById('log').textContent.includes('probe finished'), null, { timeout: 15000 });
        console.log(await page.textContent('#log'));
        await browser.close();`;
      const log = execFileSync('ip', ['netns', 'exec', NS, process.execPath, '--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: fileURLToPath(new URL('..', import.meta.url)), env: { ...process.env, PAGE: hostilePage(), EXE: exe }, encoding: 'utf8' });
      assert.match(log, /offered 0/, `${exe}: ${log}`);
      await settle();
      assert.deepEqual(heard, [], `${exe} sent UDP to ${REFUSED} (refused) or resolved a name itself: ${JSON.stringify(heard, null, 1)}`);
      assert.deepEqual(tcpHeard, []);
    }
  });
});
