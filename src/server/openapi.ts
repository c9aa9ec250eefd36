// GET /openapi.json, generated from the same typebox schemas that validate requests (typebox schemas
// are JSON Schema, which OpenAPI 3.1 takes as is).
import { ERRORS, SNAPSHOT_MESSAGES } from '../schema/errors.ts';
import { REQUEST_CODINGS } from './body.ts';
import { COLUMNS_TYPE } from '../rank/columns.ts';
import { SnapshotRequest, SnapshotResponse, SnapshotTextResponse, SnapshotErrorBody } from '../schema/snapshot.ts';
import { ObserveRequest, ReadResult, MapResult, VisualResult, MapTextResult, VisualTextResult, ObserveErrorBody } from '../schema/observe.ts';
import { UsageResponse, USAGE_DEFAULT_LIMIT, USAGE_MAX_LIMIT } from '../schema/usage.ts';
import type { ServerConfig } from './config.ts';

// A path's answers are anyOf its shapes, never oneOf: shapes overlap (a visual result is also a map
// result, since schemas allow extra fields), and oneOf refuses every answer that fits two.
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (name: string) => ({ 'application/json': { schema: ref(name) } });
/** Drops typebox's symbol keys and anything else JSON cannot carry. */
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema));

/** What any paid POST route can answer: the key, its limits and credits, the body, the transport, a
 *  server shutting down (503 busy), our failures. */
const PAID_POST_ERRORS = ['bad_request', 'unauthorized', 'insufficient_credits', 'account_inactive', 'payload_too_large', 'unsupported_encoding', 'request_timeout', 'headers_too_large', 'rate_limited', 'idempotency_key_reused', 'idempotency_in_progress', 'internal_error', 'busy', 'store_unavailable', 'timeout'] as const;
const SNAPSHOT_ERRORS = PAID_POST_ERRORS;
const USAGE_ERRORS = ['bad_request', 'unauthorized', 'account_inactive', 'headers_too_large', 'rate_limited', 'internal_error', 'busy', 'store_unavailable', 'timeout'] as const;
const OBSERVE_ERRORS = [...PAID_POST_ERRORS, 'invalid_url', 'invalid_mode', 'blocked_url', 'unsupported_content_type', 'too_large', 'unreachable', 'http_error'] as const;

/** Idempotency-Key (docs/decisions.md, "Idempotency keys"). */
/** Request bodies may come compressed (body.ts); the cap applies to the decoded size. */
const CONTENT_ENCODING_PARAMETER = {
  name: 'Content-Encoding', in: 'header', required: false,
  schema: { type: 'string', enum: [...REQUEST_CODINGS, 'identity'] },
  description: 'The body\'s compression, decoded as it arrives. The body limit applies to the decoded size (413 payload_too_large as soon as ' +
    'decoding passes it: a decompression bomb costs nothing); a corrupt stream is 400 bad_request; any other coding, or more than one, ' +
    '415 unsupported_encoding with the accepted ones in Accept-Encoding. Answers of 1 KiB or more are compressed (br or gzip) when Accept-Encoding allows.',
};

/** The columnar body (src/rank/columns.ts; docs/decisions.md, "Columnar snapshot body"). */
const COLUMNS_DOC = 'The same SnapshotRequest in a columnar binary form, several times cheaper for the server to read than JSON ' +
  '(the client library sends it by default; encodeColumns in src/rank/columns.ts writes it). Little-endian: "SLC1", u32 header bytes, ' +
  'u32 element count n, u32 0; a UTF-8 JSON header {"request": the request without raw_elements, "strings": [...], "numbers": count, ' +
  '"fields": [column names such as "tag", "styles.cursor", "attributes.href"]} zero-padded to 8 bytes; then f64 numbers[count], f64 id, ' +
  'rect.x, rect.y, rect.width, rect.height [n each]; i32 parent, styles, attributes, iframe_content [n each]; one i32 column [n] per field. ' +
  'Elements are depth-first with frame contents after their frame (parent: the frame\'s index, -1 at top level). A value cell is a string ' +
  'index (>= 0), -1 absent, -2 null, -3 false, -4 true, or numbers[-16 - cell] (<= -16); an object cell -1 absent, -2 null, 0 present. ' +
  'The decoded request is validated exactly as JSON is (same 400 messages); a malformed columnar body is 400 bad_request naming the problem.';

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key', in: 'header', required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description: 'A unique key per logical request (a UUID), sent again on every retry of it. The first outcome is kept for 24 h per API key and ' +
    'returned to a retry with the same request without running or charging again (header Idempotent-Replayed: true); the same key with a ' +
    'different request is 422 idempotency_key_reused; while the first still runs, 409 idempotency_in_progress with Retry-After. Outcomes of ' +
    '402, 408, 409, 429 and 5xx are not kept: a retry runs again.',
};
const REPLAYED_HEADER_DOC = { 'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] }, description: 'present when this is the kept outcome of an earlier request with the same Idempotency-Key' } };

/** Request examples, shown on /docs; test/playground.test.ts sends each one to a running server (the
 *  observe ones with the URL of a local page) and checks the answer against the documented schema. */
export const EXAMPLES = {
  snapshot: {
    search: {
      summary: 'Rank three elements for a goal',
      value: {
        url: 'https://shop.example/',
        viewport: { width: 1280, height: 800 },
        goal: 'search for headphones',
        raw_elements: [
          { id: 1, tag: 'input', rect: { x: 300, y: 18, width: 520, height: 38 }, attributes: { input_type: 'search', aria_label: 'Search products' } },
          { id: 2, tag: 'button', text: 'Search', rect: { x: 832, y: 18, width: 96, height: 38 } },
          { id: 3, tag: 'a', text: 'Sign in', rect: { x: 1120, y: 24, width: 80, height: 28 }, attributes: { href: 'https://shop.example/account' } },
        ],
        options: { limit: 20 },
      },
    },
  },
  observe: {
    read: { summary: 'The page as Markdown (1 credit)', value: { url: 'https://example.com/', mode: 'read', format: 'markdown' } },
    map: { summary: 'Ranked elements for a goal (2 credits)', value: { url: 'https://example.com/', mode: 'map', options: { goal: 'sign in', limit: 20 } } },
    visual: { summary: 'Elements and an annotated screenshot (10 credits)', value: { url: 'https://example.com/', mode: 'visual', options: { annotate: true, limit: 20 } } },
  },
  /** An answer of GET /v1/usage (a response example: the request is the query string alone). */
  usage: {
    page: {
      summary: 'One charge and one refund, and a cursor for older entries',
      value: {
        status: 'success', key: 'sl_3kf9QmA2', balance: { available: 987, held: 2 },
        entries: [
          { type: 'charge', credits: 2, request_id: '7d1c2b9e-5a44-4f0e-9a51-2c6f0d7e8b13', reason: null, time: '2025-06-02T09:14:07.512Z' },
          { type: 'refund', credits: 1, request_id: 'b0e4f1a2-93c8-4d6b-8f27-5e1a9c3d4f60', reason: 'http_error', time: '2025-06-02T09:13:58.040Z' },
        ],
        next_cursor: '41',
      },
    },
  },
} as const;

/** One response per status; codes sharing a status are listed together. */
function errorResponses(codes: readonly (keyof typeof ERRORS)[], schema: string, extra: (code: string) => string = () => '') {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...byStatus.get(ERRORS[code].status) ?? [], `${code}: ${ERRORS[code].message}${extra(code)}`]);
  return Object.fromEntries([...byStatus].map(([status, lines]) => [String(status), {
    description: lines.join('; '),
    content: jsonContent(schema),
    ...(status === 429 || status === 503 || status === 409 ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds until a request is likely accepted' } } } : {}),
  }]));
}

export function openApiDocument(config: Pick<ServerConfig, 'limitCap' | 'maxBodyBytes' | 'rateLimit' | 'mcpIdleS'> & Partial<Pick<ServerConfig, 'keyConcurrency' | 'mcpSessionsPerKey'>>, version: string): object {
  const concurrency = config.keyConcurrency ? ` At most ${config.keyConcurrency} requests per key in progress at once (429 rate_limited beyond).` : '';
  const snapshotErrors = errorResponses(SNAPSHOT_ERRORS, 'SnapshotError', (code) => code === 'bad_request' ? ` (${Object.values(SNAPSHOT_MESSAGES).join('; ')})` : '');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sightline',
      version,
      description: 'Web observation for AI agents: interactive elements ranked by importance, with coordinates, occlusion and grouping.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <metrics token> (--metrics-token)' },
      },
      schemas: {
        SnapshotRequest: plain(SnapshotRequest),
        SnapshotResponse: plain(SnapshotResponse),
        SnapshotTextResponse: plain(SnapshotTextResponse),
        SnapshotError: plain(SnapshotErrorBody),
        ObserveRequest: plain(ObserveRequest),
        ReadResult: plain(ReadResult),
        MapResult: plain(MapResult),
        VisualResult: plain(VisualResult),
        MapTextResult: plain(MapTextResult),
        VisualTextResult: plain(VisualTextResult),
        ObserveError: plain(ObserveErrorBody),
        UsageResponse: plain(UsageResponse),
      },
    },
    security: [{ bearer: [] }],
    paths: {
      '/v1/snapshot': {
        post: {
          operationId: 'snapshot',
          summary: 'Rank raw elements collected in the caller\'s browser (1 credit)',
          description: `Elements come back sorted by importance. options.limit defaults to 50, capped at ${config.limitCap}. ` +
            `Bodies up to ${config.maxBodyBytes} bytes (decoded; gzip, deflate or br Content-Encoding). Rate limit per key: ${config.rateLimit.rate}/s, burst ${config.rateLimit.burst}.${concurrency}`,
          parameters: [IDEMPOTENCY_KEY_PARAMETER, CONTENT_ENCODING_PARAMETER],
          requestBody: { required: true, content: {
            'application/json': { schema: ref('SnapshotRequest'), examples: EXAMPLES.snapshot },
            [COLUMNS_TYPE]: { schema: { type: 'string', format: 'binary', description: COLUMNS_DOC } },
          } },
          responses: {
            200: { description: 'ranked elements (with options.format "text" also `text`; with options.elements false `text` alone)', headers: REPLAYED_HEADER_DOC, content: { 'application/json': { schema: { anyOf: [ref('SnapshotResponse'), ref('SnapshotTextResponse')] } } } },
            ...snapshotErrors,
          },
        },
      },
      '/v1/observe': {
        post: {
          operationId: 'observe',
          summary: 'Load a URL: read (Markdown, 1 credit), map (ranked elements; 2, or 10 with the precision engine), visual (map + screenshot, 10)',
          parameters: [IDEMPOTENCY_KEY_PARAMETER, CONTENT_ENCODING_PARAMETER],
          requestBody: { required: true, content: { 'application/json': { schema: ref('ObserveRequest'), examples: EXAMPLES.observe } } },
          responses: {
            200: { description: 'the result of the chosen mode', headers: REPLAYED_HEADER_DOC, content: { 'application/json': { schema: { anyOf: [ref('ReadResult'), ref('MapResult'), ref('VisualResult'), ref('MapTextResult'), ref('VisualTextResult')] } } } },
            ...errorResponses(OBSERVE_ERRORS, 'ObserveError'),
          },
        },
      },
      '/v1/usage': {
        get: {
          operationId: 'usage',
          summary: 'The calling key\'s balance and its latest charges and refunds, newest first (free)',
          description: 'From the credit ledger: each charge (a request\'s held credits spent) and refund (given back: the request failed, passed ' +
            'its deadline, its client left, or its process died) with the request\'s x-request-id. Costs no credit; takes a token from the ' +
            `key's rate limit (${config.rateLimit.rate}/s, burst ${config.rateLimit.burst}) like the other /v1 routes. Errors have the snapshot error body.`,
          parameters: [
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: USAGE_MAX_LIMIT, default: USAGE_DEFAULT_LIMIT }, description: 'most entries returned' },
            { name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: 'next_cursor of the previous answer: the entries older than it showed' },
          ],
          responses: {
            200: {
              description: 'the balance and one page of entries',
              content: { 'application/json': { schema: ref('UsageResponse'), examples: EXAMPLES.usage } },
            },
            ...errorResponses(USAGE_ERRORS, 'SnapshotError', (code) => code === 'bad_request' ? ' (a limit that is not a whole number from 1 to 500, an unknown cursor form, an unknown or repeated parameter)' : ''),
          },
        },
      },
      '/mcp': {
        post: {
          operationId: 'mcp', summary: 'MCP over Streamable HTTP: the tools of `sightline mcp` (docs/mcp.md), 1 credit per tools/call',
          description: 'JSON-RPC messages of the Model Context Protocol. `initialize` opens a session with its own browser (its id in the ' +
            'Mcp-Session-Id response header; send it on every later request with Accept: application/json, text/event-stream). Answers are ' +
            `JSON (no SSE stream). Each tools/call costs 1 credit; initialize and tools/list are free, but initialize needs a positive balance. ` +
            `Navigation goes through the egress guard. One key holds at most ${config.mcpSessionsPerKey ?? 2} sessions (--mcp-sessions-per-key). ` +
            `A session closes after ${config.mcpIdleS} s without a tool call that ran (--mcp-idle-s; other requests do not keep it open) or on DELETE.`,
          parameters: [{ name: 'Mcp-Session-Id', in: 'header', required: false, schema: { type: 'string' }, description: 'the session, after initialize' }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'a JSON-RPC request, notification or batch' } } } },
          responses: {
            200: { description: 'the JSON-RPC response', content: { 'application/json': { schema: { type: 'object' } } } },
            202: { description: 'a notification or response was accepted' },
            401: { description: 'unauthorized: no or an unknown API key', content: jsonContent('SnapshotError') },
            402: { description: 'insufficient_credits: the tools/call costs more than the key has, or an initialize from a key with no credits', content: jsonContent('SnapshotError') },
            404: { description: 'an unknown or expired session, or one another key opened (JSON-RPC error)' },
            429: { description: 'rate_limited: the key\'s rate limit, or an initialize from a key that holds --mcp-sessions-per-key sessions (with Retry-After)', content: jsonContent('SnapshotError') },
            503: { description: 'busy: every --mcp-sessions session of the server is open (with Retry-After)', content: jsonContent('SnapshotError') },
          },
        },
        delete: {
          operationId: 'mcpClose', summary: 'Ends an MCP session and its browser',
          parameters: [{ name: 'Mcp-Session-Id', in: 'header', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'closed' }, 404: { description: 'an unknown or expired session' } },
        },
      },
      '/v1/screenshots/{file}': {
        get: {
          operationId: 'screenshot', security: [], summary: 'A visual-mode screenshot, by the signed URL the result gave (no key needed)',
          parameters: [
            { name: 'file', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'expires', in: 'query', required: true, schema: { type: 'integer' } },
            { name: 'sig', in: 'query', required: true, schema: { type: 'string' } },
          ],
          responses: { 200: { description: 'PNG', content: { 'image/png': {} } }, 404: { description: 'unknown, tampered or expired' } },
        },
      },
      '/healthz': {
        get: { operationId: 'health', security: [], summary: 'Liveness', responses: { 200: { description: 'serving' } } },
      },
      '/openapi.json': {
        get: { operationId: 'openapi', security: [], summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } },
      },
      '/metrics': {
        get: {
          operationId: 'metrics', summary: 'Prometheus metrics: requests, latency, credits, refusals, browser and extraction pools',
          description: 'With --metrics-token, send it as a bearer token; without one, only callers on loopback are answered.',
          security: [{ metricsToken: [] }, {}],
          responses: {
            200: { description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } },
            401: { description: 'unauthorized: a token is set and the request does not carry it', content: jsonContent('SnapshotError') },
            403: { description: 'forbidden: no token is set and the caller is not on loopback', content: jsonContent('SnapshotError') },
          },
        },
      },
      '/': {
        get: { operationId: 'playground', security: [], summary: 'The playground: run observe and snapshot from a form and see the result drawn', responses: { 200: { description: 'HTML', content: { 'text/html': {} } } } },
      },
      '/docs': {
        get: { operationId: 'docs', security: [], summary: 'This reference (Swagger UI reading /openapi.json)', responses: { 200: { description: 'HTML', content: { 'text/html': {} } } } },
      },
    },
  };
}
