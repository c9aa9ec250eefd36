// A page on this machine: the guard's 403 says how the server's operator opens it, and the README's
// "Try it on a local page" works as written: `--egress-allow 127.0.0.1/32`, then its request body.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, createKey, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';

let closed: ServerProcess;
let open: ServerProcess;
let fx: FixtureServer;
let closedKey: string;
let openKey: string;

before(async () => {
  [closed, open, fx] = await Promise.all([startServer(), startServer(['--egress-allow', '127.0.0.1/32']), serveFixtures()]);
  [closedKey, openKey] = await Promise.all([createKey(closed.dataDir, 10), createKey(open.dataDir, 10)]);
});
after(async () => {
  await Promise.all([closed.stop(), open.stop(), fx.close()]);
  removeDataDir(closed.dataDir);
  removeDataDir(open.dataDir);
});

test('a loopback page is 403 blocked_url naming --egress-allow with its address, free', async () => {
  for (const [url, says] of [
    [`${fx.url}/article.html`, /^127\.0\.0\.1 is a loopback address: not reachable through this service \(the server's operator can open it with `sightline serve --egress-allow 127\.0\.0\.1\/32` or SIGHTLINE_EGRESS_ALLOW=127\.0\.0\.1\/32\)$/],
    [`http://[::1]:${new URL(fx.url).port}/`, /--egress-allow ::1\/128`/],
    [`http://10.1.2.3/`, /^10\.1\.2\.3 is a private address: .*--egress-allow 10\.1\.2\.3\/32/],
  ] as const) {
    const r = await observe(closed, closedKey, { url, mode: 'map' });
    assert.equal(r.status, 403, JSON.stringify(r.body));
    assert.equal(r.body.error, 'blocked_url');
    assert.match(r.body.message, says);
    assert.equal(r.body.credits_remaining, 10, 'nothing charged');
  }
});

test('the README\'s "Try it on a local page": with --egress-allow 127.0.0.1/32 its request answers', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### Try it on a local page'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  assert.match(block, /sightline serve --dev-key --egress-allow 127\.0\.0\.1\/32/);
  const body = JSON.parse(/-d '(\{.*\})'/.exec(block)![1]);
  assert.equal(body.url, 'http://127.0.0.1:8080/');
  const r = await observe(open, openKey, { ...body, url: `${fx.url}/login.html` });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.match(r.body.text, /^\d+ textbox( \w+)*: Email$/m);
});
