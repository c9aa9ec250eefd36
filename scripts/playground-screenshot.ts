// The playground's visual result at 1280×800 (docs/playground-visual.png): the real server and fixture
// pages on loopback, Debian's Chromium. `npm run build` first, then
//   node --import tsx scripts/playground-screenshot.ts [FIXTURE_PAGE] [OUT.png] [FULL_SIZE_OUT.png]
import { chromium } from 'playwright-core';
import { startServer, createKey, removeDataDir } from '../test/helpers/server.ts';
import { serveFixtures } from '../test/helpers/fixtures.ts';
const [server, fx] = await Promise.all([startServer(['--egress-allow', '127.0.0.1/32']), serveFixtures()]);
const key = await createKey(server.dataDir, 100);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--disable-gpu'] });
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.addInitScript((k) => localStorage.setItem('sightline.apiKey', k), key);
  const page = await ctx.newPage();
  await page.goto(server.url + '/');
  await page.getByLabel('URL', { exact: true }).fill(`${fx.url}/${process.argv[2] ?? 'shop.html'}`);
  await page.getByLabel('Mode').selectOption('visual');
  await page.getByLabel('Limit').fill('12');
  await page.getByRole('button', { name: 'Run', exact: true }).first().click();
  await page.locator('#busy').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => (document.querySelector('#stage img') as HTMLImageElement)?.complete);
  await page.locator('#summary').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, (document.querySelector('#summary') as HTMLElement).getBoundingClientRect().top + scrollY - 70));
  await page.screenshot({ path: process.argv[3] ?? 'docs/playground-visual.png' });
  if (process.argv[4]) { await page.click('#stage-size'); await page.screenshot({ path: process.argv[4] }); }
} finally {
  await browser.close(); await server.stop(); await fx.close(); removeDataDir(server.dataDir);
}
