// Goal-aware rerank: features per element from the goal's word and trigram hashes (overlap with the
// element's own words, its context, its trigrams), the goal's intent against the kind of control, the
// position the goal names against the element's place in its list, and the heuristic signals; a logistic model
// over them (weights in WEIGHTS, trained by `npm run train`); the fused score orders the result when
// the best candidate is confident enough. Only + - * / and floor: identical in Wasm and JS.
import { F64In, F64Out, I32In, I32Out, Flag, OutFlag, Param, Feature, Intent, Kind, SECTION_HEADINGS_BACK } from "./layout";
import { count, f64In, i32In, i32Out, setI32Out, f64Out, setF64Out, param, setParam, tokens, goal, weights, features, order } from "./state";
import { sortByKey, tableSize, hash3 } from "./sort";
import { byDocY } from "./group";
import { passes } from "./select";
import { sigmoid } from "./mathdet";
import { embedCosines } from "./embed";

/** An open-addressing set of i32 hashes (0 is stored out of band). */
class HashSet {
  slots: Int32Array;
  used: Int32Array;
  mask: i32;
  constructor(n: i32) {
    const size = tableSize(n);
    this.slots = new Int32Array(size);
    this.used = new Int32Array(size);
    this.mask = size - 1;
  }
  add(h: i32): void {
    let at = h & this.mask;
    while (unchecked(this.used[at]) != 0) {
      if (unchecked(this.slots[at]) == h) return;
      at = (at + 1) & this.mask;
    }
    unchecked(this.used[at] = 1);
    unchecked(this.slots[at] = h);
  }
  has(h: i32): bool {
    let at = h & this.mask;
    while (unchecked(this.used[at]) != 0) {
      if (unchecked(this.slots[at]) == h) return true;
      at = (at + 1) & this.mask;
    }
    return false;
  }
}

/** How many of tokens[start, start + len) the set holds (the encoder writes each hash once). */
function hits(set: HashSet, start: i32, len: i32): i32 {
  let n = 0;
  for (let k = start; k < start + len; k++) if (set.has(unchecked(tokens[k]))) n++;
  return n;
}

/** Goal words in the context that the element's own words lack: what only the context explains. */
function contextHits(set: HashSet, ctxStart: i32, ctxLen: i32, ownStart: i32, ownLen: i32): i32 {
  let n = 0;
  for (let k = ctxStart; k < ctxStart + ctxLen; k++) {
    const h = unchecked(tokens[k]);
    if (!set.has(h)) continue;
    let own = false;
    for (let j = ownStart; j < ownStart + ownLen; j++) if (unchecked(tokens[j]) == h) { own = true; break; }
    if (!own) n++;
  }
  return n;
}

function ratio(a: i32, b: i32): f64 {
  return b > 0 ? f64(a) / f64(b) : 0;
}

function intentFor(kind: i32): i32 {
  if (kind == Kind.TEXT_INPUT) return Intent.TYPE;
  if (kind == Kind.BUTTON) return Intent.PRESS;
  if (kind == Kind.LINK) return Intent.OPEN;
  if (kind == Kind.CHOICE) return Intent.CHOOSE;
  return 0;
}

/** Share of the widest member's width an element needs to count as an item of its list. */
const ITEM_WIDTH_SHARE: f64 = 0.4;
/** A list has at least this many items. */
const MIN_ITEMS = 3;
/** Rows this tall count as one line (a menu's items share a line): when ordering a section's controls, and
 *  when telling a list read down the page from one drawn on a line. */
const LINE_PX: f64 = 8;

/**
 * Lists, for "the second result". The client's lists first: an element it placed in a list of repeated
 * items (I32In.LIST_*: cards, result rows, menu items, found in the page's structure) is at its item's
 * place, every element of the item alike. The rest by geometry: elements of one kind in one aligned
 * column (the same group key) that are at least ITEM_WIDTH_SHARE as wide as the widest of them (a logo or
 * a page number in the same column is not an item). Writes each item's 0-based position top to bottom into
 * `position`, -1 for the rest, and the list's size into `size`. Columns are found by a hash table, and
 * walked in the top-to-bottom order the grouping pass already sorted.
 */
function listPositions(position: Int32Array, size: Int32Array): void {
  const slots = tableSize(count), mask = slots - 1;
  const keys = new Int32Array(slots), columnAt = new Int32Array(slots); // column + 1, 0 = empty
  const columnOf = new Int32Array(count), widest = new Float64Array(count), items = new Int32Array(count);
  let columns = 0;
  for (let i = 0; i < count; i++) {
    const h = hash3(i32Out(I32Out.GROUP_A, i), i32Out(I32Out.GROUP_B, i), i32In(I32In.KIND, i));
    let at = h & mask;
    while (unchecked(columnAt[at]) != 0 && unchecked(keys[at]) != h) at = (at + 1) & mask;
    if (unchecked(columnAt[at]) == 0) { unchecked(keys[at] = h); unchecked(columnAt[at] = ++columns); }
    const c = unchecked(columnAt[at]) - 1;
    unchecked(columnOf[i] = c);
    unchecked(widest[c] = max(unchecked(widest[c]), f64In(F64In.W, i)));
  }
  for (let k = 0; k < count; k++) {
    const i = unchecked(byDocY[k]);
    const c = unchecked(columnOf[i]);
    unchecked(position[i] = -1);
    if (i32In(I32In.LIST_ID, i) != 0) continue; // in a list the client sent: counted below, not in its column
    if (i32In(I32In.KIND, i) != Kind.STATIC && f64In(F64In.W, i) >= ITEM_WIDTH_SHARE * unchecked(widest[c])) {
      unchecked(position[i] = unchecked(items[c]));
      unchecked(items[c] = unchecked(items[c]) + 1);
    }
  }
  // A sent list drawn on one line (a menu bar, a pager, breadcrumbs) is no list here, as no aligned column
  // is: a position without a named list means a list read down the page ("the second result"), and a
  // named one ("the third link in the Sport menu") is counted by sectionPositions.
  const top = new Float64Array(count + 1), bottom = new Float64Array(count + 1);
  top.fill(Infinity); bottom.fill(-Infinity);
  for (let i = 0; i < count; i++) {
    const l = i32In(I32In.LIST_ID, i);
    if (l == 0) continue;
    const y = f64Out(F64Out.DOC_Y, i);
    unchecked(top[l] = min(unchecked(top[l]), y));
    unchecked(bottom[l] = max(unchecked(bottom[l]), y));
  }
  for (let i = 0; i < count; i++) {
    const l = i32In(I32In.LIST_ID, i);
    if (l == 0) { unchecked(size[i] = unchecked(items[unchecked(columnOf[i])])); continue; }
    if (unchecked(bottom[l]) - unchecked(top[l]) > LINE_PX) sentPlace(i, position, size);
  }
}

/**
 * The page's main list, for a position the goal gives without naming a list ("open the third product",
 * "like the second post"): of the sent lists read down the page (`position` set by listPositions), the one
 * whose box is the largest, where a product grid or a result list is, not a menu, a pager or a card's own
 * row of links. Returns its LIST_ID, 0 when none.
 */
function mainList(position: Int32Array): i32 {
  const x0 = new Float64Array(count + 1), x1 = new Float64Array(count + 1), y0 = new Float64Array(count + 1), y1 = new Float64Array(count + 1);
  x0.fill(Infinity); y0.fill(Infinity); x1.fill(-Infinity); y1.fill(-Infinity);
  for (let i = 0; i < count; i++) {
    const l = i32In(I32In.LIST_ID, i);
    if (l == 0 || l > count || unchecked(position[i]) < 0 || i32In(I32In.LIST_SIZE, i) < MIN_ITEMS) continue;
    const x = f64In(F64In.X, i), y = f64Out(F64Out.DOC_Y, i);
    unchecked(x0[l] = min(unchecked(x0[l]), x)); unchecked(x1[l] = max(unchecked(x1[l]), x + f64In(F64In.W, i)));
    unchecked(y0[l] = min(unchecked(y0[l]), y)); unchecked(y1[l] = max(unchecked(y1[l]), y + f64In(F64In.H, i)));
  }
  let best = 0, bestArea: f64 = 0;
  for (let l = 1; l <= count; l++) {
    if (unchecked(x1[l]) < unchecked(x0[l])) continue;
    const area = (unchecked(x1[l]) - unchecked(x0[l])) * (unchecked(y1[l]) - unchecked(y0[l]));
    if (area > bestArea) { bestArea = area; best = l; }
  }
  return best;
}

/** The place the client sent for element i (I32In.LIST_*, 1-based) as a 0-based position and a size. */
function sentPlace(i: i32, position: Int32Array, size: Int32Array): void {
  unchecked(position[i] = i32In(I32In.LIST_INDEX, i) - 1);
  unchecked(size[i] = i32In(I32In.LIST_SIZE, i));
}

/** Scores this close to the best are all turned into probabilities to find the highest one. */
const TOP_MARGIN: f64 = 1e-6;

/** ML_PROB of the selected elements (ORDER[0, selected)): the only ones anybody reads. */
export function rerankProbabilities(selected: i32): void {
  for (let k = 0; k < selected; k++) {
    const i = unchecked(order[k]);
    setF64Out(F64Out.ML_PROB, i, sigmoid(f64Out(F64Out.ML_SCORE, i)));
  }
}


/**
 * The section each element sits in: the label the client sent (SEC_*), else the nearest heading above
 * it whose box spans its column (its own words are the label; its id is -(heading index + 1)).
 */
function sections(secStart: Int32Array, secLen: Int32Array, secId: Int32Array): void {
  let nHeadings = 0;
  for (let i = 0; i < count; i++) if ((i32In(I32In.FLAGS, i) & Flag.HEADING) != 0) nHeadings++;
  const heads = new Int32Array(nHeadings), tmp = new Int32Array(nHeadings), key = new Float64Array(count);
  let h = 0;
  for (let i = 0; i < count; i++) {
    if ((i32In(I32In.FLAGS, i) & Flag.HEADING) == 0) continue;
    unchecked(heads[h++] = i);
    unchecked(key[i] = f64Out(F64Out.DOC_Y, i));
  }
  sortByKey(heads, nHeadings, key, tmp);
  for (let i = 0; i < count; i++) {
    const sent = i32In(I32In.SEC_ID, i);
    if (sent != 0) {
      unchecked(secStart[i] = i32In(I32In.SEC_START, i));
      unchecked(secLen[i] = i32In(I32In.SEC_LEN, i));
      unchecked(secId[i] = sent);
      continue;
    }
    // The last heading whose centre is above this element's centre (binary search), then up the page.
    const y = f64Out(F64Out.DOC_Y, i), x0 = f64In(F64In.X, i), x1 = x0 + f64In(F64In.W, i);
    let lo = 0, hi = nHeadings;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (f64Out(F64Out.DOC_Y, unchecked(heads[mid])) < y) lo = mid + 1; else hi = mid;
    }
    for (let k = lo - 1; k >= 0 && k >= lo - SECTION_HEADINGS_BACK; k--) {
      const j = unchecked(heads[k]);
      if (j == i) continue;
      const hx0 = f64In(F64In.X, j), hx1 = hx0 + f64In(F64In.W, j);
      if (hx0 >= x1 || x0 >= hx1) continue; // another column
      unchecked(secStart[i] = i32In(I32In.OWN_START, j));
      unchecked(secLen[i] = i32In(I32In.OWN_LEN, j));
      unchecked(secId[i] = -(j + 1));
      break;
    }
  }
}


/**
 * For "the third link in the Sport menu": each element's 0-based place among the controls of its kind
 * in its section, in reading order (line by line, then left to right), or its item's place in a list the
 * client sent; -1 outside a section and for static text. `size` gets the number of such controls (items).
 */
function sectionPositions(secId: Int32Array, position: Int32Array, size: Int32Array): void {
  const idx = new Int32Array(count), tmp = new Int32Array(count), key = new Float64Array(count);
  let m = 0;
  for (let i = 0; i < count; i++) {
    unchecked(position[i] = -1);
    unchecked(size[i] = 0);
    if (unchecked(secId[i]) == 0 || i32In(I32In.KIND, i) == Kind.STATIC) continue;
    unchecked(idx[m++] = i);
    unchecked(key[i] = Math.floor(f64Out(F64Out.DOC_Y, i) / LINE_PX) * 1e7 + f64In(F64In.X, i));
  }
  sortByKey(idx, m, key, tmp);
  for (let k = 0; k < m; k++) { const i = unchecked(idx[k]); unchecked(key[i] = f64(hash3(unchecked(secId[i]), i32In(I32In.KIND, i), 0))); }
  sortByKey(idx, m, key, tmp); // stable: reading order within each section and kind
  let start = 0;
  while (start < m) {
    const g = unchecked(key[unchecked(idx[start])]);
    let end = start;
    while (end < m && unchecked(key[unchecked(idx[end])]) == g) { unchecked(position[unchecked(idx[end])] = end - start); end++; }
    for (let k = start; k < end; k++) unchecked(size[unchecked(idx[k])] = end - start);
    start = end;
  }
  // An item of a list the client sent is at its item's place (a story's headline and byline links alike).
  for (let k = 0; k < m; k++) { const i = unchecked(idx[k]); if (i32In(I32In.LIST_ID, i) != 0) sentPlace(i, position, size); }
}

export function computeRerank(): void {
  const nWords = i32(param(Param.GOAL_WORDS)), nTri = i32(param(Param.GOAL_TRIGRAMS)), nConcepts = i32(param(Param.GOAL_CONCEPTS));
  const goalWords = new HashSet(nWords), goalTri = new HashSet(nTri), goalConcepts = new HashSet(nConcepts);
  for (let k = 0; k < nWords; k++) goalWords.add(unchecked(goal[k]));
  for (let k = 0; k < nTri; k++) goalTri.add(unchecked(goal[nWords + k]));
  for (let k = 0; k < nConcepts; k++) goalConcepts.add(unchecked(goal[nWords + nTri + k]));
  const nList = i32(param(Param.GOAL_LIST_WORDS)), listWords = new HashSet(nList);
  for (let k = 0; k < nList; k++) listWords.add(unchecked(goal[nWords + nTri + nConcepts + k]));
  const nNoun = i32(param(Param.GOAL_NOUN_WORDS)), nounWords = new HashSet(nNoun);
  for (let k = 0; k < nNoun; k++) nounWords.add(unchecked(goal[nWords + nTri + nConcepts + nList + k]));
  const intent = i32(param(Param.INTENT)), ordinal = i32(param(Param.ORDINAL));
  const fusion = param(Param.FUSION);
  const emit = features.length > 0;
  const f = new Float64Array(Feature.COUNT);

  const position = new Int32Array(count), listSize = new Int32Array(count);
  if (ordinal != 0) listPositions(position, listSize);
  const secStart = new Int32Array(count), secLen = new Int32Array(count), secId = new Int32Array(count);
  sections(secStart, secLen, secId);
  const secPosition = new Int32Array(count), secSize = new Int32Array(count);
  if (ordinal != 0) sectionPositions(secId, secPosition, secSize);
  const embOwn = new Float64Array(count), embLink = new Float64Array(count), embSec = new Float64Array(count);
  embedCosines(embOwn, embLink, embSec, secId);
  // When the goal names the list its position is in ("in the Sport menu") and a section of that name
  // has a control at that position, positions in other lists do not count.
  const inList = new Int32Array(count), namedBy = new Int32Array(count).fill(-1);
  let namedList = false;
  if (nList > 0) {
    // A sent list is also named by the control just before its first item, outside it, when that control's
    // words are most of the list's name: a submenu's parent link or a column's title ("the second link
    // under Pay for college"), where no heading opens the list.
    const opener = new Int32Array(count + 1).fill(-1);
    for (let i = count - 1; i >= 0; i--) {
      const l = i32In(I32In.LIST_ID, i);
      if (l != 0) unchecked(opener[l] = i - 1);
    }
    for (let i = 0; i < count; i++) {
      const l = i32In(I32In.LIST_ID, i);
      const o = l != 0 ? unchecked(opener[l]) : -1;
      if (o >= 0 && i32In(I32In.LIST_ID, o) != l && 2 * hits(listWords, i32In(I32In.OWN_START, o), i32In(I32In.OWN_LEN, o)) > nList) {
        sentPlace(i, secPosition, secSize);
        unchecked(namedBy[i] = o);
      } else if (hits(listWords, unchecked(secStart[i]), unchecked(secLen[i])) == 0) continue;
      unchecked(inList[i] = 1);
      if (unchecked(secPosition[i]) == (ordinal > 0 ? ordinal - 1 : unchecked(secSize[i]) - 1)) namedList = true;
    }
  }

  // A position with no list named is most likely in the page's main list (ORDINAL_MAIN).
  const main = ordinal != 0 && nList == 0 ? mainList(position) : 0;
  // Controls whose own words carry the goal's item noun or list name, and how many of each sent list's do.
  // Only when the client sent lists: geometry alone cannot tell a lone control from an item.
  // The rule below applies when the goal names a position and a noun or list and the client sent lists. Most
  // goals name no position: then nothing is allocated or read for it (the loop below asks nounRule first).
  let nounRule = false;
  for (let i = 0; i < count && ordinal != 0 && nNoun + nList > 0; i++) if (i32In(I32In.LIST_ID, i) != 0) { nounRule = true; break; }
  const carries = new Uint8Array(nounRule ? count : 0), carriers = new Int32Array(nounRule ? count + 1 : 0);
  if (nounRule) for (let i = 0; i < count; i++) {
    const start = i32In(I32In.OWN_START, i), len = i32In(I32In.OWN_LEN, i);
    if (hits(nounWords, start, len) + hits(listWords, start, len) == 0) continue;
    unchecked(carries[i] = 1);
    const l = i32In(I32In.LIST_ID, i);
    if (l > 0 && l <= count) unchecked(carriers[l] = unchecked(carriers[l]) + 1);
  }

  for (let i = 0; i < count; i++) {
    // The spans hold only the hashes the goal has; the counts are of all the element's distinct hashes.
    const ownSpan = i32In(I32In.OWN_LEN, i), ctxLen = i32In(I32In.CTX_LEN, i), triSpan = i32In(I32In.TRI_LEN, i);
    const ownLen = i32In(I32In.OWN_COUNT, i), triLen = i32In(I32In.TRI_COUNT, i);
    const own = hits(goalWords, i32In(I32In.OWN_START, i), ownSpan);
    const ctx = contextHits(goalWords, i32In(I32In.CTX_START, i), ctxLen, i32In(I32In.OWN_START, i), ownSpan);
    const tri = hits(goalTri, i32In(I32In.TRI_START, i), triSpan);
    const kind = i32In(I32In.KIND, i);
    const out = i32Out(I32Out.FLAGS, i);
    const kindIntent = intentFor(kind);

    f.fill(0);
    unchecked(f[Feature.BIAS] = 1);
    unchecked(f[Feature.OWN_RECALL] = ratio(own, nWords));
    unchecked(f[Feature.OWN_PRECISION] = ratio(own, ownLen));
    unchecked(f[Feature.CTX_RECALL] = ratio(ctx, nWords));
    unchecked(f[Feature.TRI_RECALL] = ratio(tri, nTri));
    unchecked(f[Feature.TRI_PRECISION] = ratio(tri, triLen));
    if (intent != 0 && kindIntent != 0) {
      if ((intent & kindIntent) != 0) unchecked(f[Feature.INTENT_MATCH] = 1);
      else unchecked(f[Feature.INTENT_OTHER] = 1);
    }
    if (kind == Kind.TEXT_INPUT) unchecked(f[Feature.KIND_TEXT_INPUT] = 1);
    else if (kind == Kind.BUTTON) unchecked(f[Feature.KIND_BUTTON] = 1);
    else if (kind == Kind.LINK) unchecked(f[Feature.KIND_LINK] = 1);
    else if (kind == Kind.CHOICE) unchecked(f[Feature.KIND_CHOICE] = 1);
    else if (kind == Kind.STATIC) unchecked(f[Feature.KIND_STATIC] = 1);
    if (ordinal != 0 && unchecked(position[i]) >= 0 && unchecked(listSize[i]) >= MIN_ITEMS && (!namedList || unchecked(inList[i]) != 0)) {
      unchecked(f[Feature.ORDINAL_GROUP] = 1);
      const want = ordinal > 0 ? ordinal - 1 : unchecked(listSize[i]) - 1;
      if (unchecked(position[i]) == want) unchecked(f[Feature.ORDINAL_MATCH] = 1);
    }
    // The score on the scale the model was trained on (0..1000, clamped), not the importance's bent scale.
    unchecked(f[Feature.IMPORTANCE] = min(1000, max(0, Math.floor(f64Out(F64Out.SCORE, i) + 0.5))) / 1000);
    if ((out & OutFlag.IN_VIEWPORT) != 0) unchecked(f[Feature.IN_VIEWPORT] = 1);
    if ((out & OutFlag.OCCLUDED) != 0) unchecked(f[Feature.OCCLUDED] = 1);
    if ((i32In(I32In.FLAGS, i) & Flag.DISABLED) != 0) unchecked(f[Feature.DISABLED] = 1);
    if (ownLen == 0) unchecked(f[Feature.NO_WORDS] = 1);
    if (nConcepts > 0) {
      unchecked(f[Feature.CONCEPT_OWN] = ratio(hits(goalConcepts, i32In(I32In.OWN_START, i), ownSpan), nConcepts));
      unchecked(f[Feature.CONCEPT_LINK] = ratio(hits(goalConcepts, i32In(I32In.CTX_START, i), ctxLen), nConcepts));
    }
    unchecked(f[Feature.SECTION_RECALL] = ratio(hits(goalWords, unchecked(secStart[i]), unchecked(secLen[i])), nWords));
    // The control that names the element's list reads as its section's label would.
    const o = unchecked(namedBy[i]);
    if (o >= 0) unchecked(f[Feature.SECTION_RECALL] = max(unchecked(f[Feature.SECTION_RECALL]), ratio(hits(goalWords, i32In(I32In.OWN_START, o), i32In(I32In.OWN_LEN, o)), nWords)));
    if (unchecked(inList[i]) != 0 && unchecked(secPosition[i]) >= 0) {
      const want = ordinal > 0 ? ordinal - 1 : unchecked(secSize[i]) - 1;
      if (unchecked(secPosition[i]) == want) unchecked(f[Feature.SECTION_ORDINAL] = 1);
    }
    if (main != 0 && i32In(I32In.LIST_ID, i) == main && unchecked(position[i]) >= 0
      && unchecked(position[i]) == (ordinal > 0 ? ordinal - 1 : unchecked(listSize[i]) - 1)) unchecked(f[Feature.ORDINAL_MAIN] = 1);
    unchecked(f[Feature.EMB_OWN] = unchecked(embOwn[i]));
    unchecked(f[Feature.EMB_LINK] = unchecked(embLink[i]));
    unchecked(f[Feature.EMB_SECTION] = unchecked(embSec[i]));
    // The goal's item noun or list name names a list, not a control: a control that carries it in its own
    // words alone of its list ("FAQs" in a menu for "the second FAQ question", "Latest News" for "the second
    // news story") gets nothing for its words or its link unless it is at the goal's place in the main or
    // the named list. A list whose items carry the noun ("Go to slide 4" in a carousel's dots) is the one
    // it names; a control in no sent list is judged by its place alone (geometry knows no list's words);
    // a text field is named by its label ("first name"), never a list.
    const l = i32In(I32In.LIST_ID, i);
    if (nounRule && unchecked(carries[i]) != 0 && kind != Kind.TEXT_INPUT && unchecked(f[Feature.SECTION_ORDINAL]) == 0 && unchecked(f[Feature.ORDINAL_MAIN]) == 0
      && (l > 0 && l <= count ? unchecked(carriers[l]) <= 1 : unchecked(f[Feature.ORDINAL_MATCH]) == 0)) {
      unchecked(f[Feature.OWN_RECALL] = 0); unchecked(f[Feature.OWN_PRECISION] = 0);
      unchecked(f[Feature.TRI_RECALL] = 0); unchecked(f[Feature.TRI_PRECISION] = 0);
      unchecked(f[Feature.CONCEPT_OWN] = 0); unchecked(f[Feature.EMB_OWN] = 0);
      unchecked(f[Feature.CTX_RECALL] = 0); unchecked(f[Feature.CONCEPT_LINK] = 0); unchecked(f[Feature.EMB_LINK] = 0);
    }

    let score: f64 = 0;
    for (let k = 0; k < Feature.COUNT; k++) score += unchecked(f[k]) * unchecked(weights[k]);
    if (emit) for (let k = 0; k < Feature.COUNT; k++) unchecked(features[i * Feature.COUNT + k] = unchecked(f[k]));
    setF64Out(F64Out.ML_SCORE, i, score);
    // Fused in logit space: probabilities saturate near 1, where a share of importance would decide alone.
    setF64Out(F64Out.FUSED, i, score + fusion * f64(i32Out(I32Out.IMPORTANCE, i)) / 1000);
  }

  // Ranks among the elements that pass the filters, by importance and by the fused score; the fused
  // order applies when the best probability reaches the confidence floor.
  const minArea = param(Param.MIN_AREA);
  const byRole = param(Param.FILTER_ROLES) != 0, byTag = param(Param.FILTER_TAGS) != 0;
  const idx = new Int32Array(count), tmp = new Int32Array(count), key = new Float64Array(count);
  let m = 0;
  let best: f64 = -Infinity;
  for (let i = 0; i < count; i++) {
    setI32Out(I32Out.HEURISTIC_INDEX, i, -1);
    setI32Out(I32Out.FUSED_INDEX, i, -1);
    if (!passes(i, minArea, byRole, byTag)) continue;
    unchecked(idx[m++] = i);
    best = max(best, f64Out(F64Out.ML_SCORE, i));
  }
  // The best probability, from the scores near the best one only: sigmoid (expDet within 1e-14 of e^x,
  // then + and / rounded monotonically) never puts a score TOP_MARGIN lower above a higher one.
  let top: f64 = 0;
  for (let k = 0; k < m; k++) {
    const score = f64Out(F64Out.ML_SCORE, unchecked(idx[k]));
    if (score >= best - TOP_MARGIN) top = max(top, sigmoid(score));
  }
  // Ties: higher on the page first, as the heuristic order does (sort is stable in document order).
  for (let k = 0; k < m; k++) { const i = unchecked(idx[k]); unchecked(key[i] = -f64(i32Out(I32Out.IMPORTANCE, i)) * 1e7 + f64Out(F64Out.DOC_Y, i) / 1e3); }
  sortByKey(idx, m, key, tmp);
  for (let k = 0; k < m; k++) setI32Out(I32Out.HEURISTIC_INDEX, unchecked(idx[k]), k);
  for (let k = 0; k < m; k++) { const i = unchecked(idx[k]); unchecked(key[i] = -f64Out(F64Out.FUSED, i)); }
  sortByKey(idx, m, key, tmp);
  for (let k = 0; k < m; k++) setI32Out(I32Out.FUSED_INDEX, unchecked(idx[k]), k);
  if (top < param(Param.KEEP_BELOW)) keepPlainTop(idx, m);
  setParam(Param.OUT_TOP_PROB, top);
  setParam(Param.OUT_RERANK_APPLIED, m > 0 && top >= param(Param.MIN_CONFIDENCE) ? 1 : 0);
}

/**
 * A goal never hides what no goal would show: when the rerank is not confident, the first KEEP_COUNT
 * visible controls of the no-goal order (in the viewport, not covered, not static text; at most half
 * the limit) that the goal's order leaves beyond LIMIT take the last places within it, in no-goal order,
 * and the rest move down; those of them already within LIMIT stay there. `idx` holds the m candidates in
 * the goal's order (FUSED_INDEX).
 */
function keepPlainTop(idx: Int32Array, m: i32): void {
  const limit = min(i32(param(Param.LIMIT)), m);
  const want = min(i32(param(Param.KEEP_COUNT)), limit >> 1); // not limit / 2: the JS build divides in floats
  if (want <= 0 || limit >= m) return;
  const byPlain = new Int32Array(m);
  for (let k = 0; k < m; k++) { const i = unchecked(idx[k]); unchecked(byPlain[i32Out(I32Out.HEURISTIC_INDEX, i)] = i); }
  const missing = new Int32Array(want);
  const mark = new Int32Array(count); // 1: a kept control within LIMIT, 2: one beyond it, 3: placed
  let kept = 0, nMissing = 0;
  for (let k = 0; k < m && kept < want; k++) {
    const i = unchecked(byPlain[k]);
    const out = i32Out(I32Out.FLAGS, i);
    if ((out & OutFlag.IN_VIEWPORT) == 0 || (out & OutFlag.OCCLUDED) != 0 || i32In(I32In.KIND, i) == Kind.STATIC) continue;
    kept++;
    if (i32Out(I32Out.FUSED_INDEX, i) >= limit) { unchecked(missing[nMissing++] = i); unchecked(mark[i] = 2); } else unchecked(mark[i] = 1);
  }
  if (nMissing == 0) return;
  // idx: the goal's order. The kept controls within LIMIT and the first LIMIT - kept others keep their order;
  // the missing follow; then the rest, in order.
  let at = 0, others = 0;
  for (let k = 0; k < m; k++) {
    const i = unchecked(idx[k]), w = unchecked(mark[i]);
    if (w == 2 || (w == 0 && others >= limit - kept)) continue;
    if (w == 0) others++;
    unchecked(mark[i] = 3);
    setI32Out(I32Out.FUSED_INDEX, i, at++);
  }
  for (let k = 0; k < nMissing; k++) setI32Out(I32Out.FUSED_INDEX, unchecked(missing[k]), at++);
  for (let k = 0; k < m; k++) {
    const i = unchecked(idx[k]);
    if (unchecked(mark[i]) == 0) setI32Out(I32Out.FUSED_INDEX, i, at++);
  }
}
