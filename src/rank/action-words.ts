// The words by which a control names one of the three kinds of primary action the core promotes
// (docs/ranking.md): a purchase, signing in, the site's search. The encoder marks them (Flag.PURCHASE /
// SIGN_IN / SEARCH); the core decides. Written from general knowledge of the web, never from evaluation
// pages; purchases in one fixed set of languages (LANGUAGES; docs/ranking.md, tenth round).
import { normalise } from './words.ts';
import { asciiScanner, Scan } from './ascii-scan.ts';

/** The languages of the purchase words: the lexicon's 14 (en de fr es it pt nl pl cs sv ru tr ja zh), then
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
/** STEM as a one-pass table over the normalised label (most labels normalise to ASCII): a third of the
 *  pattern's cost, and no normalise() copy of a label without a stem (bench/README.md). */
const STEM_SCAN = asciiScanner(PURCHASE_STEMS);
// The scan reads each stem as the literal word STEM's alternation makes of it: a stem must be plain text.
for (const s of PURCHASE_STEMS) if (/[\\^$.|?*+()[\]{}]/.test(s)) throw new Error(`PURCHASE_STEMS: "${s}" is a pattern, not a word`);
const NON_ASCII = /[^\x00-\x7f]/;

/** Going to the cart, where a language puts the cart after "into" as it does for adding to it ("Przejdź do
 *  koszyka", "Перейти в корзину"): the cart link, not a purchase. */
const GO_TO_CART = /(?:przejdz|prejit|prejst|переити|idi|pojdi)\s+(?:do|в|у|u|v)\s|מעבר\s+ל/iu;
const PURCHASE_LEAD = new RegExp(`^\\s*(?:${PURCHASE_PHRASES.map((p) => p.replace(/ /g, '\\s+')).join('|')})${BOUNDARY_AFTER}`, 'iu');
/** The label as the phrase patterns read it (accents dropped when it has any), or null when it holds no stem
 *  (most labels: the scan tells them without a copy). */
function withStem(text: string): string | null {
  const found = STEM_SCAN.scan(text);
  if (found === Scan.NONE) return null;
  const t = NON_ASCII.test(text) ? normalise(text) : text;
  return found === Scan.FOUND || STEM.test(t) ? t : null;
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

// Sign in: "Sign in", "Log in", "Login", "Log-in", or a label that is only "Account" / "My account" /
// "Your account" (the header link that signs a visitor in; "Create an account" and "Account settings" are not).
export const SIGN_IN_WORDS = /\b(sign[ -]?in|log[ -]?in)\b|^\s*(my |your )?account\s*$/i;
export const SEARCH_WORDS = /\b(search|suche|suchen|rechercher|buscar)\b/i;
/** A text field's own words (or placeholder) that ask for a search query ("What are you looking for?"). */
export const SEARCH_FIELD_WORDS = /\b(search|find|looking for|keywords?|suche|suchen|rechercher|buscar)\b/i;
