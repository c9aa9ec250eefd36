// HTTP client for the Sightline API: typed requests and results, typed errors carrying `error_code`,
// a timeout per attempt, and retries on 429/503 that wait as long as Retry-After says.
import type { SnapshotRequest, SnapshotResponse, SnapshotTextResponse } from '../schema/snapshot.ts';
import type { ObserveRequest, ReadResult, MapResult, VisualResult, MapTextResult, VisualTextResult } from '../schema/observe.ts';

export type { ObserveRequest, ReadResult, MapResult, VisualResult, MapTextResult, VisualTextResult, SnapshotTextResponse };

export interface ApiOptions {
  /** e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  apiKey: string;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number;
  /** Extra attempts after a 429 or 503. Default 2. */
  retries?: number;
  /** Longest wait honoured from Retry-After before giving up. Default 30 s. */
  maxRetryWaitMs?: number;
}

export class SightlineApiError extends Error {
  constructor(
    readonly status: number,
    /** SPEC `error_code` (snapshot) or `error` (observe); `network_error` / `timeout` on our side. */
    readonly errorCode: string,
    message: string,
    readonly creditsRemaining?: number,
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'SightlineApiError';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SightlineApi {
  private readonly base: string;
  constructor(private readonly options: ApiOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  /** With `options.format: "text"` the result carries `text`; with `options.elements: false` only `text`. */
  snapshot(request: SnapshotRequest & { options: { elements: false } }): Promise<SnapshotTextResponse>;
  snapshot(request: SnapshotRequest): Promise<SnapshotResponse>;
  snapshot(request: SnapshotRequest): Promise<SnapshotResponse | SnapshotTextResponse> {
    return this.post<SnapshotResponse>('/v1/snapshot', request);
  }

  /** POST /v1/observe: the result shape follows the mode (read by default). */
  observe(request: ObserveRequest & { mode: 'visual'; options: { elements: false } }): Promise<VisualTextResult>;
  observe(request: ObserveRequest & { mode: 'map'; options: { elements: false } }): Promise<MapTextResult>;
  observe(request: ObserveRequest & { mode: 'visual' }): Promise<VisualResult>;
  observe(request: ObserveRequest & { mode: 'map' }): Promise<MapResult>;
  observe(request: ObserveRequest & { mode?: 'read' }): Promise<ReadResult>;
  observe(request: ObserveRequest): Promise<ReadResult | MapResult | VisualResult | MapTextResult | VisualTextResult>;
  observe(request: ObserveRequest): Promise<ReadResult | MapResult | VisualResult | MapTextResult | VisualTextResult> {
    return this.post('/v1/observe', request);
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const { apiKey, timeoutMs = 30_000, retries = 2, maxRetryWaitMs = 30_000 } = this.options;
    const payload = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(this.base + path, {
          method: 'POST', body: payload, signal: AbortSignal.timeout(timeoutMs),
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        });
      } catch (err) {
        const timedOut = (err as Error).name === 'TimeoutError';
        throw new SightlineApiError(0, timedOut ? 'timeout' : 'network_error',
          timedOut ? `no answer from ${path} within ${timeoutMs} ms` : `cannot reach ${this.base}: ${(err as Error).message}`);
      }
      const text = await res.text();
      let parsed: any;
      try { parsed = JSON.parse(text); } catch { parsed = undefined; }
      if (res.ok && parsed !== undefined) return parsed as T;
      const retryAfterS = Number(res.headers.get('retry-after')) || undefined;
      const error = new SightlineApiError(res.status, parsed?.error_code ?? parsed?.error ?? 'http_error',
        parsed?.message ?? (typeof parsed?.error === 'string' ? parsed.error : `HTTP ${res.status}: ${text.slice(0, 200)}`),
        parsed?.credits_remaining, retryAfterS);
      const waitMs = (retryAfterS ?? 1) * 1000;
      if ((res.status === 429 || res.status === 503) && attempt < retries && waitMs <= maxRetryWaitMs) {
        await sleep(waitMs);
        continue;
      }
      throw error;
    }
  }
}
