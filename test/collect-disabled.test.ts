// Issue 43, speed with the same output: describe() asks `:disabled` only of elements it can match (form
// controls, options, fieldsets and form-associated custom elements) instead of every listed element. The
// answers must be the selector's own: a control in a disabled fieldset, a disabled form-associated custom
// element, and nothing for elements `:disabled` never matches (a link or a div with a `disabled` attribute).
// Real Chromium on a page served from localhost, checked against the page's own `matches(':disabled')`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { serveHtmlInChromium, type ServedPage } from './helpers/fixtures.ts';
import { collectPage } from '../src/playwright/collect-page.ts';

const PAGE = `<!doctype html><html><body>
<fieldset disabled><legend>Old</legend><button id="b1">In a disabled fieldset</button><input id="i1" value="field"></fieldset>
<button id="b2" disabled>Disabled button</button>
<button id="b3">Enabled button</button>
<select id="s1" disabled><option>One</option></select>
<x-toggle id="c1" disabled tabindex="0" role="button">Custom disabled</x-toggle>
<x-toggle id="c2" tabindex="0" role="button">Custom enabled</x-toggle>
<a id="a1" href="#x" disabled>Link with the attribute</a>
<div id="d1" disabled onclick="void 0" style="cursor:pointer">Div with the attribute</div>
<script>
  customElements.define('x-toggle', class extends HTMLElement { static formAssociated = true; constructor() { super(); this.attachInternals(); } });
</script>
</body></html>`;

let site: ServedPage;
let page: Page;

before(async () => { site = await serveHtmlInChromium(PAGE); page = site.page; });
after(() => site.close());

test('disabled is what :disabled matches, custom form-associated elements included', async () => {
  await page.goto(`${site.site}/disabled.html`);
  const c = await collectPage(page);
  const truth = await page.evaluate(() => Object.fromEntries(['b1', 'i1', 'b2', 'b3', 's1', 'c1', 'c2', 'a1', 'd1']
    .map((id) => { const e = document.getElementById(id)!; return [(e.textContent || (e as HTMLInputElement).value || '').trim(), e.matches(':disabled')]; })));
  assert.deepEqual(Object.entries(truth).filter(([, d]) => d).map(([t]) => t).sort(),
    ['Custom disabled', 'Disabled button', 'In a disabled fieldset', 'One', 'field'].sort());
  for (const [text, disabled] of Object.entries(truth)) {
    const e = c.raw_elements.find((r) => r.text === text || r.attributes.value === text);
    assert.ok(e, `${text} is listed`);
    assert.equal(e.attributes.disabled === 'true', disabled, `${text}: disabled ${disabled}`);
  }
});
