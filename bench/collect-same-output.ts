// The collector's payload before and after a speed change, byte for byte (issue 43): another commit's
// src/collect and this tree's, each bundled with its own id registry (so both number a page from 1), run on
// the same loaded page, one after the other, in every frame; the JSON of each collect() compared with its
// clock fields (collect_ms, client_metrics.quiet_ms) zeroed. Pages: every test/fixtures page and WCXB tune
// pages served offline (bench/wcxb-pages.ts; never the frozen test part). A page whose own scripts change it
// between the two collections is tried again (old, new, old: when the two old ones differ it is unstable,
// reported apart, not as a difference). This tree's side crosses as collectPage carries it: its collection in the
// in-process wire form (src/collect/wire.ts), decoded in Node and written as JSON, so the decoder is compared too.
//   WCXB_DIR=... node --import tsx bench/collect-same-output.ts <commit> [WCXB tune pages, default 50]
import { readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launch } from '../test/helpers/browser.ts';
import { collectorAt } from './old-checkout.ts';
import { serveFixtures, FIXTURES } from '../test/helpers/fixtures.ts';
import { serveRealPages } from './wcxb-pages.ts';
import { wcxbAvailable } from './read/wcxb-eval.ts';
import { wireToResult } from '../src/collect/wire.ts';

const [commit, countArg] = process.argv.slice(2);
if (!commit) throw new Error('usage: node --import tsx bench/collect-same-output.ts <commit> [WCXB tune pages, default 50]');
const count = Number(countArg ?? 50);

const [oldSrc, newSrc] = await Promise.all([collectorAt(commit, '__old', { ownKeys: true }), collectorAt(null, '__new', { ownKeys: true, wire: true })]);

const RUN = (name: string) => `(() => { const r = window.${name}.collect(); r.collect_ms = 0; r.client_metrics.quiet_ms = 0; return ${name === '__new' ? `window.${name}.encode(r)` : 'JSON.stringify(r)'}; })()`;

/** Each frame's payload from one side, in frame order (a frame that cannot be reached gives ''), as JSON. */
async function collectAll(page: Page, name: string): Promise<string[]> {
  const sent = await Promise.all(page.frames().map((f) => f.evaluate(RUN(name)).catch(() => '') as Promise<string>));
  return name === '__new' ? sent.map((s) => (s ? JSON.stringify(wireToResult(s)) : '')) : sent;
}

async function compare(page: Page): Promise<'same' | 'differs' | 'unstable'> {
  await Promise.all(page.frames().map((f) => f.evaluate(`${oldSrc};${newSrc}`).catch(() => undefined)));
  for (let attempt = 0; attempt < 3; attempt++) {
    const a = await collectAll(page, '__old');
    const b = await collectAll(page, '__new');
    if (a.join('\n') === b.join('\n')) return 'same';
    const again = await collectAll(page, '__old');
    if (again.join('\n') === b.join('\n')) return 'same';
    if (again.join('\n') === a.join('\n')) {
      const at = [...a.join('\n')].findIndex((c, i) => c !== b.join('\n')[i]);
      console.log(`  differs at ${at}: old …${a.join('\n').slice(Math.max(0, at - 120), at + 120)}…\n  new …${b.join('\n').slice(Math.max(0, at - 120), at + 120)}…`);
      return 'differs';
    }
  }
  return 'unstable';
}

const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await ctx.newPage();
const tally = { same: 0, differs: 0, unstable: 0 };
const note = (what: string, r: keyof typeof tally) => { tally[r]++; if (r !== 'same') console.log(`${r}: ${what}`); };

const fixtures = await serveFixtures();
for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.html')).sort()) {
  await page.goto(`${fixtures.url}/${file}`, { waitUntil: 'load', timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(100);
  note(file, await compare(page));
}
await fixtures.close();
const fixtureTally = { ...tally };

if (wcxbAvailable() && count > 0) {
  const site = await serveRealPages(count);
  const origin = new URL(site.urls[0].url).origin;
  await ctx.route((url) => !url.href.startsWith(origin) && !url.href.startsWith('data:'), (route) => route.abort());
  for (const { id, url } of site.urls) {
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
    await page.waitForTimeout(200);
    note(`wcxb ${id}`, await compare(page));
  }
  await site.close();
}
await browser.close();
console.log(`old ${commit} vs this tree: fixtures ${fixtureTally.same} same, ${fixtureTally.differs} differ, ${fixtureTally.unstable} unstable; ` +
  `all pages ${tally.same} same, ${tally.differs} differ, ${tally.unstable} unstable`);
process.exit(tally.differs ? 1 : 0);
