// The goal and element text as the core's rerank sees them: normalised words (lower case, accents
// dropped, stop words out, lightly stemmed) and character trigrams, each hashed to an i32. Also what
// the goal asks for: the kind of control (intent verbs) and a position ("the second result"). Text
// work stays here; the core compares hashes and scores.
import { Intent } from '../../assembly/layout.ts';

const STOP = new Set(('a an and are as at be by for from has have i in into is it its me my of on or our please the their then this '
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
function stem(word: string): string {
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

/** Words of a text: split on anything not a letter or digit, stop words out, stemmed. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of normalise(text).split(/[^\p{L}\p{N}]+/u)) {
    if (!w || STOP.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/** Distinct word hashes. */
export function wordHashes(text: string): number[] {
  return [...new Set(words(text).map(hash))];
}

/** Distinct hashes of the character trigrams of the words (each word padded with spaces). */
export function trigramHashes(text: string): number[] {
  const out = new Set<number>();
  for (const w of words(text)) {
    const padded = ` ${w} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(hash(padded.slice(i, i + 3)));
  }
  return [...out];
}

const INTENTS: [Intent, RegExp][] = [
  [Intent.TYPE, /\b(?:search|type|enter|fill|write|input|find|look(?:ing)? up|query|set|change|edit)\b/],
  [Intent.PRESS, /\b(?:buy|add|submit|log ?in|login|sign ?in|sign ?up|register|click|press|checkout|check out|subscribe|send|save|continue|next|confirm|pay|order|accept|reject|close|dismiss|download|upload|apply|book|reserve|join|follow|share|delete|remove|cancel)\b/],
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
}

export function parseGoal(goal: string): GoalParts {
  const text = normalise(goal);
  let intent = 0;
  for (const [bit, pattern] of INTENTS) if (pattern.test(text)) intent |= bit;
  let ordinal = 0;
  const m = /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|(\d{1,2})(?:st|nd|rd|th))\b/.exec(text);
  if (m) ordinal = m[2] ? Number(m[2]) : ORDINALS[m[1]];
  return { words: wordHashes(goal), trigrams: trigramHashes(goal), intent, ordinal };
}
