// One pass over a label for any of a list of words, as a case-blind regex alternation (/w1|w2|.../i) would
// find them in the label's normalise() (words.ts: lower case, accents dropped), but with a table instead of
// the regex and without normalise()'s copies: an automaton (Aho-Corasick) over ASCII, fed the label unit
// by unit (words.ts unitOf), which the encoder runs on every control's label (action-words.ts). When the
// normalised label is not all ASCII, the scan cannot tell, and the caller takes another way.
import { Unit, UNIT_ONE, UNIT_MANY, unitOf } from './words.ts';

const fold = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

export interface AsciiScanner {
  /** Scans normalise(text) for the words in one pass over `text`: the groups (asciiScanner's `groupOf`, bits)
   *  of the words found, 0 for none, CANNOT_TELL when the normalised text is not all ASCII. */
  groups(text: string): number;
}
/** `groups`' answer when normalise(text) is not all ASCII. */
export const CANNOT_TELL = -1;

/**
 * The scanner of `words`. A case-blind regex (without the u flag) matches an ASCII letter only with its
 * other case, and no other character with an ASCII one, so a word holding a non-ASCII character is found
 * in no ASCII text and is left out. Words must not be empty. `groupOf` gives each word's group (a bit;
 * 1 for all by default), so that one pass serves several lists (action-words.ts: purchase, sign in and search).
 */
export function asciiScanner(words: readonly string[], groupOf: readonly number[] = words.map(() => 1)): AsciiScanner {
  const kept = words.flatMap((w, i) => (/^[\x00-\x7f]+$/.test(w) ? [i] : []));
  const ascii = kept.map((i) => Array.from(words[i], (ch) => fold(ch.charCodeAt(0))));
  const groupsOf = kept.map((i) => groupOf[i]);
  if (words.some((w) => w.length === 0)) throw new Error('asciiScanner: an empty word');
  // Symbols: every character the words hold gets a class (1..k); every other character is class 0.
  const classOf = new Uint8Array(128);
  let classes = 1;
  for (const w of ascii) for (const c of w) if (classOf[c] === 0) classOf[c] = classes++;
  for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32];
  // The trie of the words; state 0 is the root.
  const next: number[][] = [new Array(classes).fill(-1)];
  const accepts: number[] = [0]; // each state's groups: of the words ending there and at its failure states
  ascii.forEach((w, i) => {
    let s = 0;
    for (const c of w) {
      const k = classOf[c];
      if (next[s][k] < 0) { next[s][k] = next.length; next.push(new Array(classes).fill(-1)); accepts.push(0); }
      s = next[s][k];
    }
    accepts[s] |= groupsOf[i];
  });
  // Failure links, breadth first, turn the trie into a full transition table.
  const fail = new Array<number>(next.length).fill(0);
  const queue: number[] = [];
  for (let k = 0; k < classes; k++) {
    if (next[0][k] < 0) next[0][k] = 0;
    else if (next[0][k] > 0) queue.push(next[0][k]);
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    accepts[s] |= accepts[fail[s]];
    for (let k = 0; k < classes; k++) {
      const t = next[s][k];
      if (t < 0) next[s][k] = next[fail[s]][k];
      else { fail[t] = next[fail[s]][k]; queue.push(t); }
    }
  }
  const delta = new Int32Array(next.length * classes);
  next.forEach((row, s) => row.forEach((t, k) => { delta[s * classes + k] = t; }));
  const accept = Int32Array.from(accepts);
  const step = (s: number, c: number) => delta[s * classes + classOf[c]];
  const groups = (text: string): number => {
    let found = 0;
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
            if (d >= 128) return CANNOT_TELL;
            s = step(s, d);
            found |= accept[s];
          }
          continue;
        } else return CANNOT_TELL;
        if (c >= 128) return CANNOT_TELL;
      }
      s = step(s, c);
      found |= accept[s]; // read on: a unit later may leave the scan unable to tell
    }
    return found;
  };
  return { groups };
}
