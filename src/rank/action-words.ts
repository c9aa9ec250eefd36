// The words by which a control names one of the three kinds of primary action the core promotes
// (docs/ranking.md): a purchase, signing in, the site's search. The encoder marks them (Flag.PURCHASE /
// SIGN_IN / SEARCH); the core decides. Written from general knowledge of shops; Estonian was added after a
// page of dev3's fold a showed it (sixth round), Slovak, Croatian and Korean after pages of its fold b did
// (eighth round: docs/ranking.md).
import { normalise } from './words.ts';
import { asciiScanner, Scan } from './ascii-scan.ts';

/**
 * Purchase, in the web-intent lexicon's languages (en de fr es it pt nl pl cs sv ru tr ja zh), Estonian,
 * Slovak, Croatian and Korean:
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
  // cs, sk
  '(?:pridat |vlozit )?do kosiku', 'koupit', '(?:pridat |vlozit )?do kosika', 'kupit',
  // hr
  'dodaj u kosaricu', 'kupi(?: sada| odmah)?',
  // sv
  'lagg i (?:varukorgen|kundvagnen)', 'kop(?: nu)?', 'kopa',
  // ru
  '(?:добавить )?в корзину', 'купить',
  // tr
  'sepete ekle', 'satin al', 'satın al', 'hemen al', // the dotless ı has no accent to drop
  // et
  'lisa ostukorvi', 'osta',
];
/** The same in scripts without spaces between words (ja zh), and Korean's compounds (buy now, purchase, put
 *  in the cart: "바로구매", "구매하기", "장바구니 담기"; the cart noun alone, "장바구니", is the cart): matched anywhere
 *  in the label. */
export const PURCHASE_PHRASES_CJK: readonly string[] = [
  'カートに入れる', 'カートに追加', '購入', '加入购物车', '加入購物車', '放入购物车', '购买', '購買',
  '바로구매', '바로 구매', '구매하기', '장바구니 담기', '장바구니에 담기',
];

const BOUNDARY_BEFORE = '(?<![\\p{L}\\p{N}])';
const BOUNDARY_AFTER = '(?![\\p{L}\\p{N}])';
const PURCHASE = new RegExp(`${BOUNDARY_BEFORE}(?:${PURCHASE_PHRASES.map((p) => p.replace(/ /g, '\\s+')).join('|')})${BOUNDARY_AFTER}`
  + `|${PURCHASE_PHRASES_CJK.map(normalise).join('|')}`, 'iu');
/**
 * A stem that every purchase phrase above holds in every spelling it allows (test/rank-purchase.test.ts
 * expands the phrases and checks). Most labels hold none, and a plain scan for them costs a tenth of the
 * full pattern's look-behinds and Unicode classes (bench:check, rank-vs-parse-1k).
 */
export const PURCHASE_STEMS: readonly string[] = [
  'cart', 'bag', 'basket', 'trolley', 'buy', 'purchase', 'check', 'order', 'book', // en
  'warenkorb', 'einkaufswagen', 'kaufen', 'ajouter', 'acheter', 'anadir', 'agregar', 'compra', // de fr es pt
  'aggiungi', 'acquista', 'adicionar', 'winkel', 'kopen', 'koszyka', 'kup', 'kosik', 'koupit', // it pt nl pl cs sk hr
  'kosaric',
  'lagg', 'kop', 'корзин', 'купить', 'sepete', 'satin', 'satın', 'hemen', 'ostukorvi', 'osta', // sv ru tr et
  ...PURCHASE_PHRASES_CJK.map(normalise),
];
const STEM = new RegExp(PURCHASE_STEMS.join('|'), 'i');
/** STEM as a one-pass table over the normalised label (most labels normalise to ASCII): a third of the
 *  pattern's cost, and no normalise() copy of a label without a stem (bench/README.md). */
const STEM_SCAN = asciiScanner(PURCHASE_STEMS);
// The scan reads each stem as the literal word STEM's alternation makes of it: a stem must be plain text.
for (const s of PURCHASE_STEMS) if (/[\\^$.|?*+()[\]{}]/.test(s)) throw new Error(`PURCHASE_STEMS: "${s}" is a pattern, not a word`);
const NON_ASCII = /[^\x00-\x7f]/;

/** Going to the cart, where a language puts the cart after "into" as it does for adding to it ("Przejdź do
 *  koszyka", "Перейти в корзину"): the cart link, not a purchase. */
const GO_TO_CART = /(?:przejdz|prejit|prejst|переити)\s+(?:do|в)\s/iu;
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

// Sign in: "Sign in", "Sign-In", "Log in", "Login", "Log-in", or a label that is only "Account" / "My account" /
// "Your account" (the header link that signs a visitor in; "Create an account" and "Account settings" are not).
export const SIGN_IN_WORDS = /\b(sign[ -]?in|log[ -]?in)\b|^\s*(my |your )?account\s*$/i;
export const SEARCH_WORDS = /\b(search|suche|suchen|rechercher|buscar)\b/i;
/** A text field's own words (or placeholder) that ask for a search query ("What are you looking for?"). */
export const SEARCH_FIELD_WORDS = /\b(search|find|looking for|keywords?|suche|suchen|rechercher|buscar)\b/i;
