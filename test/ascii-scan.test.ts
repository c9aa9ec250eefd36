// The ASCII word scanner (src/rank/ascii-scan.ts) against the case-blind regex alternation it stands for,
// run on the label's normalise(), on generated labels: pieces of the words in both cases, their neighbours,
// accented letters, ligatures, combining marks, and characters that stay non-ASCII.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asciiScanner, CANNOT_TELL, type AsciiScanner } from '../src/rank/ascii-scan.ts';
import { PURCHASE_STEMS } from '../src/rank/action-words.ts';
import { normalise } from '../src/rank/words.ts';

/** A single-group scan's answer: a word found, none, or it cannot tell (not all ASCII). */
enum Scan { NONE = 0, FOUND = 1, NOT_ASCII = 2 }
const scan = (scanner: AsciiScanner, label: string): Scan => {
  const g = scanner.groups(label);
  return g === CANNOT_TELL ? Scan.NOT_ASCII : g !== 0 ? Scan.FOUND : Scan.NONE;
};

/** As action-words.ts builds STEM: the words joined as they are (`escape` for words that are not plain letters). */
const viaRegex = (words: readonly string[], escape = false) => {
  const re = new RegExp(words.map((w) => (escape ? w.replace(/[[\]{}()*+?.\\^$|]/g, '\\$&') : w)).join('|'), 'i');
  return (label: string) => { const t = normalise(label); return /[^\x00-\x7f]/.test(t) ? Scan.NOT_ASCII : re.test(t) ? Scan.FOUND : Scan.NONE; };
};
/** The scanner's answer is the regex's, except that it may not tell (NOT_ASCII) where a surrogate pair
 *  stands: such a character normalises only with the whole text (U+1D400 becomes "a"). */
function check(got: Scan, want: Scan, label: string): void {
  if (got === Scan.NOT_ASCII && /[\ud800-\udfff]/.test(label)) return;
  assert.equal(got, want, JSON.stringify(label));
}

/** A seeded generator, so a failure repeats. */
function rng(seed: number) {
  return () => { seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0; return (seed >>> 0) / 2 ** 32; };
}

function labels(words: readonly string[], count: number, seed: number): string[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const pieces = [...words, ...words.map((w) => w.toUpperCase()), ...words.map((w) => w.slice(0, Math.max(1, w.length - 1))),
    ...words.map((w) => w.slice(1)), ' ', '-', 'a', 'k', 'o', 'Z', '@', '[', '`', '{', 'é', 'ı', 'K', 'ß', 'к', '購',
    'ñ', 'Ö', 'ﬁ', '\u0301', '\u0483', 'Σ', '\u00a0', '…', '½', '😀', '𝐀', 'Å', 'ç'];
  return Array.from({ length: count }, () => {
    let s = '';
    for (let n = Math.floor(r() * 6); n > 0; n--) s += pick(pieces);
    return r() < 0.4 ? s : r() < 0.5 ? s.replace(/[^\x00-\x7f\u00c0-\u017f]/g, '') : s.replace(/[^\x00-\x7f]/g, ''); // and Latin, and ASCII
  });
}

test('the scanner finds the purchase stems exactly where their case-blind alternation does', () => {
  const scanner = asciiScanner(PURCHASE_STEMS), regex = viaRegex(PURCHASE_STEMS);
  let found = 0;
  for (const label of labels(PURCHASE_STEMS, 50_000, 1)) {
    const want = regex(label);
    check(scan(scanner, label), want, label);
    if (want === Scan.FOUND) found++;
  }
  assert.ok(found > 1000, `${found} labels hold a stem`);
  // Accented labels are read unit by unit, not handed back.
  assert.equal(scan(scanner, 'Añadir a la cesta'), Scan.FOUND);
  assert.equal(scan(scanner, 'Ver más artículos'), Scan.NONE);
});

test('overlapping words, words inside others, and characters next to the letters\' cases', () => {
  const words = ['he', 'she', 'his', 'hers', 'a[b', 'x@y', 'usher'];
  const scanner = asciiScanner(words), regex = viaRegex(words, true);
  for (const label of [...labels(words, 20_000, 2), 'ushers', 'sHe', 'hi', 'A{B', 'a[B', 'X`Y', 'x@Y', '', 'ushé', 'uSHÉR', 'ﬁhe', 'h\u0301e']) check(scan(scanner, label), regex(label), label);
});

test('groups: one pass tells which lists the words found belong to, or that it cannot tell', () => {
  const scanner = asciiScanner(['cart', 'search', 'login', 'コ'], [1, 2, 2, 4]);
  assert.equal(scanner.groups('Add to cart'), 1);
  assert.equal(scanner.groups('Search the cart'), 3);
  assert.equal(scanner.groups('LOGIN'), 2);
  assert.equal(scanner.groups('Read more'), 0);
  assert.equal(scanner.groups('Añadir'), 0); // ASCII once its accents are dropped
  assert.equal(scanner.groups('検索'), CANNOT_TELL);
});
