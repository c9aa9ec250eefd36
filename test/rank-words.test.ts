// Issue 20: a page's sign in and search rank near the top without a goal in the page's own language.
// Real Chromium on a localhost fixture news page, collected by our collector and ranked by the Wasm core
// through the real HTTP server: a small header sign-in link behind sixteen larger teaser links in the
// first screen, and a search field two screens down.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launch } from './helpers/browser.ts';
import { serveFixtures, FIXTURES, type FixtureServer } from './helpers/fixtures.ts';
import { startServer, createKey, removeDataDir, type ServerProcess } from './helpers/server.ts';
import { snapshot, waitForStable, SightlineApi } from '../src/client/index.ts';

let fx: FixtureServer;
let browser: Browser;
let page: Page;
let server: ServerProcess;
let api: SightlineApi;
const html = () => readFileSync(`${FIXTURES}/zeitung.html`, 'utf8');

before(async () => {
  [fx, browser, server] = await Promise.all([serveFixtures(), launch(), startServer(['--rate-limit', '1000', '--rate-burst', '1000'])]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  api = new SightlineApi({ baseUrl: server.url, apiKey: await createKey(server.dataDir, 100) });
});
after(async () => {
  await browser.close();
  await fx.close();
  await server.stop();
  removeDataDir(server.dataDir);
});

/** 0-based rank in the goal-less top 50 of the element whose text or name is `label`, or -1. */
async function rankOf(label: string): Promise<number> {
  await waitForStable(page, { quietMs: 100 });
  const r = await snapshot(page, { limit: 50, api });
  return r.elements.findIndex((e) => (e.text ?? e.name ?? '').trim() === label || (e.name ?? '').trim() === label);
}

test('the German page: the header "Anmelden" and the search field two screens down rank in the top 10', async () => {
  await page.goto(`${fx.url}/zeitung.html`);
  const box = await page.locator('#q').boundingBox();
  assert.ok(box && box.y > 1600, `the field is two screens down (y ${box?.y})`);
  const signIn = await rankOf('Anmelden');
  assert.ok(signIn >= 0 && signIn < 10, `Anmelden at ${signIn + 1}`);
  const search = await rankOf('Suchbegriff eingeben');
  assert.ok(search >= 0 && search < 10, `search field at ${search + 1}`);
});

test('sign-in labels in other languages are the sign in', async () => {
  for (const label of ['Se connecter', 'Iniciar sesión', 'Accedi', 'Entrar', 'Inloggen', 'Zaloguj się', 'Přihlásit se', 'Logga in',
    'Войти', 'Giriş yap', 'ログイン', '登录', 'Mein Konto', 'Mon compte', 'Anmelden / Registrieren']) {
    await page.setContent(html().replace('>Anmelden<', `>${label}<`));
    const at = await rankOf(label);
    assert.ok(at >= 0 && at < 10, `${label} at ${at + 1}`);
  }
});

test('search placeholders in other languages ask for a query', async () => {
  for (const label of ['Rechercher sur le site', '¿Qué estás buscando?', 'Cerca', 'Pesquisar', 'Zoeken', 'Czego szukasz?', 'Hledat',
    'Sök', 'Поиск по сайту', 'Ne arıyorsunuz?', 'キーワードを入力', '搜索']) {
    await page.setContent(html().replace('Suchbegriff eingeben', label));
    const at = await rankOf(label);
    assert.ok(at >= 0 && at < 10, `${label} at ${at + 1}`);
  }
});

test('ordinary words that share a sign-in or search word are not promoted', async () => {
  // A newsletter sign-up, a skip link, a person named Ara, Spanish "cerca" (near), signing out, and a CJK
  // compound that only contains the word ("search history").
  for (const label of ['Zum Newsletter anmelden', 'Acceder al contenido', 'Ara Güler', 'Cerca de ti', '退出登录', '検索履歴']) {
    await page.setContent(html().replace('>Anmelden<', `>${label}<`));
    const at = await rankOf(label);
    assert.ok(at === -1 || at >= 10, `${label} at ${at + 1}: not promoted`);
  }
});
