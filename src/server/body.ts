// Request bodies, written once for both transports: receiving the bytes under the size cap, decoding a
// Content-Encoding (gzip, deflate, br; zstd where node:zlib has it) as they arrive, and the JSON rule.
import zlib from 'node:zlib';
import { isUtf8 } from 'node:buffer';
import type { Transform } from 'node:stream';
import { SightlineError, badRequest, SNAPSHOT_MESSAGES } from '../schema/errors.ts';
import { bodyErrors, type HttpRequest } from './http.ts';
import { COLUMNS_TYPE, readColumns } from '../rank/columns.ts';
import type { Ranker } from '../rank/ranker.ts';
import type { SnapshotRequest } from '../schema/snapshot.ts';

/** application/json or any +json type; a missing Content-Type is accepted (many agents omit it). */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

export function parseJsonBody(req: HttpRequest): unknown {
  if (req.contentType && !JSON_TYPE.test(req.contentType.trim())) {
    throw badRequest(`Unsupported Content-Type "${req.contentType.slice(0, 100)}": send the body as application/json`);
  }
  if (req.body.length === 0) throw badRequest(`${SNAPSHOT_MESSAGES.invalidJson}: the body is empty`);
  // JSON text is UTF-8 (RFC 8259 §8.1); decoding would turn other bytes into U+FFFD in the caller's strings.
  if (!isUtf8(req.body)) throw badRequest(`${SNAPSHOT_MESSAGES.invalidJson}: the body is not valid UTF-8`);
  try {
    return JSON.parse(req.body.toString('utf8'));
  } catch (err) {
    throw badRequest(`${SNAPSHOT_MESSAGES.invalidJson}: ${(err as Error).message}`);
  }
}

const COLUMNS = new RegExp(`^${COLUMNS_TYPE.replace(/\./g, '\\.')}\\s*(?:;.*)?$`, 'i');

/** A /v1/snapshot body, validated: the columnar form (src/rank/columns.ts) when its Content-Type says so
 *  (its elements' schema check skipped when the decoder found every cell of the right kind), else JSON. */
export function readSnapshotBody(req: HttpRequest, ranker: Ranker): SnapshotRequest {
  if (req.contentType && COLUMNS.test(req.contentType.trim())) {
    const { request, typed } = readColumns(req.body);
    return ranker.validate(request, typed);
  }
  return ranker.validate(parseJsonBody(req));
}

/** Output piece of a decoder: large enough that a 32 MiB body is ~500 thread-pool round trips, small
 *  enough that the cap is passed by at most this much. */
const INFLATE_CHUNK = 64 * 1024;
/** Compressed input is handed to the decoder in pieces of at least this much (or at the end): each
 *  write is a thread-pool round trip, and sockets deliver a few KiB at a time (4 KiB pieces cost 1.6x
 *  the CPU of 64 KiB ones for a 1,000-element br body). */
const INFLATE_INPUT = 64 * 1024;

/** A compressed body that arrives whole in less than INFLATE_INPUT is decoded in one synchronous call
 *  (no stream, no thread-pool round trip: 0.25 ms less per small request), bounded to this much output
 *  so the serving thread is never held long; past it, the same bytes go through the stream. */
const SYNC_OUTPUT_MAX = 4 * 1024 * 1024;

type Decoder = () => Transform;
type SyncDecoder = (input: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions) => Buffer;
const zstdSync = (zlib as unknown as { zstdDecompressSync?: SyncDecoder }).zstdDecompressSync;
const SYNC_DECODERS: Record<string, SyncDecoder> = {
  gzip: zlib.gunzipSync, 'x-gzip': zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync,
  ...(zstdSync ? { zstd: zstdSync } : {}),
};
const zstd = (zlib as unknown as { createZstdDecompress?: (o: object) => Transform }).createZstdDecompress;

/** The request Content-Encodings we decode, by name (RFC 9110 §8.4.1; `x-gzip` is gzip). zstd only on a
 *  Node whose zlib has it (22.15 and later; not Node 20). */
const DECODERS: Record<string, Decoder> = {
  gzip: () => zlib.createGunzip({ chunkSize: INFLATE_CHUNK }),
  'x-gzip': () => zlib.createGunzip({ chunkSize: INFLATE_CHUNK }),
  deflate: () => zlib.createInflate({ chunkSize: INFLATE_CHUNK }),
  br: () => zlib.createBrotliDecompress({ chunkSize: INFLATE_CHUNK }),
  ...(zstd ? { zstd: () => zstd({ chunkSize: INFLATE_CHUNK }) } : {}),
};

/** What a 415 lists in its Accept-Encoding header. */
export const REQUEST_CODINGS = Object.keys(DECODERS).filter((c) => c !== 'x-gzip');

/**
 * The one coding a Content-Encoding header names, or undefined for none (absent, empty, `identity`).
 * Anything else, or more than one coding, is 415 `unsupported_encoding`.
 */
export function requestCoding(header: string | undefined): string | undefined {
  const codings = (header ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  if (codings.length === 0) return undefined;
  if (codings.length > 1 || !DECODERS[codings[0]]) {
    const err = new SightlineError('unsupported_encoding',
      `Unsupported Content-Encoding "${String(header).slice(0, 100)}": send one of ${REQUEST_CODINGS.join(', ')}, or none`);
    err.headers = { 'accept-encoding': REQUEST_CODINGS.join(', ') };
    throw err;
  }
  return codings[0];
}

/** requestCoding for a transport: the coding to decode, or the refusal to answer once the body is in. */
export function codingOf(header: string | undefined): { coding?: string; refusal?: SightlineError } {
  try {
    return { coding: requestCoding(header) };
  } catch (err) {
    return { refusal: err as SightlineError };
  }
}

/**
 * One request body as it arrives. The transport hands each received chunk to `write` and calls `end`
 * after the last; `result` is the decoded body, or rejects with 413 once the received bytes or the
 * decoded bytes pass `limit` (a compressed body stops inflating right there: a bomb costs at most
 * `limit` plus one piece of memory), or 400 when the stream is not valid in its coding. `destroy`
 * drops everything (timeout, client gone).
 */
export class RequestBody {
  readonly result: Promise<Buffer>;
  private resolve!: (body: Buffer) => void;
  private reject!: (err: SightlineError) => void;
  private settled = false;
  private received = 0;
  /** Identity with a declared length: each chunk is copied once, into its final place. */
  private whole: Buffer | null = null;
  private chunks: Buffer[] = [];
  /** The request's coding (undefined: identity). */
  private coding?: string;
  private decoder?: Transform;
  private decoded = 0;
  /** Compressed bytes not yet handed to the decoder. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly limit: number, coding?: string, declaredLength = NaN) {
    this.result = new Promise((resolve, reject) => { this.resolve = resolve; this.reject = reject; });
    if (declaredLength > limit) { this.fail(bodyErrors.tooLarge(limit)); return; }
    if (coding === undefined) {
      if (Number.isSafeInteger(declaredLength) && declaredLength > 0) this.whole = Buffer.allocUnsafe(declaredLength);
      return;
    }
    this.coding = coding;
  }

  /** The streaming decoder, made when the first piece of input is fed to it. */
  private stream(): Transform {
    if (this.decoder) return this.decoder;
    const coding = this.coding!;
    const limit = this.limit;
    const decoder = DECODERS[coding]();
    this.decoder = decoder;
    decoder.on('data', (piece: Buffer) => {
      if (this.settled) return;
      this.decoded += piece.length;
      if (this.decoded > limit) this.fail(bodyErrors.tooLarge(limit));
      else this.chunks.push(piece);
    });
    decoder.on('end', () => this.succeed(Buffer.concat(this.chunks, this.decoded)));
    decoder.on('error', (err) => this.fail(this.invalid(err)));
    return decoder;
  }

  private invalid(err: Error): SightlineError {
    const refusal = badRequest(`The body is not valid ${this.coding} (Content-Encoding: ${this.coding}): ${err.message}`);
    refusal.headers = { connection: 'close' }; // the rest of the body is not read
    return refusal;
  }

  /** `reused`: the caller reuses the chunk's memory once this returns (uWS), so it is copied if kept. */
  write(chunk: Uint8Array, reused: boolean): void {
    if (this.settled) return;
    if (this.received + chunk.length > this.limit) return this.fail(bodyErrors.tooLarge(this.limit));
    if (this.coding) {
      this.received += chunk.length;
      this.pending.push(reused ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this.pendingBytes += chunk.length;
      if (this.pendingBytes >= INFLATE_INPUT) this.feed();
      return;
    }
    if (this.whole && this.received + chunk.length <= this.whole.length) this.whole.set(chunk, this.received);
    else {
      if (this.whole) { this.chunks.push(this.whole.subarray(0, this.received)); this.whole = null; }
      this.chunks.push(reused ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
    this.received += chunk.length;
  }

  end(): void {
    if (this.settled) return;
    if (this.coding) {
      if (!this.decoder && this.endSmall()) return;
      this.feed();
      this.stream().end();
      return;
    }
    this.succeed(this.received === 0 ? EMPTY : this.whole ? this.whole.subarray(0, this.received) : Buffer.concat(this.chunks, this.received));
  }

  /** A body that arrived whole before any of it was fed: one synchronous call, when its output stays
   *  under SYNC_OUTPUT_MAX (true: settled). */
  private endSmall(): boolean {
    const input = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    const bound = Math.min(this.limit, SYNC_OUTPUT_MAX);
    try {
      this.succeed(SYNC_DECODERS[this.coding!](input, { maxOutputLength: bound }));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') { this.fail(this.invalid(err as Error)); return true; }
      if (bound >= this.limit) { this.fail(bodyErrors.tooLarge(this.limit)); return true; }
      this.pending = [input]; // larger than the synchronous bound: the stream decodes it
      return false;
    }
  }

  private feed(): void {
    if (this.pendingBytes === 0) return;
    this.stream().write(this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Stops decoding and drops what was received; `result` stays unsettled if it was. */
  destroy(): void {
    this.settled = true;
    this.release();
  }

  private succeed(body: Buffer): void {
    if (this.settled) return;
    this.settled = true;
    this.release();
    this.resolve(body);
  }

  private fail(err: SightlineError): void {
    if (this.settled) return;
    this.settled = true;
    this.release();
    this.reject(err);
  }

  private release(): void {
    this.chunks = [];
    this.pending = [];
    this.whole = null;
    this.decoder?.destroy();
  }
}

const EMPTY = Buffer.alloc(0);
