// Importance 0..1000 and visual cues (docs/ranking.md has the table and how it was tuned).
//
// score = (TIER[band] + bonus) * penalties * placement (+ layer), where
//   TIER: form input 750, interactive control 500, content link 250, static content 0 (SPEC bands); a form's
//     button that names no action takes its field's tier (markFieldButtons, issue 38 fourth round)
//   bonus (0..245, so tiers never overlap among comparable elements):
//     in viewport 80, above the fold (doc_y within the first screen) 30,
//     area up to 50 (sqrt(area) / 100, capped), primary styling 40,
//     opaque non-white/grey background 15, cursor:pointer 15, visible text or accessible name 15
//   primary action: +600 for a control naming a purchase, sign in, search or starting a service (Flag.PURCHASE / SIGN_IN /
//     SEARCH / START, the last not in a footer: inFooter; not tiny, not hidden from the accessibility tree; a link or control only with a label of at most 40 chars), among the first three of its
//     kind by doc_y, those in the viewport first (a purchase: the page's own before items', markPurchaseItems); not when a layer covers it
//   penalties (multiplied): hidden x0.05, hidden from the accessibility tree (aria-hidden / inert, drawn) x0.3, disabled x0.6 (not for a promoted purchase: a shop's add to cart
//     stays disabled until a size is chosen), occluded x0.7 (x0.5 when a modal blocks the page or a layer covers it), unnamed x0.6, tiny x0.6 (thinner
//     than 4 px, or under 100 px² without a name: an icon button drawn without its icon is still a control)
//   placement, outside the viewport only: 0.4 / (1 + 0.5 x screens away), x0.7 in the last screen
//     of a page at least 3 screens tall, x0.6 in a comment / reply / newsletter / footer section;
//     a promoted primary action keeps at least 0.6 (under the visible fields: issue 38) and ranks no lower than right
//     after the three best clickable elements in the viewport (liftOffscreenActions)
//   layer: +2000 for a control of a modal that covers something or of a consent banner, +500 more for its
//     close / reject / accept (issue 38)
// importance = importanceOf(score): content under 50, a clickable element 50 + 0.9 x score, bent above 1000.
import { F64In, I32In, F64Out, I32Out, Flag, OutFlag, Param, Band, ACTION_LABEL_MAX, ModalField } from "./layout";
import { count, f64In, i32In, f64Out, i32Out, setI32Out, setF64Out, param, modals } from "./state";
import { nearestColor, alpha, chroma, MIN_ALPHA, red, green, blue } from "./palette";

const TIER_INPUT: f64 = 750;
const TIER_CONTROL: f64 = 500;
const TIER_LINK: f64 = 250;

const BONUS_IN_VIEWPORT: f64 = 80;
const BONUS_ABOVE_FOLD: f64 = 30;
const BONUS_AREA_MAX: f64 = 50;
const AREA_SCALE: f64 = 100;       // sqrt(area) in px that earns the full area bonus
const BONUS_PRIMARY: f64 = 40;
const BONUS_BACKGROUND: f64 = 15;
const BONUS_POINTER: f64 = 15;
const BONUS_TEXT: f64 = 15;
const BONUS_ACTION: f64 = 600;     // names a primary action (Flag.PURCHASE / SIGN_IN / SEARCH / START): across role bands

const PENALTY_HIDDEN: f64 = 0.05;
// Hidden from the accessibility tree but drawn (Flag.A11Y_HIDDEN: a closed menu inside aria-hidden, laid out
// in the first screen): below the visible named controls, above what is not drawn at all (docs/ranking.md).
const PENALTY_A11Y_HIDDEN: f64 = 0.3;
const PENALTY_DISABLED: f64 = 0.6;
const PENALTY_OCCLUDED: f64 = 0.7;  // still seen (a card's title under the card's transparent link): above an unnamed control (0.6)
const PENALTY_BLOCKED: f64 = 0.5;   // occluded on a page a modal blocks: behind it, below what the modal offers
const PENALTY_TINY: f64 = 0.6;
const PENALTY_UNNAMED: f64 = 0.6;   // a link, control or input with no text or accessible name: kept above static text in view (docs/ranking.md)
// Outside the viewport (placement): tuned on the tune split of train/a11y (docs/ranking.md).
const OFFSCREEN_NEAR: f64 = 0.4;        // factor just outside the viewport: the strongest field there that names no action
                                        // (885 x 0.4 = 354) stays below the weakest named link in view (>= 375)
const OFFSCREEN_DECAY: f64 = 0.5;       // per screen further away
const FOOTER_MIN_SCREENS: f64 = 3;      // pages at least this many screens tall have a footer zone
const FOOTER_SCREENS: f64 = 1;          // the footer zone: the page's last screen
const PENALTY_FOOTER: f64 = 0.7;
const PENALTY_AFTERMATTER: f64 = 0.6;   // comment, reply, newsletter and footer sections
const ACTION_FLOOR: f64 = 0.6;          // a promoted primary action off screen keeps at least this: below the visible fields
                                        // and, for a link, the visible buttons (tune: the lowest floor at 96.8%, 0.5: 96.4%, 0.45: 88%)
// The screen keeps the first places: an off-screen primary action is lifted to rank right after the SCREEN_FIRST best
// clickable elements in the viewport (a tie group there kept whole), when its floor leaves it lower (issue 38, second
// round: on a crowded first screen the 0.6 floor put the sign in below 10th). Swept on the tune sets: 1-2 keep 251/252
// tune and 74/77 dev2 primary actions in the top 10, 3: 250 / 74, 4: 250 / 73, 5-6: 247 / 73, none: 244 / 73.
const SCREEN_FIRST: i32 = 3;
// Layers over the page (a modal, a dialog, a consent banner): their controls come before everything they cover,
// and the control that closes, rejects or accepts first among them (docs/ranking.md, issue 38).
const BONUS_LAYER: f64 = 2000;          // above any other element's score (at most about 1600)
const BONUS_DISMISS: f64 = 500;
// Importance (issue 38): content (what is not clickable) below CONTENT_CEIL, so it enters the list only after the
// links, controls and fields (dates, photo credits and "›" took top-50 slots); a clickable element from CONTENT_CEIL
// up, CLICKABLE_SCALE per point of score up to KNEE (every score without a promotion), then bent towards 1000
// without reaching it: no clamp, so promoted controls that differ keep different importance (six tied at 1000).
const CONTENT_CEIL: f64 = 50;
const CLICKABLE_SCALE: f64 = 0.9;
const IMPORTANCE_KNEE: f64 = 1000;      // score; importance 50 + 0.9 x 1000 = 950 there
const IMPORTANCE_SPAN: f64 = 300;       // score above the knee that takes half of what is left to 1000 (a point of score
                                        // just above it is 1/6 of a point of importance: promoted controls stay apart)
const CONTENT_SCORE_MAX: f64 = 245;     // the bonuses: all a static element's score can be
const ACTION_KEEP = 3;                  // promoted of each kind of primary action: the first three, the viewport's first
// The page's own form (issue 38, dev5): the submit closing the longest run of drawn fields is promoted like a named
// action when that run holds at least FORM_MIN_FIELDS (a search box and its button hold one).
const FORM_MIN_FIELDS = 2;

const TINY_SIDE: f64 = 4;          // px: thinner than this in either direction is tiny
const TINY_AREA: f64 = 100;        // px²: smaller is tiny only without a name (text or accessible name)
const PRIMARY_MIN_CHROMA = 64;     // saturated background: a coloured call-to-action
const PRIMARY_MIN_AREA: f64 = 400; // px²
const PRIMARY_MAX_VIEWPORT_SHARE: f64 = 0.25;

function tier(band: i32): f64 {
  if (band == Band.INPUT) return TIER_INPUT;
  if (band == Band.CONTROL) return TIER_CONTROL;
  if (band == Band.LINK) return TIER_LINK;
  return 0;
}

/** An opaque background that is neither white nor a light grey: it sets the element apart. */
function distinctBackground(bg: i32): bool {
  if (alpha(bg) < MIN_ALPHA) return false;
  return chroma(bg) >= 24 || (red(bg) + green(bg) + blue(bg)) < 600;
}

/** The bottom of the page in document coordinates: the lowest visible element's bottom edge. */
function pageBottomOf(vh: f64): f64 {
  let bottom = vh;
  for (let i = 0; i < count; i++) {
    if ((i32In(I32In.FLAGS, i) & Flag.HIDDEN) != 0) continue;
    const b = f64Out(F64Out.DOC_Y, i) + f64In(F64In.H, i) / 2;
    if (b > bottom) bottom = b;
  }
  return bottom;
}

/**
 * The factor an element outside the viewport keeps: position decides across role bands. Screens away
 * from the viewport (d, by its centre) cost 1 / (1 + DECAY x d) beyond the first NEAR share; the last
 * screen of a long page (its footer) and comment, reply, newsletter and footer sections sink further;
 * a primary action (styled or hinted primary, or naming buy / add to cart / sign in / search) keeps at
 * least ACTION_FLOOR wherever it is.
 */
function placement(i: i32, flags: i32, action: bool, vw: f64, vh: f64, pageBottom: f64): f64 {
  const cy = f64Out(F64Out.CENTER_Y, i);
  const cx = f64Out(F64Out.CENTER_X, i);
  let d: f64 = 0;                          // screens between the element's centre and the viewport
  if (cy >= vh) d = (cy - vh) / vh; else if (cy < 0) d = -cy / vh;
  if (cx >= vw) d = max(d, (cx - vw) / vw); else if (cx < 0) d = max(d, -cx / vw);
  let f = OFFSCREEN_NEAR / (1 + OFFSCREEN_DECAY * d);
  const docY = f64Out(F64Out.DOC_Y, i);
  if (pageBottom > FOOTER_MIN_SCREENS * vh && docY > pageBottom - FOOTER_SCREENS * vh) f *= PENALTY_FOOTER;
  if ((flags & Flag.AFTERMATTER) != 0) f *= PENALTY_AFTERMATTER;
  if (action && f < ACTION_FLOOR) f = ACTION_FLOOR;
  return f;
}

/** Drawn and not collapsed: not hidden, and at least TINY_SIDE in both directions. */
function drawn(i: i32, flags: i32): bool {
  return (flags & Flag.HIDDEN) == 0 && f64In(F64In.W, i) >= TINY_SIDE && f64In(F64In.H, i) >= TINY_SIDE;
}

/** The element, whose words say so (the encoder's `flag`: callers test it first, since most elements name no
 *  action and the test is cheaper than this call), names a kind of primary action: it is neither
 *  hidden (nor hidden from the accessibility tree) nor tiny (a small named control counts in the viewport only), and its label is short unless it is a form input (a search box may have a long placeholder):
 *  the words name what the control does, not a sentence around it ("You must log in to reply here"). */
function namesAction(i: i32, flags: i32, flag: i32): bool {
  // A collapsed toggle is not a visible action: thinner than TINY_SIDE, or under TINY_AREA unless it is named
  // and in the viewport (a header's "Sign in" or "Search" icon button drawn 16×6 because its icon did not load).
  // Nor is a control hidden from the accessibility tree (a closed menu drawn because its styles did not load): it
  // would take one of the three promotions of its kind from the visible one (issue 38, sixth round).
  if (!drawn(i, flags) || (flags & Flag.A11Y_HIDDEN) != 0) return false;
  const w = f64In(F64In.W, i), h = f64In(F64In.H, i);
  if (w * h < TINY_AREA && ((flags & Flag.HAS_TEXT) == 0 || (i32Out(I32Out.FLAGS, i) & OutFlag.IN_VIEWPORT) == 0)) return false;
  // A purchase may have a longer label when it begins with the purchase words (Flag.PURCHASE_LEAD: the words
  // name what it does, the rest is, say, its hidden stock messages); words later in a long label still do not count.
  return i32In(I32In.BAND, i) == Band.INPUT || i32In(I32In.TEXT_LEN, i) <= ACTION_LABEL_MAX
    || (flag == Flag.PURCHASE && (flags & Flag.PURCHASE_LEAD) != 0);
}

/** In a comment, reply, newsletter or footer section, or in the last screen of a page at least 3 screens tall (its
 *  footer): a "Sign up" or "Get started" there is a newsletter's or repeats the page's own above (seventh round). */
function inFooter(i: i32, flags: i32): bool {
  if ((flags & Flag.AFTERMATTER) != 0) return true;
  const vh = param(Param.OUT_VIEWPORT_H);
  return pageBottomNow > FOOTER_MIN_SCREENS * vh && f64Out(F64Out.DOC_Y, i) > pageBottomNow - FOOTER_SCREENS * vh;
}
let pageBottomNow: f64 = 0;   // pageBottomOf, set by computeScores before the promotion cut-offs

// Promotion cut-offs (doc_y) of one kind of primary action, set by actionCuts.
let cutIn: f64 = 0, cutOut: f64 = 0;

/**
 * Of one kind of primary action (purchase, sign in, search) among the bands minBand..maxBand, the first
 * `keep` (at most ACTION_KEEP) elements by doc_y, those in the viewport first, are promoted: an element in
 * the viewport whose doc_y is at most cutIn, outside it at most cutOut. Returns how many that is. A page
 * repeats its actions (a search form in the header and again in a menu, "Add to cart" under 40
 * products): the first few say what the page offers, the rest would crowd out everything else.
 * `items` (purchases only): 0 counts only the page's own purchases, 1 only items' (markPurchaseItems), -1 all.
 */
function actionCuts(flag: i32, minBand: i32, maxBand: i32, keep: i32, items: i32 = -1): i32 {
  // The three smallest doc_y inside (a <= b <= c) and outside (d <= e <= g) the viewport.
  let a: f64 = Infinity, b: f64 = Infinity, c: f64 = Infinity;
  let d: f64 = Infinity, e: f64 = Infinity, g: f64 = Infinity;
  for (let i = 0; i < count; i++) {
    const flags = i32In(I32In.FLAGS, i);
    if ((flags & flag) == 0) continue; // the flag first: most elements have none
    const band = i32In(I32In.BAND, i);
    if (band < minBand || band > maxBand || !namesAction(i, flags, flag)) continue;
    if (items >= 0 && i32(unchecked(purchaseItems[i])) != items) continue;
    if (flag == Flag.START && inFooter(i, flags)) continue;
    const y = f64Out(F64Out.DOC_Y, i);
    if ((i32Out(I32Out.FLAGS, i) & OutFlag.IN_VIEWPORT) != 0) {
      if (y < a) { c = b; b = a; a = y; } else if (y < b) { c = b; b = y; } else if (y < c) c = y;
    } else if (y < d) { g = e; e = d; d = y; } else if (y < e) { g = e; e = y; } else if (y < g) g = y;
  }
  const inside = min(c < Infinity ? 3 : (b < Infinity ? 2 : (a < Infinity ? 1 : 0)), keep);
  const left = keep - inside;   // promotions left for elements outside the viewport
  cutIn = keep <= 0 ? -Infinity : (keep == 1 ? a : (keep == 2 ? b : c));
  cutOut = left <= 0 ? -Infinity : (left == 1 ? d : (left == 2 ? e : g));
  const outside = d == Infinity ? 0 : (e == Infinity ? 1 : (g == Infinity ? 2 : 3));
  return inside + min(outside, left);
}

/**
 * Purchases that belong to repeated items, not to the page (issue 38, sixth round): a product page's own "Add to
 * cart" sits once in its main block, while carousels and lists of other products repeat theirs on every card. A
 * purchase control is an item's when the client sent it inside a list of at least ITEM_MIN items (src/collect/lists.ts),
 * or, outside such lists, when at least ITEM_MIN drawn purchase controls outside them carry its very label (a client
 * that sends no lists, an unstyled render where the cards no longer line up). Sets `purchaseItems[i]` to 1.
 */
function markPurchaseItems(): void {
  purchaseItems = new Uint8Array(count);
  const perLabel = new Int32Array(count + 2);   // TEXT_KEY is 1 + an interned label: at most count + 1
  for (let i = 0; i < count; i++) {
    const flags = i32In(I32In.FLAGS, i);
    if ((flags & Flag.PURCHASE) == 0 || !drawn(i, flags) || listed(i)) continue;
    const k = i32In(I32In.TEXT_KEY, i);
    if (k > 0 && k < count + 2) unchecked(perLabel[k] = unchecked(perLabel[k]) + 1);
  }
  for (let i = 0; i < count; i++) {
    if ((i32In(I32In.FLAGS, i) & Flag.PURCHASE) == 0) continue;
    const k = i32In(I32In.TEXT_KEY, i);
    const repeated = listed(i) || (k > 0 && k < count + 2 && unchecked(perLabel[k]) >= ITEM_MIN);
    if (repeated) unchecked(purchaseItems[i] = 1);
  }
}
/** Inside a list of at least ITEM_MIN items the client sent. */
function listed(i: i32): bool {
  return i32In(I32In.LIST_ID, i) != 0 && i32In(I32In.LIST_SIZE, i) >= ITEM_MIN;
}
const ITEM_MIN = 3;                      // as the collector's lists (src/collect/lists.ts MIN_ITEMS)
let purchaseItems = new Uint8Array(0);   // scratch: allocated per run (prepare resets the heap)

/**
 * The submit of the form the page exists for (a contact, sign-up or booking form), or -1: the drawn, enabled submit
 * (Flag.SUBMIT), outside comment, reply, newsletter and footer sections, that closes the longest run of drawn fields
 * since the previous submit in document order, if that run holds at least FORM_MIN_FIELDS (the first on a tie).
 * Raw elements carry no form, so document order stands for it: a form's fields come before its submit.
 */
function pageFormSubmit(): i32 {
  let best = -1, bestRun = FORM_MIN_FIELDS - 1, run = 0;
  for (let i = 0; i < count; i++) {
    const flags = i32In(I32In.FLAGS, i);
    const shown = drawn(i, flags);
    if ((flags & Flag.SUBMIT) != 0) {
      // A disabled submit (a fieldset not yet open to the visitor) is not the action the page offers now.
      if (shown && (flags & (Flag.AFTERMATTER | Flag.DISABLED)) == 0 && run > bestRun) { best = i; bestRun = run; }
      run = 0;
    } else if (shown && i32In(I32In.BAND, i) == Band.INPUT) run++;
  }
  return best;
}

/** A drawn, enabled submit outside comment, reply, newsletter and footer sections: a form's own button. */
function formButton(i: i32, flags: i32): bool {
  return (flags & Flag.SUBMIT) != 0 && drawn(i, flags) && (flags & (Flag.AFTERMATTER | Flag.DISABLED)) == 0;
}

/**
 * A form's button ranks with its fields (issue 38, fourth round): the field takes the input tier, its button
 * only the control tier, and a search box's button is often unnamed or named "Submit" / "Go" (an
 * <input type=image>, an icon), so links crowded it out below the box it belongs to. A field's button is the next
 * element in document order that is a field or a submit, or else the last such before the field when it is drawn
 * just left of it on the same line (besideBefore: a button before its box); it must be a form button (formButton)
 * that names no action, and the field drawn and not in a comment, reply, newsletter or footer section. Sets
 * `fieldButtons[button]` to 1.
 */
function markFieldButtons(): void {
  fieldButtons = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const flags = i32In(I32In.FLAGS, i);
    if (i32In(I32In.BAND, i) != Band.INPUT || (flags & (Flag.SUBMIT | Flag.AFTERMATTER)) != 0 || !drawn(i, flags)) continue;
    let next = -1, prev = -1;
    for (let j = i + 1; j < count; j++) {
      const f = i32In(I32In.FLAGS, j);
      if ((f & Flag.SUBMIT) != 0 || (i32In(I32In.BAND, j) == Band.INPUT && drawn(j, f))) { next = j; break; }
    }
    for (let j = i - 1; j >= 0; j--) {
      const f = i32In(I32In.FLAGS, j);
      if ((f & Flag.SUBMIT) != 0 || (i32In(I32In.BAND, j) == Band.INPUT && drawn(j, f))) { prev = j; break; }
    }
    const button = next >= 0 && formButton(next, i32In(I32In.FLAGS, next)) ? next
      : (prev >= 0 && formButton(prev, i32In(I32In.FLAGS, prev)) && besideBefore(prev, i) ? prev : -1);
    // A button that names its action ("Search", "Log in") is ranked by its words: the first three of its kind are
    // promoted, the rest repeat them (a search form in the header and again in each menu) and stay on their tier.
    if (button >= 0 && (i32In(I32In.FLAGS, button) & (Flag.PURCHASE | Flag.SIGN_IN | Flag.SEARCH | Flag.START)) == 0) unchecked(fieldButtons[button] = 1);
  }
}
/** Button b is drawn just left of field f on the same line (their vertical centres within half the taller's height,
 *  at most BESIDE_GAP px apart): a button before its box in document order. */
function besideBefore(b: i32, f: i32): bool {
  const bx = f64In(F64In.X, b), bw = f64In(F64In.W, b), by = f64In(F64In.Y, b), bh = f64In(F64In.H, b);
  const fx = f64In(F64In.X, f), fy = f64In(F64In.Y, f), fh = f64In(F64In.H, f);
  const gap = fx - (bx + bw);
  return gap >= -1 && gap <= BESIDE_GAP && Math.abs((by + bh / 2) - (fy + fh / 2)) <= max(bh, fh) / 2;
}
const BESIDE_GAP: f64 = 40;
let fieldButtons = new Uint8Array(0); // scratch: allocated per run (prepare resets the heap)

/** A modal covers the page and hides at least one control (occlusion.ts): what is occluded is behind it. */
function modalBlocks(): bool {
  const n = i32(param(Param.OUT_MODALS));
  for (let k = 0; k < n; k++) if (unchecked(modals[k * ModalField.COUNT + ModalField.BLOCKS]) != 0) return true;
  return false;
}

/** The centre of element i lies inside a detected modal that covers a control (occlusion.ts): i, not covered
 *  itself, is drawn above it (the modal's own content, or a toast over it), whatever z-index its client sent. */
function insideModal(i: i32, modalCount: i32): bool {
  const cx = f64In(F64In.X, i) + f64In(F64In.W, i) / 2, cy = f64In(F64In.Y, i) + f64In(F64In.H, i) / 2;
  for (let k = 0; k < modalCount; k++) {
    const base = k * ModalField.COUNT;
    if (unchecked(modals[base + ModalField.BLOCKS]) == 0) continue;
    const mx = unchecked(modals[base + ModalField.X]), my = unchecked(modals[base + ModalField.Y]);
    if (cx >= mx && cy >= my && cx < mx + unchecked(modals[base + ModalField.W]) && cy < my + unchecked(modals[base + ModalField.H])) return true;
  }
  return false;
}

/** A control of a layer over the page: drawn, in the viewport, not covered itself, and inside a detected modal
 *  that covers something, or a consent banner's (Flag.CONSENT: positioned above the page, z-index > 0, its
 *  words, section or nearby text speaking of cookies or consent). */
function inLayer(i: i32, flags: i32, out: i32, modalCount: i32): bool {
  if (i32In(I32In.BAND, i) < Band.LINK || (flags & (Flag.HIDDEN | Flag.A11Y_HIDDEN)) != 0) return false;
  if ((out & OutFlag.IN_VIEWPORT) == 0 || (out & OutFlag.OCCLUDED) != 0) return false;
  if (f64In(F64In.W, i) <= 0 || f64In(F64In.H, i) <= 0) return false;
  return (flags & Flag.CONSENT) != 0 || insideModal(i, modalCount);
}

/** Importance from a score: content below CONTENT_CEIL; a clickable element from CONTENT_CEIL up, linear up to
 *  the knee, then bent so that scores stay apart below 1000. */
export function importanceOf(score: f64, clickable: bool): i32 {
  let v: f64;
  if (!clickable) v = min(score, CONTENT_SCORE_MAX) * (CONTENT_CEIL - 1) / CONTENT_SCORE_MAX;
  else if (score <= IMPORTANCE_KNEE) v = CONTENT_CEIL + CLICKABLE_SCALE * score;
  else {
    const top = CONTENT_CEIL + CLICKABLE_SCALE * IMPORTANCE_KNEE, over = score - IMPORTANCE_KNEE;
    v = top + (1000 - top) * over / (over + IMPORTANCE_SPAN);
  }
  const rounded = i32(Math.floor(v + 0.5));
  return rounded < 0 ? 0 : (rounded > 1000 ? 1000 : rounded);
}

export function computeScores(): void {
  const vw = param(Param.OUT_VIEWPORT_W), vh = param(Param.OUT_VIEWPORT_H);
  const modalCount = i32(param(Param.OUT_MODALS));
  // Which controls form a layer over the page: when one does, what is covered is behind it.
  let layered = false;
  for (let i = 0; i < count; i++) {
    const flags = i32In(I32In.FLAGS, i);
    const out = i32Out(I32Out.FLAGS, i);
    if (inLayer(i, flags, out, modalCount)) { setI32Out(I32Out.FLAGS, i, out | OutFlag.IN_LAYER); layered = true; }
  }
  const occludedFactor = layered || modalBlocks() ? PENALTY_BLOCKED : PENALTY_OCCLUDED;
  const pageBottom = pageBottomOf(vh);
  pageBottomNow = pageBottom;
  // A purchase is done by a control: buttons and fields naming one take the promotions first, links naming
  // one ("Buy New Gear" in a menu) only those left.
  // In each band the page's own purchases (markPurchaseItems) come first, and items' purchases are promoted only where
  // the band has none of the page's own (a listing's cards, a product whose own button shares the cards' label).
  markPurchaseItems();
  const ownControls = actionCuts(Flag.PURCHASE, Band.CONTROL, Band.INPUT, ACTION_KEEP, 0);
  const ownIn = cutIn, ownOut = cutOut;
  const itemControls = actionCuts(Flag.PURCHASE, Band.CONTROL, Band.INPUT, ownControls > 0 ? 0 : ACTION_KEEP, 1);
  const itemIn = cutIn, itemOut = cutOut;
  const linkKeep = ACTION_KEEP - ownControls - itemControls;
  const ownLinks = actionCuts(Flag.PURCHASE, Band.LINK, Band.LINK, linkKeep, 0);
  const ownLinkIn = cutIn, ownLinkOut = cutOut;
  actionCuts(Flag.PURCHASE, Band.LINK, Band.LINK, ownLinks > 0 ? 0 : linkKeep, 1);
  const itemLinkIn = cutIn, itemLinkOut = cutOut;
  actionCuts(Flag.SIGN_IN, Band.LINK, Band.INPUT, ACTION_KEEP);
  const signInIn = cutIn, signInOut = cutOut;
  actionCuts(Flag.SEARCH, Band.LINK, Band.INPUT, ACTION_KEEP);
  const searchIn = cutIn, searchOut = cutOut;
  // Starting to use or buy a service (Flag.START: "Get started", "Request a quote"): a service page's purchase.
  actionCuts(Flag.START, Band.LINK, Band.INPUT, ACTION_KEEP);
  const startIn = cutIn, startOut = cutOut;
  const formSubmit = pageFormSubmit();
  markFieldButtons();
  lifts = 0;
  visibleActionMin = 1000;
  liftIdx = new Int32Array(LIFT_MAX);
  liftScore = new Float64Array(LIFT_MAX);
  for (let i = 0; i < count; i++) {
    const flags = i32In(I32In.FLAGS, i);
    const band = i32In(I32In.BAND, i);
    const w = f64In(F64In.W, i), h = f64In(F64In.H, i);
    const area = w * h;
    const bg = i32In(I32In.BG, i);
    let out = i32Out(I32Out.FLAGS, i);
    const inView = (out & OutFlag.IN_VIEWPORT) != 0;

    const pointer = (flags & Flag.CURSOR_POINTER) != 0;
    const clickable = band >= Band.LINK || pointer || (flags & Flag.DISCLOSURE) != 0;
    const styledPrimary = alpha(bg) >= 128 && chroma(bg) >= PRIMARY_MIN_CHROMA
      && area >= PRIMARY_MIN_AREA && area <= PRIMARY_MAX_VIEWPORT_SHARE * vw * vh;
    const primary = clickable && ((flags & Flag.PRIMARY_HINT) != 0 || styledPrimary);
    if (clickable) out |= OutFlag.CLICKABLE;
    if (primary) out |= OutFlag.PRIMARY;
    setI32Out(I32Out.FLAGS, i, out);
    setI32Out(I32Out.COLOR, i, nearestColor(bg));

    let score = unchecked(fieldButtons[i]) != 0 ? TIER_INPUT : tier(band);
    if (inView) score += BONUS_IN_VIEWPORT;
    const docY = f64Out(F64Out.DOC_Y, i);
    if (docY >= 0 && docY < vh) score += BONUS_ABOVE_FOLD;
    score += min(BONUS_AREA_MAX, Math.sqrt(area) / AREA_SCALE * BONUS_AREA_MAX);
    if (primary) score += BONUS_PRIMARY;
    if (distinctBackground(bg)) score += BONUS_BACKGROUND;
    if (pointer) score += BONUS_POINTER;
    if ((flags & Flag.HAS_TEXT) != 0) score += BONUS_TEXT;
    // Each flag tested before the call: most elements name no action.
    const purchase = (flags & Flag.PURCHASE) != 0 && namesAction(i, flags, Flag.PURCHASE)
      && docY <= (unchecked(purchaseItems[i]) != 0
        ? (band == Band.LINK ? (inView ? itemLinkIn : itemLinkOut) : (inView ? itemIn : itemOut))
        : (band == Band.LINK ? (inView ? ownLinkIn : ownLinkOut) : (inView ? ownIn : ownOut)));
    // Covered by a layer whose controls come first: what it covers names no action until the layer is dealt with.
    const covered = layered && (out & OutFlag.OCCLUDED) != 0;
    const action = !covered && (purchase || i == formSubmit
      || ((flags & Flag.SIGN_IN) != 0 && namesAction(i, flags, Flag.SIGN_IN) && docY <= (inView ? signInIn : signInOut))
      || ((flags & Flag.SEARCH) != 0 && namesAction(i, flags, Flag.SEARCH) && docY <= (inView ? searchIn : searchOut))
      || ((flags & Flag.START) != 0 && namesAction(i, flags, Flag.START) && !inFooter(i, flags) && docY <= (inView ? startIn : startOut)));
    if (action) score += BONUS_ACTION;
    const layerBonus = (out & OutFlag.IN_LAYER) != 0 ? BONUS_LAYER + ((flags & Flag.DISMISS) != 0 ? BONUS_DISMISS : 0) : 0;

    if ((flags & Flag.HIDDEN) != 0 || w <= 0 || h <= 0) score *= PENALTY_HIDDEN;
    else if (w < TINY_SIDE || h < TINY_SIDE || (area < TINY_AREA && (flags & Flag.HAS_TEXT) == 0)) score *= PENALTY_TINY;
    // A promoted purchase disabled until an option is chosen (add to cart before a size) is still the page's purchase.
    if ((flags & Flag.DISABLED) != 0 && !purchase) score *= PENALTY_DISABLED;
    if (band >= Band.LINK && (flags & Flag.HAS_TEXT) == 0) score *= PENALTY_UNNAMED;
    if ((out & OutFlag.OCCLUDED) != 0) score *= occludedFactor;
    if ((flags & Flag.A11Y_HIDDEN) != 0) score *= PENALTY_A11Y_HIDDEN;
    if (!inView) {
      const unplaced = score;
      score *= placement(i, flags, action, vw, vh, pageBottom);
      if (action && lifts < LIFT_MAX) { unchecked(liftIdx[lifts] = i); unchecked(liftScore[lifts] = unplaced); lifts++; }
    }
    // The rerank's feature: the score without the layer's bonus (the goal picks among a layer's controls by words).
    setF64Out(F64Out.SCORE, i, score);
    score += layerBonus;
    const importance = importanceOf(score, clickable);
    setI32Out(I32Out.IMPORTANCE, i, importance);
    if (action && inView && importance < visibleActionMin) visibleActionMin = importance;
  }
  if (lifts > 0) liftOffscreenActions(lifts);
}

// Off-screen promoted actions and their score before placement, for liftOffscreenActions: at most three of each
// kind are promoted (more only where several share a doc_y), so LIFT_MAX is never reached in practice.
const LIFT_MAX = 64;
let liftIdx = new Int32Array(0);     // scratch: allocated per run (prepare resets the heap)
let liftScore = new Float64Array(0);
let lifts = 0;
let visibleActionMin = 1000;         // the lowest importance of a promoted action in the viewport

/** Fills `top` (length k, best first) with the scores of the k best clickable elements in the viewport
 *  (-Infinity where there are fewer). */
function screenTop(top: Float64Array, k: i32): void {
  for (let j = 0; j < k; j++) unchecked(top[j] = -Infinity);
  for (let i = 0; i < count; i++) {
    const out = i32Out(I32Out.FLAGS, i);
    if ((out & OutFlag.IN_VIEWPORT) == 0 || (out & OutFlag.CLICKABLE) == 0) continue;
    const v = f64Out(F64Out.SCORE, i);
    if (v <= unchecked(top[k - 1])) continue;
    let j = k - 1;
    while (j > 0 && unchecked(top[j - 1]) < v) { unchecked(top[j] = unchecked(top[j - 1])); j--; }
    unchecked(top[j] = v);
  }
}

/**
 * Position against the words, on a crowded screen: the screen keeps its SCREEN_FIRST best clickable elements above
 * every off-screen primary action; after them, the action's words win. Each of the n off-screen promoted actions
 * whose floored importance is lower is lifted to one point above the next visible element, at most level with the
 * SCREEN_FIRST-th and with every promoted action in the viewport (ties go to the visible element: doc_y), never above
 * its own unplaced score's importance.
 */
function liftOffscreenActions(n: i32): void {
  lifts = 0;
  const top = new Float64Array(SCREEN_FIRST + 1);
  screenTop(top, SCREEN_FIRST + 1);
  const kth = unchecked(top[SCREEN_FIRST - 1]), next = unchecked(top[SCREEN_FIRST]);
  if (next == -Infinity) return;
  // In importance (what the list is ordered by, ties then by doc_y, so a visible element first): one point
  // above the next visible control, at most level with the SCREEN_FIRST-th.
  // A promoted action in the viewport stays above every off-screen one (level, then doc_y): the words tie, the screen decides.
  const line = min(min(importanceOf(kth, true), importanceOf(next, true) + 1), visibleActionMin);
  for (let k = 0; k < n; k++) {
    const i = unchecked(liftIdx[k]);
    const unplaced = unchecked(liftScore[k]);
    const lifted = min(importanceOf(unplaced, true), line);
    if (lifted <= i32Out(I32Out.IMPORTANCE, i)) continue;
    setI32Out(I32Out.IMPORTANCE, i, lifted);  // SCORE, the rerank's feature, keeps the floored score: the lift orders the goal-less list only
  }
}
