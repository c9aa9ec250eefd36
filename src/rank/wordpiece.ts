// The goal-embedding table's tokeniser: BERT's uncased WordPiece, as the teacher's tokenizer.json
// defines it (clean control characters, space around CJK ideographs, strip accents, lower case; split
// on whitespace and punctuation; greedy longest match with "##" continuations, [UNK] for a word that
// cannot be spelled). A test checks it against token ids the teacher's own tokenizer gave.

/** A word longer than this is [UNK] (BERT's max_input_chars_per_word). */
const MAX_WORD_CHARS = 100;
/** A text longer than this many characters per wanted token is cut first (its tail would not be read). */
const MAX_CHARS_PER_TOKEN = 16;
/** Words cached across requests (a page's words repeat, and pages share most of theirs). */
const CACHE_WORDS = 65536;

const PIECE = /[^\s!-/:-@[-`{-~\p{P}]+|[!-/:-@[-`{-~]|\p{P}/gu;
const CONTROL = /[\0\ufffd]|(?![\t\n\r\x0b\x0c])[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu;
const CJK = /[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff\u{20000}-\u{2a6df}\u{2a700}-\u{2b73f}\u{2b740}-\u{2b81f}\u{2b820}-\u{2ceaf}\u{2f800}-\u{2fa1f}]/gu;
const MARKS = /\p{Mn}/gu;
const PLAIN = /^[\x20-\x7e]*$/;
const ASCII_CONTROL = /[\0-\x08\x0e-\x1f\x7f]/;

export class WordPiece {
  private readonly cache = new Map<string, readonly number[]>();
  private readonly unk: number;

  constructor(private readonly vocab: ReadonlyMap<string, number>) {
    this.unk = vocab.get('[UNK]') ?? 0;
  }

  /** Token ids of `text`, at most `max` (the first ones), appended to `out`; returns how many. */
  tokenize(text: string, max: number, out: { push(id: number): void }): number {
    // Only the first tokens are read: a long text's tail (after a space, so no word is cut) is never
    // lower-cased or scanned.
    if (text.length > max * MAX_CHARS_PER_TOKEN) {
      const cut = text.lastIndexOf(' ', max * MAX_CHARS_PER_TOKEN);
      if (cut > 0) text = text.slice(0, cut);
    }
    // One pass over the characters: ASCII spaces split, every printable non-alphanumeric ASCII
    // character is BERT punctuation (a token of its own), and a run of anything else is a word; a
    // word with non-ASCII characters is normalised on its own (once: words are cached).
    if (ASCII_CONTROL.test(text)) return this.tokenizeAny(text, max, out); // dropped, joining their neighbours
    const lower = text.toLowerCase(), len = lower.length;
    let n = 0, i = 0;
    while (i < len) {
      const c = lower.charCodeAt(i);
      if (c <= 32) { i++; continue; }
      let j = i + 1;
      if (c >= 128 || isAlnum(c)) while (j < len && isWordChar(lower.charCodeAt(j))) j++;
      for (const id of this.word(lower.slice(i, j))) {
        if (n === max) return n;
        out.push(id);
        n++;
      }
      i = j;
    }
    return n;
  }

  /** The whole text through the normaliser and the pre-tokeniser's pattern (text with control characters). */
  private tokenizeAny(text: string, max: number, out: { push(id: number): void }): number {
    let n = 0;
    for (const word of normalise(text).matchAll(PIECE)) {
      for (const id of this.word(word[0])) {
        if (n === max) return n;
        out.push(id);
        n++;
      }
    }
    return n;
  }

  /** Ids of one word of the fast pass (or one piece of the pattern). */
  word(w: string): readonly number[] {
    const cached = this.cache.get(w);
    if (cached) return cached;
    let ids: number[];
    if (PLAIN.test(w)) ids = this.spell(w);
    else {
      ids = [];
      for (const piece of normalise(w).matchAll(PIECE)) ids.push(...this.spell(piece[0]));
    }
    if (this.cache.size >= CACHE_WORDS) this.cache.clear();
    this.cache.set(w, ids);
    return ids;
  }

  private spell(w: string): number[] {
    const chars = Array.from(w);
    if (chars.length > MAX_WORD_CHARS) return [this.unk];
    const ids: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length, id: number | undefined;
      for (; end > start; end--) {
        const piece = chars.slice(start, end).join('');
        id = this.vocab.get(start > 0 ? `##${piece}` : piece);
        if (id !== undefined) break;
      }
      if (id === undefined) return [this.unk];
      ids.push(id);
      start = end;
    }
    return ids;
  }
}

const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
const isWordChar = (c: number) => c >= 128 || isAlnum(c);

/** BertNormalizer (clean text, CJK, strip accents, lower case); printable ASCII takes the short way. */
export function normalise(text: string): string {
  if (PLAIN.test(text)) return text.toLowerCase();
  return text.replace(CONTROL, '').replace(/\s/g, ' ').replace(CJK, ' $& ').normalize('NFD').replace(MARKS, '').toLowerCase();
}
