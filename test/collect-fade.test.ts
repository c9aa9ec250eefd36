// A page that fades in: an anti-flicker snippet or a loader holds the root, the body or a page-wide wrapper at opacity 0 until a
// script reveals it (offline, or while that script is slow, it never does). Its controls take clicks all
// along, so the collector lists them; an element hidden by its own opacity stays hidden. Real Chromium on a
// localhost fixture, through the client door (collect, rank over HTTP) and the server's map door.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useRankRig, type RankRig } from './helpers/rank-rig.ts';
import { collectPage, snapshot } from '../src/client/index.ts';

let rig: RankRig;
useRankRig((r) => { rig = r; }, { serverArgs: ['--egress-allow', '127.0.0.1/32'] });

const CONTROLS = ['Trailhead', 'Shop', 'Search the shop', 'Search', 'Sign in', 'Add to cart'];
const named = (els: { text?: string | null; attributes?: { aria_label?: string | null } }[]) =>
  els.map((e) => e.attributes?.aria_label || e.text || '');

for (const [what, fade] of [
  ['the root element (an anti-flicker class on <html>)', () => undefined],
  ['the body (a loader)', () => { document.documentElement.classList.remove('async-hide'); document.body.classList.add('loading'); }],
  ['wrapper of the whole page', () => { document.documentElement.classList.remove('async-hide'); document.querySelector('.page')!.classList.add('fading'); }],
] as const) {
  test(`controls under a transparent ${what} are collected; a closed menu's or dialog's own opacity still hides it`, async () => {
    await rig.page.goto(`${rig.fx.url}/faded.html`);
    await rig.page.evaluate(fade);
    const opacity = await rig.page.evaluate(() => [document.documentElement, document.body, document.querySelector('.page')!].map((e) => getComputedStyle(e).opacity).join(','));
    assert.ok(opacity.includes('0'), `the page is transparent (${opacity})`);
    const c = await collectPage(rig.page);
    const texts = named(c.raw_elements);
    for (const name of CONTROLS) assert.ok(texts.includes(name), `${name} collected (${texts.join(' | ')})`);
    assert.ok(!texts.some((t) => /Menu item|Close dialog/.test(t)), 'the menu links and the dialog hidden by their own opacity are not listed');
    const top = await snapshot(rig.page, { limit: 10, api: rig.api });
    assert.ok(named(top.elements).includes('Add to cart'), 'the purchase ranks in the top 10');
  });
}

test('observe map on a page that fades in returns its controls', async () => {
  const result = await rig.api.observe({ url: `${rig.fx.url}/faded.html`, mode: 'map', options: { limit: 50 } });
  const texts = named(result.interactable_elements);
  for (const name of ['Sign in', 'Add to cart']) assert.ok(texts.includes(name), `${name} in the map (${texts.join(' | ')})`);
});

test('observe visual waits a fade out before its screenshot, and says so when the page never shows', async () => {
  // The fade lifts 1.5 s after load: the settle waits for no timer that long, only the fade wait sees it.
  const lifted = await rig.api.observe({ url: `${rig.fx.url}/faded.html?lift=1500`, mode: 'visual', options: { limit: 10 } });
  assert.ok(!lifted.warnings.some((w) => w.startsWith('page_fading')), `drawn before the screenshot (${lifted.warnings.join('; ')})`);
  const never = await rig.api.observe({ url: `${rig.fx.url}/faded.html`, mode: 'visual', options: { limit: 10 } });
  assert.ok(never.warnings.some((w) => w.startsWith('page_fading:')), `a page that never shows is reported (${never.warnings.join('; ')})`);
  assert.ok(named(never.interactable_elements).includes('Add to cart'), 'its controls are still listed');
});
