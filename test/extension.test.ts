// The MV3 extension loaded into real Chromium: its popup ranks a fixture tab with the Wasm core in the
// service worker, and the list matches what the client library ranks for the same page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Worker } from 'playwright-core';
import { launchWithExtension } from './helpers/browser.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { snapshot, waitForStable } from '../src/client/index.ts';

const EXTENSION = fileURLToPath(new URL('../build/extension/', import.meta.url));
let fx: FixtureServer;
let context: BrowserContext;
let worker: Worker;

before(async () => {
  fx = await serveFixtures();
  context = await launchWithExtension(EXTENSION);
  worker = context.serviceWorkers()[0] ?? await context.waitForEvent('serviceworker');
});
after(async () => {
  await context.close();
  await fx.close();
});

async function popupFor(url: string) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(url);
  await waitForStable(page, { quietMs: 100 });
  const tabId = await worker.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
  assert.ok(tabId, 'the fixture tab is visible to the extension');
  const extensionId = new URL(worker.url()).host;
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${tabId}`);
  await popup.waitForSelector('body[data-state]', { timeout: 15_000 });
  return { page, popup };
}

const listed = (popup: import('playwright-core').Page) => popup.$$eval('#elements li', (items) =>
  items.map((li) => ({ role: (li as HTMLElement).dataset.role!, text: li.querySelector('.text')!.textContent!, importance: Number(li.querySelector('.imp')!.textContent), score: li.querySelector('.imp')!.textContent! })));

test('the popup lists the ranked elements of the search page, as the client library ranks them', async () => {
  const { page, popup } = await popupFor(`${fx.url}/search.html`);
  assert.equal(await popup.getAttribute('body', 'data-state'), 'ranked', await popup.textContent('#status') ?? '');
  const items = await listed(popup);
  assert.ok(items.length > 10);
  assert.equal(items[0].role, 'searchbox');
  const local = await snapshot(page, { limit: 25 });
  assert.deepEqual(items.map((i) => `${i.role}|${i.importance}`), local.elements.map((e) => `${e.role}|${e.importance}`));
  await popup.click('#highlight');
  await page.waitForSelector('#__sightline_highlight', { state: 'attached' });
  assert.equal(await page.locator('#__sightline_highlight > div').count(), items.length);
  await popup.click('#clear');
  await page.waitForSelector('#__sightline_highlight', { state: 'detached' });
});

test('a goal in the popup reranks in the service worker\'s core, as the client library does', async () => {
  const { page, popup } = await popupFor(`${fx.url}/search.html`);
  await popup.fill('#goal', 'open the second result');
  await popup.evaluate(() => document.body.removeAttribute('data-state'));
  await popup.click('#rank');
  await popup.waitForSelector('body[data-state="ranked"]');
  const items = await listed(popup);
  const local = await snapshot(page, { limit: 25, goal: 'open the second result' });
  assert.equal(local.ml_rerank!.applied, true);
  assert.deepEqual(items.map((i) => `${i.role}|${i.text}`), local.elements.map((e) => `${e.role}|${e.text || e.name || ''}`));
  assert.equal(items[0].text, 'NC700 noise-cancelling wireless headphones');
  // The score shown is the one the list is sorted by: P(goal), never increasing down the list.
  assert.equal(await popup.textContent('#score-label'), 'P(goal)');
  assert.deepEqual(items.map((i) => i.score), local.elements.map((e) => `${Math.round(e.ml_probability! * 100)}%`));
  const shown = items.map((i) => parseFloat(i.score));
  for (let k = 1; k < shown.length; k++) assert.ok(shown[k] <= shown[k - 1], `${items[k].text} (${shown[k]}%) below ${items[k - 1].text} (${shown[k - 1]}%)`);
  assert.match(await popup.textContent('#status') ?? '', /goal rerank, by P\(goal\)/);
});

test('the popup sees cross-origin frames and the modal', async () => {
  const frames = await popupFor(`${fx.url}/frames.html`);
  const items = await listed(frames.popup);
  assert.equal(items.filter((i) => i.text === 'City').length, 2, 'the same-origin and the cross-origin frame');
  const shop = await popupFor(`${fx.url}/shop.html`);
  assert.match(await shop.popup.textContent('#status') ?? '', /modal detected/);
});
