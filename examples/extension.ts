// The extension door: our MV3 extension ranks the open tab with the Wasm core inside its own service
// worker (no server, no key). This program loads the built extension into Debian's Chromium, opens a
// page, asks the extension's popup to rank it for a goal, and prints the popup's list. A person does
// the same by clicking the toolbar icon; load it by hand with chrome://extensions → "Load unpacked" →
// build/extension.
//
//   npm run build && node --import tsx examples/extension.ts [URL [GOAL]]
//
// Without a URL it serves the clone's fixture pages (test/fixtures/) on a free localhost port and ranks
// search.html for "open the second result".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveFixtures } from '../test/helpers/fixtures.ts';

const pages = process.argv[2] ? undefined : await serveFixtures();
const [url = `${pages!.url}/search.html`, goal = pages ? 'open the second result' : ''] = process.argv.slice(2);
const extension = fileURLToPath(new URL('../build/extension/', import.meta.url));
const profile = mkdtempSync(join(tmpdir(), 'sightline-extension-example-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', headless: true,
  args: ['--disable-gpu', '--no-first-run', `--disable-extensions-except=${extension}`, `--load-extension=${extension}`],
});
try {
  const worker = context.serviceWorkers()[0] ?? await context.waitForEvent('serviceworker');
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(url, { waitUntil: 'load' });
  // The popup ranks the tab it is told about (the toolbar button passes the active tab).
  const tabId = await worker.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, page.url());
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${new URL(worker.url()).host}/popup.html?tab=${tabId}`);
  await popup.waitForSelector('body[data-state]');
  if (goal) {
    await popup.fill('#goal', goal);
    await popup.evaluate(() => document.body.removeAttribute('data-state'));
    await popup.click('#rank');
    await popup.waitForSelector('body[data-state]');
  }
  if (await popup.getAttribute('body', 'data-state') !== 'ranked') throw new Error(`the popup says: ${await popup.textContent('#status')}`);
  const items = await popup.$$eval('#elements li', (lis) => lis.map((li) => `${(li as HTMLElement).dataset.role} ${li.querySelector('.text')?.textContent ?? ''}`));
  console.log(`${items.length} elements${goal ? ` for "${goal}"` : ''}, best first:`);
  for (const [i, item] of items.slice(0, 10).entries()) console.log(`${i + 1}. ${item}`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  await pages?.close();
}
