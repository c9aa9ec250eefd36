// The words by which a control names one of the three kinds of primary action the core promotes
// (docs/ranking.md): a purchase, signing in, the site's search. The encoder marks them (Flag.PURCHASE /
// SIGN_IN / SEARCH); the core decides. Written from general knowledge of shops, never from evaluation pages.
import { normalise } from './words.ts';

/**
 * Purchase, in the web-intent lexicon's languages (en de fr es it pt nl pl cs sv ru tr ja zh) and Estonian:
 * putting the product in the cart (the verb and the cart noun, or the cart noun after "into" where the
 * language says it so: "In den Warenkorb", "В корзину") or buying it. Written lower case without accents
 * (matched after words.ts `normalise`); a space matches any run of white space.
 */
const CART = '(?:shopping |my |your |the )?(?:cart|bag|basket|trolley)';
export const PURCHASE_PHRASES: readonly string[] = [
  // en
  `add (?:it )?to ${CART}`, 'buy', 'buy now', 'buy it now', 'purchase', 'check(?:out| out)', 'order now', 'book now',
  // de
  'in den (?:warenkorb|einkaufswagen)', '(?:zum|in den) warenkorb hinzufugen', '(?:jetzt |sofort )?kaufen',
  // fr
  'ajouter (?:au|a mon) (?:panier|sac)', 'acheter(?: maintenant)?',
  // es
  '(?:anadir|agregar) (?:al|a la|a mi) (?:carrito|carro|cesta|bolsa)', 'comprar(?: ahora| ya)?',
  // it
  'aggiungi (?:al|alla) (?:carrello|borsa|cestino)', '(?:acquista|compra)(?: ora| subito)?',
  // pt
  'adicionar (?:ao|a) (?:carrinho|cesto|sacola|saco)', 'comprar agora',
  // nl
  '(?:in|toevoegen aan) (?:de |mijn )?(?:winkelwagen|winkelmand|winkelmandje)', '(?:nu )?kopen',
  // pl
  '(?:dodaj )?do koszyka', 'kup(?: teraz)?',
  // cs
  '(?:pridat |vlozit )?do kosiku', 'koupit',
  // sv
  'lagg i (?:varukorgen|kundvagnen)', 'kop(?: nu)?', 'kopa',
  // ru
  '(?:добавить )?в корзину', 'купить',
  // tr
  'sepete ekle', 'satin al', 'hemen al',
  // et
  'lisa ostukorvi', 'osta',
];
/** The same in scripts without spaces between words (ja zh): matched anywhere in the label. */
export const PURCHASE_PHRASES_CJK: readonly string[] = [
  'カートに入れる', 'カートに追加', '購入', '加入购物车', '加入購物車', '放入购物车', '购买', '購買',
];

const BOUNDARY_BEFORE = '(?<![\\p{L}\\p{N}])';
const BOUNDARY_AFTER = '(?![\\p{L}\\p{N}])';
const PURCHASE = new RegExp(`${BOUNDARY_BEFORE}(?:${PURCHASE_PHRASES.map((p) => p.replace(/ /g, '\\s+')).join('|')})${BOUNDARY_AFTER}`
  + `|${PURCHASE_PHRASES_CJK.map(normalise).join('|')}`, 'iu');
const NON_ASCII = /[^\x00-\x7f]/;

/** The label names a purchase. Accents are dropped only when the label has any (most labels are ASCII). */
export const namesPurchase = (text: string): boolean => PURCHASE.test(NON_ASCII.test(text) ? normalised(text) : text);

/** A matcher over phrases written in plain text (lower case; accents and the Cyrillic breve are dropped here by
 *  `normalise`, as they are from the label): a space matches any run of white space. */
const alternation = (list: readonly string[]): string => list.map((p) => normalise(p).replace(/ /g, '\\s+')).join('|');
// A letter, digit or "_" on either side means the word is part of another one or of an identifier (a field
// named "label_id__search_form" is not a search box; the English-only lists' ASCII \b treated "_" so too).
// Words that are also ordinary words (Turkish "ara", Spanish "cerca" = near, German "anmelden" a newsletter)
// count only as a whole label or a whole part of one between "/" or "|" ("Anmelden / Registrieren").
// Account nouns: the whole label, as the English rule was ("Account +" opens a footer section).
// CJK phrases count anywhere, or (`cjkEnds`) where they end the label or a part of it: a CJK label names the
// action with the word last ("ウェブ検索", "站内搜索", "一键登录"), while "検索データ" (search data) is a compound.
interface Words { phrases: readonly string[]; segments?: readonly string[]; whole?: readonly string[]; cjk?: readonly string[]; cjkEnds?: boolean }
function pattern(words: Words, word: string, ascii: boolean): RegExp {
  const keep = (list: readonly string[] = []) => (ascii ? list.filter((p) => !NON_ASCII.test(normalise(p).replace(/\[[^\]]*\]/g, ''))) : list);
  const segmentAfter = `(?=\\s*[/|]|[^${word}]*$)`;
  const phrases = alternation(keep(words.phrases));
  const parts = [ascii ? `\\b(?:${phrases})\\b` : `(?<![${word}])(?:${phrases})(?![${word}])`];
  if (keep(words.segments).length) parts.push(`(?:^[^${word}]*|[/|]\\s*)(?:${alternation(keep(words.segments))})${segmentAfter}`);
  if (keep(words.whole).length) parts.push(`^\\s*(?:${alternation(keep(words.whole))})\\s*$`);
  if (!ascii && words.cjk) parts.push(`(?:${alternation(words.cjk)})${words.cjkEnds ? segmentAfter : ''}`);
  return new RegExp(parts.join('|'), ascii ? 'i' : 'iu');
}
/** A matcher over a label. A label that is ASCII (most are), or becomes so once its accents are dropped, is
 *  read by a pattern of the ASCII words alone with ASCII boundaries, several times cheaper than the Unicode one. */
function matcher(words: Words): (text: string) => boolean {
  const ascii = pattern(words, 'A-Za-z0-9_', true);
  const unicode = pattern(words, '\\p{L}\\p{N}_', false);
  return (text) => {
    if (!NON_ASCII.test(text)) return ascii.test(text);
    const label = normalised(text); // "Iniciar sesión" is ASCII once its accents are dropped
    return NON_ASCII.test(label) ? unicode.test(label) : ascii.test(label);
  };
}
/** The last label normalised: the encoder asks each matcher about the same label in turn. */
let lastText = '';
let lastNormalised = '';
function normalised(text: string): string {
  if (text !== lastText) { lastText = text; lastNormalised = normalise(text); }
  return lastNormalised;
}

/**
 * Sign in, in the same languages: the verb ("Sign in", "Anmelden", "Se connecter", "Iniciar sesión", "Accedi",
 * "Inloggen", "Zaloguj się", "Přihlásit", "Logga in", "Войти", "Giriş yap", "ログイン", "登录") or a label that is
 * only the visitor's account ("Account", "Mein Konto", "Mon compte", "Mi cuenta", "Mina sidor": the header
 * link that signs a visitor in; "Create an account" and "Account settings" are not).
 */
export const SIGN_IN_PHRASES: readonly string[] = [
  'sign[ -]?in', 'log[ -]?in', // en, and "login" / "log in" in most of the others
  'einloggen', 'se connecter', 'connectez-vous', 'connexion', 's\'identifier', 'identifiez-vous', // de fr
  'iniciar sesion', 'inicia sesion', 'identificate', 'accedi', 'iniciar sessao', 'inicie sessao', 'fazer login', // es it pt
  'inloggen', 'zaloguj(?: sie)?', 'logowanie', 'prihlasit(?: se)?', 'prihlaseni', 'logga in', // nl pl cs sv
  'войти', 'личный кабинет', 'giriş yap', 'oturum aç', 'üye girişi', 'logi sisse', // ru tr et
];
/** Sign-in words that are also ordinary words or sign-ups ("Newsletter anmelden", "Acceder al contenido"). */
export const SIGN_IN_SEGMENTS: readonly string[] = [
  'anmelden', 'aanmelden', 'acceder', 'ingresar', 'entrar', 'entra', 'accesso', 'acessar', 'aceder', 'вход', 'giriş',
];
export const ACCOUNT_LABELS: readonly string[] = [
  '(?:my |your )?account', '(?:mein |dein )?konto', 'kundenkonto', '(?:mon )?compte', 'espace client', '(?:mi )?cuenta',
  '(?:il )?mio account', '(?:minha )?conta', 'mijn account', 'moje konto', '(?:muj )?účet', 'mitt konto', 'mina sidor',
  '(?:мой )?аккаунт', 'hesab[iı]m', 'minu konto',
];
export const SIGN_IN_PHRASES_CJK: readonly string[] = [
  'ログイン', 'ログインする', 'サインイン', 'マイページ', '(?<!退出)登录', '(?<!退出)登入', '(?<!退出)登錄', '我的账户', '我的帳戶',
];
/** The label names signing in. */
export const namesSignIn = matcher({ phrases: SIGN_IN_PHRASES, segments: SIGN_IN_SEGMENTS, whole: ACCOUNT_LABELS, cjk: SIGN_IN_PHRASES_CJK, cjkEnds: true });

/** The site's search, on a link or control: "Search", "Suchen", "Rechercher", "Buscar", "Pesquisar", "Zoeken",
 *  "Szukaj", "Hledat", "Поиск", "検索", "搜索"; nouns and short verbs that are also ordinary words ("Cerca",
 *  "Ara", "Sök", "Recherche") only as a whole label or part. */
export const SEARCH_PHRASES: readonly string[] = [
  'search', 'suche', 'suchen', 'durchsuchen', 'rechercher', 'buscar', 'pesquisar', 'procurar', 'zoeken', 'zoek',
  'szukaj', 'wyszukaj', 'hledat', 'vyhledat', 'vyhledavani', 'поиск', 'искать', 'otsi',
];
export const SEARCH_SEGMENTS: readonly string[] = [
  'recherche', 'busqueda', 'busca', 'cerca', 'ricerca', 'pesquisa', 'wyszukiwanie', 'hledani', 'sök', 'найти', 'ara',
  'arama', 'otsing',
];
export const SEARCH_PHRASES_CJK: readonly string[] = ['検索', '検索する', '搜索', '搜尋', '搜寻'];
/** The label names the site's search. */
export const namesSearch = matcher({ phrases: SEARCH_PHRASES, segments: SEARCH_SEGMENTS, cjk: SEARCH_PHRASES_CJK, cjkEnds: true });

/** A text field's own words (or placeholder) that ask for a search query ("What are you looking for?",
 *  "Was suchen Sie?", "¿Qué estás buscando?", "Czego szukasz?", "Что вы ищете?"). In a field the ordinary
 *  words above are a query too ("Cerca", "Ara"), so they match anywhere. */
export const QUERY_FIELD_PHRASES: readonly string[] = [
  ...SEARCH_PHRASES, ...SEARCH_SEGMENTS,
  'find', 'looking for', 'keywords?', 'suchbegriff', 'stichwort', 'recherchez', 'mots?[ -]cles?', 'buscando', 'busque',
  'parole chiave', 'parola chiave', 'cosa cerchi', 'palavras?[ -]chave', 'procurando', 'zoekterm', 'szukasz',
  'hledate', 'hledany vyraz', 'söka', 'sökord', 'ищете', 'ar[iı]yorsunuz', 'anahtar kelime',
];
export const QUERY_FIELD_PHRASES_CJK: readonly string[] = [...SEARCH_PHRASES_CJK, 'キーワード', '关键词', '关键字', '關鍵字'];
/** A text field's words or placeholder ask for a search query. */
export const asksForQuery = matcher({ phrases: QUERY_FIELD_PHRASES, cjk: QUERY_FIELD_PHRASES_CJK });
