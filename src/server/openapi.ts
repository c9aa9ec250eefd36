// GET /openapi.json, generated from the same typebox schemas that validate requests (typebox schemas
// are JSON Schema, which OpenAPI 3.1 takes as is).
import { ERRORS, SNAPSHOT_MESSAGES } from '../schema/errors.ts';
import { SnapshotRequest, SnapshotResponse, SnapshotErrorBody } from '../schema/snapshot.ts';
import type { ServerConfig } from './config.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (name: string) => ({ 'application/json': { schema: ref(name) } });
/** Drops typebox's symbol keys and anything else JSON cannot carry. */
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema));

const SNAPSHOT_ERRORS = ['bad_request', 'unauthorized', 'insufficient_credits', 'account_inactive', 'payload_too_large', 'request_timeout', 'rate_limited', 'internal_error'] as const;

export function openApiDocument(config: Pick<ServerConfig, 'limitCap' | 'maxBodyBytes' | 'rateLimit'>, version: string): object {
  const errorResponses = Object.fromEntries(SNAPSHOT_ERRORS.map((code) => [String(ERRORS[code].status), {
    description: `${code}: ${ERRORS[code].message}${code === 'bad_request' ? ` (${Object.values(SNAPSHOT_MESSAGES).join('; ')})` : ''}`,
    content: jsonContent('SnapshotError'),
    ...(code === 'rate_limited' ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds until a request is accepted' } } } : {}),
  }]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sightline',
      version,
      description: 'Web observation for AI agents: interactive elements ranked by importance, with coordinates, occlusion and grouping.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } },
      schemas: {
        SnapshotRequest: plain(SnapshotRequest),
        SnapshotResponse: plain(SnapshotResponse),
        SnapshotError: plain(SnapshotErrorBody),
      },
    },
    security: [{ bearer: [] }],
    paths: {
      '/v1/snapshot': {
        post: {
          operationId: 'snapshot',
          summary: 'Rank raw elements collected in the caller\'s browser (1 credit)',
          description: `Elements come back sorted by importance. options.limit defaults to 50, capped at ${config.limitCap}. ` +
            `Bodies up to ${config.maxBodyBytes} bytes. Rate limit per key: ${config.rateLimit.rate}/s, burst ${config.rateLimit.burst}.`,
          requestBody: { required: true, content: jsonContent('SnapshotRequest') },
          responses: {
            200: { description: 'ranked elements', content: jsonContent('SnapshotResponse') },
            ...errorResponses,
          },
        },
      },
      '/healthz': {
        get: { operationId: 'health', security: [], summary: 'Liveness', responses: { 200: { description: 'serving' } } },
      },
      '/openapi.json': {
        get: { operationId: 'openapi', security: [], summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } },
      },
    },
  };
}
