// SPEC's state-aware element fields (`checked`, `disabled`) say what a person sees on the page: a custom
// ARIA checkbox or switch is checked by its aria-checked, and a control inside a disabled <fieldset> is
// disabled. Collected in real Chromium, ranked locally and by the real server over HTTP (one core).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launch } from './helpers/browser.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { startServer, createKey, removeDataDir, type ServerProcess } from './helpers/server.ts';
import { snapshot, waitForStable, toPrompt, SightlineApi } from '../src/client/index.ts';
import type { RankResult, SnapshotElement } from '../src/schema/snapshot.ts';
import { wasm } from './helpers/elements.ts';

let fx: FixtureServer;
let browser: Browser;
let page: Page;
let server: ServerProcess;
let api: SightlineApi;

before(async () => {
  [fx, browser, server] = await Promise.all([serveFixtures(), launch(), startServer()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  api = new SightlineApi({ baseUrl: server.url, apiKey: await createKey(server.dataDir, 10) });
  await page.goto(`${fx.url}/states.html`);
  await waitForStable(page, { quietMs: 100 });
});
after(async () => {
  await Promise.all([browser.close(), fx.close(), server.stop()]);
  removeDataDir(server.dataDir);
});

function byLabel(r: RankResult, label: string): SnapshotElement {
  const found = r.elements.find((e) => e.text === label || e.name === label);
  assert.ok(found, `${label} in ${JSON.stringify(r.elements.map((e) => e.text || e.name))}`);
  return found;
}

for (const door of ['local', 'api'] as const) {
  test(`${door}: an ARIA checkbox or switch reports checked from aria-checked, beside the raw tri-state`, async () => {
    const r = door === 'api' ? await snapshot(page, { api }) : await snapshot(page);
    const states = (label: string) => { const e = byLabel(r, label); return [e.role, e.checked, e.aria_checked]; };
    assert.deepEqual(states('Gift wrap'), ['checkbox', true, 'true']);
    assert.deepEqual(states('Dark mode'), ['switch', false, 'false']);
    assert.deepEqual(states('All items'), ['checkbox', false, 'mixed'], 'mixed is not checked; aria_checked keeps the tri-state');
    assert.equal(byLabel(r, 'I accept the terms').checked, true, 'a native checkbox as before');
    const text = toPrompt(r);
    const flags = (label: string) => {
      const line = new RegExp(`^\\d+ [a-z]+((?: [a-z]+)*): ${label}$`, 'm').exec(text);
      assert.ok(line, `${label} in ${text}`);
      return line[1].trim().split(' ');
    };
    assert.ok(flags('Gift wrap').includes('checked'), text);
    assert.ok(!flags('Dark mode').includes('checked'), text);
    assert.ok(flags('All items').includes('mixed') && !flags('All items').includes('checked'), text);
  });

  test(`${door}: controls inside a disabled fieldset are disabled, and rank below the same enabled control`, async () => {
    const r = door === 'api' ? await snapshot(page, { api }) : await snapshot(page);
    assert.equal(byLabel(r, 'Pay now').disabled, true);
    assert.equal(byLabel(r, 'Card number').disabled, true);
    assert.equal(byLabel(r, 'Express checkout').disabled, true, 'aria-disabled as before');
    assert.notEqual(byLabel(r, 'Save address').disabled, true);
    assert.ok(byLabel(r, 'Pay now').importance < byLabel(r, 'Save address').importance, 'disabled elements lose (DESIGN)');
  });
}

for (const door of ['local', 'api'] as const) {
  test(`${door}: a value the caller marked redacted is never echoed back; an unredacted one is`, async () => {
    const field = (id: number, value: string, redacted: string | null) => ({
      id, tag: 'input', text: '', rect: { x: 10, y: 10 + id * 40, width: 200, height: 30 },
      attributes: { input_type: 'text', name: `f${id}`, value, value_redacted: redacted },
    });
    const request = { url: 'https://example.com/login', raw_elements: [field(1, 'hunter2', 'true'), field(2, 'alice', 'false'), field(3, 'bob', null)] };
    const r = door === 'api' ? await api.snapshot(request) as RankResult : wasm.rank(request as never);
    const by = (id: number) => r.elements.find((e) => e.id === id)!;
    assert.equal(by(1).value, undefined, 'a redacted value is dropped');
    assert.equal(by(1).value_redacted, true);
    assert.ok(!JSON.stringify(r).includes('hunter2'), 'nowhere in the answer');
    assert.equal(by(2).value, 'alice');
    assert.equal(by(2).value_redacted, false);
    assert.equal(by(3).value, 'bob');
  });
}
