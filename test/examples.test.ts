// The programs in examples/ run as they are, with no argument, each serving or starting what it needs:
// the agent loop signs in on the fixture login page, curl.sh starts a server and gets answers from it,
// and the extension example ranks a tab in the built extension (the MCP client configs are started from
// another folder in mcp-config.test.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { startServer, createKey, removeDataDir, type ServerProcess } from './helpers/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
let fx: FixtureServer;

before(async () => { fx = await serveFixtures(); });
after(async () => { await fx.close(); });

test('examples/agent-loop.ts, run as it is, serves the fixture pages, picks by goal and signs in', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/agent-loop.ts'], { cwd: ROOT, timeout: 60_000 });
  assert.match(stdout, /^= typed into \d+ textbox: Email$/m);
  assert.match(stdout, /^= typed into \d+ textbox: Password$/m);
  assert.match(stdout, /^= clicked \d+ button: Sign in$/m);
  assert.match(stdout, /^# "Sign in — Acme" http:\/\/127\.0\.0\.1:\d+\/login\.html scroll=0$/m);
  assert.match(stdout, /\ndone: signed in\n/);
});

/** curl.sh's output: snapshot, observe and initialize answers, the session header, tools/list, DELETE. */
function curlOutput(stdout: string) {
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 6, stdout.slice(0, 2000));
  const [ranked, read, mcp] = lines.slice(0, 3).map((l) => JSON.parse(l));
  const session = /^Mcp-Session-Id: ([0-9a-f-]{36})$/.exec(lines[3])?.[1];
  assert.ok(session, `the session header is printed: ${lines[3]}`);
  const tools = JSON.parse(lines[4]);
  assert.equal(lines[5], 'DELETE /mcp: 200');
  assert.equal(ranked.status, 'success', JSON.stringify(ranked));
  assert.match(ranked.text, /^# https:\/\/shop\.example\/ scroll=0\n1 searchbox( list)?: Search\n2 button: Search\n3 link: Deals$/);
  assert.equal(read.status, 'success', JSON.stringify(read));
  assert.equal(mcp.result.serverInfo.name, 'sightline', JSON.stringify(mcp));
  assert.ok(tools.result.tools.some((t: { name: string }) => t.name === 'navigate'), 'tools/list answered in the session');
  return { read };
}

test('examples/curl.sh, run as it is, starts its own server and key, reads its page, and prints the MCP session header', async () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SIGHTLINE_')));
  const { stdout, stderr } = await run('sh', ['examples/curl.sh'], { cwd: ROOT, timeout: 90_000, env });
  assert.match(stderr, /^# started http:\/\/127\.0\.0\.1:\d+ with a development key$/m);
  const { read } = curlOutput(stdout);
  assert.match(read.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('examples/curl.sh against a given server, key and page', async () => {
  let server: ServerProcess | undefined;
  try {
    server = await startServer(['--egress-allow', '127.0.0.1/32']);
    const key = await createKey(server.dataDir, 10);
    const { stdout } = await run('sh', ['examples/curl.sh'], {
      cwd: ROOT, timeout: 60_000,
      env: { ...process.env, SIGHTLINE_URL: server.url, SIGHTLINE_KEY: key, SIGHTLINE_PAGE: `${fx.url}/article.html` },
    });
    const { read } = curlOutput(stdout);
    assert.ok(read.content.length > 100);
    assert.ok(read.token_count > 0 && read.token_count <= 300, `${read.token_count} tokens`);
    assert.equal(read.cached, false);
  } finally {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  }
});

test('examples/extension.ts, run as it is, serves the fixture pages and ranks a tab in the extension\'s own service worker, for a goal', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/extension.ts'], { cwd: ROOT, timeout: 90_000 });
  assert.match(stdout, /^\d+ elements for "open the second result", best first:$/m);
  assert.match(stdout, /^1\. link NC700 noise-cancelling wireless headphones$/m);
});
