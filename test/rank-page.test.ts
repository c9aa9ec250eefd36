// build/rank-page.js, the rank core as one page script (src/client/in-page.ts; the Python helpers inject it):
// in Chromium it ranks a collection exactly as the library does in Node, and a page whose CSP refuses
// Wasm refuses it (the Python helpers then rank in a blank page).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { launch } from './helpers/browser.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { collectPage, rankCollected } from '../src/client/index.ts';
import type { RankPageGlobal } from '../src/client/in-page.ts';
import type { CollectResult } from '../src/collect/types.ts';
import type { RankResult } from '../src/schema/snapshot.ts';

const BUNDLE = readFileSync(new URL('../build/rank-page.js', import.meta.url), 'utf8');
/** The goal-embedding table, as the Python helpers pass it (base64, once per window). */
const TABLE = readFileSync(new URL('../src/rank/goal-embed.bin', import.meta.url)).toString('base64');
type Host = { __sightlineRank: RankPageGlobal };

let fx: FixtureServer;
let browser: Browser;
before(async () => { [fx, browser] = await Promise.all([serveFixtures(), launch()]); });
after(async () => { await browser.close(); await fx.close(); });

async function rankInPage(page: Page, collected: CollectResult, options: object): Promise<RankResult> {
  await page.evaluate(BUNDLE);
  if (!await page.evaluate(() => (window as unknown as Host).__sightlineRank.hasTable())) {
    await page.evaluate((b64) => (window as unknown as Host).__sightlineRank.useTable(b64), TABLE);
  }
  const text = await page.evaluate(([u, c, o]) => (window as unknown as { __sightlineRank: RankPageGlobal }).__sightlineRank.rank(u, c, o),
    [page.url(), JSON.stringify(collected), JSON.stringify(options)] as const);
  return JSON.parse(text) as RankResult;
}

test('the page script ranks a collection as the library does in Node, with and without a goal', async () => {
  const page = await browser.newPage();
  for (const [name, goal] of [['shop', 'add the headphones to the cart'], ['login', 'sign in'], ['frames', 'pay'], ['news-header', undefined]] as const) {
    await page.goto(`${fx.url}/${name}.html`);
    const collected = await collectPage(page);
    const options = { goal, limit: 20 };
    const [inPage, inNode] = [await rankInPage(page, collected, options), await rankCollected(page, collected, options)];
    assert.ok(inNode.elements.length > 0, name);
    assert.deepEqual(inPage.elements, inNode.elements, name);
    assert.deepEqual(inPage.ml_rerank, inNode.ml_rerank, name);
    assert.deepEqual({ ...inPage, timestamp: '' }, { ...inNode, timestamp: '' }, name);
  }
  await page.close();
});

test('a page whose Content-Security-Policy refuses Wasm refuses the rank, and says so', async () => {
  const server: Server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "script-src 'self'" });
    res.end('<!doctype html><button>Go</button>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    const collected = await collectPage(page);
    await assert.rejects(rankInPage(page, collected, {}), /Content Security Policy/);
  } finally {
    await page.close();
    server.close();
  }
});
