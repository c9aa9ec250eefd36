// A fair share of MCP sessions (issue 36): opening one needs a positive balance, one key holds at most
// --mcp-sessions-per-key (default 2) of them, and only a tool call that ran restarts a session's idle
// clock, so free requests (initialize, tools/list, ping) can neither hold every session nor keep one.
// All through POST /mcp on the real server (build/cli.js serve).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, balance, removeDataDir, type ServerProcess } from './helpers/server.ts';

let server: ServerProcess;

before(async () => {
  // Four sessions for the server, the default two per key, and a 3 s idle limit.
  server = await startServer(['--mcp-idle-s', '3', '--mcp-sessions', '4']);
});
after(async () => {
  await server.stop();
  removeDataDir(server.dataDir);
});

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fair', version: '1' } } };
const headersOf = (key: string, session?: string): Record<string, string> => ({
  authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream',
  ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' } : {}),
});

/** An initialize: its status, session id (when opened), Retry-After and body. */
async function open(key: string): Promise<{ status: number; id: string | null; retryAfter: string | null; body: any }> {
  const r = await fetch(`${server.url}/mcp`, { method: 'POST', headers: headersOf(key), body: JSON.stringify(initialize) });
  const body = await r.json();
  return { status: r.status, id: r.headers.get('mcp-session-id'), retryAfter: r.headers.get('retry-after'), body };
}

/** One JSON-RPC message on a session; the HTTP status. */
async function send(key: string, session: string, method: string, params: unknown = {}, id = 2): Promise<number> {
  const r = await fetch(`${server.url}/mcp`, { method: 'POST', headers: headersOf(key, session), body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  await r.text();
  return r.status;
}

const end = (key: string, session: string) => fetch(`${server.url}/mcp`, { method: 'DELETE', headers: headersOf(key, session) }).then((r) => r.text());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a key with no credits opening sessions in a loop gets 402, free, and holds none: another key\'s initialize is always answered', async () => {
  const broke = await createKey(server.dataDir, 0);
  const honest = await createKey(server.dataDir, 5);
  let stop = false;
  const refusals: { status: number; code: string }[] = [];
  // Four at a time, as fast as the server answers, until the honest key is done.
  const abuse = Promise.all(Array.from({ length: 4 }, async () => {
    while (!stop) {
      const r = await open(broke);
      refusals.push({ status: r.status, code: r.body.error_code });
    }
  }));
  const honestAnswers: number[] = [];
  for (let i = 0; i < 8; i++) {
    const r = await open(honest);
    honestAnswers.push(r.status);
    if (r.id) await end(honest, r.id);
  }
  stop = true;
  await abuse;
  assert.deepEqual(honestAnswers, Array(8).fill(200));
  assert.ok(refusals.length >= 8, `the loop ran (${refusals.length} initializes)`);
  assert.deepEqual(new Set(refusals.map((r) => `${r.status} ${r.code}`)), new Set(['402 insufficient_credits']));
  assert.equal(await balance(server.dataDir, broke), 0);
  assert.equal(await balance(server.dataDir, honest), 5, 'initialize is free');
  // The zero-credit key holds none of the four sessions: two other keys open all four.
  const other = await createKey(server.dataDir, 5);
  const held = [...await Promise.all([open(honest), open(honest)]).then((a) => a.map((r) => [honest, r] as const)),
    ...await Promise.all([open(other), open(other)]).then((a) => a.map((r) => [other, r] as const))];
  assert.deepEqual(held.map(([, r]) => r.status), [200, 200, 200, 200]);
  await Promise.all(held.map(([k, r]) => end(k, r.id!)));
});

test('a key at --mcp-sessions-per-key gets 429 with Retry-After, free, while another key opens one; ending one makes room', async () => {
  const greedy = await createKey(server.dataDir, 5);
  const other = await createKey(server.dataDir, 5);
  const first = await Promise.all([open(greedy), open(greedy)]);
  assert.deepEqual(first.map((r) => r.status), [200, 200]);
  // Racing initializes of the same key cannot pass the bound together either.
  const beyond = await Promise.all([open(greedy), open(greedy), open(greedy)]);
  for (const r of beyond) {
    assert.equal(r.status, 429);
    assert.equal(r.body.error_code, 'rate_limited');
    assert.match(r.body.error, /--mcp-sessions-per-key 2/);
    assert.ok(Number(r.retryAfter) >= 1 && Number(r.retryAfter) <= 3, `Retry-After ${r.retryAfter}: when the first session would idle out`);
  }
  const theirs = await open(other);
  assert.equal(theirs.status, 200, 'the server has room for another key');
  assert.equal(await balance(server.dataDir, greedy), 5, 'refused initializes are free');
  await end(greedy, first[0].id!);
  const again = await open(greedy);
  assert.equal(again.status, 200);
  await Promise.all([end(greedy, first[1].id!), end(greedy, again.id!), end(other, theirs.id!)]);
});

test('only a tool call that ran restarts the idle clock: tools/list, pings and refused calls every 400 ms do not keep a session past --mcp-idle-s', async () => {
  const key = await createKey(server.dataDir, 20);
  const [listed, called] = await Promise.all([open(key), open(key)]);
  assert.equal(listed.status, 200);
  assert.equal(called.status, 200);
  const t0 = Date.now();
  const free: { at: number; status: number }[] = [];
  const paid: { at: number; status: number }[] = [];
  while (Date.now() - t0 < 5500) {
    const at = Date.now() - t0;
    const [a, b] = await Promise.all([
      // Free: tools/list, ping, and a tools/call no tool runs for (params that name no tool: a JSON-RPC error).
      send(key, listed.id!, ['tools/list', 'ping', 'tools/call'][free.length % 3]),
      // A tool that runs without a browser: navigate to an address the egress guard refuses (a tool
      // error, charged: the tool ran).
      send(key, called.id!, 'tools/call', { name: 'navigate', arguments: { url: 'http://10.0.0.1/' } }),
    ]);
    free.push({ at, status: a });
    paid.push({ at, status: b });
    await sleep(400);
  }
  // The free requests' session was answered until the idle limit, then closed (404: unknown session).
  assert.ok(free.filter((f) => f.at < 2500).every((f) => f.status === 200), JSON.stringify(free));
  assert.ok(free.filter((f) => f.at > 4000).length >= 2, 'asked after the limit');
  assert.ok(free.filter((f) => f.at > 4000).every((f) => f.status === 404), JSON.stringify(free));
  // The session whose tool calls ran stays open the whole time, each call charged.
  assert.ok(paid.every((p) => p.status === 200), JSON.stringify(paid));
  assert.equal(await balance(server.dataDir, key), 20 - paid.length, 'the refused calls cost nothing');
  await end(key, called.id!);
});
