// Issue 20, tenth round: sign in, the visitor's account and the site's search named in the page's own language
// rank near the top without a goal. Real Chromium on a localhost fixture page (a Dutch shop listing whose twelve
// visible filter checkboxes outrank any unpromoted control or link), collected by our collector and ranked by the
// Wasm core through the real HTTP server; plus the word lists' true and false cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { FIXTURES, type FixtureServer } from './helpers/fixtures.ts';
import { useRankRig } from './helpers/rank-rig.ts';
import { snapshot, waitForStable, type SightlineApi } from '../src/client/index.ts';
import { namesSignIn, namesSearch, asksForQuery, namesSubmit, ORDINARY, ACCOUNT_NOT_SIGN_IN, SEARCH_FIELD_ONLY, SIGN_IN, SEARCH } from '../src/rank/action-words.ts';
import { CONCEPTS } from '../src/rank/lexicon.ts';
import { normalise } from '../src/rank/words.ts';

let fx: FixtureServer;
let page: Page;
let api: SightlineApi;
useRankRig((rig) => ({ fx, page, api } = rig));

/** Goal-less ranks (0-based, -1 when outside the top 50) of the elements with these labels. */
async function ranks(labels: string[]): Promise<number[]> {
  await waitForStable(page, { quietMs: 100 });
  const r = await snapshot(page, { limit: 50, api });
  const texts = r.elements.map((e) => (e.text ?? e.name ?? '').trim());
  return labels.map((l) => texts.indexOf(l));
}
const html = () => readFileSync(`${FIXTURES}/winkel.html`, 'utf8');

test('a Dutch header\'s "Zoeken" and "Mijn account" rank in the top 10 above twelve visible filter checkboxes', async () => {
  await page.goto(`${fx.url}/winkel.html`);
  const [search, account] = await ranks(['Zoeken', 'Mijn account']);
  assert.ok(search >= 0 && search < 10, `Zoeken at ${search + 1}`);
  assert.ok(account >= 0 && account < 10, `Mijn account at ${account + 1}`);
});

test('account nouns and search words in other languages are promoted too; look-alikes are not', async () => {
  for (const [label, promoted] of [['Mein Konto', true], ['Moje konto', true], ['Hesabım', true], ['Oma tili', true], ['Client Area', true], ['Kundenbereich', true], ['Area riservata', true], ['Client area news', false], ['Account instellingen', false],
    // Creating an account is not the sign in, but since issue 38's seventh round it starts the service (Flag.START).
    ['Account aanmaken', true]] as const) {
    await page.setContent(html().replace('>Mijn account<', `>${label}<`));
    const [at] = await ranks([label]);
    assert.equal(at >= 0 && at < 10, promoted, `${label} at ${at + 1}`);
  }
  // The button alone, without its field: a field's button ranks with the field whatever its words (score.ts
  // markFieldButtons), and here the words alone are tested.
  for (const [label, promoted] of [['検索', true], ['サイト内検索', true], ['搜索', true], ['ค้นหา', true], ['検索データ', false], ['Szukaj', true], ['Поиск', true], ['Keresés', true], ['Cerca', true], ['Αναζήτηση', true], ['Vind', false], ['Cerca vicino a te', false]] as const) {
    await page.setContent(html().replace('>Zoeken<', `>${label}<`).replace('<input type="text" name="q" aria-label="">', ''));
    const [at] = await ranks([label]);
    assert.equal(at >= 0 && at < 10, promoted, `${label} at ${at + 1}`);
  }
});

test('a Dutch header\'s "Inloggen" and sign-in verbs in other languages rank in the top 10; sign-ups and ordinary words do not', async () => {
  await page.goto(`${fx.url}/winkel.html`);
  const [login] = await ranks(['Inloggen']);
  assert.ok(login >= 0 && login < 10, `Inloggen at ${login + 1}`);
  for (const [label, promoted] of [['Anmelden / Registrieren', true], ['Zaloguj się', true], ['Se connecter', true], ['Kirjaudu sisään', true], ['Σύνδεση', true],
    ['Đăng nhập', true], ['Giriş Yap', true], ['Aanmelden nieuwsbrief', false], ['Entrar em contato', false]] as const) {
    await page.setContent(html().replace('>Inloggen<', `>${label}<`));
    const [at] = await ranks([label]);
    assert.equal(at >= 0 && at < 10, promoted, `${label} at ${at + 1}`);
  }
});

test('sign-in words of scripts without spaces rank in the top 10 where they end a short label; a compound they begin does not', async () => {
  // Issue 38, fifth round: "ログイン" (a Japanese header's log in) was ranked like any link. French first-person "Je me
  // connecte" too.
  for (const [label, promoted] of [['ログイン', true], ['マイページログイン', true], ['会員ログイン / 新規登録', true], ['一键登录', true], ['เข้าสู่ระบบ', true],
    ['Je me connecte', true], ['ログイン履歴', false], ['ログインしてコメントを書く', false]] as const) {
    await page.setContent(html().replace('>Inloggen<', `>${label}<`).replace('>Mijn account<', '>Verlanglijst<'));
    const [at] = await ranks([label]);
    assert.equal(at >= 0 && at < 10, promoted, `${label} at ${at + 1}`);
  }
});

test('a news header\'s "Manage My Account" ranks in the top 10 among section, trending and share links', async () => {
  await page.goto(`${fx.url}/news-header.html`);
  const [account] = await ranks(['Manage My Account']);
  assert.ok(account >= 0 && account < 10, `Manage My Account at ${account + 1}`);
});

test('the word lists: whole words, ordinary words only as a whole label or part, account nouns only alone', () => {
  for (const l of ['Sign in', 'Log-in', 'LOGIN', 'Inloggen', 'Anmelden', 'Connexion | Inscription', "S'identifier", 'Iniciar sesión', 'Войти', 'Logi sisse', 'Prihlásiť sa', 'My account', 'Your Account', 'Mein Konto', 'Mi cuenta', 'Minu konto', 'Můj účet', 'Hesabım', 'マイページ', 'Manage My Account', 'View your account',
    'ログイン', 'マイページログイン', '会員ログイン | 新規会員登録', '登录', '一键登录', '登入', 'เข้าสู่ระบบ', 'Je me connecte', 'Me connecter',
    'Client Area', 'Customer portal', 'Members Area', 'Espace membre', 'Área de clientes', 'Strefa klienta']) assert.ok(namesSignIn(l), l);
  for (const l of ['Create an account', 'Account settings', 'Account +', 'Manage subscription', 'Manage my account settings', 'View profile', 'Profile', 'Dashboard', 'Sign up', 'Log out', 'Signing in help', 'Newsletter anmelden',
    'Acceder al contenido', 'Entra nel vivo', 'Prijava na novice', 'ログイン履歴', 'ログインしてコメントを書く', 'ログインはこちらからどうぞ皆様ようこそ', '登录后查看更多', 'Client areas we serve', 'Customer portal news']) assert.ok(!namesSignIn(l), l);
  for (const l of ['Submit', 'Send', 'Send message', 'Submit »', 'Absenden', 'Envoyer', 'Enviar', 'Wyślij', 'Отправить', 'Gönder', '送信', '提交', 'Lähetä', 'Trimite',
    'إرسال', 'שלח', 'Kirim', '제출']) assert.ok(namesSubmit(l), l);
  for (const l of ['Apply', 'Submit a request', 'Send us your CV today', 'Search', 'Add to cart', 'ส่งฟรี']) assert.ok(!namesSubmit(l), l);
  for (const l of ['Search', 'Site search', 'Suchen', 'Zoeken', 'Szukaj', 'Поиск по сайту', 'Cerca', 'Ara', 'Menu | Cerca', 'Søg', 'Hľadať', 'Tìm kiếm', 'חיפוש', '검색', '検索', 'サイト内検索', '搜索', '站内搜索', 'ค้นหา']) assert.ok(namesSearch(l), l);
  for (const l of ['Find a store', 'Find', 'Look up', 'Cerca di noi', 'Ara Güler', 'Recherche et développement', 'Ricerca e sviluppo', 'Zoek een winkel', 'Найти магазин', 'Cari amici', 'label_id__search_form', '検索データ', '検索結果を保存してあとで見る', '搜索引擎优化服务']) assert.ok(!namesSearch(l), l);
  for (const l of ['What are you looking for?', 'Find products', 'Was suchen Sie?', '¿Qué estás buscando?', 'Czego szukasz?', 'Что вы ищете?', 'Cerca nel sito', 'Ürün ara', 'キーワードを入力']) assert.ok(asksForQuery(l), l);
  for (const l of ['Email address', 'First name', 'Your message', 'Password', 'Postcode']) assert.ok(!asksForQuery(l), l);
});

test('the filters name words of the lexicon (lexicon.ts is the one list of sign-in and search words)', () => {
  const lexicon = new Set([...CONCEPTS.login, ...CONCEPTS.account, ...CONCEPTS.search].map(normalise));
  for (const w of [...ORDINARY, ...ACCOUNT_NOT_SIGN_IN, ...SEARCH_FIELD_ONLY]) assert.ok(lexicon.has(w), `${w} is not a lexicon word`);
});

test('every derived word is found as a label of its own (the stem scan in front of the patterns misses none)', () => {
  let checked = 0;
  for (const [kind, names] of [[SIGN_IN, namesSignIn], [SEARCH, namesSearch], [SEARCH, asksForQuery]] as const) {
    for (const w of [...kind.phrases, ...kind.parts, ...kind.whole]) {
      for (const label of [w, w.toUpperCase(), ` ${w} `]) assert.ok(names(label), `"${label}"`);
      checked++;
    }
  }
  assert.ok(checked >= 150, `${checked} words`);
});
