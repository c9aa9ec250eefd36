// The programs in examples/ run as written: the agent loop signs in on the fixture login page, curl.sh
// gets answers from a real server, and the extension example ranks a tab in the built extension (the MCP
// client configs are started from another folder in mcp-config.test.ts).
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

test('examples/agent-loop.ts picks by goal and signs in on the login page', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/agent-loop.ts', `${fx.url}/login.html`], { cwd: ROOT, timeout: 60_000 });
  assert.match(stdout, /^= typed into \d+ textbox: Email$/m);
  assert.match(stdout, /^= typed into \d+ textbox: Password$/m);
  assert.match(stdout, /^= clicked \d+ button: Sign in$/m);
  assert.match(stdout, /^# "Sign in — Acme" http:\/\/127\.0\.0\.1:\d+\/login\.html scroll=0$/m);
  assert.match(stdout, /\ndone: signed in\n/);
});

test('examples/curl.sh ranks with /v1/snapshot, reads with /v1/observe and opens an MCP session', async () => {
  let server: ServerProcess | undefined;
  try {
    server = await startServer(['--egress-allow', '127.0.0.1/32']);
    const key = await createKey(server.dataDir, 10);
    const { stdout } = await run('sh', ['examples/curl.sh'], {
      cwd: ROOT, timeout: 60_000,
      env: { ...process.env, SIGHTLINE_URL: server.url, SIGHTLINE_KEY: key, SIGHTLINE_PAGE: `${fx.url}/article.html` },
    });
    const [ranked, read, mcp] = stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(ranked.status, 'success', JSON.stringify(ranked));
    assert.match(ranked.text, /^# https:\/\/shop\.example\/ scroll=0\n1 searchbox( list)?: Search\n2 button: Search\n3 link: Deals$/);
    assert.equal(read.status, 'success', JSON.stringify(read));
    assert.ok(read.content.length > 100);
    assert.equal(mcp.result.serverInfo.name, 'sightline', JSON.stringify(mcp));
  } finally {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  }
});

test('examples/extension.ts ranks a tab in the extension\'s own service worker, for a goal', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/extension.ts', `${fx.url}/search.html`, 'open the second result'], { cwd: ROOT, timeout: 90_000 });
  assert.match(stdout, /^\d+ elements for "open the second result", best first:$/m);
  assert.match(stdout, /^1\. link NC700 noise-cancelling wireless headphones$/m);
});
