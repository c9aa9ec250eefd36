// The collector and the Playwright helpers in real Chromium on the fixture pages served from localhost.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launch } from './helpers/browser.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { startServer, createKey, removeDataDir, type ServerProcess } from './helpers/server.ts';
import { snapshot, collectPage, click, type, scrollTo, highlight, waitForStable, toPrompt, FRAME_ID_SPAN, SightlineApi } from '../src/client/index.ts';
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

async function open(name: string): Promise<void> {
  await page.goto(`${fx.url}/${name}.html`);
  await waitForStable(page, { quietMs: 100 });
}

const find = (r: RankResult, pred: (e: SnapshotElement) => boolean, what: string) => {
  const found = r.elements.find(pred);
  assert.ok(found, `${what} in ${JSON.stringify(r.elements.map((e) => `${e.role}:${e.text || e.name}`))}`);
  return found;
};

/** Playwright's own box for a locator, to check our coordinates against. */
async function box(selector: string, frame = page.mainFrame()) {
  const b = await frame.locator(selector).boundingBox();
  assert.ok(b, selector);
  return b;
}

function assertNear(actual: { x: number; y: number; width: number; height: number }, expected: { x: number; y: number; width: number; height: number }) {
  for (const k of ['x', 'y', 'width', 'height'] as const) assert.ok(Math.abs(actual[k] - expected[k]) < 1.5, `${k}: ${actual[k]} vs ${expected[k]}`);
}

describe('fixture pages', () => {
  test('a field wrapped by the label that names it is listed as the field; a wrapped checkbox keeps its label', async () => {
    await page.setContent(`<header><label><input type="search" placeholder="Search articles" style="display:block;width:300px;height:30px;margin:0;border:0;padding:0"></label></header>
      <form><label><input type="checkbox" style="position:absolute;opacity:0"> Remember me</label></form>`);
    const r = await snapshot(page, { limit: 50 });
    const field = find(r, (e) => e.role === 'searchbox', 'the search field');
    assert.equal(field.name, 'Search articles');
    assert.equal(r.elements.filter((e) => e.role === 'label' && !e.text).length, 0, 'no empty label stands in for the field');
    find(r, (e) => /Remember me/.test(e.text ?? ''), 'the checkbox label');
  });

  test('search results: the search box, its button and the result links', async () => {
    await open('search');
    const r = await snapshot(page, { limit: 50 });
    const search = find(r, (e) => e.role === 'searchbox', 'searchbox');
    assert.equal(search.name, 'Search');
    assert.equal(search.value, 'wireless headphones');
    assertNear(search.bbox, await box('input[type=search]'));
    find(r, (e) => e.role === 'button' && e.text === 'Search', 'search button');
    const first = find(r, (e) => e.role === 'link' && e.text === 'The best wireless headphones of 2026', 'first result');
    assert.equal(first.href, 'https://audio.example/best-wireless-2026');
    const next = find(r, (e) => e.text === 'Next', 'pager link');
    assert.equal(next.href, `${fx.url}/search.html?p=2`, 'hrefs are absolute');
    find(r, (e) => e.role === 'heading', 'result headings as context');
    assert.equal(r.elements[0].role, 'searchbox', 'the search box ranks first');
  });

  test('login: names, states, and secrets that never leave the page', async () => {
    await open('login');
    await page.fill('#email', 'ada@example.com');
    await page.fill('#password', 'hunter2-very-secret');
    await page.fill('#otp', '493817');
    await page.fill('#card', '4111 1111 1111 1111');
    await page.check('#remember');
    const collected = await collectPage(page);
    const wire = JSON.stringify(collected);
    for (const secret of ['hunter2-very-secret', '493817', '4111 1111 1111 1111']) assert.ok(!wire.includes(secret), `${secret} left the page`);
    const r = await snapshot(page);
    const email = find(r, (e) => e.name === 'Email', 'email field');
    assert.equal(email.role, 'textbox');
    assert.equal(email.value, 'ada@example.com');
    assert.equal(email.input_type, 'email');
    for (const name of ['Password', 'One-time code', 'Card for verification']) {
      const field = find(r, (e) => e.name === name, name);
      assert.equal(field.value_redacted, true, `${name} redacted`);
      assert.equal(field.value, undefined);
    }
    const remember = find(r, (e) => e.role === 'checkbox', 'checkbox');
    assert.equal(remember.checked, true);
    assert.equal(remember.name, 'Keep me signed in');
    const passkey = find(r, (e) => e.text === 'Sign in with passkey', 'disabled button');
    assert.equal(passkey.disabled, true);
    assert.equal(find(r, (e) => e.role === 'button' && e.text === 'Sign in', 'submit').disabled ?? false, false);
  });

  test('shop behind a modal and a cookie banner: covered elements are occluded, the modal is reported', async () => {
    await open('shop');
    const r = await snapshot(page, { limit: 100 });
    assert.equal(r.modal_detected, true);
    const carts = r.elements.filter((e) => e.text === 'Add to cart');
    assert.equal(carts.length, 8);
    for (const e of carts.filter((c) => c.in_viewport)) assert.equal(e.is_occluded, true, 'under the modal');
    assert.equal(find(r, (e) => e.text === 'Accept all', 'cookie button').is_occluded, true, 'the banner is under the modal too');
    const close = find(r, (e) => e.name === 'Close', 'modal close');
    assert.equal(close.is_occluded, false);
    assert.equal(find(r, (e) => e.text === 'Subscribe', 'modal button').is_occluded, false);
    await click(page, close.id);
    const after = await snapshot(page, { limit: 100 });
    assert.equal(after.modal_detected, false);
    const visibleCart = after.elements.find((e) => e.text === 'Add to cart' && e.in_viewport);
    assert.equal(visibleCart?.is_occluded, false, 'uncovered once the modal is closed');
    assert.equal(find(after, (e) => e.text === 'Accept all', 'cookie button').is_occluded, false);
  });

  test('nested open shadow DOM: found, clickable and typeable by id; closed roots stay closed', async () => {
    await open('shadow');
    const r = await snapshot(page);
    const input = find(r, (e) => e.name === 'Message' && e.role === 'textbox', 'input two shadow roots deep');
    const send = find(r, (e) => e.text === 'Send', 'send button');
    assert.ok(!r.elements.some((e) => e.text === 'Hidden from us'), 'closed shadow root not read');
    await type(page, input.id, 'hello from the agent');
    assert.equal(await page.evaluate(() => (document.querySelector('chat-widget')!.shadowRoot!.querySelector('chat-input')!.shadowRoot!.querySelector('input') as HTMLInputElement).value), 'hello from the agent');
    await click(page, send.id);
    await click(page, send.id);
    assert.equal(await page.textContent('#clicks'), 'clicks: 2');
  });

  test('same-origin and cross-origin iframes: coordinates in the top viewport, actions by id', async () => {
    await open('frames');
    const same = page.frames().find((f) => f.url().startsWith(fx.url) && f !== page.mainFrame())!;
    const cross = page.frames().find((f) => f.url().startsWith(fx.otherOrigin))!;
    assert.ok(same && cross, 'both frames loaded');
    const r = await snapshot(page);
    const cities = r.elements.filter((e) => e.name === 'City');
    assert.equal(cities.length, 2);
    const sameCity = cities.find((e) => e.id < FRAME_ID_SPAN)!;
    const crossCity = cities.find((e) => e.id >= FRAME_ID_SPAN)!;
    assertNear(sameCity.bbox, await box('input', same));
    assertNear(crossCity.bbox, await box('input', cross));
    await type(page, crossCity.id, 'Lisbon');
    await click(page, r.elements.find((e) => e.id >= FRAME_ID_SPAN && e.text === 'Check availability')!.id);
    assert.equal(await cross.textContent('#out'), 'sent Lisbon');
    await type(page, sameCity.id, 'Porto');
    await click(page, r.elements.find((e) => e.id < FRAME_ID_SPAN && e.text === 'Check availability')!.id);
    assert.equal(await same.textContent('#out'), 'sent Porto');
    const again = await snapshot(page);
    assert.deepEqual(again.elements.map((e) => e.id).sort(), r.elements.map((e) => e.id).sort(), 'frame ids are stable too');
  });

  test('several frames are collected in frame order whatever finishes first; a frame that failed to load (Chromium\'s error page) adds nothing', async () => {
    // Port 9 (discard) refuses the connection: that frame shows Chromium's error page.
    // data: documents are cross-origin frames, each collected on its own.
    const frame = (label: string) => `<iframe style="width:300px;height:120px" src="data:text/html,<button>${label}</button>"></iframe>`;
    await page.setContent(`<h1>Frames</h1>${frame('First frame')}<iframe style="width:400px;height:300px" src="http://127.0.0.1:9/"></iframe>${frame('Second frame')}${frame('Third frame')}`);
    for (let k = 0; k < 50 && !page.frames().some((f) => f.url().startsWith('chrome-error:')); k++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(page.frames().some((f) => f.url().startsWith('chrome-error:')), 'the refused frame shows the error page');
    for (let round = 0; round < 3; round++) {
      const c = await collectPage(page);
      const framed = c.raw_elements.filter((e) => e.id >= FRAME_ID_SPAN);
      assert.deepEqual(framed.map((e) => e.text), ['First frame', 'Second frame', 'Third frame'], `round ${round}: ${JSON.stringify(framed.map((e) => e.text))}`);
      const ranges = framed.map((e) => Math.floor(e.id / FRAME_ID_SPAN));
      assert.deepEqual(ranges, [...ranges].sort((a, b) => a - b), 'id ranges in frame order');
    }
  });

  test('a cross-origin frame inside a same-origin frame is collected and acted on; a frame that keeps navigating never fails the snapshot', async () => {
    await page.goto(`${fx.url}/nested-frames.html`);
    const pay = () => page.frames().find((f) => f.url() === `${fx.otherOrigin}/frame-form.html`);
    for (let k = 0; k < 50 && !pay(); k++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(pay(), 'the nested payment frame loaded');
    for (let k = 0; k < 10; k++) {
      const r = await snapshot(page); // the ad frame is replaced every 25 ms while this runs
      const city = r.elements.find((e) => e.name === 'City' && e.id >= FRAME_ID_SPAN);
      assert.ok(city, `round ${k}: the nested frame's field: ${r.elements.map((e) => e.text || e.name).join(', ')}`);
      if (k === 0) {
        assertNear(city.bbox, await box('input', pay()!));
        await type(page, city.id, 'Faro');
        assert.equal(await pay()!.inputValue('input'), 'Faro', 'typed into the nested frame\'s field by its id');
        assert.ok(r.elements.some((e) => e.text === 'Check availability' && Math.floor(e.id / FRAME_ID_SPAN) === Math.floor(city.id / FRAME_ID_SPAN)), 'its button, in the same frame\'s range');
      }
    }
  });

  test('an app layout that scrolls a container, not the page: what lies below its fold is listed, out of the viewport, and scrollTo reaches it', async () => {
    await open('app-shell');
    const r = await snapshot(page, { limit: 100 });
    const messages = r.elements.filter((e) => /^Message \d+$/.test(e.text));
    assert.equal(messages.length, 40, r.elements.map((e) => e.text).join(', '));
    const last = find(r, (e) => e.text === 'Message 39', 'last message');
    assert.equal(last.in_viewport, false);
    assert.equal(find(r, (e) => e.text === 'Message 0', 'first message').in_viewport, true);
    // A horizontal strip inside it still clips: its hidden labels are not listed (as before).
    assert.ok(!r.elements.some((e) => e.text === 'Label 5'), 'a carousel\'s hidden item stays out');
    await scrollTo(page, last.id);
    const after = await snapshot(page, { limit: 100 });
    assert.equal(find(after, (e) => e.id === last.id, 'same id').in_viewport, true);
    assert.equal(find(after, (e) => e.text === 'Message 0', 'first message').in_viewport, false, 'scrolled out above the fold: listed, out of view');
  });

  test('a select wrapped by its label is named by the label alone and shows its chosen options as its value', async () => {
    await page.setContent(`<label>Country <select><option value="">Choose…</option><option value="us">United States</option><option value="de" selected>Germany</option></select></label>
      <label>Sizes <select multiple><option selected>S</option><option>M</option><option selected>L</option></select></label>
      <label>Notes <textarea>line one</textarea></label>`);
    const r = await snapshot(page);
    const by = (name: string) => find(r, (e) => e.name === name, name);
    assert.equal(by('Country').value, 'Germany');
    assert.equal(by('Sizes').value, 'S, L');
    assert.equal(by('Notes').value, 'line one');
    assert.match(toPrompt(r), /combobox value="Germany": Country$/m);
  });

  test('a menu hung out of an overflow:hidden bar by absolute positioning is listed; one the bar contains is clipped', async () => {
    await page.setContent(`<style>body{margin:0}</style>
      <div style="position:relative;width:600px">
        <div style="overflow:hidden;height:40px">
          <button>Account</button>
          <ul style="position:absolute;top:40px;left:0;margin:0"><li><a href="#profile">Profile</a></li><li><a href="#logout">Log out</a></li></ul>
        </div>
      </div>
      <div style="overflow:hidden;height:40px;position:relative;margin-top:100px">
        <button>Help</button>
        <ul style="position:absolute;top:40px;left:0;margin:0"><li><a href="#faq">FAQ</a></li></ul>
      </div>`);
    assert.equal(await page.getByText('Log out').isVisible(), true);
    const texts = (await snapshot(page)).elements.map((e) => e.text);
    assert.ok(texts.includes('Log out') && texts.includes('Profile'), texts.join(', '));
    assert.ok(!texts.includes('FAQ'), 'its containing block clips it');
  });

  test('quirks mode (no doctype): the viewport is the window, not the whole document', async () => {
    await open('quirks');
    assert.equal(await page.evaluate(() => document.compatMode), 'BackCompat');
    const c = await collectPage(page);
    assert.deepEqual(c.viewport, { width: 1280, height: 800 });
    const r = await snapshot(page, { limit: 10 });
    assert.equal(find(r, (e) => e.text === 'Add to cart', 'bottom button').in_viewport, false);
    assert.equal(find(r, (e) => e.text === 'Search', 'top button').in_viewport, true);
  });

  test('long page: below the fold is out of the viewport, doc_y holds while scrolling, scrollTo by id', async () => {
    await open('long');
    const r = await snapshot(page, { limit: 100 });
    const more = find(r, (e) => e.text === 'Load older releases', 'bottom button');
    assert.equal(more.in_viewport, false);
    assert.ok(more.doc_y! > 8000);
    await scrollTo(page, more.id);
    const after = await snapshot(page, { limit: 100 });
    const moved = find(after, (e) => e.id === more.id, 'same id after scrolling');
    assert.equal(moved.in_viewport, true);
    assert.ok(Math.abs(moved.doc_y! - more.doc_y!) < 1, 'document position unchanged');
    assert.equal((await collectPage(page)).scroll_y, await page.evaluate(() => window.scrollY), 'the collection reports the scroll');
    const header = find(after, (e) => e.text === 'Home', 'sticky header link');
    assert.equal(header.in_viewport, true);
    await click(page, more.id);
    assert.equal(await page.textContent('#load-more'), 'Loaded');
  });

  test('captcha evidence reaches diagnostics', async () => {
    await open('captcha');
    const r = await snapshot(page);
    assert.equal(r.diagnostics?.captcha?.detected, true);
    assert.ok(r.diagnostics?.captcha?.evidence?.selector_hits?.includes('.g-recaptcha'));
    assert.ok(r.diagnostics?.reasons.includes('captcha_detected'));
  });

  test('the 5,000-element page: every control collected, metrics reported', async () => {
    await open('big');
    const c = await collectPage(page);
    assert.equal(c.raw_elements.filter((e) => ['input', 'a', 'button'].includes(e.tag)).length, 714 * 3);
    assert.ok(c.client_metrics.node_count >= 5000);
    assert.equal(c.client_metrics.ready_state, 'complete');
    assert.ok(c.client_metrics.quiet_ms >= 100);
    assert.ok(c.collect_ms > 0);
  });
});

describe('ids and actions', () => {
  test('ids stay the same across snapshots and when a node is inserted before them', async () => {
    await open('search');
    const a = await collectPage(page);
    const b = await collectPage(page);
    assert.deepEqual(b.raw_elements.map((e) => [e.id, e.text]), a.raw_elements.map((e) => [e.id, e.text]));
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '/new';
      link.textContent = 'Inserted first';
      document.body.prepend(link);
    });
    const c = await collectPage(page);
    const byText = new Map(a.raw_elements.map((e) => [`${e.tag}|${e.text}|${e.attributes.href ?? ''}|${e.attributes.name ?? ''}`, e.id]));
    for (const e of c.raw_elements) {
      const key = `${e.tag}|${e.text}|${e.attributes.href ?? ''}|${e.attributes.name ?? ''}`;
      if (e.text === 'Inserted first') assert.ok(!a.raw_elements.some((x) => x.id === e.id), 'a new id for the new node');
      else assert.equal(e.id, byText.get(key), `${key} kept its id`);
    }
  });

  test('clicking and typing by id act on the right element', async () => {
    await open('login');
    const r = await snapshot(page);
    await type(page, find(r, (e) => e.name === 'Email', 'email').id, 'grace@example.com');
    await click(page, find(r, (e) => e.role === 'button' && e.text === 'Sign in', 'submit').id);
    assert.equal(await page.textContent('#status'), 'Submitted as grace@example.com');
    await assert.rejects(click(page, 999_999), /is gone/);
  });

  test('highlight draws one box per element; waitForStable waits for quiet', async () => {
    await open('search');
    const r = await snapshot(page, { limit: 10 });
    const remove = await highlight(page, r);
    assert.equal(await page.locator('#__sightline_highlight > div').count(), 10);
    assert.equal(await page.locator('#__sightline_highlight span').first().textContent(), String(r.elements[0].id));
    await remove();
    assert.equal(await page.locator('#__sightline_highlight').count(), 0);
    await page.evaluate(() => {
      let n = 0;
      const timer = setInterval(() => { document.body.append(document.createElement('i')); if (++n === 8) clearInterval(timer); }, 50);
    });
    const t0 = Date.now();
    assert.equal(await waitForStable(page, { quietMs: 300, timeoutMs: 5000 }), true);
    assert.ok(Date.now() - t0 >= 300 + 6 * 50, 'waited for the mutations to stop');
  });
});

describe('local and API ranking', () => {
  let server: ServerProcess;
  before(async () => { server = await startServer(['--rate-limit', '1000', '--rate-burst', '1000', '--limit-cap', '500']); });
  after(async () => { await server.stop(); removeDataDir(server.dataDir); });

  test('the API gives the same order as local ranking, on every fixture', async () => {
    const api = new SightlineApi({ baseUrl: server.url, apiKey: await createKey(server.dataDir, 100) });
    for (const name of ['search', 'login', 'shop', 'shadow', 'frames', 'long']) {
      await open(name);
      const local = await snapshot(page, { limit: 100, goal: 'sign in' });
      const remote = await snapshot(page, { limit: 100, goal: 'sign in', api });
      assert.deepEqual(remote.elements.map((e) => e.id), local.elements.map((e) => e.id), name);
      assert.deepEqual(remote.elements.map((e) => e.importance), local.elements.map((e) => e.importance), name);
      assert.equal(remote.credits_used, 1);
    }
  });

  test('the HTTP client waits out Retry-After on 429, and gives up when told to', async () => {
    const limited = await startServer(['--rate-limit', '1', '--rate-burst', '1']);
    try {
      const key = await createKey(limited.dataDir, 10);
      const body = { url: 'https://example.test/', raw_elements: [{ id: 1, tag: 'button', text: 'Go', rect: { x: 0, y: 0, width: 50, height: 20 } }] };
      const patient = new SightlineApi({ baseUrl: limited.url, apiKey: key });
      await patient.snapshot(body);
      const t0 = Date.now();
      const second = await patient.snapshot(body);
      assert.equal(second.status, 'success');
      assert.ok(Date.now() - t0 >= 900, 'waited about the Retry-After second');
      const hasty = new SightlineApi({ baseUrl: limited.url, apiKey: key, retries: 0 });
      await assert.rejects(hasty.snapshot(body), (err: any) => err.status === 429 && err.code === 'rate_limited' && err.retryAfter === 1 && err.creditsRemaining === 8);
    } finally {
      await limited.stop();
      removeDataDir(limited.dataDir);
    }
  });

  test('API errors are typed, with error_code', async () => {
    const api = new SightlineApi({ baseUrl: server.url, apiKey: 'sl_' + 'x'.repeat(32) });
    await open('search');
    await assert.rejects(snapshot(page, { api }), (err: any) => err.name === 'SightlineApiError' && err.status === 401 && err.code === 'unauthorized');
  });
});
