// The words by which a control names one of the kinds of primary action the core promotes
// (docs/ranking.md): a purchase, signing in, the site's search, starting a service (namesStart, at the end: English
// phrases, the same in the lexicon's other languages, the register words). The
// encoder marks them (Flag.PURCHASE / SIGN_IN / SEARCH / START); the core decides. Written from general knowledge of the web, never from evaluation
// pages, in one fixed set of languages (LANGUAGES; docs/ranking.md, tenth round). Sign in and search are
// derived from the web-intent lexicon's `login`, `account` and `search` concepts (lexicon.ts, the one list
// of those words), filtered for precision below; purchases keep their own phrases, which say more than the
// lexicon's `buy` words (the verb with the cart noun, the boundary rules, the stems of the fast scan).
import { normalise } from './words.ts';
import { asciiScanner, CANNOT_TELL } from './ascii-scan.ts';
import { CONCEPTS } from './lexicon.ts';
import { ACTION_LABEL_MAX } from '../../assembly/layout.ts';

/** The languages of all three kinds: the lexicon's 14 (en de fr es it pt nl pl cs sv ru tr ja zh), then
 *  Estonian, Slovak, Croatian, Korean (sixth and eighth rounds) and the major languages of the web left
 *  (tenth round). */
export const LANGUAGES: readonly string[] = [
  'en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'cs', 'sv', 'ru', 'tr', 'ja', 'zh', 'et', 'sk', 'hr', 'ko',
  'da', 'no', 'fi', 'hu', 'ro', 'el', 'uk', 'bg', 'sl', 'lt', 'lv', 'ar', 'he', 'vi', 'id', 'th', 'hi',
];

/**
 * Purchase, in LANGUAGES: putting the product in the cart (the verb and the cart noun, or the cart noun
 * after "into" where the language says it so: "In den Warenkorb", "В корзину", "Kosárba") or buying it.
 * Written as pages write them; compared after words.ts `normalise` (lower case, accents dropped), which
 * is applied to the phrases here; a space matches any run of white space.
 */
const CART = '(?:shopping |my |your |the )?(?:cart|bag|basket|trolley)';
export const PURCHASE_PHRASES: readonly string[] = [
  // en
  `add (?:it )?to ${CART}`, 'buy', 'buy now', 'buy it now', 'purchase', 'check(?:out| out)', 'order now', 'book now',
  'pre(?:-| )?order(?: now)?',
  // de
  'in den (?:warenkorb|einkaufswagen)', '(?:zum|in den) warenkorb hinzufugen', '(?:jetzt |sofort )?kaufen',
  // fr
  'ajouter (?:au|a mon) (?:panier|sac)', 'acheter(?: maintenant)?',
  // es
  '(?:anadir|agregar) (?:al|a la|a mi) (?:carrito|carro|cesta|bolsa)', 'comprar(?: ahora| ya)?',
  // it
  '(?:aggiungi (?:al|alla)|metti nel) (?:carrello|borsa|cestino)', '(?:acquista|compra)(?: ora| subito)?',
  // pt
  'adicionar (?:ao|a) (?:carrinho|cesto|sacola|saco)', 'comprar agora',
  // nl
  '(?:in|toevoegen aan) (?:de |mijn )?(?:winkelwagen|winkelmand|winkelmandje)', '(?:nu )?kopen',
  // pl
  '(?:dodaj )?do koszyka', 'kup(?: teraz)?',
  // cs, sk
  '(?:pridat |vlozit )?do kosiku', 'koupit', '(?:pridat |vlozit )?do kosika', 'kupit',
  // hr, sl
  '(?:dodaj )?u kosaricu', 'kupi(?: sada| odmah| zdaj)?', '(?:dodaj )?v kosarico',
  // sv
  'lagg i (?:varukorgen|kundvagnen|korgen)', 'kop(?: nu)?', 'kopa',
  // da, no: "ø" and "æ" are letters of their own (normalise keeps them)
  '(?:læg i|tilføj til) (?:indkøbs)?kurv(?:en)?', 'køb(?: nu)?', 'legg (?:i|til i) handlekurv(?:en)?', 'kjøp(?: na)?',
  // fi, et
  '(?:lisaa )?ostoskoriin', 'osta(?: nyt)?', 'lisa (?:ostukorvi|korvi)',
  // hu, ro
  'kosarba(?: teszem| rakom)?', 'megveszem', 'adauga in cos(?:ul)?', 'cumpara(?: acum)?',
  // lt, lv
  '(?:ideti )?i krepseli', 'pirkti(?: dabar)?', '(?:pievienot grozam|ielikt groza)', 'pirkt(?: tagad)?',
  // ru, uk, bg
  '(?:добавить )?в корзину', 'купить', '(?:додати )?(?:в|у) кошик', 'купити', '(?:добави )?в количката', 'купи сега',
  // el
  'προσθήκη στο καλάθι', 'αγορά τώρα', 'αγόρασε(?: τώρα)?',
  // tr
  'sepete ekle', 'satin al', 'satın al', 'hemen al', // the dotless ı has no accent to drop
  // ar, he: the verb in the forms shops write, with and without hamza
  '(?:أضف|اضف|إضافة|اضافة) (?:إلى|الى) (?:ال)?سلة', 'اشتر(?:ي)? الآن', 'شراء', '(?:הוסף|הוספה) לסל(?: הקניות)?', 'קנה עכשיו', 'לרכישה',
  // vi, id
  'them vao gio(?: hang)?', 'mua ngay', 'chon mua', '(?:tambah|tambahkan|masukkan) ke keranjang', 'beli(?: sekarang)?',
  // hi
  'कार्ट में जोड़ें', '(?:अभी )?खरीदें',
].map(normalise);
/** The same in scripts without spaces between words (ja zh th), and Korean's compounds (buy now, purchase, put
 *  in the cart: "바로구매", "구매하기", "장바구니 담기"; the cart noun alone, "장바구니", is the cart): matched anywhere
 *  in the label. */
export const PURCHASE_PHRASES_CJK: readonly string[] = [
  'カートに入れる', 'カートへ入れる', 'カートに追加', 'カゴに入れる', 'かごに入れる', 'バッグに追加', '購入',
  '加入购物车', '加入購物車', '放入购物车', '放入購物車', '购买', '購買',
  '바로구매', '바로 구매', '구매하기', '장바구니 담기', '장바구니에 담기',
  'ใส่ตะกร้า', 'ลงตะกร้า', 'ซื้อเลย', 'ซื้อทันที',
].map(normalise);

// A letter (or a mark of one: Devanagari's vowel signs) or a digit on either side: part of another word.
const BOUNDARY_BEFORE = '(?<![\\p{L}\\p{M}\\p{N}])';
const BOUNDARY_AFTER = '(?![\\p{L}\\p{M}\\p{N}])';
const PURCHASE = new RegExp(`${BOUNDARY_BEFORE}(?:${PURCHASE_PHRASES.map((p) => p.replace(/ /g, '\\s+')).join('|')})${BOUNDARY_AFTER}`
  + `|${PURCHASE_PHRASES_CJK.join('|')}`, 'iu');
/**
 * A stem that every purchase phrase above holds in every spelling it allows (test/rank-purchase.test.ts
 * expands the phrases and checks). Most labels hold none, and a plain scan for them costs a tenth of the
 * full pattern's look-behinds and Unicode classes (bench:check, rank-vs-parse-1k).
 */
export const PURCHASE_STEMS: readonly string[] = [
  'cart', 'bag', 'basket', 'trolley', 'buy', 'purchase', 'check', 'order', 'book', // en
  'warenkorb', 'einkaufswagen', 'kaufen', 'ajouter', 'acheter', 'anadir', 'agregar', 'compra', // de fr es pt
  'aggiungi', 'metti', 'acquista', 'adicionar', 'winkel', 'kopen', 'koszyka', 'kup', 'kosik', 'koupit', // it pt nl pl cs sk hr
  'kosaric', 'lagg', 'kop', 'kurv', 'køb', 'kjøp', 'ostoskori', 'ostukorvi', 'korvi', 'osta', // hr sl sv da no fi et
  'kosarba', 'megveszem', 'adauga', 'cumpar', 'krepsel', 'pirkt', 'groz', // hu ro lt lv
  'корзин', 'купить', 'кошик', 'купити', 'количк', 'купи', 'καλαθι', 'αγορ', 'sepete', 'satin', 'satın', 'hemen', // ru uk bg el tr
  'سلة', 'اشتر', 'شراء', 'לסל', 'קנה', 'רכיש', 'vao', 'mua', 'keranjang', 'beli', 'कार्ट', 'खरीद', // ar he vi id hi
  ...PURCHASE_PHRASES_CJK,
].map(normalise);
const STEM = new RegExp(PURCHASE_STEMS.join('|'), 'i');
// The scan reads each stem as the literal word STEM's alternation makes of it: a stem must be plain text.
for (const s of PURCHASE_STEMS) if (/[\\^$.|?*+()[\]{}]/.test(s)) throw new Error(`PURCHASE_STEMS: "${s}" is a pattern, not a word`);
const NON_ASCII = /[^\x00-\x7f]/;

/** Going to the cart, where a language puts the cart after "into" as it does for adding to it ("Przejdź do
 *  koszyka", "Перейти в корзину"): the cart link, not a purchase. */
const GO_TO_CART = /(?:przejdz|prejit|prejst|переити|idi|pojdi)\s+(?:do|в|у|u|v)\s|מעבר\s+ל/iu;
/** "Check out" as the verb "look at": followed by words that are not the cart, the order or how to pay ("Check out
 *  what's new", "Check out our blog"); "Checkout", "Check out", "Check out now", "Check out your cart", "Check out
 *  with PayPal" stay the purchase. Dropped from the label before the purchase patterns read it. */
const CHECK_OUT_VERB = /(?<![\p{L}\p{N}])check\s+out(?=\s+(?!(?:(?:your|my|the|this)\s+)?(?:cart|bag|basket|trolley|order)s?(?![\p{L}\p{N}])|(?:now|securely|here|with|as)(?![\p{L}\p{N}]))\p{L})/giu;
const PURCHASE_LEAD = new RegExp(`^\\s*(?:${PURCHASE_PHRASES.map((p) => p.replace(/ /g, '\\s+')).join('|')})${BOUNDARY_AFTER}`, 'iu');
/** The label as the phrase patterns read it (accents dropped when it has any), or null when it holds no stem
 *  (most labels: the scan tells them without a copy). */
function withStem(text: string): string | null {
  const found = stemGroups(text);
  if (found !== CANNOT_TELL && (found & PURCHASE_GROUP) === 0) return null;
  const t = (NON_ASCII.test(text) ? normalised(text) : text).replace(CHECK_OUT_VERB, ' ');
  return found !== CANNOT_TELL || STEM.test(t) ? t : null;
}

/** A long label begins with purchase words (its first ACTION_LABEL_MAX chars are passed). */
export function leadsWithPurchase(text: string): boolean {
  const t = withStem(text);
  return t !== null && PURCHASE_LEAD.test(t) && !GO_TO_CART.test(t);
}

/** The label names a purchase. */
export function namesPurchase(text: string): boolean {
  const t = withStem(text);
  return t !== null && PURCHASE.test(t) && !GO_TO_CART.test(t);
}

const PURCHASE_CJK = new RegExp(PURCHASE_PHRASES_CJK.join('|'), 'iu');
/** What may come before a link's purchase words: numbers, prices and marks ("$29.95 Add to cart"). */
const BEFORE_LEAD = /^[^\p{L}]+/u;
/**
 * A link names a purchase when its label leads with the purchase words (numbers and prices before them aside)
 * or holds a phrase of a script without spaces. A link with those words later in its label is a headline or a
 * name, not an action: "How to buy an Instagram following", "Which Air Fryer Should You Buy?", "Best Buy
 * Canada", "Verified Purchase". A button keeps namesPurchase ("15859 Add to cart - $29.95", "Quick buy").
 */
export function namesPurchaseLink(text: string): boolean {
  const t = withStem(text);
  if (t === null || GO_TO_CART.test(t)) return false;
  return PURCHASE_CJK.test(t) || PURCHASE_LEAD.test(t.replace(BEFORE_LEAD, ''));
}

// Sign in and search: the lexicon's words, in three kinds of place. A lexicon phrase serves a goal, where
// any word that may mean the action helps; a flag promotes a control above the page's other controls without
// a goal, so it needs the phrase to name the action in the label:
// - most phrases, as whole words anywhere in the (short) label: "Sign in", "Zaloguj się", "Поиск по сайту";
// - words that are also ordinary words or other actions (ORDINARY: Italian "cerca" = near, Turkish "ara",
//   German "anmelden" a newsletter, Estonian "otsi"), only as the whole label or a whole part of it between
//   "/" or "|" ("Anmelden / Registrieren");
// - account nouns only as the whole label, or after a verb of ACCOUNT_VERBS ("My account", "Mein Konto",
//   "Manage my account"; "Create an account", "Account settings" and "Account +", a footer section's toggle,
//   are not the sign in), and not a profile or dashboard (ACCOUNT_NOT_SIGN_IN);
// - sign-in and search words of scripts written without spaces (Han, kana, Thai): in a search field's words
//   anywhere (as 'キーワード'; account nouns count as the whole label in any script); on a link or control only
//   where they end a short label or a part of it between "/" or "|" (UNSPACED_LABEL_MAX: "ログイン",
//   "マイページログイン", "会員ログイン / 新規登録", "一键登录", "サイト内検索"), since such a word ends its compound
//   ("ログイン履歴", login history, and "検索データ" are not the action). Anywhere in the label they cost the goal
//   rerank a dev goal (docs/ranking.md, tenth round); at the end they do not (issue 38, fifth round). Korean
//   writes spaces between words: its words are whole words like the others ("로그인", "검색");
// - 'find', 'look up' name a search only in a text field that asks for the query (SEARCH_FIELD_ONLY): "Find
//   a store" is not the site search.

/** Lexicon words (normalised) that are also ordinary words or other actions: a whole label or part only. */
export const ORDINARY: ReadonlySet<string> = new Set([
  // login
  'anmelden', 'anmeldung', 'aanmelden', 'connexion', 'connecter', 'identifier', 'ingresar', 'entrar', 'acceder', 'accesso', 'entra', 'вход',
  'giris', 'belepes', 'conectare', 'εισοδος', 'вхід', 'влез', 'prijava', 'prijavi se', 'ienakt', 'دخول', 'כניסה', 'masuk',
  // search
  'recherche', 'busqueda', 'busca', 'cerca', 'cercare', 'ricerca', 'pesquisa', 'zoek', 'hledani', 'sok', 'soka', 'søg', 'søk', 'найти',
  'ara', 'arama', 'hae', 'haku', 'otsi', 'otsing', 'trazi', 'بحث', 'cari', 'खोज',
].map(normalise));
/** The `account` concept's words that name a profile or a dashboard, not the visitor's account link. */
export const ACCOUNT_NOT_SIGN_IN: ReadonlySet<string> = new Set(['profile', 'dashboard', 'profil', 'perfil', 'profilo', 'профиль']);
/** Verbs that may lead an account noun and keep it the visitor's account link: "Manage My Account", "View your
 *  account" (a news site's header: dev4, docs/ranking.md eleventh round). English only, as such labels are. */
export const ACCOUNT_VERBS: readonly string[] = ['manage', 'view', 'access', 'go to'];
/** The `search` concept's words that ask for a query in a field but do not name the site search on a control. */
export const SEARCH_FIELD_ONLY: ReadonlySet<string> = new Set(['find', 'look up', 'lookup']);
/**
 * What a search field asks (its words or placeholder), besides the search words: "What are you looking for?",
 * "Keywords", "Was suchen Sie?", "¿Qué estás buscando?", "Czego szukasz?", "Что вы ищете?". A separate list
 * on purpose: in the lexicon, "looking for" would tie a goal such as "looking for the contact page" to search.
 */
export const QUERY_FIELD_PHRASES: readonly string[] = [
  'looking for', 'keywords?', 'suchbegriff', 'stichwort', 'recherchez', 'mots? cles?', 'buscando', 'busque', 'palabras? clave',
  'cercando', 'cerchi', 'parole? chiave', 'procurando', 'procura', 'palavras? chave', 'zoekterm', 'trefwoord', 'szukasz',
  'hledate', 'hladate', 'söker', 'sökord', 'søgeord', 'søkeord', 'hakusana', 'kulcsszo', 'ищете', 'ключевое слово', 'шукаєте',
  'arıyorsunuz', 'ariyorsunuz', 'anahtar kelime', 'kata kunci', 'từ khóa', 'お探し', 'キーワード', '关键词', '关键字', '關鍵字', '검색어',
  'คำค้น',
];

/** Written without spaces between words: Han, kana, Thai. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
/** `unspaced`: matched anywhere (a search field's words); `ends`: unspaced words that count where they end a short
 *  label or a part of it (sign in and search on a link or control). */
interface Words { phrases: string[]; parts: string[]; whole: string[]; unspaced: string[]; ends: string[] }
/** Sorts normalised lexicon phrases into the kinds of place above (account nouns: the whole label). */
function sort(phrases: readonly string[], account = false): Words {
  const w: Words = { phrases: [], parts: [], whole: [], unspaced: [], ends: [] };
  for (const p of new Set(phrases.map(normalise))) {
    if (account) w.whole.push(p);
    else if (UNSPACED.test(p)) w.unspaced.push(p);
    else (ORDINARY.has(p) ? w.parts : w.phrases).push(p);
  }
  return w;
}
const plus = (a: Words, b: Words): Words => ({ phrases: [...a.phrases, ...b.phrases], parts: [...a.parts, ...b.parts], whole: [...a.whole, ...b.whole], unspaced: [...a.unspaced, ...b.unspaced], ends: [...a.ends, ...b.ends] });

/** Unspaced sign-in and search words only where they end a label of at most this many characters (or a part of it): the word
 *  with a short compound before it ("マイページログイン", "会員ログイン / 新規登録"), not a sentence. */
export const UNSPACED_LABEL_MAX = 16;
const atEnd = (w: Words): Words => ({ ...w, unspaced: [], ends: [...w.ends, ...w.unspaced] });
export const SIGN_IN: Words = atEnd(plus(sort(CONCEPTS.login), sort(CONCEPTS.account.filter((p) => !ACCOUNT_NOT_SIGN_IN.has(p)), true)));
export const SEARCH: Words = atEnd(sort(CONCEPTS.search.filter((p) => !SEARCH_FIELD_ONLY.has(p))));
/** In a field every search word asks for a query ("Cerca", "Ara", "Find"), anywhere in its words. */
const QUERY: Words = (() => {
  const all = sort([...CONCEPTS.search, ...QUERY_FIELD_PHRASES]);
  return { phrases: [...all.phrases, ...all.parts], parts: [], whole: [], unspaced: all.unspaced, ends: [] };
})();

/** A phrase as a pattern: a space matches any run of white space, hyphens or apostrophes ("sign-in",
 *  "s'identifier", "log  in"). */
const alternation = (list: readonly string[]): string => list.map((p) => p.replace(/ /g, "[\\s'’-]+")).join('|');
/**
 * The pattern of `words` over a normalised label, `word` being the characters of a word (a letter, mark, digit
 * or "_" beside a phrase makes it part of another word or of an identifier: a field named "label_id__search_form"
 * is not a search box, as the English rules' ASCII \b had it). With `ascii`, only the ASCII phrases, for labels
 * that are ASCII once normalised (most are): a pattern several times cheaper than the Unicode one.
 */
function pattern(words: Words, ascii: boolean): RegExp | null {
  const word = ascii ? 'A-Za-z0-9_' : '\\p{L}\\p{M}\\p{N}_';
  const keep = (list: readonly string[]) => (ascii ? list.filter((p) => !NON_ASCII.test(p.replace(/\[[^\]]*\]/g, ''))) : list);
  const partEnd = `(?=\\s*[/|]|[^${word}]*$)`;
  const parts: string[] = [];
  const phrases = keep(words.phrases);
  if (phrases.length) parts.push(ascii ? `\\b(?:${alternation(phrases)})\\b` : `(?<![${word}])(?:${alternation(phrases)})(?![${word}])`);
  if (keep(words.parts).length) parts.push(`(?:^[^${word}]*|[/|]\\s*)(?:${alternation(keep(words.parts))})${partEnd}`);
  if (keep(words.whole).length) parts.push(`^\\s*(?:(?:${ACCOUNT_VERBS.join('|')})\\s+)?(?:${alternation(keep(words.whole))})\\s*$`);
  if (!ascii && words.unspaced.length) parts.push(`(?:${alternation(words.unspaced)})`);
  if (!ascii && words.ends.length) parts.push(`^(?=[\\s\\S]{1,${UNSPACED_LABEL_MAX}}$)[\\s\\S]*?(?:${alternation(words.ends)})${partEnd}`);
  return parts.length ? new RegExp(parts.join('|'), ascii ? 'i' : 'iu') : null;
}
/** The longest word of a phrase, without its optional letters ("keywords?" -> "keyword"): every spelling holds it. */
const stemOf = (p: string): string => p.replace(/.\?/g, '').split(' ').reduce((a, b) => (b.length > a.length ? b : a), '');
/**
 * A test of a label: ASCII labels (and those ASCII once their accents are dropped) by the ASCII pattern. Most
 * labels hold none of the phrases' stems, which a one-pass scan tells (ascii-scan.ts) at a fraction of the
 * patterns' cost (their alternations and look-arounds are tried at every position).
 */
function matcher(words: Words, group: number): (text: string) => boolean {
  const ascii = pattern(words, true) ?? /(?!)/;
  const unicode = pattern(words, false) ?? /(?!)/;
  return (text) => {
    const found = stemGroups(text);
    if (found !== CANNOT_TELL && (found & group) === 0) return false;
    if (!NON_ASCII.test(text)) return ascii.test(text);
    const label = normalised(text);
    return NON_ASCII.test(label) ? unicode.test(label) : ascii.test(label);
  };
}
/**
 * The stems of all three kinds in one scanner (ascii-scan.ts), each kind a group: the encoder asks about a label
 * purchase first, then sign in, then search, so the label is read once. Most labels hold no stem of any; the
 * scan tells them at a fraction of the patterns' cost (their alternations are tried at every position). The
 * last two labels' answers are kept (an element's text, then its accessible name, then its text again).
 */
const PURCHASE_GROUP = 1, ACTION_GROUP = 2, QUERY_GROUP = 4;
const stemsOf = (...kinds: Words[]) => [...new Set(kinds.flatMap((w) => [...w.phrases, ...w.parts, ...w.whole]).map(stemOf))].filter((w) => w.length > 0);
const STEM_WORDS: [string, number][] = [
  ...PURCHASE_STEMS.map((w): [string, number] => [w, PURCHASE_GROUP]),
  ...stemsOf(SIGN_IN, SEARCH).map((w): [string, number] => [w, ACTION_GROUP]),
  ...stemsOf(QUERY).map((w): [string, number] => [w, QUERY_GROUP]),
];
const STEM_SCAN = asciiScanner(STEM_WORDS.map(([w]) => w), STEM_WORDS.map(([, g]) => g));
let scanned0 = '', groups0 = 0, scanned1 = '', groups1 = 0;
function stemGroups(text: string): number {
  if (text === scanned0) return groups0;
  if (text === scanned1) return groups1;
  scanned1 = scanned0; groups1 = groups0;
  scanned0 = text; groups0 = STEM_SCAN.groups(text);
  return groups0;
}
/** The last label normalised: the encoder asks about one label in turn (purchase, sign in, search). */
let lastText = '';
let lastNormalised = '';
function normalised(text: string): string {
  if (text !== lastText) { lastText = text; lastNormalised = normalise(text); }
  return lastNormalised;
}

/** The label names signing in: "Sign in", "Log-in", "Anmelden / Registrieren", "Zaloguj się", "Kirjaudu sisään",
 *  "My account", "Mein Konto". */
export const namesSignIn = matcher(SIGN_IN, ACTION_GROUP);
/** The label names the site's search: "Search", "Zoeken", "Поиск по сайту", "Cerca", "Keresés". */
export const namesSearch = matcher(SEARCH, ACTION_GROUP);
/** A text field's own words (or placeholder) ask for a search query ("What are you looking for?", "Czego szukasz?",
 *  "キーワードを入力"). */
export const asksForQuery = matcher(QUERY, QUERY_GROUP);

/**
 * The label of a button that does not submit by itself (`type=button`) names submitting its form ("Submit", "Send",
 * "Envoyer", "Отправить", "送信"): a form sent by a script. The lexicon's `submit` words (in LANGUAGES) as the whole
 * label, trailing marks aside ("Submit »"); not "apply", which applies a filter panel's choices (issue 38, fifth round).
 */
export const SUBMIT_NOT_FORM: ReadonlySet<string> = new Set(['apply']);
const SUBMIT_WORDS = [...new Set(CONCEPTS.submit.map(normalise))].filter((p) => !SUBMIT_NOT_FORM.has(p));
const SUBMIT_LABEL = new RegExp(`^[^\\p{L}\\p{N}]*(?:${alternation(SUBMIT_WORDS)})[^\\p{L}\\p{N}]*$`, 'iu');
export function namesSubmit(text: string): boolean {
  return text.length <= ACTION_LABEL_MAX && SUBMIT_LABEL.test(normalised(text));
}

/**
 * Starting to use or buy a service (issue 38, seventh round: a service or SaaS page's purchase is its "Get started",
 * "Start free trial", "Request a quote", "Book a call"; dev6's tune misses named it so). Two places:
 * - the English call-to-action phrases below, where they lead the label (numbers and marks before them aside): a
 *   headline or sentence that holds them later ("How to get started with X") is not the action;
 * - the lexicon's `register` words, in every language, as the whole label (trailing marks aside): "Sign up",
 *   "Registrieren", "S'inscrire", "Регистрация"; not "join", which is a forum's, a team's or a discussion's.
 * Written from general knowledge of calls to action, not from the pages' labels. A text field is never one, nor
 * "Sign up for our newsletter" (the lexicon's `subscribe`); the core leaves out those in a page's footer (score.ts).
 */
export const START_PHRASES: readonly string[] = [
  'get started', 'start (?:a |an |your |my )?(?:free )?trial', 'start (?:for free|free|now|today|here)', 'start [a-z]+ing', 'free trial',
  'try (?:it |us |[a-z]+ )?(?:for )?free', 'try (?:it )?now', 'sign (?:me )?up(?! for)', 'signup', 'create (?:an |a |your |my )?(?:free )?account',
  'register(?: now| today| for free| free)?(?![^A-Za-z0-9_]*[A-Za-z0-9_])', 'join (?:now|today|for free|free)',
  '(?:request|get|schedule|book) (?:a |an |your |my |our )?(?:free )?(?:quote|estimate|demo|consultation|proposal|callback|appointment|call|meeting|tour|visit)',
  'free (?:quote|estimate|consultation|demo)', '(?:contact|talk to|speak to|speak with|talk with) (?:sales|our sales team|an expert|a specialist)',
  '(?:choose|pick|select) (?:a |your )?plan',
];
const START_LEAD = new RegExp(`^(?:${START_PHRASES.map((p) => p.replace(/ /g, '\\s+')).join('|')})(?![A-Za-z0-9_])`, 'i');
/** The same calls to action in the lexicon's other languages (de fr es it pt nl pl cs sv ru tr; ja zh below): getting
 *  started, a free trial, a quote or a demo, where they lead the label (issue 38, eighth round). Compared after
 *  `normalise`, as the purchase phrases. */
/** A bare verb counts only as the whole label (marks after it aside): "Commencer", not "Commencer la lecture". */
const ALONE = '(?=[\\s!.:»>›→]*$)';
export const START_PHRASES_OTHER: readonly string[] = [
  // de
  'jetzt (?:kostenlos )?(?:starten|testen|loslegen)', `loslegen${ALONE}`, 'kostenlos (?:testen|starten|ausprobieren)', 'gratis testen',
  'kostenlose testversion', '(?:angebot|demo|beratung) (?:anfordern|vereinbaren)', '(?:kostenloses )?angebot einholen',
  // fr
  `commencer(?: maintenant| gratuitement|${ALONE})`, `demarrer(?: maintenant| gratuitement|${ALONE})`, 'essai gratuit', 'essayer gratuitement',
  'demander (?:un |une )?(?:devis|demo|rendez-vous)', 'devis gratuit',
  // es
  `(?:empezar|empieza|comenzar|comienza)(?: ahora| gratis| ya|${ALONE})`, 'prueba(?:lo)? gratis', 'prueba gratuita', 'probar gratis',
  '(?:solicitar|pedir|solicita|pide) (?:un |una )?(?:presupuesto|demo|cotizacion)', 'presupuesto gratis',
  // it
  'inizia(?: ora| subito| gratis| adesso)', 'prova gratis', 'prova gratuita', 'richiedi (?:un |una )?(?:preventivo|demo)', 'preventivo gratuito',
  // pt
  `(?:comecar|comece)(?: agora| gratis| ja|${ALONE})`, '(?:teste|experimente) gratis', 'teste gratuito', '(?:solicitar|solicite|pedir|peca) (?:um |uma )?(?:orcamento|demo|demonstracao)', 'orcamento gratis',
  // nl
  'aan de slag', 'gratis (?:uit)?proberen', 'probeer (?:het )?gratis', '(?:offerte|demo) aanvragen', 'vraag (?:een )?(?:offerte|demo) aan', 'gratis offerte',
  // pl
  `(?:rozpocznij|zacznij)(?: teraz| za darmo|${ALONE})`, `wyprobuj(?: za darmo| teraz| bezplatnie|${ALONE})`, '(?:zamow|popros o) (?:wycene|demo)', 'darmowa wycena',
  // cs
  `zacit(?: zdarma|${ALONE})`, '(?:vyzkouset|vyzkousejte|zkusit) zdarma', 'nezavazna poptavka',
  // sv
  'kom igang', '(?:prova|testa) gratis', 'begar offert', 'boka (?:en )?demo',
  // ru
  `(?:начать|начните)(?: сеичас| бесплатно|${ALONE})`, 'попробовать бесплатно', 'попробуите бесплатно', 'бесплатныи пробныи период',
  '(?:оставить|отправить) заявку', 'заказать (?:звонок|демо|консультацию)', 'получить (?:консультацию|предложение|демо)',
  // tr
  'hemen basla', `basla${ALONE}`, '(?:ucretsiz|hemen) dene', 'teklif al', 'demo talep et',
].map(normalise);
/** Japanese and Chinese (no spaces): where they lead the label. */
export const START_PHRASES_CJK: readonly string[] = [
  '無料で(?:始める|はじめる|試す|お試し)', '今すぐ(?:始める|はじめる)', '無料トライアル', '無料体験', '資料請求', 'お見積り', '見積もり依頼',
  '免费试用', '免費試用', '立即开始', '立即開始', '开始使用', '開始使用', '免费注册',
].map(normalise);
const START_LEAD_OTHER = new RegExp(`^(?:(?:${START_PHRASES_OTHER.map((p) => p.replace(/ /g, '\\s+')).join('|')})(?![\\p{L}\\p{M}\\p{N}])|${START_PHRASES_CJK.join('|')})`, 'iu');
const START_NOT_REGISTER: ReadonlySet<string> = new Set(['join']);
const REGISTER_WORDS = [...new Set(CONCEPTS.register.map(normalise))].filter((p) => !START_NOT_REGISTER.has(p));
const REGISTER_LABEL = new RegExp(`^[^\\p{L}\\p{N}]*(?:${alternation(REGISTER_WORDS)})[^\\p{L}\\p{N}]*$`, 'iu');
/** The label (a link's or control's, at most ACTION_LABEL_MAX chars) starts using or buying a service. */
export function namesStart(text: string): boolean {
  const label = NON_ASCII.test(text) ? normalised(text) : text;
  const lead = label.replace(BEFORE_LEAD, '');
  return START_LEAD.test(lead) || REGISTER_LABEL.test(label) || START_LEAD_OTHER.test(lead);
}
