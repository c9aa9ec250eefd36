// Issue 43, speed with the same output: the collector does not classify what lies below a display:none element
// (no box there, so nothing is listed), yet headings there still open sections, a display:contents wrapper (no
// box of its own) still has its controls listed, and the captcha text is the body text's first 20,000
// characters as before. Real Chromium on pages served from localhost.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { servePagesInChromium, type ServedPage } from './helpers/fixtures.ts';
import { collectPage } from '../src/playwright/collect-page.ts';

const UNBOXED = `<!doctype html><html><body>
<div id="menu" style="display:none">
  <button>Hidden button</button>
  <div style="display:block"><a href="/a">Hidden link in a block</a></div>
  <div id="host"></div>
</div>
<section>
  <h2 style="display:none">Quiet heading</h2>
  <a href="/b">Shown link</a>
</section>
<div style="display:contents"><button>Button in contents</button></div>
<nav hidden><a href="/c">Hidden nav link</a></nav>
<section><h2>Seven hidden</h2><div style="display:none"><div>${'<h3>h</h3>'.repeat(6)}<p role="heading">p</p></div></div><a href="/d">After seven</a></section>
<section><h2>Eight hidden</h2><div style="display:none"><div>${'<h3>h</h3>'.repeat(7)}<p role="heading">p</p></div></div><a href="/e">After eight</a></section>
<section><h2>Not headings</h2><div style="display:none">${'<p role="Heading">p</p>'.repeat(8)}</div><a href="/f">After look-alikes</a></section>
<script>
  document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<button>Hidden shadow button</button>';
</script>
</body></html>`;

// Filler in many text nodes, a captcha phrase inside the first 20,000 characters and one past them.
const filler = Array.from({ length: 400 }, (_, k) => `<p>paragraph ${k} ${'x'.repeat(80)}</p>`).join('\n');
const CAPTCHA = `<!doctype html><html><body><p>Please <b>verify you</b> are human</p>${filler}<p>unusual traffic</p></body></html>`;

let site: ServedPage;
let page: Page;

before(async () => {
  site = await servePagesInChromium((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/captcha.html' ? CAPTCHA : UNBOXED);
  });
  page = site.page;
});
after(() => site.close());

test('nothing below a display:none element is listed; a heading there still opens its section; display:contents keeps its controls', async () => {
  await page.goto(`${site.site}/unboxed.html`);
  const c = await collectPage(page);
  const texts = c.raw_elements.map((e) => e.text);
  for (const hidden of ['Hidden button', 'Hidden link in a block', 'Hidden shadow button', 'Hidden nav link']) assert.ok(!texts.includes(hidden), `${hidden} is not listed`);
  // Chromium agrees: none of them has a box.
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#menu button, #menu a, nav a')].map((e) => e.checkVisibility())), [false, false, false]);
  const shown = c.raw_elements.find((e) => e.text === 'Shown link');
  assert.equal(shown?.attributes.section, 'Quiet heading', 'the hidden heading opens the section of the link after it');
  assert.ok(texts.includes('Button in contents'), 'a display:contents wrapper has no box, its button has');
  // Headings deep in a hidden subtree open no section for a listed element (their parents hold only hidden
  // things), yet they fill the section lookup's window of eight headings back, as they always did: found by
  // a query now, not walked, and with the role matched exactly.
  const section = (t: string) => c.raw_elements.find((e) => e.text === t)?.attributes.section;
  assert.equal(section('After seven'), 'Seven hidden');
  assert.equal(section('After eight'), undefined, 'eight hidden headings after it: the opening heading is past the window');
  assert.equal(section('After look-alikes'), 'Not headings', 'role="Heading" is no heading');
});

test('captcha text hits come from the body text\'s first 20,000 characters, across text nodes', async () => {
  await page.goto(`${site.site}/captcha.html`);
  const c = await collectPage(page);
  const prefix = await page.evaluate(() => document.body.textContent!.slice(0, 20_000).toLowerCase());
  assert.ok(prefix.includes('verify you are human') && !prefix.includes('unusual traffic'), 'the page puts one phrase inside the limit, one past it');
  assert.deepEqual(c.client_diagnostics.captcha.evidence.text_hits, ['verify you are human']);
});
