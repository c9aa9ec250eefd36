// HTTP client for the Sightline API: typed requests and results, typed errors carrying `error_code`,
// a timeout per attempt, and retries. Every POST sends a fresh Idempotency-Key, and every attempt of
// one call sends the same key, so a retry after a network error (the request may have run) returns the
// first outcome instead of running and charging twice. Retried: network errors (after a short backoff),
// 429, 503 and 409 idempotency_in_progress (after Retry-After). Not retried: other 4xx/5xx and timeouts.
// Request bodies of REQUEST_COMPRESS_MIN_BYTES or more are sent compressed (br by default: on a
// 1,000-element snapshot 12.6x smaller for about 2 ms on a thread-pool thread); responses come compressed
// too (br or gzip, decoded by fetch). Snapshot requests go as the columnar body (src/rank/columns.ts),
// which the server reads several times faster than JSON; `columns: false` sends JSON.
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { encodeColumns, COLUMNS_TYPE } from '../rank/columns.ts';
import type { SnapshotRequest, SnapshotResponse, SnapshotTextResponse } from '../schema/snapshot.ts';
import type { ObserveRequest, ReadResult, MapResult, VisualResult, MapTextResult, VisualTextResult } from '../schema/observe.ts';
import type { UsageEntry, UsageResponse } from '../schema/usage.ts';

export type { ObserveRequest, ReadResult, MapResult, VisualResult, MapTextResult, VisualTextResult, SnapshotTextResponse, UsageEntry, UsageResponse };

/** GET /v1/usage's query. */
export interface UsageQuery {
  /** Most entries, newest first (default 50, at most 500). */
  limit?: number;
  /** `next_cursor` of an earlier answer: the entries older than it showed. */
  cursor?: string;
}

export interface ApiOptions {
  /** e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  apiKey: string;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number;
  /** Extra attempts after a network error, a 429, a 503 or a 409 idempotency_in_progress. Default 2. */
  retries?: number;
  /** Longest wait honoured from Retry-After before giving up. Default 30 s. */
  maxRetryWaitMs?: number;
  /** Content-Encoding for request bodies of `compressMinBytes` or more: `br` (default), `gzip`, or
   *  false to send them plain. A server that answers 415 gets the call again, plain. */
  compress?: 'br' | 'gzip' | false;
  /** Smallest body compressed. Default 1024 bytes. */
  compressMinBytes?: number;
  /** Send snapshot requests as the columnar body (`application/vnd.sightline.columns`, docs/decisions.md
   *  "Columnar snapshot body"): the same request, several times cheaper for the server to read. Default
   *  true; a request the format does not carry goes as JSON. false: always JSON. */
  columns?: boolean;
}

/** Bodies below this are sent plain: compressing saves less than a packet. */
export const REQUEST_COMPRESS_MIN_BYTES = 1024;
/** br quality 3, gzip level 4: measured in bench/compress.bench.ts (bench/README.md, "Compressed bodies"):
 *  on a 1,000-element body br 3 is 12.6x smaller for 2 ms of CPU; br 4 gains 4% for 50% more. */
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
function compressBody(body: string | Buffer, coding: 'br' | 'gzip', text: boolean): Promise<Buffer> {
  return coding === 'br'
    ? brotli(body, { params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 3,
      [zlib.constants.BROTLI_PARAM_MODE]: text ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
    } })
    : gzip(body, { level: 4 });
}

/** Per call. */
export interface CallOptions {
  /** Sent as Idempotency-Key on every attempt (default: a fresh random UUID per call). Reuse one to make
   *  a later call return this call's outcome. */
  idempotencyKey?: string;
}

/** An API call that failed. The same property names as the server's `SightlineError` (`code`, `status`,
 *  `retryAfter`), and `code` is the answer's `error_code`. */
export class SightlineApiError extends Error {
  constructor(
    /** The HTTP status; 0 when there was no answer or the call was not made. */
    readonly status: number,
    /** The answer's `error_code`; on our side `network_error`, `timeout`, or `missing_api_key` (no call made). */
    readonly code: string,
    message: string,
    readonly creditsRemaining?: number,
    /** Seconds the server asked to wait (Retry-After), as SightlineError's `retryAfter`. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'SightlineApiError';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** First wait before retrying a network error; doubled on each further attempt. */
const NETWORK_RETRY_MS = 200;

export class SightlineApi {
  private readonly base: string;
  constructor(private readonly options: ApiOptions) {
    // Caught here, before any call: a key read from an unset variable would go out as "Bearer undefined".
    const key: unknown = options?.apiKey;
    if (typeof key !== 'string' || !key.trim()) {
      throw new SightlineApiError(0, 'missing_api_key', `SightlineApi needs an API key: apiKey is ${key === undefined ? 'undefined' : JSON.stringify(key)} (pass your key, e.g. process.env.SIGHTLINE_KEY; \`npx sightline keys create --credits N\` makes one, \`npm start\` prints a development key)`);
    }
    if (typeof options.baseUrl !== 'string' || !URL.canParse(options.baseUrl)) {
      throw new SightlineApiError(0, 'invalid_base_url', `SightlineApi needs baseUrl, the server's address such as http://127.0.0.1:8787 (got ${JSON.stringify(options.baseUrl)})`);
    }
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  /** With `options.format: "text"` the result carries `text`; with `options.elements: false` only `text`. */
  snapshot(request: SnapshotRequest & { options: { elements: false } }, call?: CallOptions): Promise<SnapshotTextResponse>;
  snapshot(request: SnapshotRequest, call?: CallOptions): Promise<SnapshotResponse>;
  snapshot(request: SnapshotRequest, call?: CallOptions): Promise<SnapshotResponse | SnapshotTextResponse> {
    const columns = this.options.columns === false ? null : encodeColumns(request);
    if (columns) return this.post<SnapshotResponse>('/v1/snapshot', Buffer.from(columns.buffer, columns.byteOffset, columns.byteLength), call, COLUMNS_TYPE);
    return this.post<SnapshotResponse>('/v1/snapshot', request, call);
  }

  /** POST /v1/observe: the result shape follows the mode (read by default). */
  observe(request: ObserveRequest & { mode: 'visual'; options: { elements: false } }, call?: CallOptions): Promise<VisualTextResult>;
  observe(request: ObserveRequest & { mode: 'map'; options: { elements: false } }, call?: CallOptions): Promise<MapTextResult>;
  observe(request: ObserveRequest & { mode: 'visual' }, call?: CallOptions): Promise<VisualResult>;
  observe(request: ObserveRequest & { mode: 'map' }, call?: CallOptions): Promise<MapResult>;
  observe(request: ObserveRequest & { mode?: 'read' }, call?: CallOptions): Promise<ReadResult>;
  observe(request: ObserveRequest, call?: CallOptions): Promise<ReadResult | MapResult | VisualResult | MapTextResult | VisualTextResult>;
  observe(request: ObserveRequest, call?: CallOptions): Promise<ReadResult | MapResult | VisualResult | MapTextResult | VisualTextResult> {
    return this.post('/v1/observe', request, call);
  }

  /** GET /v1/usage: the key's balance and its latest charges and refunds, newest first (free). Follow
   *  `next_cursor` for older ones: `api.usage({ cursor: page.next_cursor })`. */
  usage(query: UsageQuery = {}): Promise<UsageResponse> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.cursor !== undefined) params.set('cursor', query.cursor);
    const search = params.toString();
    return this.request<UsageResponse>('GET', `/v1/usage${search ? `?${search}` : ''}`);
  }

  /** `body`: a value sent as JSON, or bytes already in `type`. */
  private async post<T>(path: string, body: unknown, call: CallOptions = {}, type = 'application/json'): Promise<T> {
    const json = Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const key = call.idempotencyKey ?? globalThis.crypto.randomUUID();
    const { compress = 'br', compressMinBytes = REQUEST_COMPRESS_MIN_BYTES } = this.options;
    if (compress && !this.plainOnly && Buffer.byteLength(json) >= compressMinBytes) {
      try {
        return await this.request<T>('POST', path, await compressBody(json, compress, type === 'application/json'), key, compress, type);
      } catch (err) {
        // A server (or a proxy before it) that does not read this coding: plain from now on. The
        // server decodes before the key is claimed, so the same key runs the call once.
        if (!(err instanceof SightlineApiError && err.status === 415)) throw err;
        this.plainOnly = true;
      }
    }
    return this.request<T>('POST', path, json, key, undefined, type);
  }

  /** Set once a server refused a compressed body (415). */
  private plainOnly = false;

  /** One call: a POST carries its body and Idempotency-Key on every attempt; a GET is safe to repeat. */
  private async request<T>(method: 'GET' | 'POST', path: string, payload?: string | Buffer, idempotencyKey?: string, coding?: string, type = 'application/json'): Promise<T> {
    const { apiKey, timeoutMs = 30_000, retries = 2, maxRetryWaitMs = 30_000 } = this.options;
    // Node's fetch asks for gzip and deflate only, and decodes br too: ask for br first.
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, 'accept-encoding': 'br, gzip' };
    if (payload !== undefined) headers['content-type'] = type;
    if (coding !== undefined) headers['content-encoding'] = coding;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const body = typeof payload === 'string' || payload === undefined ? payload : new Uint8Array(payload);
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(this.base + path, { method, body, signal: AbortSignal.timeout(timeoutMs), headers });
      } catch (err) {
        const timedOut = (err as Error).name === 'TimeoutError';
        if (!timedOut && attempt < retries) {
          // The request may have run: the same key makes the retry return its outcome, charged once.
          await sleep(NETWORK_RETRY_MS * 2 ** attempt);
          continue;
        }
        throw new SightlineApiError(0, timedOut ? 'timeout' : 'network_error',
          timedOut ? `no answer from ${path} within ${timeoutMs} ms` : `cannot reach ${this.base}: ${(err as Error).message}`);
      }
      const text = await res.text();
      let parsed: any;
      try { parsed = JSON.parse(text); } catch { parsed = undefined; }
      if (res.ok && parsed !== undefined) return parsed as T;
      const retryAfter = Number(res.headers.get('retry-after')) || undefined;
      const error = new SightlineApiError(res.status, parsed?.error_code ?? parsed?.error ?? 'http_error',
        parsed?.message ?? (typeof parsed?.error === 'string' ? parsed.error : `HTTP ${res.status}: ${text.slice(0, 200)}`),
        parsed?.credits_remaining, retryAfter);
      const waitMs = (retryAfter ?? 1) * 1000;
      const retryable = res.status === 429 || res.status === 503 || error.code === 'idempotency_in_progress';
      if (retryable && attempt < retries && waitMs <= maxRetryWaitMs) {
        await sleep(waitMs);
        continue;
      }
      throw error;
    }
  }
}
