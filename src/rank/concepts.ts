// Concepts of a text or a link, from the web-intent lexicon (lexicon.ts). Each concept found is written
// as one hash (of its name behind a marker no word can hold), so the core compares a goal's concepts
// with an element's as it compares words. Phrases match whole words in order, stop words included
// ("sign in" is not "sign up"): a word's hash is that of its stem, or of itself for a stop word, and a
// phrase's key combines its words' hashes, so the tokeniser's one pass over an element's characters
// (goal.ts, textHashes) finds them without building a string.
import { CONCEPTS, HOSTS, SHARE_PATH } from './lexicon.ts';
import { STOP, hash, normalise, stem, HashFilter } from './words.ts';

/** Longest phrase in the lexicon, in words. */
export const MAX_PHRASE = 4;

export const conceptHash = (name: string) => hash(`\u0001${name}`);

/** The hash a word has in a phrase: its stem's, or its own for a stop word (the tokeniser's rule). */
const phraseWord = (w: string) => hash(STOP.has(w) ? w : stem(w));

/** Key of a phrase from its words' hashes, first to last. */
export function phraseKey(words: ArrayLike<number>, from: number, to: number): number {
  let k = 0x2c1b3c6d;
  for (let i = from; i < to; i++) k = Math.imul(k ^ words[i], 0x01000193);
  return k | 0;
}

/** Phrase key -> hashes of the concepts it names. */
export const PHRASES = new Map<number, number[]>();
/** Hashes of words that end some phrase: only there is a phrase looked up. */
export const PHRASE_ENDS = new Set<number>();
/** Phrase key -> the hash of its last word. */
const PHRASE_END = new Map<number, number>();
for (const [name, phrases] of Object.entries(CONCEPTS)) {
  for (const phrase of phrases) {
    const w = normalise(phrase).split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, MAX_PHRASE).map(phraseWord);
    if (!w.length) continue;
    const key = phraseKey(w, 0, w.length);
    const list = PHRASES.get(key) ?? [];
    if (!list.includes(conceptHash(name))) list.push(conceptHash(name));
    PHRASES.set(key, list);
    PHRASE_ENDS.add(w[w.length - 1]);
    PHRASE_END.set(key, w[w.length - 1]);
  }
}

/** The lexicon narrowed to some concepts: an element only needs the concepts its goal names. */
export interface ConceptTables { phrases: Map<number, number[]>; ends: HashFilter; links: boolean }
const LINK_CONCEPTS = new Set([...Object.values(HOSTS).flat(), 'share', 'email', 'phone', 'contact'].map(conceptHash));
let cached: { key: string; tables: ConceptTables } | undefined;

/** Concept hash -> the keys of its phrases (a goal's tables are built from its concepts' alone). */
const PHRASES_OF = new Map<number, number[]>();
for (const [phrase, names] of PHRASES) for (const c of names) PHRASES_OF.set(c, [...PHRASES_OF.get(c) ?? [], phrase]);

/** Tables for a goal's concepts (the last goal's are kept: an agent repeats its goal across steps). */
export function tablesFor(concepts: number[]): ConceptTables {
  const key = concepts.join(',');
  if (cached?.key === key) return cached.tables;
  const wanted = new Set(concepts);
  const phrases = new Map<number, number[]>();
  const ends = new Set<number>();
  for (const c of concepts) {
    for (const phrase of PHRASES_OF.get(c) ?? []) {
      if (phrases.has(phrase)) continue;
      // The lexicon's order of the concepts a phrase names, as a scan finds them.
      phrases.set(phrase, PHRASES.get(phrase)!.filter((x) => wanted.has(x)));
      ends.add(PHRASE_END.get(phrase)!);
    }
  }
  const tables = { phrases, ends: new HashFilter(ends), links: concepts.some((c) => LINK_CONCEPTS.has(c)) };
  cached = { key, tables };
  return tables;
}

const HOST_CONCEPTS = new Map(Object.entries(HOSTS).map(([host, names]) => [host, names.map(conceptHash)]));
const SHARE = conceptHash('share'), EMAIL = conceptHash('email'), PHONE = conceptHash('phone'), CONTACT = conceptHash('contact');

/** Where concept hashes go, each once per text (`seen` is cleared by the caller between texts). */
export interface ConceptSink { push(h: number): unknown }

/** The site a link points to, a share intent, mailto: and tel: (its path words go through the tokeniser). */
export function linkConcepts(href: string, out: ConceptSink, seen: { has(h: number): boolean; add(h: number): unknown }): void {
  const add = (c: number) => { if (!seen.has(c)) { seen.add(c); out.push(c); } };
  if (href.length > 7 && href.charCodeAt(3) === 58) { // "tel:"
    if (/^tel:/i.test(href)) { add(PHONE); add(CONTACT); }
    return;
  }
  if (/^mailto:/i.test(href)) { add(EMAIL); add(CONTACT); return; }
  const scheme = href.indexOf('://');
  if (scheme < 0) return;
  let end = scheme + 3;
  while (end < href.length && href.charCodeAt(end) !== 47 && href.charCodeAt(end) !== 63 && href.charCodeAt(end) !== 35 && href.charCodeAt(end) !== 58) end++;
  let host = href.slice(scheme + 3, end).toLowerCase();
  if (host.startsWith('www.')) host = host.slice(4);
  // The host or its parent domain: "m.facebook.com" is facebook.com.
  const sites = HOST_CONCEPTS.get(host) ?? HOST_CONCEPTS.get(host.slice(host.indexOf('.') + 1));
  if (!sites) return;
  for (const c of sites) add(c);
  if (SHARE_PATH.test(href.slice(end, end + 80))) add(SHARE);
}
