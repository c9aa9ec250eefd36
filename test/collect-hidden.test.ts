// Issue 20, ninth round: elements hidden from the accessibility tree but drawn (a closed menu inside
// aria-hidden laid out in the first screen, an inert drawer), and names polluted by hidden text (an
// aria-hidden icon's SVG <title> joined to a screen-reader label). Real Chromium on a localhost fixture,
// collected by our collector and ranked by the Wasm core through the real HTTP server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startRankRig, type RankRig } from './helpers/rank-rig.ts';
import { snapshot, collectPage, waitForStable, type SightlineApi } from '../src/client/index.ts';

let rig: RankRig;
let page: Page;
let api: SightlineApi;

before(async () => {
  rig = await startRankRig();
  ({ page, api } = rig);
  await page.goto(`${rig.fx.url}/hidden-menu.html`);
  await waitForStable(page, { quietMs: 100 });
});
after(() => rig.close());

test('an element\'s text leaves out aria-hidden descendants and SVG <desc>, keeps a visible SVG\'s <title>', async () => {
  const c = await collectPage(page);
  const search = c.raw_elements.find((e) => e.tag === 'button' && e.text.startsWith('Click here'));
  assert.equal(search?.text, 'Click here to search', 'the aria-hidden icon\'s <title> is not joined to the label');
  assert.equal(await page.locator('#search-button').textContent(), 'Click here to searchsearch', 'textContent would join it');
  const share = c.raw_elements.find((e) => e.tag === 'button' && e.text.startsWith('Share'));
  assert.equal(share?.text, 'Share', 'the icon\'s <title> names the button, its <desc> does not');
  // Nearby text is the parent's text less the element's own, hidden parts included: not its text again.
  const add = c.raw_elements.find((e) => e.tag === 'button' && e.text === 'Add to cart');
  assert.equal(add?.attributes?.nearby_text, 'Gear for the trail');
});

test('elements inside aria-hidden="true" or inert subtrees are flagged, the others are not', async () => {
  const c = await collectPage(page);
  const menu = c.raw_elements.filter((e) => /^Menu section \d+$/.test(e.text));
  const drawer = c.raw_elements.filter((e) => /^Drawer link/.test(e.text));
  const stories = c.raw_elements.filter((e) => /^Story \d+$/.test(e.text));
  assert.equal(menu.length, 60);
  assert.equal(drawer.length, 2);
  assert.equal(stories.length, 30);
  assert.ok(menu.every((e) => e.attributes.a11y_hidden === 'true' && e.in_viewport), 'the menu is drawn in the viewport and flagged');
  assert.ok(drawer.every((e) => e.attributes.a11y_hidden === 'true'), 'inert elements are flagged');
  assert.ok(stories.every((e) => !('a11y_hidden' in e.attributes)), 'visible links carry no flag');
  assert.ok(c.raw_elements.filter((e) => e.tag === 'button').every((e) => !('a11y_hidden' in e.attributes)), 'a button holding an aria-hidden icon is not itself hidden');
});

test('the goal-less ranking sinks flagged elements below the visible named controls, without dropping them', async () => {
  const top = await snapshot(page, { limit: 50, api });
  const texts = top.elements.map((e) => e.text ?? '');
  const stories = texts.filter((t) => /^Story \d+$/.test(t));
  assert.equal(stories.length, 30, `every visible story link in the top 50 (${stories.length}), though 60 hidden menu links sit above them on the page`);
  assert.ok(texts.includes('Click here to search') && texts.includes('Share'), 'the header buttons in the top 50');
  const all = await snapshot(page, { limit: 500, api });
  const rank = (re: RegExp) => all.elements.flatMap((e, k) => re.test(e.text ?? '') ? [k] : []);
  const menu = rank(/^Menu section \d+$/), visible = rank(/^Story \d+$/);
  assert.equal(menu.length, 60, 'flagged elements are still ranked (never dropped)');
  assert.ok(Math.max(...visible) < Math.min(...menu), 'every visible story link above every hidden menu link');
  const far = all.elements.find((e) => e.text === 'Far away story');
  assert.ok(far && menu.some((k) => all.elements[k].importance > far.importance * 0.5), 'hidden menu links keep a score of their own');
});

test('a closed <details> reads as its summary, not the answer it hides; an open one reads whole', async () => {
  await page.goto(`${rig.fx.url}/details.html`);
  await waitForStable(page, { quietMs: 100 });
  const c = await collectPage(page);
  const details = c.raw_elements.filter((e) => e.tag === 'details');
  assert.equal(details.length, 3, JSON.stringify(details));
  assert.equal(details.find((e) => e.text.startsWith('How'))?.text, 'How long is the trail?', 'no hidden answer, no aria-hidden chevron title');
  assert.match(details.find((e) => e.text.startsWith('Is'))?.text ?? '', /^Is it open in winter\? ?Yes, with snowshoes\.$/);
  assert.ok(!c.raw_elements.some((e) => /hidden answer|hides this/.test(e.text)), 'no element\'s text holds what a closed details hides');
  const r = await snapshot(page, { api });
  assert.ok(r.elements.some((e) => e.text === 'How long is the trail?'), 'the server answers the same text');
});
