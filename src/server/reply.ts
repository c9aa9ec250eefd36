// The one place that turns results and errors into response bodies (SPEC "Errors"): snapshot errors are
// `status`, `error` (message), `error_code`; observe errors are `status`, `error` (short name),
// `message`; both with `credits_remaining` when the caller's key is known, and both also carry the other
// route's name, so `error_code` and `message` are the same on every route (docs/decisions.md). Large text answers are
// compressed for clients that accept it (compressReply).
import zlib from 'node:zlib';
import { SightlineError } from '../schema/errors.ts';
import { StoreUnavailableError } from '../store/store.ts';
import type { SnapshotErrorBody } from '../schema/snapshot.ts';
import type { ObserveErrorBody } from '../schema/observe.ts';
import type { Reply } from './http.ts';

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(body), contentType: 'application/json', headers };
}

/** Any thrown value as a SightlineError; anything unexpected becomes internal_error (details only in logs). */
export function asSightlineError(err: unknown): SightlineError {
  if (err instanceof SightlineError) return err;
  if (err instanceof StoreUnavailableError) {
    const unavailable = new SightlineError('store_unavailable');
    unavailable.retryAfter = err.retryAfter;
    return unavailable;
  }
  return new SightlineError('internal_error');
}

export function errorReply(err: SightlineError, creditsRemaining?: number, shape: 'snapshot' | 'observe' = 'snapshot'): Reply {
  const body: SnapshotErrorBody | ObserveErrorBody = shape === 'observe'
    ? { status: 'error', error: err.code, error_code: err.code, message: err.message }
    : { status: 'error', error: err.message, error_code: err.code, message: err.message };
  if (creditsRemaining !== undefined) body.credits_remaining = creditsRemaining;
  const headers: Record<string, string> = { ...err.headers };
  if (err.retryAfter !== undefined) headers['retry-after'] = String(err.retryAfter);
  if (err.status === 413 || err.status === 408) headers.connection = 'close';
  return { ...json(err.status, body, headers), errorCode: err.code };
}

/** Bodies below this many bytes are sent as they are: a 1 KiB JSON answer saves a few hundred bytes
 *  at most, less than a packet, and compressing it still costs a call (docs/decisions.md). */
export const COMPRESS_MIN_BYTES = 1024;
/** Levels chosen by measurement (docs/decisions.md, "Compressed answers"; bench/compress.bench.ts):
 *  br quality 3 and gzip level 1 cost under 0.1 ms of CPU for a 22 KiB snapshot answer and make it
 *  6.4x and 5.8x smaller; the next levels cost 1.5-2x the CPU for 5-8% fewer bytes. */
export const BROTLI_QUALITY = 3;
export const GZIP_LEVEL = 1;

/** Text-like types; never images (the screenshot PNGs are compressed already). */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|(?:[\w.-]+\+)?json)\b|image\/svg\+xml)/i;

/**
 * The response coding an Accept-Encoding header asks for (RFC 9110 §12.5.3): the highest q-value
 * among br and gzip (`*` stands for an unnamed one; br wins a tie), or undefined for identity (no
 * header, neither accepted, or both at q=0).
 */
export function responseCoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const q: Record<string, number> = {};
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!name) continue;
    let value = 1;
    for (const param of params) {
      const m = /^q\s*=\s*([01](?:\.\d{0,3})?)$/.exec(param);
      if (m) value = Number(m[1]);
    }
    const coding = name === 'x-gzip' ? 'gzip' : name;
    q[coding] = Math.max(q[coding] ?? 0, value);
  }
  const br = q.br ?? q['*'] ?? 0;
  const gzip = q.gzip ?? q['*'] ?? 0;
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

/** Static bodies (the same Buffer on every request: pages, Swagger UI) are compressed once per coding. */
const compressedOnce = new WeakMap<Buffer, { br?: Buffer; gzip?: Buffer }>();

function compress(body: string | Buffer, coding: 'br' | 'gzip'): Buffer {
  const cached = Buffer.isBuffer(body) ? compressedOnce.get(body)?.[coding] : undefined;
  if (cached) return cached;
  const out = coding === 'br'
    ? zlib.brotliCompressSync(body, { params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
    } })
    : zlib.gzipSync(body, { level: GZIP_LEVEL });
  if (Buffer.isBuffer(body)) compressedOnce.set(body, { ...compressedOnce.get(body), [coding]: out });
  return out;
}

/**
 * The reply as sent to a client with this Accept-Encoding: a text-like body of COMPRESS_MIN_BYTES or
 * more is compressed (br or gzip, `Content-Encoding`) and carries `Vary: Accept-Encoding`; anything
 * else is returned as it is. Never changes `reply` itself (kept replies are sent again).
 */
export function compressReply(reply: Reply, acceptEncoding: string | undefined): Reply {
  if (reply.headers?.['content-encoding'] || !COMPRESSIBLE.test(reply.contentType)) return reply;
  if (Buffer.byteLength(reply.body) < COMPRESS_MIN_BYTES) return reply;
  const headers = { ...reply.headers, vary: 'Accept-Encoding' };
  const coding = responseCoding(acceptEncoding);
  if (!coding) return { ...reply, headers };
  return { ...reply, body: compress(reply.body, coding), headers: { ...headers, 'content-encoding': coding } };
}
