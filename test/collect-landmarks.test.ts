// Issue 43, speed with the same output: short leaf text inside a landmark is listed as context, found by a
// lookup that remembers each element met on the way up (candidates.ts inLandmark) where `closest` walked
// every ancestor again for each leaf. Its answers must be closest's: the cache must not carry a landmark's
// "yes" to the elements beside it, nor stop at a shadow root's boundary any differently. Real Chromium on a
// page served from localhost, checked against the page's own `closest` for every leaf.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { serveHtmlInChromium, type ServedPage } from './helpers/fixtures.ts';
import { collectPage } from '../src/playwright/collect-page.ts';

// Leaves in and out of landmarks, in an order where an answer cached for one would be wrong for the next.
const PAGE = `<!doctype html><html><body>
<nav><div><span>Home</span></div><ul><li><span>About</span></li></ul></nav>
<div><span>Outside one</span></div>
<footer><p><span>Footer text</span></p></footer>
<div role="navigation"><span>Role nav</span></div>
<div><div><span>Outside two</span></div></div>
<nav><div id="host"></div></nav>
<div id="host2"></div>
<aside><header><em>Nested</em></header></aside>
<p><span>Outside three</span></p>
<script>
  document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<span>In shadow under a nav</span>';
  document.getElementById('host2').attachShadow({ mode: 'open' }).innerHTML = '<nav><span>Nav in shadow</span></nav><span>Beside it</span>';
</script>
</body></html>`;

let site: ServedPage;
let page: Page;

before(async () => { site = await serveHtmlInChromium(PAGE); page = site.page; });
after(() => site.close());

test('short leaf text is context exactly where closest() finds a landmark, shadow trees included', async () => {
  await page.goto(`${site.site}/landmarks.html`);
  const listed = new Set((await collectPage(page)).raw_elements.map((e) => e.text));
  // Chromium's own answer for every leaf, in the document and in both shadow trees.
  const truth = await page.evaluate(() => {
    const sel = 'nav, header, footer, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary]';
    const roots: ParentNode[] = [document.body, document.getElementById('host')!.shadowRoot!, document.getElementById('host2')!.shadowRoot!];
    return roots.flatMap((r) => [...r.querySelectorAll('span, em')]).map((e) => [e.textContent!, e.closest(sel) !== null] as const);
  });
  assert.equal(truth.length, 11);
  assert.deepEqual(truth.filter(([, inside]) => inside).map(([t]) => t).sort(), ['About', 'Footer text', 'Home', 'Nav in shadow', 'Nested', 'Role nav']);
  for (const [text, inside] of truth) assert.equal(listed.has(text), inside, `${text}: listed as context ${inside ? '' : 'only '}inside a landmark`);
});
