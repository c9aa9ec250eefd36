// The one catalogue of errors: every error_code with its HTTP status and default message. Code throws
// `SightlineError`s made here; the server turns them into SPEC error bodies in one place.

export const ERRORS = {
  bad_request: { status: 400, message: 'Bad request' },
  unauthorized: { status: 401, message: 'Invalid or missing API key' },
  insufficient_credits: { status: 402, message: 'Insufficient credits' },
  account_inactive: { status: 403, message: 'Account inactive' },
  forbidden: { status: 403, message: 'Not allowed from this address' },
  not_found: { status: 404, message: 'Not found' },
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  request_timeout: { status: 408, message: 'Request body not received in time' },
  payload_too_large: { status: 413, message: 'Payload too large' },
  unsupported_encoding: { status: 415, message: 'Unsupported Content-Encoding' },
  headers_too_large: { status: 431, message: 'Request header fields too large' },
  // Answered by the shipped front (deploy/haproxy.cfg): uWS reads only HTTP/1.1 request lines.
  http_version_not_supported: { status: 505, message: 'HTTP version not supported: send HTTP/1.1' },
  rate_limited: { status: 429, message: 'Rate limit exceeded' },
  // Idempotency-Key (docs/decisions.md, "Idempotency keys").
  idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was used with a different request' },
  idempotency_in_progress: { status: 409, message: 'A request with this Idempotency-Key is still running' },
  // Observe: the page the caller asked for.
  invalid_url: { status: 400, message: 'The URL is not valid' },
  invalid_mode: { status: 400, message: 'Unknown mode: use read, map or visual' },
  blocked_url: { status: 403, message: 'The URL points to an address this service does not reach' },
  unsupported_content_type: { status: 422, message: 'The page is not HTML, text or a readable PDF' },
  too_large: { status: 422, message: 'The page is larger than the size limit' },
  unreachable: { status: 502, message: 'The page cannot be reached' },
  http_error: { status: 502, message: 'The page answered with an HTTP error' },
  internal_error: { status: 500, message: 'Internal error' },
  busy: { status: 503, message: 'Service busy, retry later' },
  // A networked store (Postgres) cannot be reached: nothing was done and nothing charged.
  store_unavailable: { status: 503, message: 'The account store is unavailable, retry later' },
  timeout: { status: 504, message: 'Request timed out' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export class SightlineError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Where in the request the problem is, as a path such as `raw_elements[3].rect.x`. */
  readonly path?: string;
  /** Seconds the caller should wait before retrying (429, 503), sent as Retry-After. */
  retryAfter?: number;
  /** Response headers the answer carries (415: the Accept-Encoding the server reads). */
  headers?: Record<string, string>;
  /** The work was done in full before it failed (a page that used its whole extraction time): the
   *  request's credits are charged, not given back (docs/decisions.md, "Fair share"). */
  charge?: boolean;

  constructor(code: ErrorCode, message: string = ERRORS[code].message, path?: string) {
    super(message);
    this.name = 'SightlineError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.path = path;
  }
}

/** SPEC snapshot error messages for malformed requests. */
export const SNAPSHOT_MESSAGES = {
  invalidJson: 'Invalid JSON payload',
  invalidViewport: 'Invalid viewport dimensions',
  missingField: 'Missing required field',
  invalidElement: 'Invalid element format',
  invalidRequest: 'Invalid request',
} as const;

export function badRequest(message: string, path?: string): SightlineError {
  return new SightlineError('bad_request', message, path);
}
