// MCP sessions that start logged in or persist: `sightline mcp --storage-state FILE` and `--profile DIR`
// over stdio (the SDK's client, a real process and Chromium), the profile's login kept across two
// starts; `--headed` asks for a window; and POST /mcp on the real server taking a storage state in
// its initialize (params._meta["sightline/storage_state"]).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startServer, createKey, removeDataDir, type ServerProcess } from './helpers/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SESSION = 'sid-4c1f-mcp';

let site: Server;
let siteUrl: string;
let dir: string;

before(async () => {
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const loggedIn = (req.headers.cookie ?? '').split(/;\s*/).includes(`sid=${SESSION}`);
    if (path === '/login') {
      // A persistent cookie and a localStorage entry, as a real login leaves them.
      res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `sid=${SESSION}; Max-Age=3600; Path=/; HttpOnly` });
      res.end('<html><body><h1>Logged in</h1><script>localStorage.setItem("seen", "yes")</script></body></html>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>Account</title></head><body><main><h1>${loggedIn ? 'Welcome back' : 'Please log in'}</h1>
      <p id="stored">nothing stored</p><script>document.getElementById('stored').textContent = 'stored: ' + (localStorage.getItem('seen') || 'none')</script></main></body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  dir = mkdtempSync(join(tmpdir(), 'sightline-mcp-persist-'));
});
after(() => {
  site.closeAllConnections();
  site.close();
  rmSync(dir, { recursive: true, force: true });
});

async function mcp(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'sightline-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/cli/main.ts', 'mcp', ...args], cwd: ROOT, stderr: 'pipe', env: { ...process.env, ...env } as Record<string, string> }));
  return client;
}

async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({ name, arguments: args }) as { content: { type: string; text: string }[]; isError?: boolean };
  return { text: r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'), isError: r.isError === true };
}

const STATE = () => ({
  cookies: [{ name: 'sid', value: SESSION, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
  origins: [{ origin: siteUrl, localStorage: [{ name: 'seen', value: 'yes' }] }],
});

test('mcp --storage-state FILE: the session starts logged in, with its localStorage', async () => {
  const file = join(dir, 'state.json');
  writeFileSync(file, JSON.stringify(STATE()));
  const client = await mcp(['--storage-state', file]);
  try {
    await tool(client, 'navigate', { url: `${siteUrl}/account` });
    const page = await tool(client, 'read');
    assert.match(page.text, /Welcome back/);
    assert.match(page.text, /stored: yes/);
  } finally {
    await client.close();
  }
  const fresh = await mcp([]);
  try {
    await tool(fresh, 'navigate', { url: `${siteUrl}/account` });
    assert.match((await tool(fresh, 'read')).text, /Please log in/, 'without it, logged out');
  } finally {
    await fresh.close();
  }
});

test('mcp --profile DIR: a login in one run is still there in the next', async () => {
  const profile = join(dir, 'profile');
  const first = await mcp(['--profile', profile]);
  try {
    await tool(first, 'navigate', { url: `${siteUrl}/account` });
    assert.match((await tool(first, 'read')).text, /Please log in/);
    await tool(first, 'navigate', { url: `${siteUrl}/login` });
    await tool(first, 'close');
  } finally {
    await first.close();
  }
  const second = await mcp(['--profile', profile]);
  try {
    await tool(second, 'navigate', { url: `${siteUrl}/account` });
    const page = await tool(second, 'read');
    assert.match(page.text, /Welcome back/);
    assert.match(page.text, /stored: yes/);
  } finally {
    await second.close();
  }
});

test('mcp --headed asks Chromium for a window (without a display it says so); bad flags are refused', async () => {
  const client = await mcp(['--headed'], { DISPLAY: '' });
  try {
    const r = await tool(client, 'navigate', { url: `${siteUrl}/account` });
    if (process.env.DISPLAY) assert.ok(!r.isError, r.text);
    else {
      assert.equal(r.isError, true);
      assert.match(r.text, /could not start Chromium.*(X server|DISPLAY|display)/i);
    }
  } finally {
    await client.close();
  }
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ cookies: [{ name: 'sid' }] }));
  const { spawnSync } = await import('node:child_process');
  for (const args of [['--storage-state', bad], ['--storage-state', bad, '--profile', dir], ['--storage-state', join(dir, 'missing.json')]]) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'mcp', ...args], { cwd: ROOT, encoding: 'utf8', input: '' });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /--storage-state|--profile/);
  }
});

test('POST /mcp: a storage state sent at initialize logs the session in; a malformed one is a 400', async () => {
  const server: ServerProcess = await startServer(['--egress-allow', '127.0.0.1/32']);
  try {
    const key = await createKey(server.dataDir, 100);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = (body: unknown, session?: string) => fetch(`${server.url}/mcp`, {
      method: 'POST', body: JSON.stringify(body), headers: { ...headers, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' } : {}) },
    });
    const initialize = (meta: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'test', version: '1' }, _meta: { 'sightline/storage_state': meta } } });
    const bad = await post(initialize({ cookies: [{ name: 'sid', value: 'x' }] }));
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(await bad.json()), /has no domain/);
    const init = await post(initialize(STATE()));
    assert.equal(init.status, 200, await init.clone().text());
    const session = init.headers.get('mcp-session-id')!;
    assert.ok(session);
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const call = async (id: number, name: string, args: Record<string, unknown>) => {
      const res = await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, session);
      const body = await res.json() as { result: { content: { text: string }[]; isError?: boolean } };
      assert.ok(!body.result.isError, JSON.stringify(body));
      return body.result.content.map((c) => c.text).join('\n');
    };
    await call(2, 'navigate', { url: `${siteUrl}/account` });
    const page = await call(3, 'read', {});
    assert.match(page, /Welcome back/);
    assert.match(page, /stored: yes/);
    await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' } });
  } finally {
    await server.stop();
    removeDataDir(server.dataDir);
  }
});
