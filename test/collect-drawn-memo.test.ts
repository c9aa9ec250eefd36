// Issue 43, speed with the same output: each element's drawn text is read once per collection (text.ts,
// DrawnTexts) and reused as a listed element's own text, as the text before its next sibling and as its
// children's parent text, cut to the shorter nearby length from the longer one. The reuse must give what a
// fresh read gives: a button whose name leaves out an aria-hidden icon's words still shows them as the text
// before its next sibling (drawn, not named), and long texts are cut as a fresh read cuts them. Real Chromium
// on a page served from localhost; the expected strings come from the page's own textContent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { serveHtmlInChromium, type ServedPage } from './helpers/fixtures.ts';
import { collectPage } from '../src/playwright/collect-page.ts';

const PAGE = `<!doctype html><html><body>
<div><button id="b1">Add <svg aria-hidden="true" width="10" height="10"><title>cart icon</title></svg>to cart</button><a id="l1" href="#a">Next link</a></div>
<div><a id="l2" href="#1">First</a><a id="l3" href="#2">Second</a></div>
<div><span id="s1">${'word '.repeat(80)}</span><a id="l4" href="#3">After a long span</a></div>
<div><p id="p1">${'lorem ipsum '.repeat(60)}<a id="l5" href="#4">Inside long</a></p></div>
</body></html>`;

let site: ServedPage;
let page: Page;

before(async () => { site = await serveHtmlInChromium(PAGE); page = site.page; });
after(() => site.close());

test('nearby text read from the kept drawn texts is what a fresh read gives', async () => {
  await page.goto(`${site.site}/drawn.html`);
  const c = await collectPage(page);
  // A string: the TypeScript loader's helpers do not exist in the page.
  const cut = await page.evaluate(`(() => {
    const clean = (t, max) => { const s = t.replace(/\\s+/g, ' ').trim(); return s.length > max ? s.slice(0, max - 1) + '…' : s; };
    const text = (id) => document.getElementById(id).textContent;
    return { b1: clean(text('b1'), 100), l2: clean(text('l2'), 100), s1: clean(text('s1'), 100), p1: clean(text('p1'), 300).slice(0, 99) + '…' };
  })()`) as Record<'b1' | 'l2' | 's1' | 'p1', string>;
  const byText = (t: string) => c.raw_elements.find((e) => e.text === t);
  assert.equal(byText('Add to cart')?.attributes.name ?? '', '', 'the button\'s text leaves the icon out');
  assert.equal(cut.b1, 'Add cart iconto cart');
  assert.equal(byText('Next link')?.attributes.nearby_text, cut.b1, 'the sibling before is read drawn, icon words kept');
  assert.equal(byText('Second')?.attributes.nearby_text, cut.l2);
  assert.equal(byText('After a long span')?.attributes.nearby_text, cut.s1);
  assert.equal(cut.s1.length, 100);
  assert.equal(byText('Inside long')?.attributes.nearby_text, cut.p1);
});
