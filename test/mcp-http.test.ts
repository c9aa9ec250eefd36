// The MCP tools over Streamable HTTP at POST /mcp on the real server (build/cli.js serve), driven by
// the SDK's own client: the API key, credits per tools/call, the egress guard on navigation, one
// browser per session and the idle timeout that closes it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, createKey, balance, removeDataDir, type ServerProcess } from './helpers/server.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';

let server: ServerProcess;
let fx: FixtureServer;

before(async () => {
  fx = await serveFixtures();
  server = await startServer(['--mcp-idle-s', '2', '--mcp-sessions', '2']);
});
after(async () => {
  await server.stop();
  removeDataDir(server.dataDir);
  await fx.close();
});

/** Chromium processes below `pid`. */
function browsersUnder(pid: number): number {
  const parent = new Map<number, number>();
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue;
    try { const stat = readFileSync(`/proc/${n}/stat`, 'utf8'); parent.set(Number(n), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])); } catch { /* gone */ }
  }
  let count = 0;
  for (const [p] of parent) {
    let up = parent.get(p);
    while (up !== undefined && up !== pid && up > 1) up = parent.get(up);
    if (up !== pid) continue;
    try { if (/chrom/i.test(readFileSync(`/proc/${p}/cmdline`, 'utf8'))) count++; } catch { /* gone */ }
  }
  return count;
}

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'sightline-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };

test('POST /mcp without a key is 401', async () => {
  const r = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize) });
  assert.equal(r.status, 401);
});

test('tools over HTTP: free listing, one credit per call, private URLs refused, the browser closed when idle', async () => {
  const key = await createKey(server.dataDir, 10);
  const client = await connect(key);
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'snapshot'));
  assert.equal(await balance(server.dataDir, key), 10, 'initialize and tools/list are free');

  const refused = await client.callTool({ name: 'navigate', arguments: { url: `${fx.url}/login.html` } }) as { isError?: boolean; content: { text: string }[] };
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text, /^navigation refused: .*(loopback|private|127\.0\.0\.1)/i);
  assert.equal(await balance(server.dataDir, key), 9);

  const snap = await client.callTool({ name: 'snapshot', arguments: {} }) as { isError?: boolean; content: { text: string }[] };
  assert.ok(!snap.isError, snap.content[0]?.text);
  assert.match(snap.content[0].text, /^# about:blank scroll=0/);
  assert.equal(await balance(server.dataDir, key), 8);
  assert.ok(browsersUnder(server.proc.pid!) > 0, 'the session has its browser');

  // Another key cannot use this session.
  const other = await createKey(server.dataDir, 5);
  const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
  const stolen = await fetch(`${server.url}/mcp`, {
    method: 'POST', headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'snapshot', arguments: {} } }),
  });
  assert.equal(stolen.status, 404);
  assert.equal(await balance(server.dataDir, other), 5);

  // Idle for longer than --mcp-idle-s 2: the session and its browser are gone.
  const deadline = Date.now() + 8000;
  while (browsersUnder(server.proc.pid!) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.equal(browsersUnder(server.proc.pid!), 0, 'no browser after the idle timeout');
  await assert.rejects(client.callTool({ name: 'snapshot', arguments: {} }), /404|Unknown or expired MCP session/);
  assert.equal(await balance(server.dataDir, key), 8, 'a call to an expired session costs nothing');
  await client.close().catch(() => undefined);
});

test('at most --mcp-sessions sessions are open at once: an initialize beyond is 503 busy and free, even when they race; ending one makes room', async () => {
  // Five keys, so the per-key bound (--mcp-sessions-per-key, mcp-fair.test.ts) is not what refuses.
  const keys = await Promise.all(Array.from({ length: 5 }, () => createKey(server.dataDir, 10)));
  const key = keys[0];
  const headersOf = (k: string) => ({ authorization: `Bearer ${k}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  const init = (k = key) => fetch(`${server.url}/mcp`, { method: 'POST', headers: headersOf(k), body: JSON.stringify(initialize) });
  const answers = await Promise.all(keys.map((k) => init(k)));
  const opened = answers.filter((r) => r.status === 200);
  assert.equal(opened.length, 2, answers.map((r) => r.status).join(','));
  for (const r of answers.filter((a) => a.status !== 200)) {
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('retry-after'), '1');
    const body = await r.json();
    assert.equal(body.error_code, 'busy');
    assert.match(body.error, /--mcp-sessions/);
  }
  const owners = keys.filter((_, i) => answers[i].status === 200);
  const ids = opened.map((r) => r.headers.get('mcp-session-id')!);
  await Promise.all(opened.map((r) => r.text()));
  const ended = await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: { ...headersOf(owners[0]), 'mcp-session-id': ids[0], 'mcp-protocol-version': '2025-03-26' } });
  assert.equal(ended.status, 200);
  const again = await init();
  assert.equal(again.status, 200, await again.text());
  for (const k of keys) assert.equal(await balance(server.dataDir, k), 10, 'initialize, refused or not, is free');
  for (const [k, id] of [[owners[1], ids[1]], [key, again.headers.get('mcp-session-id')!]]) {
    await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: { ...headersOf(k), 'mcp-session-id': id, 'mcp-protocol-version': '2025-03-26' } });
  }
});

test('a tools/call the transport refuses (no session yet, not a JSON-RPC message, params that are no tool call) costs nothing; a tool error is charged', async () => {
  const key = await createKey(server.dataDir, 10);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const call = (params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params });
  const early = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: call({ name: 'snapshot', arguments: {} }) });
  assert.equal(early.status, 400, await early.text());
  const opened = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
  assert.equal(opened.status, 200);
  await opened.text();
  const session = { ...headers, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-03-26' };
  const malformed = await fetch(`${server.url}/mcp`, { method: 'POST', headers: session, body: call('not an object') });
  assert.equal(malformed.status, 400, await malformed.text());
  // Params that are no tool call: a JSON-RPC error in a 200 answer, and no tool ran either.
  for (const params of [{}, { arguments: {} }]) {
    const invalid = await fetch(`${server.url}/mcp`, { method: 'POST', headers: session, body: call(params) });
    assert.equal(invalid.status, 200);
    assert.ok((await invalid.json()).error, 'a JSON-RPC error');
  }
  assert.equal(await balance(server.dataDir, key), 10, 'no tool ran');
  // A tool that runs and reports an error is charged (docs/mcp.md): the browser did the work.
  const ran = await fetch(`${server.url}/mcp`, { method: 'POST', headers: session, body: call({ name: 'navigate', arguments: { url: 'http://10.0.0.1/' } }) });
  assert.equal((await ran.json()).result.isError, true);
  assert.equal(await balance(server.dataDir, key), 9);
  await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: session });
});
