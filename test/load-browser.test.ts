// The browser loader fetches the one rank.wasm over HTTP (as a page or an extension would from
// chrome.runtime.getURL) and ranks exactly like the Node loader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadWasmCoreFrom } from '../src/rank/load-browser.ts';
import { WASM_PATH } from '../src/rank/load-node.ts';
import { Ranker } from '../src/rank/ranker.ts';
import { wasm, el, request, stable } from './helpers/elements.ts';

test('loadWasmCoreFrom(url) streams the module from a server and ranks like the Node loader', async (t) => {
  const bytes = readFileSync(WASM_PATH);
  const server = createServer((req, res) => {
    if (req.url === '/rank.wasm') { res.writeHead(200, { 'content-type': 'application/wasm' }); res.end(bytes); }
    else { res.writeHead(404); res.end(); }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const ranker = new Ranker(await loadWasmCoreFrom(`${base}/rank.wasm`));
  assert.equal(ranker.core.kind, 'wasm');
  const page = request([el({ tag: 'button', text: 'Go' }), el({ tag: 'a', attributes: { href: '/a' }, rect: [0, 40, 80, 20] })]);
  assert.deepEqual(stable(ranker.rank(page)), stable(wasm.rank(page)));

  await assert.rejects(loadWasmCoreFrom(`${base}/missing.wasm`), /could not load the rank core .* HTTP 404/);
});
