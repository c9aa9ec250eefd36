// Issue 20, eighth round: what a person sees in the first screen stays in the goal-less top 50 (WCXB
// remaining misses, docs/ranking.md). Real Chromium on localhost fixture pages, collected by our collector
// and ranked by the Wasm core through the real HTTP server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launch } from './helpers/browser.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { startServer, createKey, removeDataDir, type ServerProcess } from './helpers/server.ts';
import { snapshot, waitForStable, SightlineApi } from '../src/client/index.ts';

let fx: FixtureServer;
let browser: Browser;
let page: Page;
let server: ServerProcess;
let api: SightlineApi;

before(async () => {
  [fx, browser, server] = await Promise.all([serveFixtures(), launch(), startServer(['--rate-limit', '1000', '--rate-burst', '1000'])]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  api = new SightlineApi({ baseUrl: server.url, apiKey: await createKey(server.dataDir, 100) });
});
after(async () => {
  await browser.close();
  await fx.close();
  await server.stop();
  removeDataDir(server.dataDir);
});

test('a card title under its card\'s transparent link overlay stays in the top 50, above unnamed swatches', async () => {
  await page.goto(`${fx.url}/cards.html`);
  await waitForStable(page, { quietMs: 100 });
  const r = await snapshot(page, { limit: 50, api });
  const titles = r.elements.filter((e) => /^Runner \d road shoe$/.test(e.text ?? ''));
  assert.equal(titles.length, 8, `card titles in the top 50: ${titles.length} of 8`);
  assert.ok(titles.every((e) => e.is_occluded && e.in_viewport), 'the titles are in the viewport and occluded by the overlays');
  const swatches = r.elements.filter((e) => e.role === 'link' && !(e.text ?? '').trim() && !e.name && e.in_viewport);
  assert.ok(swatches.length > 0, 'unnamed swatch links are ranked too');
  const lastTitle = Math.max(...titles.map((e) => r.elements.indexOf(e)));
  const firstSwatch = Math.min(...swatches.map((e) => r.elements.indexOf(e)));
  assert.ok(lastTitle < firstSwatch, `every title (last at ${lastTitle + 1}) above every unnamed swatch (first at ${firstSwatch + 1})`);
});
