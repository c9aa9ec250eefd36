// The goal-embedding table (src/rank/goal-embed.bin, made by `npm run train:table` from
// all-MiniLM-L6-v2; provenance and checksum in goal-embed.json): one int8 vector per WordPiece token
// with a float scale per row. The door tokenises texts and hands the core the rows a request uses; the
// core (assembly/embed.ts) averages them and takes cosines. One table per process, set by the loader
// (load-node.ts reads the package's file; a browser build passes the bytes it fetched).
import { WordPiece } from './wordpiece.ts';

export interface EmbedTable {
  readonly dim: number;
  readonly size: number;
  readonly tokenizer: WordPiece;
  /** Row scales (a row's value = int8 × scale). */
  readonly scales: Float32Array;
  /** size × dim int8 values, row after row. */
  readonly rows: Int8Array;
}

const MAGIC = 0x45474c53; // "SLGE" little-endian
const HEADER = 20;

/** Reads the SLGE v1 format (train/embed/table.py writes it). Throws on anything else. */
export function parseEmbedTable(bytes: Uint8Array): EmbedTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < HEADER || view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== 1) throw new Error('goal-embed: not an SLGE v1 table');
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

let active: EmbedTable | null = null;

/** Makes `table` the one the goal rerank uses (null: none; the embedding features are then 0). */
export function useEmbedTable(table: EmbedTable | null): void {
  active = table;
}

export function embedTable(): EmbedTable | null {
  return active;
}
