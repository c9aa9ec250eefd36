// The collection's in-process wire (src/collect/wire.ts): in real Chromium on every fixture page, every
// frame, the decoded wire of a collection is byte for byte the JSON of that collection (values and key
// order); collectPage carries it, with the title from the same round trip, and replaces a collector from
// before the wire form.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launch } from './helpers/browser.ts';
import { serveFixtures, FIXTURES, type FixtureServer } from './helpers/fixtures.ts';
import { collectPage, collectPageTitled, waitForStable } from '../src/playwright/collect-page.ts';
import { collectorSource } from '../src/playwright/collector-source.ts';
import { resultToWire, wireToResult } from '../src/collect/wire.ts';
import type { CollectResult } from '../src/collect/types.ts';

let fx: FixtureServer;
let browser: Browser;
let page: Page;
/** The encoder as a page script (the collector bundles the same module). */
let encoder: string;

before(async () => {
  [fx, browser] = await Promise.all([serveFixtures(), launch()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const out = await build({
    stdin: { contents: "import { resultToWire } from './src/collect/wire.ts';\n(window as any).__wireEncode = resultToWire;\n", resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'ts' },
    bundle: true, format: 'iife', platform: 'browser', target: 'chrome110', write: false, logLevel: 'warning',
  });
  encoder = out.outputFiles[0].text;
});
after(async () => {
  await browser.close();
  await fx.close();
});

/** One collection of a frame, as JSON and as the wire form of the same result object. */
const BOTH = '(() => { const r = window.__sightline.collect(); return [JSON.stringify(r), window.__wireEncode(r)]; })()';

test('the wire decodes to the collection itself on every fixture page, in every frame', async () => {
  const pages = readdirSync(FIXTURES).filter((f) => f.endsWith('.html')).sort();
  let frames = 0, elements = 0, smaller = 0;
  for (const file of pages) {
    await page.goto(`${fx.url}/${file}`, { waitUntil: 'load', timeout: 15_000 }).catch(() => undefined);
    await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
    for (const frame of page.frames()) {
      const pair = await frame.evaluate(`${collectorSource()};${encoder};${BOTH}`).catch(() => null) as [string, string] | null;
      if (!pair) continue; // a frame that went away (nested-frames.html reloads its ad)
      const [json, wire] = pair;
      assert.equal(JSON.stringify(wireToResult(wire)), json, `${file} ${frame.url()}`);
      assert.ok(wire.startsWith('['), `${file}: sent in the wire form, not the JSON fallback`);
      frames++;
      elements += (JSON.parse(json) as CollectResult).raw_elements.length;
      if (wire.length < json.length / 2) smaller++;
    }
  }
  assert.ok(frames >= pages.length, `${frames} frames collected`);
  assert.ok(elements > 1000, `${elements} elements compared`);
  // Not a size test: a page of a few elements is mostly header; the pages with content shrink by half or more.
  assert.ok(smaller >= pages.length / 2, `${smaller} of ${frames} frames at most half the JSON's size`);
});

test('a collection whose derived numbers cannot be derived again crosses as plain JSON, unchanged', async () => {
  await page.goto(`${fx.url}/shop.html`);
  await waitForStable(page, { quietMs: 100 });
  const result = await page.evaluate(() => window.__sightline!.collect());
  assert.ok(result.raw_elements.length > 2);
  // A box Chromium reports as NaN (JSON writes null): the centre cannot be computed again from it.
  const odd: CollectResult = { ...result, raw_elements: result.raw_elements.map((e, i) => (i === 1 ? { ...e, rect: { ...e.rect, x: Number.NaN }, center_x: Number.NaN } : e)) };
  const wire = resultToWire(odd);
  assert.ok(wire.startsWith('{'));
  assert.equal(JSON.stringify(wireToResult(wire)), JSON.stringify(odd));
  // And a decoder never reads a layout it does not know.
  assert.throws(() => wireToResult(JSON.stringify([999, {}, [], 0, []])), /wire 999/);
});

test('collectPageTitled: the same elements as collectPage, the title page.title() gives', async () => {
  for (const file of ['shop.html', 'frames.html', 'login.html']) {
    await page.goto(`${fx.url}/${file}`);
    await waitForStable(page, { quietMs: 100 });
    const plain = await collectPage(page);
    const { collected, title } = await collectPageTitled(page);
    assert.equal(title, await page.title());
    assert.ok(title.length > 0, file);
    const strip = (r: CollectResult) => JSON.stringify(r.raw_elements);
    assert.equal(strip(collected), strip(plain), file);
  }
});

test('a collector from before the wire form is replaced, not failed on', async () => {
  await page.goto(`${fx.url}/login.html`);
  await waitForStable(page, { quietMs: 100 });
  // An older build left in the page (an earlier version of the library): it has collect() but no wire().
  await page.evaluate(() => { const w = window as unknown as { __sightline: { version: number; wire?: unknown } }; w.__sightline = { ...w.__sightline, version: 6 }; delete w.__sightline.wire; });
  const { collected } = await collectPageTitled(page);
  assert.ok(collected.raw_elements.some((e) => e.tag === 'input'));
  assert.equal(await page.evaluate(() => typeof window.__sightline!.wire), 'function');
});
