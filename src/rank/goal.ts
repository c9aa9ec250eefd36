// The goal and element text as the core's rerank sees them: normalised words (lower case, accents
// dropped, stop words out, lightly stemmed) and character trigrams, each hashed to an i32. Also what
// the goal asks for: the kind of control (intent verbs) and a position ("the second result"). Text
// work stays here; the core compares hashes and scores.
import { Intent } from '../../assembly/layout.ts';
import { STOP, hash, stem, normalise, HashFilter, type HashSet, Unit, UNIT_ONE, UNIT_MANY, unitOf } from './words.ts';
import { phraseKey, MAX_PHRASE } from './concepts.ts';

export { hash, stem, normalise, HashFilter };

/** Longer words are cut to this many characters (tokens, hashes, data URLs). */
const WORD_MAX = 64;
/** Words after this many in one text are not read: labels are short, and a paragraph's tail does not
 *  tell which control a goal wants (it bounds the work per element too). */
export const TEXT_WORDS = 32;

/** Words of a text: split on anything not a letter or digit, cut to WORD_MAX, stop words out, stemmed. */
export function words(text: string): string[] {
  const out: string[] = [];
  let seen = 0;
  for (const whole of normalise(text).split(/[^\p{L}\p{N}]+/u)) {
    if (!whole) continue;
    if (seen++ >= TEXT_WORDS) break;
    const w = whole.slice(0, WORD_MAX);
    if (STOP.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/** Distinct word hashes. */
export function wordHashes(text: string): number[] {
  return [...new Set(words(text).map(hash))];
}

/** Trigrams come from the first words only: they match a goal to a label, not to a paragraph. */
export const TRIGRAM_WORDS = 16;

/** Distinct hashes of the character trigrams of the first TRIGRAM_WORDS words (each padded with spaces). */
export function trigramHashes(text: string): number[] {
  const out = new Set<number>();
  for (const w of words(text).slice(0, TRIGRAM_WORDS)) {
    const padded = ` ${w} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(hash(padded.slice(i, i + 3)));
  }
  return [...out];
}

// The fast path for element text (thousands of strings per request): one pass over the characters,
// each word kept in a reusable buffer at word[1..end) (word[0] and word[end] pad its trigrams) with
// the FNV-1a hash of each of its prefixes beside it, so a word is hashed as it is read and its stem's
// hash is a prefix's (no second pass). Stop words are recognised by hash. Only the hashes a goal can
// meet are kept (a filter of the goal's words, concepts and trigrams); the rest are only counted, as
// distinct words and trigrams, which is all the core's shares need. With no filter it gives exactly
// the hashes of wordHashes and trigramHashes above (a test checks it on every page of the training data).
const FNV_BASIS = 0x811c9dc5 | 0, FNV_PRIME = 0x01000193;

const STOP_HASHES = new HashFilter([...STOP].map(hash));
const word = new Uint16Array(WORD_MAX + 2);
/** prefix[k]: the hash of word[1..k). */
const prefix = new Int32Array(WORD_MAX + 2);
prefix[1] = FNV_BASIS;
const LETTER = new Uint8Array(65536); // per UTF-16 unit: 0 not yet known, 1 letter or digit, 2 neither
const NON_ASCII = /[^\x00-\x7f]/;
/** Distinct-hash filters for one text: open addressing over a reused table, cleared by generation. */
class Seen {
  private static readonly SIZE = 4096; // more than TRIGRAM_WORDS x (WORD_MAX + 1): never full
  private keys = new Int32Array(Seen.SIZE);
  private marks = new Uint32Array(Seen.SIZE);
  private generation = 1;
  clear(): void { this.generation++; }
  /** Adds h; false when it was there already. */
  add(h: number): boolean {
    const mask = Seen.SIZE - 1;
    for (let at = (h ^ (h >>> 15)) & mask; ; at = (at + 1) & mask) {
      if (this.marks[at] !== this.generation) { this.marks[at] = this.generation; this.keys[at] = h; return true; }
      if (this.keys[at] === h) return false;
    }
  }
}
const seenWords = new Seen();
const seenTrigrams = new Seen();

function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  if (!LETTER[c]) LETTER[c] = /[\p{L}\p{N}]/u.test(String.fromCharCode(c)) ? 1 : 2;
  return LETTER[c] === 1;
}

/** Whether the word ending before `end` ends with `suffix`. */
function endsWith(end: number, suffix: string): boolean {
  if (end - 1 < suffix.length) return false;
  for (let k = 0; k < suffix.length; k++) if (word[end - suffix.length + k] !== suffix.charCodeAt(k)) return false;
  return true;
}

/** stem() on the buffer, for a word ending in g, d or s (no other can change): returns its new end. */
function stemBuffer(end: number): number {
  const len = end - 1, last = word[end - 1];
  if (last === 103) return len > 5 && word[end - 2] === 110 && word[end - 3] === 105 ? end - 3 : end; // -ing
  if (last === 100) return len > 4 && word[end - 2] === 101 ? end - 2 : end; // -ed
  if (len > 4 && word[end - 2] === 101 && word[end - 3] === 105) { word[end - 3] = 121; return end - 2; } // "ies" -> "y"
  if (len > 3 && (endsWith(end, 'sses') || endsWith(end, 'xes') || endsWith(end, 'ches') || endsWith(end, 'shes'))) return end - 2;
  if (len > 3 && word[end - 2] !== 115) return end - 1; // -s, not -ss
  return end;
}

/** Concepts found in one text: each is written once. */
export interface SeenSet { has(h: number): boolean; add(h: number): unknown }

/** Where hashes go: an array, or the encoder's reusable buffer. */
export interface HashSink { push(h: number): unknown }

/**
 * What one scan of a text keeps. Words (distinct) go to `words` when `wordFilter` holds them (no
 * filter: all); with `countWords` every distinct word is counted first, kept or not. With `trigrams`,
 * the distinct trigrams of the first TRIGRAM_WORDS kept words that `trigramFilter` holds go there
 * (trigramCount() counts them all). With `concepts`, the phrases of `phrases` ending in the first `limit` words name
 * concepts, which go to `conceptSink` (each once, counted among the words when `countWords`; kept when
 * `wordFilter` holds them).
 */
export interface Scan {
  words: HashSink; wordFilter: HashFilter | null; countWords: boolean;
  trigrams: HashSink | null; trigramFilter: HashFilter | null;
  concepts: boolean; conceptSink: HashSink; seen: SeenSet; limit: number; phrases: Map<number, number[]>; ends: HashSet;
  /** The hashes of the first `limit` words in order (a stop word's own, any other's stem's), for looking
   *  phrases up later, goal by goal (phrasesIn). */
  sequence?: HashSink | null;
}

/** What the scans since the last startText() counted: distinct words (and concepts). */
export const counted = { words: 0 };
let wordsRead = 0, wordsKept = 0;
const recent = new Int32Array(MAX_PHRASE), ordered = new Int32Array(MAX_PHRASE);

/** Starts a new text: the next scans continue one another as if their texts were joined by spaces. */
export function startText(): void {
  seenWords.clear();
  seenTrigrams.clear();
  wordsRead = wordsKept = 0;
  trigramsReadCount = trigramsKept = 0;
  counted.words = 0;
}

/** Reads `text` (after what the scans since startText() read, a space between): see Scan. */
export function scanText(text: string, s: Scan): void {
  if (!text || wordsRead >= TEXT_WORDS) return;
  // Non-ASCII units are normalised one by one (words.ts unitOf), which gives what normalise() gives the whole
  // text, until one needs the whole text (a mark that stays, a capital sigma): then the rest is read
  // from normalise(text), at the unit reached (the part read is the same in both).
  let source = text;
  let length = source.length;
  let mapping = NON_ASCII.test(text);
  let pending = '', p = 0, read = 0;
  const wordFilter = s.wordFilter;
  let end = 1;
  for (let i = 0; i <= length; i++) {
    let c: number;
    if (!mapping) c = i < length ? source.charCodeAt(i) : 32;
    else {
      if (p < pending.length) { c = pending.charCodeAt(p++); i--; }
      else if (i < length) {
        c = source.charCodeAt(i);
        if (c >= 128) {
          const kind = unitOf(c);
          if (kind === Unit.ONE) c = UNIT_ONE[c];
          else if (kind === Unit.NONE) continue;
          else if (kind === Unit.MANY) { pending = UNIT_MANY.get(c)!; p = 1; c = pending.charCodeAt(0); }
          else { source = normalise(text); length = source.length; mapping = false; i = read - 1; continue; }
        }
      } else c = 32;
      read++;
    }
    if (c >= 65 && c <= 90) c += 32;
    if (c < 128 ? (c >= 97 && c <= 122) || (c >= 48 && c <= 57) : isWordChar(c)) {
      if (end <= WORD_MAX) { word[end] = c; prefix[end + 1] = Math.imul(prefix[end] ^ c, FNV_PRIME); end++; }
      continue;
    }
    if (end === 1) continue;
    const n = ++wordsRead;
    let h = prefix[end];
    if (!STOP_HASHES.has(h)) {
      const last = word[end - 1];
      if (last === 103 || last === 115 || last === 100) { // the stems' endings: -ing, -s, -ed
        const stemmed = stemBuffer(end);
        if (stemmed !== end) { end = stemmed; h = Math.imul(prefix[end - 1] ^ word[end - 1], FNV_PRIME); }
      }
      if (s.countWords) {
        if (seenWords.add(h)) { counted.words++; if (wordFilter === null || wordFilter.has(h)) s.words.push(h); }
      } else if ((wordFilter === null || wordFilter.has(h)) && seenWords.add(h)) s.words.push(h);
      if (s.trigrams !== null && wordsKept++ < TRIGRAM_WORDS) trigramsOf(end, s.trigrams, s.trigramFilter);
    }
    if (n <= s.limit) {
      if (s.concepts) findConcepts(h, n, s);
      if (s.sequence) s.sequence.push(h);
    }
    end = 1;
    if (n >= TEXT_WORDS) return;
  }
}


/** Every trigram read since startText(), kept or not: counted only when some were kept. */
const trigramsRead = new Int32Array(TRIGRAM_WORDS * (WORD_MAX + 1));
let trigramsReadCount = 0, trigramsKept = 0;
const seenAllTrigrams = new Seen();

/** The trigrams of the word at word[1..end), padded with spaces: those the filter holds go to `sink`
 *  (each once); all are noted for trigramCount(). */
function trigramsOf(end: number, sink: HashSink, filter: HashFilter | null): void {
  word[0] = 32; word[end] = 32;
  let a = 32, b = word[1];
  for (let k = 2; k <= end; k++) {
    const c = word[k];
    const t = Math.imul(Math.imul(Math.imul(FNV_BASIS ^ a, FNV_PRIME) ^ b, FNV_PRIME) ^ c, FNV_PRIME);
    trigramsRead[trigramsReadCount++] = t;
    if ((filter === null || filter.has(t)) && seenTrigrams.add(t)) { sink.push(t); trigramsKept++; }
    a = b; b = c;
  }
}

/** How many distinct trigrams the text since startText() has, when any was kept; 0 when none was (a
 *  share of kept trigrams is 0 then, whatever the count). */
export function trigramCount(): number {
  if (trigramsKept === 0) return 0;
  seenAllTrigrams.clear();
  let n = 0;
  for (let k = 0; k < trigramsReadCount; k++) if (seenAllTrigrams.add(trigramsRead[k])) n++;
  return n;
}

/** Phrases of the lexicon that end at the `n`-th word (hash `h`: its stem's, or its own if a stop word). */
function findConcepts(h: number, n: number, scan: Scan): void {
  recent[(n - 1) % MAX_PHRASE] = h;
  if (!scan.ends.has(h)) return;
  for (let len = 1; len <= MAX_PHRASE && len <= n; len++) {
    for (let k = 0; k < len; k++) ordered[k] = recent[(n - len + k) % MAX_PHRASE];
    const found = scan.phrases.get(phraseKey(ordered, 0, len));
    if (!found) continue;
    for (const c of found) {
      if (scan.seen.has(c)) continue;
      scan.seen.add(c);
      if (scan.countWords) counted.words++;
      if (scan.wordFilter === null || scan.wordFilter.has(c)) scan.conceptSink.push(c);
    }
  }
}

/**
 * The phrases of `phrases` in a sequence of word hashes (a Scan's `sequence`: seq[from, to)), as a scan
 * with `concepts` finds them: at each word that ends a phrase, the phrases of 1 to MAX_PHRASE words
 * ending there, shortest first; each concept they name goes to `found` (repeats included).
 */
export function phrasesIn(seq: Int32Array, from: number, to: number, phrases: Map<number, number[]>, ends: HashSet, found: (c: number) => void): void {
  for (let at = from; at < to; at++) {
    if (!ends.has(seq[at])) continue;
    for (let len = 1; len <= MAX_PHRASE && len <= at + 1 - from; len++) {
      const named = phrases.get(phraseKey(seq, at + 1 - len, at + 1));
      if (named) for (const c of named) found(c);
    }
  }
}

const INTENTS: [Intent, RegExp][] = [
  [Intent.TYPE, /\b(?:search|type|enter|fill|write|input|find|look(?:ing)? up|query|set|change|edit)\b/],
  [Intent.PRESS, /\b(?:buy|add|submit|log ?in|login|sign ?in|sign ?up|register|click|press|checkout|check out|subscribe|send|save|continue|next|confirm|pay|order|accept|reject|close|dismiss|download|upload|apply|book|reserve|join|delete|remove|cancel)\b/],
  [Intent.OPEN, /\b(?:open|go|navigate|visit|read|view|show|see|browse|follow|link|page|section|article|result|tab)\b/],
  [Intent.CHOOSE, /\b(?:check|select|choose|tick|toggle|enable|disable|agree|remember|pick|option|switch|filter|sort)\b/],
];

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, last: -1,
};
const CARDINALS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
};

/** A position the goal names: an ordinal word ("third"), "the final" before a noun (= last; "the football
 *  final", a match, names none), a numbered ordinal ("3rd"), a rank ("number one", "number 3", "top-ranked" =
 *  first). General English only: words that often mean something else in goals ("latest", "newest",
 *  "opening", "top") are not read as positions. */
const ORDINAL = /\b(?:(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|last)|(?<=\bthe )(final)(?= [a-z])|(\d{1,2})(?:st|nd|rd|th)|number (one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})|(?:top|highest)[- ]ranked)\b/;

/** The position an ORDINAL match names: 1-based, -1 for last. */
function ordinalOf(m: RegExpExecArray): number {
  if (m[1]) return ORDINALS[m[1]];
  if (m[2]) return -1;
  if (m[3]) return Number(m[3]);
  if (m[4]) return CARDINALS[m[4]] ?? Number(m[4]);
  return 1;
}

export interface GoalParts {
  words: number[];
  trigrams: number[];
  /** Intent bits (Intent). */
  intent: number;
  /** 1-based position asked for, -1 for "last", 0 for none. */
  ordinal: number;
  /** Words of the list the goal names for its position ("in the Sport menu", "under Most read"). */
  listWords: number[];
  /** Words of the item noun right after the position ("the second FAQ question", "the third related story"):
   *  they name the list's items, so a control carrying them at no place the goal names is no target. */
  nounWords: number[];
}

/** After a position, the list it is in: "the third link in the Sport menu", "the second story under Latest". */
const NAMED_LIST = /\b(?:in|under|of|from|within|on|among)\b(.*)$/;
/** The item noun ends at the named list or at a word that starts what the goal says of the item. */
const NOUN_END = /\b(?:in|under|of|from|within|on|among|as|for|with|to|at|by|that|which|who|and|listed|shown)\b/;

export function parseGoal(goal: string): GoalParts {
  const text = normalise(goal);
  let intent = 0;
  for (const [bit, pattern] of INTENTS) if (pattern.test(text)) intent |= bit;
  let ordinal = 0;
  const m = ORDINAL.exec(text);
  if (m) ordinal = ordinalOf(m);
  const after = m ? text.slice(m.index + m[0].length) : '';
  const list = m ? NAMED_LIST.exec(after) : null;
  const end = NOUN_END.exec(after);
  return { words: wordHashes(goal), trigrams: trigramHashes(goal), intent, ordinal, listWords: list ? wordHashes(list[1]) : [],
    nounWords: m ? wordHashes(end ? after.slice(0, end.index) : after) : [] };
}
