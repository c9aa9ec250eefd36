// One pass over a label for any of a list of words, as a case-blind regex alternation (/w1|w2|.../i) would
// find them in the label's normalise() (words.ts: lower case, accents dropped), but with a table instead of
// the regex and without normalise()'s copies: an automaton (Aho-Corasick) over ASCII, fed the label unit
// by unit (words.ts unitOf), which the encoder runs on every control's label (action-words.ts). When the
// normalised label is not all ASCII, the scan cannot tell, and the caller takes another way.
import { Unit, UNIT_ONE, UNIT_MANY, unitOf } from './words.ts';

/** What `scan` found in the label's normalise(): a word, none, or it cannot tell (not all ASCII). */
export enum Scan { NONE = 0, FOUND = 1, NOT_ASCII = 2 }

const fold = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

export interface AsciiScanner {
  /** Scans normalise(text) for a word, in one pass over `text`. */
  scan(text: string): Scan;
}

/**
 * The scanner of `words`. A case-blind regex (without the u flag) matches an ASCII letter only with its
 * other case, and no other character with an ASCII one, so a word holding a non-ASCII character is found
 * in no ASCII text and is left out. Words must not be empty.
 */
export function asciiScanner(words: readonly string[]): AsciiScanner {
  const ascii = words.filter((w) => /^[\x00-\x7f]+$/.test(w)).map((w) => Array.from(w, (ch) => fold(ch.charCodeAt(0))));
  if (words.some((w) => w.length === 0)) throw new Error('asciiScanner: an empty word');
  // Symbols: every character the words hold gets a class (1..k); every other character is class 0.
  const classOf = new Uint8Array(128);
  let classes = 1;
  for (const w of ascii) for (const c of w) if (classOf[c] === 0) classOf[c] = classes++;
  for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32];
  // The trie of the words; state 0 is the root.
  const next: number[][] = [new Array(classes).fill(-1)];
  const accepts: boolean[] = [false];
  for (const w of ascii) {
    let s = 0;
    for (const c of w) {
      const k = classOf[c];
      if (next[s][k] < 0) { next[s][k] = next.length; next.push(new Array(classes).fill(-1)); accepts.push(false); }
      s = next[s][k];
    }
    accepts[s] = true;
  }
  // Failure links, breadth first, turn the trie into a full transition table.
  const fail = new Array<number>(next.length).fill(0);
  const queue: number[] = [];
  for (let k = 0; k < classes; k++) {
    if (next[0][k] < 0) next[0][k] = 0;
    else if (next[0][k] > 0) queue.push(next[0][k]);
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    accepts[s] = accepts[s] || accepts[fail[s]];
    for (let k = 0; k < classes; k++) {
      const t = next[s][k];
      if (t < 0) next[s][k] = next[fail[s]][k];
      else { fail[t] = next[fail[s]][k]; queue.push(t); }
    }
  }
  const delta = new Int32Array(next.length * classes);
  next.forEach((row, s) => row.forEach((t, k) => { delta[s * classes + k] = t; }));
  const accept = Uint8Array.from(accepts, (a) => (a ? 1 : 0));
  const step = (s: number, c: number) => delta[s * classes + classOf[c]];
  return {
    scan(text: string): Scan {
      let found = false;
      for (let i = 0, s = 0; i < text.length; i++) {
        let c = text.charCodeAt(i);
        if (c >= 128) {
          const kind = unitOf(c);
          if (kind === Unit.NONE) continue;
          if (kind === Unit.ONE) c = UNIT_ONE[c];
          else if (kind === Unit.MANY) {
            const many = UNIT_MANY.get(c)!;
            for (let k = 0; k < many.length; k++) {
              const d = many.charCodeAt(k);
              if (d >= 128) return Scan.NOT_ASCII;
              s = step(s, d);
              if (accept[s] === 1) found = true;
            }
            continue;
          } else return Scan.NOT_ASCII;
          if (c >= 128) return Scan.NOT_ASCII;
        }
        s = step(s, c);
        if (accept[s] === 1) found = true; // read on: a unit later may leave the scan unable to tell
      }
      return found ? Scan.FOUND : Scan.NONE;
    },
  };
}
