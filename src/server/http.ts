// What a route sees of a request and gives back, independent of the transport: the same routes run
// on uWebSockets.js (the service) and on node:http (the benchmark baseline).
import { SightlineError, badRequest } from '../schema/errors.ts';
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
  /** The Accept-Encoding header ('' when none): the answer is compressed when it allows (reply.ts). */
  acceptEncoding?: string;
  /** The body as the route reads it: decoded from its Content-Encoding (body.ts). */
  body: Buffer;
  /** The Content-Encoding the body was decoded from (absent when it came plain), for the access log. */
  contentEncoding?: string;
  requestId: string;
  /** The peer's IP address as text (GET /metrics answers loopback alone without a token). */
  remoteAddress: string;
  /** The Streamable HTTP headers POST /mcp reads (accept, mcp-session-id, mcp-protocol-version). */
  mcpHeaders?: Record<string, string>;
  /** The Idempotency-Key header as it arrived (absent when not sent; '' when sent empty; several
   *  fields joined with ", " as RFC 9110 §5.3 combines them, which the check then refuses). */
  idempotencyKey?: string;
  /** Aborted by the transport when the client goes away before its answer. */
  clientClosed?: AbortSignal;
  /** Aborted when the request's deadline passes (reason `deadline`) or its client goes away
   *  (`client_closed`). */
  signal: AbortSignal;
  /** Set by a route holding credits: voids the hold unless it was already posted. The router calls it at
   *  the deadline, so a 504 is never charged (holds.ts). */
  releaseHold?: (reason: string) => Promise<'voided' | 'posted'>;
  /** Set by admit when the request holds a concurrency lease; the router calls it when the route's work
   *  ends (not at the deadline: work that goes on still counts). */
  releaseLease?: () => Promise<void>;
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
  /** Set on error answers: the error_code, for the access log and metrics (not sent). */
  errorCode?: string;
}

/** A route: one request in, one reply out (router.ts maps method and path to it). */
export type Route = (req: HttpRequest) => Reply | Promise<Reply>;

/** Request header values the transports read (uWS headers must be read synchronously). */
export const REQUEST_ID_HEADER = 'x-request-id';
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** The headers an MCP Streamable HTTP request carries besides the usual ones. */
export const MCP_HEADERS = ['accept', 'mcp-session-id', 'mcp-protocol-version'] as const;

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
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

/** The largest request head (request line and header fields). uWS closes a connection whose head
 *  arrives in pieces and passes 4 KiB, so the same limit applies when it arrives in one. */
export const MAX_HEAD_BYTES = 4096;
/** uWS's own limit on header fields (it never hands over a request with more). */
export const MAX_HEADER_FIELDS = 48;

/**
 * RFC 9112's framing rules, for what the transport's parser let through (docs/decisions.md, "HTTP
 * framing"): one Content-Length value of digits, Transfer-Encoding exactly `chunked` and never with a
 * Content-Length, one non-empty Host (400); a head within MAX_HEAD_BYTES and MAX_HEADER_FIELDS (431).
 * A refused request must be answered with the connection closed: where its body ends is unknown, and
 * reading on is how a request is smuggled.
 */
export function framingError(eachHeader: (visit: (name: string, value: string) => void) => void, lineBytes: number, http10 = false): SightlineError | undefined {
  let bytes = lineBytes;
  let fields = 0;
  let hosts = 0;
  let host = '';
  let codings: string | undefined;
  const lengths: string[] = [];
  eachHeader((name, value) => {
    fields++;
    bytes += name.length + value.length + 4;
    if (name === 'host') { hosts++; host = value; }
    else if (name === 'content-length') lengths.push(value);
    else if (name === 'transfer-encoding') codings = codings === undefined ? value : `${codings},${value}`;
  });
  if (bytes > MAX_HEAD_BYTES || fields > MAX_HEADER_FIELDS) {
    return new SightlineError('headers_too_large', `Request header fields too large: the limits are ${MAX_HEAD_BYTES} bytes and ${MAX_HEADER_FIELDS} fields`);
  }
  // HTTP/1.0 (node:http only: uWS answers nothing but 1.1) predates Host.
  if (hosts > 1 || (hosts === 1 ? !host : !http10)) return badRequest(`A request needs exactly one non-empty Host header (got ${hosts})`);
  if (codings !== undefined) {
    if (lengths.length) return badRequest('Transfer-Encoding and Content-Length together');
    if (codings.split(',').map((c) => c.trim().toLowerCase()).join() !== 'chunked') {
      return badRequest(`Unsupported Transfer-Encoding "${codings.slice(0, 100)}": only chunked is accepted`);
    }
  }
  if (lengths.some((v) => !/^\d+$/.test(v) || v !== lengths[0])) {
    return badRequest(`Content-Length must be one decimal value (got "${lengths.join('", "').slice(0, 100)}")`);
  }
  return undefined;
}
