// Issue 38: goal-less ranking of what covers the page, of what is on screen, and of text crumbs. Real Chromium
// on localhost fixture pages, collected by our collector and ranked by the Wasm core through the real HTTP server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { FixtureServer } from './helpers/fixtures.ts';
import { useRankRig } from './helpers/rank-rig.ts';
import { snapshot, waitForStable, type SightlineApi } from '../src/client/index.ts';

let fx: FixtureServer;
let page: Page;
let api: SightlineApi;
useRankRig((rig) => ({ fx, page, api } = rig));

type Ranked = Awaited<ReturnType<typeof snapshot>>;
type El = Ranked['elements'][number];
const label = (e: El) => (e.text || e.name || '').trim();
const interactive = (e: El) => ['link', 'button', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio'].includes(e.role);

async function rank(file: string): Promise<Ranked> {
  await page.goto(`${fx.url}/${file}`);
  await waitForStable(page, { quietMs: 100 });
  return snapshot(page, { limit: 50, api });
}

test('a modal promotion over a shop: its controls first, its close first among them, nothing it covers above them', async () => {
  const r = await rank('promo-modal.html');
  assert.equal(r.modal_detected, true);
  const dialog = ['×', 'See the sale', 'Copy code']; // the close button shows ×, named Close
  const at = (name: string) => r.elements.findIndex((e) => label(e) === name);
  assert.equal(r.elements[0].name, 'Close', `first: ${label(r.elements[0])}`);
  const dialogRanks = dialog.map(at);
  assert.ok(dialogRanks.every((k) => k >= 0 && k < dialog.length), `dialog controls at ${dialogRanks.map((k) => k + 1)}`);
  const covered = r.elements.filter((e) => e.is_occluded && interactive(e));
  assert.ok(covered.length >= 5, `covered controls listed: ${covered.length}`);
  // The covered search field (it names the search) and add to cart buttons no longer outrank an uncovered control.
  const lastDialog = Math.max(...dialogRanks);
  for (const e of covered) assert.ok(r.elements.indexOf(e) > lastDialog, `covered ${e.role} "${label(e)}" at ${r.elements.indexOf(e) + 1}`);
  const dialogImportance = dialog.map((n) => r.elements[at(n)].importance);
  assert.ok(Math.min(...dialogImportance) > Math.max(...covered.map((e) => e.importance)), 'importance says the same');
});

test('a cookie banner over an article: accept and reject first, "Log in" after the banner', async () => {
  const r = await rank('cookie-article.html');
  const names = r.elements.map(label);
  assert.deepEqual(new Set(names.slice(0, 2)), new Set(['Accept all', 'Reject all']), `first two: ${names.slice(0, 3)}`);
  assert.equal(names[2], 'Cookie settings');
  assert.ok(names.indexOf('Log in') > 2, `"Log in" at ${names.indexOf('Log in') + 1}`);
});

test('primary actions below the fold: ranked high, but under the visible fields and buttons', async () => {
  const r = await rank('below-fold-actions.html');
  const search = r.elements.find((e) => e.role === 'searchbox' || (e.role === 'textbox' && /search/i.test(e.name ?? '')))!;
  const login = r.elements.find((e) => label(e) === 'Log in')!;
  assert.ok(search && !search.in_viewport && login && !login.in_viewport, 'the search field and the sign in are off screen');
  const k = (e: El) => r.elements.indexOf(e);
  assert.ok(k(search) < 10 && k(login) < 10, `still in the top 10: search ${k(search) + 1}, log in ${k(login) + 1}`);
  const visibleFields = r.elements.filter((e) => e.in_viewport && ['textbox', 'searchbox'].includes(e.role));
  const visibleButtons = r.elements.filter((e) => e.in_viewport && e.role === 'button');
  assert.ok(visibleFields.length === 1 && visibleButtons.length === 3);
  for (const f of visibleFields) assert.ok(k(f) < k(search), `visible field at ${k(f) + 1} above the off-screen search at ${k(search) + 1}`);
  for (const b of visibleButtons) assert.ok(k(b) < k(login), `visible button at ${k(b) + 1} above the off-screen sign in at ${k(login) + 1}`);
  // Off-screen fields that name no action stay below every visible control and link.
  const newsletter = r.elements.filter((e) => !e.in_viewport && /Your (email|name)/.test(e.name ?? ''));
  const lastVisible = Math.max(...r.elements.filter((e) => e.in_viewport && interactive(e)).map(k));
  assert.equal(newsletter.length, 2);
  for (const f of newsletter) assert.ok(k(f) > lastVisible, `newsletter field at ${k(f) + 1}, last visible control at ${lastVisible + 1}`);
});

test('a crowded first screen: off-screen primary actions in the top 10, after the first three visible controls', async () => {
  const r = await rank('crowded-header-actions.html');
  const k = (e: El) => r.elements.indexOf(e);
  const cart = r.elements.find((e) => label(e) === 'Add to cart')!;
  const login = r.elements.find((e) => label(e) === 'Log in')!;
  assert.ok(cart && !cart.in_viewport && login && !login.in_viewport, 'the add to cart and the sign in are off screen');
  const visible = r.elements.filter((e) => e.in_viewport && interactive(e));
  assert.ok(visible.filter((e) => ['button', 'textbox'].includes(e.role)).length >= 12, `visible fields and buttons: ${visible.length}`);
  // The screen keeps the first four places; the words lift the actions above the rest of the crowd.
  // The screen keeps the first three places (the visible fields first, as below-fold-actions.html has it): the
  // sign in, a link, comes after them but before the rest of the crowd of visible buttons.
  for (const e of visible.slice(0, 3)) assert.ok(k(e) < k(login), `visible ${e.role} "${label(e)}" at ${k(e) + 1} above the sign in at ${k(login) + 1}`);
  for (const f of visible.filter((e) => e.role === 'textbox')) assert.ok(k(f) < k(cart), `visible field "${label(f)}" at ${k(f) + 1} above the add to cart at ${k(cart) + 1}`);
  assert.ok(k(cart) < 10 && k(login) < 10, `in the top 10: add to cart ${k(cart) + 1}, log in ${k(login) + 1}`);
  // An off-screen field that names no action still waits under every visible control.
  const email = r.elements.find((e) => e.name === 'Your email' || e.text === 'Your email');
  if (email) assert.ok(k(email) > Math.max(...visible.map(k)), `the newsletter field at ${k(email) + 1}`);
});

test('a span repeating its control\'s text is not listed; other text comes after the controls', async () => {
  const r = await rank('inner-span.html');
  const controls = r.elements.filter(interactive);
  const text = r.elements.filter((e) => !interactive(e));
  assert.equal(controls.length, 5, `controls: ${controls.map(label)}`);
  for (const t of text) {
    const inside = controls.find((c) => label(c) === label(t));
    assert.equal(inside, undefined, `static "${label(t)}" repeats a control`);
  }
  assert.ok(text.some((t) => label(t) === 'Free delivery over $50'), 'text that says something new is listed');
  const lastControl = Math.max(...controls.map((e) => r.elements.indexOf(e)));
  for (const t of text) assert.ok(r.elements.indexOf(t) > lastControl, `text "${label(t)}" at ${r.elements.indexOf(t) + 1} before a control`);
  // The spans are collected (they are listed as a landmark's short text): the core leaves them out.
  const spans = await page.evaluate(() => window.__sightline!.collect().raw_elements.filter((e) => e.tag === 'span').map((e) => e.text.trim()));
  assert.ok(spans.includes('Open menu') && spans.includes('Skip to content'), `collected spans: ${spans}`);
});

test('importance separates the top of a simple shop page: ties only between equivalent elements', async () => {
  const r = await rank('gear-shop.html');
  const top = r.elements.slice(0, 10);
  assert.ok(top.every((e) => e.importance < 1000), `top 10 importance ${top.map((e) => e.importance)}`);
  // The promoted actions (a purchase, the search) differ from each other and from the rest.
  const promoted = top.filter((e) => e.importance > 900);
  assert.ok(promoted.length >= 2, `promoted: ${promoted.map((e) => `${label(e)} ${e.importance}`)}`);
  assert.equal(new Set(promoted.map((e) => e.importance)).size, promoted.length, `promoted ${promoted.map((e) => `${e.role} ${label(e)} ${e.importance} ${e.in_viewport} ${JSON.stringify(e.bbox)}`)}`);
  // Elements that share an importance are of one kind, place and size (the menu's links in a row).
  for (const a of top) for (const b of top) {
    if (a === b || a.importance !== b.importance) continue;
    assert.ok(a.role === b.role && a.in_viewport === b.in_viewport && a.is_occluded === b.is_occluded && a.visual_cues.is_primary === b.visual_cues.is_primary
      && Math.abs(a.bbox.width * a.bbox.height - b.bbox.width * b.bbox.height) < 0.25 * a.bbox.width * a.bbox.height,
      `tie at ${a.importance}: ${a.role} "${label(a)}" and ${b.role} "${label(b)}"`);
  }
});
