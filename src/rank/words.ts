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

