// What a route sees of a request and gives back, independent of the transport: the same routes run
// on uWebSockets.js (the service) and on node:http (the benchmark baseline).
import { SightlineError } from '../schema/errors.ts';
import type { Account } from '../store/store.ts';

export interface HttpRequest {
  method: string;
  path: string;
  /** The query string without its `?` ('' when none). */
  query: string;
  /** The Host header: the screenshot URLs we hand out point back at it. */
  host: string;
  authorization: string;
  contentType: string;
  body: Buffer;
  requestId: string;
  /** Aborted when the request's deadline passes. */
  signal: AbortSignal;
  /** Set by a route once the caller's key is known, so error bodies can carry `credits_remaining`. */
  account?: Account;
  /** For the access log: credits this request cost. */
  creditsUsed?: number;
}

export interface Reply {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

/** Request header values the transports read (uWS headers must be read synchronously). */
export const REQUEST_ID_HEADER = 'x-request-id';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 413: 'Payload Too Large',
  429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

export function statusLine(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? 'Unknown'}`;
}

/** Keeps a caller's request id when it is short and plain; otherwise makes one. */
export function requestIdFrom(header: string, make: () => string): string {
  return /^[\w.:-]{1,128}$/.test(header) ? header : make();
}

/** The transports' two refusals while reading a body, worded once. */
export const bodyErrors = {
  tooLarge: (limit: number) => new SightlineError('payload_too_large', `Payload too large: the body limit is ${limit} bytes`),
  tooSlow: (ms: number) => new SightlineError('request_timeout', `Request body not received within ${ms} ms`),
};
