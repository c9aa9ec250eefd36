// The browser loader fetches the one rank.wasm and the goal-embedding table over HTTP (as a page or an
// extension would from chrome.runtime.getURL) and ranks exactly like the Node loader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadWasmCoreFrom, loadEmbedTableFrom } from '../src/rank/load-browser.ts';
import { EMBED_PATH } from '../src/rank/embed-node.ts';
import { embedTable, useEmbedTable } from '../src/rank/embed-table.ts';
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

test('loadEmbedTableFrom(url) fetches the goal-embedding table, and a goal ranks like the Node loader', async (t) => {
  const bytes = readFileSync(EMBED_PATH);
  const server = createServer((req, res) => {
    if (req.url === '/goal-embed.bin') { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(bytes); }
    else if (req.url === '/rank.wasm') { res.writeHead(200, { 'content-type': 'application/wasm' }); res.end(readFileSync(WASM_PATH)); }
    else { res.writeHead(404); res.end(); }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const shipped = embedTable();
  t.after(() => { useEmbedTable(shipped); server.close(); });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const page = request([
    el({ tag: 'a', text: 'Buy tickets', attributes: { href: '/box-office' }, rect: [0, 0, 120, 30] }),
    el({ tag: 'a', text: 'Privacy policy', attributes: { href: '/legal/privacy' }, rect: [0, 40, 120, 30] }),
    el({ tag: 'button', text: 'Sign in', rect: [0, 80, 120, 30] }),
  ], { goal: 'purchase admission to the show' });
  const expected = stable(wasm.rank(page));
  await loadEmbedTableFrom(`${base}/goal-embed.bin`);
  assert.notEqual(embedTable(), shipped, 'the fetched table is the one in use');
  const ranker = new Ranker(await loadWasmCoreFrom(`${base}/rank.wasm`));
  // Twice: the first request loads the table into the new core, the second finds it there.
  assert.deepEqual(stable(ranker.rank(page)), expected);
  assert.deepEqual(stable(ranker.rank(page)), expected);
  assert.deepEqual(stable(wasm.rank(page)), expected, 'a core that held the Node copy takes the fetched one');
  assert.equal(expected.elements[0].text, 'Buy tickets');

  await assert.rejects(loadEmbedTableFrom(`${base}/missing.bin`), /could not load the goal-embedding table .* HTTP 404/);
});
