// The client library's actions, find and expect in real Chromium on the fixture pages.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launch } from './helpers/browser.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { snapshot, click, type, select, check, hover, press, back, find, findAll, expect, ExpectError, ActionError, waitForStable } from '../src/client/index.ts';
import type { RankResult, SnapshotElement } from '../src/schema/snapshot.ts';

let fx: FixtureServer;
let browser: Browser;
let page: Page;

before(async () => {
  [fx, browser] = await Promise.all([serveFixtures(), launch()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});
after(async () => {
  await browser.close();
  await fx.close();
});

async function open(name: string): Promise<RankResult> {
  await page.goto(`${fx.url}/${name}.html`);
  await waitForStable(page, { quietMs: 100 });
  return snapshot(page, { limit: 200 });
}

function must(e: SnapshotElement | undefined, what: string): SnapshotElement {
  assert.ok(e, what);
  return e;
}

describe('client actions', () => {
  test('find by role, text contained (any case), regex and nearness', async () => {
    const r = await open('login');
    assert.equal(must(find(r, { role: 'textbox', text: 'email' }), 'email').name, 'Email');
    assert.equal(find(r, { role: 'button', text: /^Sign in$/ })?.text, 'Sign in');
    assert.deepEqual(findAll(r, { role: 'button', text: 'sign in' }).map((e) => e.text), ['Sign in', 'Sign in with passkey'].filter((t) => r.elements.some((e) => e.text === t && e.role === 'button')));
    assert.equal(find(r, { role: 'slider' }), undefined);
    // Near: of the two City fields on the frames page, the one next to each button.
    const f = await open('frames');
    for (const button of findAll(f, { role: 'button', text: 'Check availability' })) {
      const city = must(find(f, { role: 'textbox', text: 'City', near: button.id }), 'city near');
      assert.equal(city.id >= 1_000_000, button.id >= 1_000_000, `${city.id} is in the frame of ${button.id}`);
    }
    assert.throws(() => find(f, { near: 424242 }), /element 424242 \(near\) is not in the result/);
  });

  test('select, check, hover, press and back act on the page', async () => {
    const r = await open('controls');
    const lang = must(find(r, { role: 'combobox' }), 'select');
    assert.deepEqual(await select(page, lang.id, 'Français'), ['fr']);
    await expect(page, { text: 'language fr' });
    const news = must(find(r, { role: 'checkbox' }), 'checkbox');
    await check(page, news.id);
    assert.equal(await page.isChecked('#news'), true);
    await check(page, news.id, { checked: false });
    assert.equal(await page.isChecked('#news'), false);
    await assert.rejects(select(page, news.id, 'x', { timeout: 500 }), (err: Error) => err instanceof ActionError && /not a <select>/.test(err.message));

    assert.equal(await page.isVisible('#profile'), false);
    await hover(page, must(find(r, { role: 'button', text: 'Account' }), 'account').id);
    assert.equal(await page.isVisible('#profile'), true);

    const field = must(find(r, { role: 'textbox', text: 'Shortcut' }), 'shortcut');
    await press(page, 'Escape', field.id);
    await expect(page, { text: 'key Escape' });
    await press(page, 'x'); // on the focused element: the field pressed last
    await expect(page, { text: 'key x' });

    await click(page, must(find(r, { role: 'link', text: 'Search' }), 'link').id);
    await expect(page, { url: /\/search\.html$/ });
    assert.equal(await back(page), true);
    await expect(page, { url: '/controls.html' });
  });

  test('an action on a covered element says so; a stale id says so', async () => {
    const r = await open('shop');
    const add = must(find(r, { role: 'button', text: 'Add to cart' }), 'add');
    await assert.rejects(click(page, add.id, { timeout: 800 }), new RegExp(`element ${add.id} is covered by another element`));
    await assert.rejects(type(page, 987_654, 'x'), /unknown or stale id 987654/);
  });

  test('an id from a page the tab navigated away from names nothing on the next page: a clear error, no click', async () => {
    const login = await open('login');
    const signIn = must(find(login, { role: 'button', text: /^Sign in$/ }), 'sign in');
    const shop = await open('shop');
    assert.ok(!shop.elements.some((e) => e.id === signIn.id), `ids continue across documents (${signIn.id} not reused)`);
    assert.ok(Math.min(...shop.elements.map((e) => e.id)) > Math.max(...login.elements.map((e) => e.id)), 'the new page numbers from where the last stopped');
    const url = page.url();
    await assert.rejects(click(page, signIn.id, { timeout: 500 }), (err: Error) => err instanceof ActionError && /unknown or stale id/.test(err.message));
    assert.equal(page.url(), url, 'nothing was clicked');
    // The same document keeps its ids from one snapshot to the next.
    const again = await snapshot(page, { limit: 200 });
    assert.deepEqual(new Set(again.elements.map((e) => e.id)), new Set(shop.elements.map((e) => e.id)));
  });

  test('expect and wait see text inside open shadow roots, not inside closed ones', async () => {
    await open('shadow');
    await expect(page, { text: 'Chat with us' }, { timeout: 500 });
    await assert.rejects(expect(page, { text: 'Hidden from us' }, { timeout: 200 }), ExpectError);
  });

  test('expect waits for visible, text, gone and URL, and fails with what it saw', async () => {
    const r = await open('shop');
    const close = must(find(r, { role: 'button', text: 'Close' }), 'close');
    const subscribe = must(find(r, { role: 'button', text: 'Subscribe' }), 'subscribe');
    await expect(page, { visible: subscribe.id });
    await expect(page, { text: 'Subscribe', id: subscribe.id });
    // The modal goes away 300 ms after it is asked to: expect waits for it.
    await page.evaluate(() => setTimeout(() => document.getElementById('overlay')!.remove(), 300));
    const t0 = Date.now();
    await expect(page, { gone: close.id }, { timeout: 3000 });
    assert.ok(Date.now() - t0 >= 250, 'it waited');
    await assert.rejects(expect(page, { visible: close.id }, { timeout: 200 }), (err: Error) =>
      err instanceof ExpectError && err.message === `expected element ${close.id} to be visible within 200 ms, but element ${close.id} is not on the page`);
    await assert.rejects(expect(page, { url: /checkout/ }, { timeout: 100 }), /expected the URL to match \/checkout\/ within 100 ms, but the URL is http:\/\/127\.0\.0\.1:\d+\/shop\.html/);
    await assert.rejects(expect(page, { text: 'Sold out' }, { timeout: 100 }), /expected the page to have text "Sold out" within 100 ms, but the page text is "Gearshop/);
  });
});
