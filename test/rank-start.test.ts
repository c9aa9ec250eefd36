// Issue 38, seventh round: a service page's purchase is starting it ("Get started", "Start free trial", "Request a
// quote"; Flag.START, docs/ranking.md). Real Chromium on a localhost fixture page, collected by our collector and
// ranked by the Wasm core through the real HTTP server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { FixtureServer } from './helpers/fixtures.ts';
import { useRankRig } from './helpers/rank-rig.ts';
import { snapshot, waitForStable, type SightlineApi } from '../src/client/index.ts';
import { namesStart } from '../src/rank/action-words.ts';

let fx: FixtureServer;
let page: Page;
let api: SightlineApi;
useRankRig((rig) => ({ fx, page, api } = rig));

test('a service page\'s "Get started" two screens down ranks in the top 10 under a crowded first screen', async () => {
  await page.goto(`${fx.url}/saas-start.html`);
  await waitForStable(page, { quietMs: 100 });
  const box = await page.locator('#plans a.btn').boundingBox();
  assert.ok(box && box.y > 1600, `"Get started" is two screens down (y ${box?.y})`);
  const r = await snapshot(page, { limit: 50, api });
  const texts = r.elements.map((e) => e.text ?? '');
  const start = texts.indexOf('Get started'), trial = texts.indexOf('Start free trial');
  assert.ok(start >= 0 && start < 10, `"Get started" at ${start + 1}`);
  assert.ok(trial >= 0 && trial < 10, `"Start free trial" at ${trial + 1}`);
  assert.ok(texts.indexOf('Log in') >= 0 && texts.indexOf('Log in') < 10, `the sign in stays in the top 10 (${texts.indexOf('Log in') + 1})`);
  // The words lead the label: a headline holding them later is a link like the others.
  const headline = texts.indexOf('How to get started with edge functions');
  assert.ok(headline > start, `the headline (${headline + 1}) below "Get started"`);
  // The footer's newsletter sign-up and repeated "Sign up" are not promoted: below every link of the first screen.
  const firstScreenLinks = r.elements.filter((e) => e.in_viewport && e.role === 'link').map((e) => r.elements.indexOf(e));
  for (const label of ['Sign up for our newsletter', 'Sign up']) {
    const k = texts.indexOf(label);
    assert.ok(k === -1 || k > Math.max(...firstScreenLinks), `footer "${label}" at ${k + 1}, under the first screen's links`);
  }
});

// Issue 38, eighth round: "Check out" followed by other words is the verb "look at" ("Check out what's new"), not the
// checkout: such links took the three link purchase promotions from the page's own "Buy now" below them.
test('"Check out what\'s new" and the like are no purchase: the page\'s "Buy now" link below them ranks in the top 10', async () => {
  await page.goto(`${fx.url}/check-out-verb.html`);
  await waitForStable(page, { quietMs: 100 });
  const r = await snapshot(page, { limit: 50, api });
  const texts = r.elements.map((e) => e.text ?? '');
  const buy = texts.indexOf('Buy now');
  assert.ok(buy >= 0 && buy < 10, `"Buy now" at ${buy + 1}`);
  for (const label of ["Check out what's new", 'Check out our summer trail guide', 'Check out the lookbook']) {
    const k = texts.indexOf(label);
    assert.ok(k === -1 || k > buy, `"${label}" at ${k + 1}, below "Buy now"`);
  }
});

// Issue 38, eighth round: the same calls to action in the lexicon's other languages (START_PHRASES_OTHER).
test('a German service page\'s "Kostenlos testen" and "Demo anfordern" two screens down rank in the top 10', async () => {
  await page.goto(`${fx.url}/saas-start-de.html`);
  await waitForStable(page, { quietMs: 100 });
  const box = await page.locator('#plans a.btn').boundingBox();
  assert.ok(box && box.y > 1600, `"Kostenlos testen" is two screens down (y ${box?.y})`);
  const r = await snapshot(page, { limit: 50, api });
  const texts = r.elements.map((e) => e.text ?? '');
  for (const label of ['Kostenlos testen', 'Demo anfordern']) {
    const k = texts.indexOf(label);
    assert.ok(k >= 0 && k < 10, `"${label}" at ${k + 1}`);
  }
  // A headline asking how to get started is a link like the others.
  assert.ok(texts.indexOf('Wie kann ich loslegen? Ein Leitfaden') > texts.indexOf('Demo anfordern'), 'the headline is not promoted');
});

test('start phrases of other languages lead the label; a bare verb counts only as the whole label', () => {
  for (const label of ['Jetzt starten', 'Loslegen', 'Essai gratuit', 'Commencer', 'Demander un devis', 'Prueba gratis', 'Empieza ahora', 'Richiedi un preventivo',
    'Começar agora', 'Aan de slag', 'Wypróbuj za darmo', 'Vyzkoušet zdarma', 'Kom igång', 'Начать бесплатно', 'Оставить заявку', 'Ücretsiz dene', '無料で始める', '免费试用']) {
    assert.ok(namesStart(label), label);
  }
  for (const label of ['Commencer la lecture', 'Начать обучение', 'Wie kann ich loslegen?', 'Empezar a leer', 'Rozpocznij kurs', 'Startseite', 'Inizia', 'Başlarken']) {
    assert.ok(!namesStart(label), label);
  }
});
