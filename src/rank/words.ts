// Words as every door reads them: normalisation, stop words, light stemming and the hash the core
// compares. The tokeniser (goal.ts) and the web-intent lexicon (concepts.ts) share them.

export const STOP = new Set(('a an and are as at be by for from has have i in into is it its me my of on or our please the their then this '
  + 'to up us we with you your that those these there here can could would should will want need like just now').split(' '));

/** FNV-1a, 32 bits, as a signed i32: the same hash for the same word in every door. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** Light stemming: plural and verb endings, so "results"/"result" and "searching"/"search" meet. */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('es') && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function normalise(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

// What normalise() makes of one UTF-16 unit (>= 128) alone, when it makes the same of it in any text:
// NFKD decomposes each character on its own and only reorders runs of combining marks, the marks it
// drops (U+0300-036F) vanish in any order, and lower case depends on context only for a capital sigma.
// So a unit whose result holds no mark (every reordered character is a mark) and no sigma maps alone:
// a text of such units (and ASCII, lower-cased) normalises unit by unit, without normalise()'s copies.
// The goal's tokeniser (goal.ts) and the action words' scan (action-words.ts) read text so.
export enum Unit { UNKNOWN = 0, NONE = 1, ONE = 2, MANY = 3, WHOLE = 4 }
/** Each unit's Unit once met (learnUnit fills it): NONE (dropped), ONE (UNIT_ONE), MANY (UNIT_MANY), WHOLE
 *  (normalise the whole text). */
const UNIT_KIND = new Uint8Array(65536);
export const UNIT_ONE = new Uint16Array(65536);
export const UNIT_MANY = new Map<number, string>();
const MARK = /\p{M}/u;

/** What normalise() makes of the unit `c` (>= 128) alone: a Unit. */
export function unitOf(c: number): Unit {
  return UNIT_KIND[c] || learnUnit(c);
}

function learnUnit(c: number): Unit {
  let kind = Unit.WHOLE;
  if (c < 0xd800 || c > 0xdfff) { // a surrogate's character is known only with its pair
    const alone = String.fromCharCode(c);
    const out = normalise(alone);
    if (!alone.normalize('NFKD').includes('\u03a3') && !MARK.test(out)) {
      if (out.length === 0) kind = Unit.NONE;
      else if (out.length === 1) { kind = Unit.ONE; UNIT_ONE[c] = out.charCodeAt(0); }
      else { kind = Unit.MANY; UNIT_MANY.set(c, out); }
    }
  }
  UNIT_KIND[c] = kind;
  return kind;
}

/** Membership of i32 hashes: a HashFilter, or a Set. */
export interface HashSet { has(h: number): boolean }

/** A fixed set of i32 hashes: open addressing over typed arrays, for a goal's words, concepts or trigrams. */
export class HashFilter {
  private readonly keys: Int32Array;
  private readonly used: Uint8Array;
  private readonly mask: number;
  readonly size: number;
  constructor(hashes: Iterable<number>) {
    const all = [...new Set(hashes)];
    let slots = 16;
    while (slots < all.length * 4) slots <<= 1;
    this.keys = new Int32Array(slots);
    this.used = new Uint8Array(slots);
    this.mask = slots - 1;
    this.size = all.length;
    for (const h of all) {
      let at = (h ^ (h >>> 15)) & this.mask;
      while (this.used[at]) at = (at + 1) & this.mask;
      this.used[at] = 1;
      this.keys[at] = h;
    }
  }
  has(h: number): boolean {
    for (let at = (h ^ (h >>> 15)) & this.mask; this.used[at]; at = (at + 1) & this.mask) if (this.keys[at] === h) return true;
    return false;
  }
}
