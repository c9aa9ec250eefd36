// The goal-embedding table (src/rank/goal-embed.bin, made by `npm run train:table`; provenance and
// checksum in goal-embed.json): one int8 vector per token with a float scale per row, and the tokeniser
// that spells texts into those rows: v1 a WordPiece vocabulary (all-MiniLM-L6-v2), v2 a SentencePiece
// unigram model (multilingual-e5-small) whose most probable pieces have rows. The door tokenises texts and hands the core the rows a request uses; the
// core (assembly/embed.ts) averages them and takes cosines. One table per process, set by the loader
// (load-node.ts reads the package's file; a browser build passes the bytes it fetched).
import { WordPiece } from './wordpiece.ts';
import { Unigram } from './unigram.ts';

export interface Tokenizer {
  /** Table rows of `text`'s tokens, at most `max` (the first ones), appended to `out`; returns how many. */
  tokenize(text: string, max: number, out: { push(id: number): void }): number;
}

export interface EmbedTable {
  readonly dim: number;
  readonly size: number;
  readonly tokenizer: Tokenizer;
  /** Row scales (a row's value = int8 × scale). */
  readonly scales: Float32Array;
  /** size × dim int8 values, row after row. */
  readonly rows: Int8Array;
}

const MAGIC = 0x45474c53; // "SLGE" little-endian
const HEADER = 20;

/** Reads the SLGE v1 and v2 formats (train/embed/table.py writes them). Throws on anything else. */
export function parseEmbedTable(bytes: Uint8Array): EmbedTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength >= V2_HEADER && view.getUint32(0, true) === MAGIC && view.getUint32(4, true) === 2) return parseV2(bytes, view);
  if (bytes.byteLength < HEADER || view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== 1) throw new Error('goal-embed: not an SLGE v1 or v2 table');
  const size = view.getUint32(8, true), dim = view.getUint32(12, true), vocabBytes = view.getUint32(16, true);
  const scalesAt = HEADER + vocabBytes + ((4 - ((HEADER + vocabBytes) % 4)) % 4);
  const rowsAt = scalesAt + 4 * size;
  if (rowsAt + size * dim !== bytes.byteLength) throw new Error('goal-embed: truncated table');
  const tokens = new TextDecoder().decode(bytes.subarray(HEADER, HEADER + vocabBytes)).split('\n');
  if (tokens.length !== size) throw new Error('goal-embed: vocabulary size mismatch');
  const vocab = new Map<string, number>();
  tokens.forEach((t, i) => vocab.set(t, i));
  // Copies: the scales must be 4-byte aligned, and the rows outlive the file's buffer.
  const scales = new Float32Array(size);
  for (let i = 0; i < size; i++) scales[i] = view.getFloat32(scalesAt + 4 * i, true);
  const rows = new Int8Array(bytes.buffer.slice(bytes.byteOffset + rowsAt, bytes.byteOffset + rowsAt + size * dim));
  return { dim, size, tokenizer: new WordPiece(vocab), scales, rows };
}

const V2_HEADER = 32;

/** v2: rows for the first `rows` pieces by score; every piece, score and the normalisation map for the tokeniser. */
function parseV2(bytes: Uint8Array, view: DataView): EmbedTable {
  const [size, dim, count, pieceBytes, normWords, unk] = [8, 12, 16, 20, 24, 28].map((at) => view.getUint32(at, true));
  const normAt = V2_HEADER + pieceBytes + ((4 - ((V2_HEADER + pieceBytes) % 4)) % 4);
  const scoresAt = normAt + 4 * normWords, rowIdsAt = scoresAt + 4 * count, scalesAt = rowIdsAt + 4 * size, rowsAt = scalesAt + 4 * size;
  if (rowsAt + size * dim !== bytes.byteLength) throw new Error('goal-embed: truncated table');
  const pieces = new TextDecoder().decode(bytes.subarray(V2_HEADER, V2_HEADER + pieceBytes)).split('\n');
  if (pieces.length !== count) throw new Error('goal-embed: vocabulary size mismatch');
  const norm = new Map<number, number[]>();
  for (let at = normAt; at < scoresAt;) {
    const cp = view.getUint32(at, true), k = view.getUint32(at + 4, true);
    const to: number[] = [];
    for (let j = 0; j < k; j++) to.push(view.getUint32(at + 8 + 4 * j, true));
    norm.set(cp, to);
    at += 8 + 4 * k;
  }
  const scores = new Float32Array(count), rowOf = new Int32Array(count).fill(-1);
  for (let i = 0; i < count; i++) scores[i] = view.getFloat32(scoresAt + 4 * i, true);
  for (let r = 0; r < size; r++) rowOf[view.getUint32(rowIdsAt + 4 * r, true)] = r;
  const scales = new Float32Array(size);
  for (let i = 0; i < size; i++) scales[i] = view.getFloat32(scalesAt + 4 * i, true);
  const rows = new Int8Array(bytes.buffer.slice(bytes.byteOffset + rowsAt, bytes.byteOffset + rowsAt + size * dim));
  return { dim, size, tokenizer: new Unigram({ pieces, scores, norm, unk, rowOf }), scales, rows };
}

let active: EmbedTable | null = null;

/** Makes `table` the one the goal rerank uses (null: none; the embedding features are then 0). */
export function useEmbedTable(table: EmbedTable | null): void {
  active = table;
}

export function embedTable(): EmbedTable | null {
  return active;
}
