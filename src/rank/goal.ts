// The goal and element text as the core's rerank sees them: normalised words (lower case, accents
// dropped, stop words out, lightly stemmed) and character trigrams, each hashed to an i32. Also what
// the goal asks for: the kind of control (intent verbs) and a position ("the second result"). Text
// work stays here; the core compares hashes and scores.
import { Intent } from '../../assembly/layout.ts';
import { STOP, hash, stem, normalise } from './words.ts';
import { phraseKey, MAX_PHRASE } from './concepts.ts';

export { hash, stem, normalise };

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
// each word kept in a reusable buffer at word[1..end) (word[0] and word[end] pad its trigrams), stop
// words recognised by hash, stemming and hashing on the buffer. It gives exactly the hashes of
// wordHashes and trigramHashes above (a test checks it on every page of the training data).
const STOP_HASHES = new Set([...STOP].map(hash));
const word = new Uint16Array(WORD_MAX + 2);
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

/** stem() on the buffer: returns the word's new end. */
function stemBuffer(end: number): number {
  const len = end - 1;
  if (len > 5 && endsWith(end, 'ing')) return end - 3;
  if (len > 4 && endsWith(end, 'ies')) { word[end - 3] = 121; return end - 2; } // "ies" -> "y"
  if (len > 4 && endsWith(end, 'ed')) return end - 2;
  if (len > 3 && (endsWith(end, 'sses') || endsWith(end, 'xes') || endsWith(end, 'ches') || endsWith(end, 'shes'))) return end - 2;
  if (len > 3 && endsWith(end, 's') && !endsWith(end, 'ss')) return end - 1;
  return end;
}

function hashRange(from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) { h ^= word[k]; h = Math.imul(h, 0x01000193); }
  return h | 0;
}

/** Where hashes go: an array, or the encoder's reusable buffer. */
export interface HashSink { push(h: number): unknown }

/** Concepts to find while tokenising: where they go, which were found already, how many words to
 *  read, and which phrases to look for (the whole lexicon, or the part a goal names). */
export interface ConceptScan { sink: HashSink; seen: Set<number>; limit: number; phrases: Map<number, number[]>; ends: Set<number> }
const recent = new Int32Array(MAX_PHRASE), ordered = new Int32Array(MAX_PHRASE);

/**
 * The distinct word hashes of `text`, and (with `trigrams`) the distinct hashes of its trigrams; with
 * `concepts`, the lexicon's concepts named in its first `limit` words, found in the same pass.
 */
export function textHashes(text: string, words: HashSink, trigrams?: HashSink, concepts?: ConceptScan): void {
  seenWords.clear();
  seenTrigrams.clear();
  if (!text) return;
  const source = NON_ASCII.test(text) ? normalise(text) : text;
  let end = 1, kept = 0, seen = 0;
  for (let i = 0; i <= source.length && seen < TEXT_WORDS; i++) {
    let c = i < source.length ? source.charCodeAt(i) : 32;
    if (c >= 65 && c <= 90) c += 32;
    if (isWordChar(c)) { if (end <= WORD_MAX) word[end++] = c; continue; }
    if (end === 1) continue;
    seen++;
    let h = hashRange(1, end);
    if (!STOP_HASHES.has(h)) {
      end = stemBuffer(end);
      h = hashRange(1, end);
      if (seenWords.add(h)) words.push(h);
      if (trigrams && kept++ < TRIGRAM_WORDS) {
        word[0] = 32; word[end] = 32;
        for (let k = 0; k + 3 <= end + 1; k++) {
          const t = hashRange(k, k + 3);
          if (seenTrigrams.add(t)) trigrams.push(t);
        }
      }
    }
    if (concepts && seen <= concepts.limit) findConcepts(h, seen, concepts);
    end = 1;
  }
}

/** Phrases of the lexicon that end at the `n`-th word (hash `h`: its stem's, or its own if a stop word). */
function findConcepts(h: number, n: number, scan: ConceptScan): void {
  recent[(n - 1) % MAX_PHRASE] = h;
  if (!scan.ends.has(h)) return;
  for (let len = 1; len <= MAX_PHRASE && len <= n; len++) {
    for (let k = 0; k < len; k++) ordered[k] = recent[(n - len + k) % MAX_PHRASE];
    const found = scan.phrases.get(phraseKey(ordered, 0, len));
    if (found) for (const c of found) if (!scan.seen.has(c)) { scan.seen.add(c); scan.sink.push(c); }
  }
}

const INTENTS: [Intent, RegExp][] = [
  [Intent.TYPE, /\b(?:search|type|enter|fill|write|input|find|look(?:ing)? up|query|set|change|edit)\b/],
  [Intent.PRESS, /\b(?:buy|add|submit|log ?in|login|sign ?in|sign ?up|register|click|press|checkout|check out|subscribe|send|save|continue|next|confirm|pay|order|accept|reject|close|dismiss|download|upload|apply|book|reserve|join|delete|remove|cancel)\b/],
  [Intent.OPEN, /\b(?:open|go|navigate|visit|read|view|show|see|browse|follow|link|page|section|article|result|tab)\b/],
  [Intent.CHOOSE, /\b(?:check|select|choose|tick|toggle|enable|disable|agree|remember|pick|option|switch|filter|sort)\b/],
];

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, last: -1,
};

export interface GoalParts {
  words: number[];
  trigrams: number[];
  /** Intent bits (Intent). */
  intent: number;
  /** 1-based position asked for, -1 for "last", 0 for none. */
  ordinal: number;
  /** Words of the list the goal names for its position ("in the Sport menu", "under Most read"). */
  listWords: number[];
}

/** After a position, the list it is in: "the third link in the Sport menu", "the second story under Latest". */
const NAMED_LIST = /\b(?:in|under|of|from|within|on)\b(.*)$/;

export function parseGoal(goal: string): GoalParts {
  const text = normalise(goal);
  let intent = 0;
  for (const [bit, pattern] of INTENTS) if (pattern.test(text)) intent |= bit;
  let ordinal = 0;
  const m = /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|(\d{1,2})(?:st|nd|rd|th))\b/.exec(text);
  if (m) ordinal = m[2] ? Number(m[2]) : ORDINALS[m[1]];
  const list = m ? NAMED_LIST.exec(text.slice(m.index + m[0].length)) : null;
  return { words: wordHashes(goal), trigrams: trigramHashes(goal), intent, ordinal, listWords: list ? wordHashes(list[1]) : [] };
}
