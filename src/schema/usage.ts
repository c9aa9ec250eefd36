// GET /v1/usage: a key's balance and its latest charges and refunds, from the store's ledger (a Sightline
// extension; SPEC has no usage endpoint). The query and the answer, for validation, types and OpenAPI.
import Type, { type Static } from 'typebox';

export const USAGE_DEFAULT_LIMIT = 50;
export const USAGE_MAX_LIMIT = 500;

/** The query string, once its values are read (a `limit` of digits becomes a number). */
export const UsageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: USAGE_MAX_LIMIT, description: `most entries returned, newest first (default ${USAGE_DEFAULT_LIMIT})` })),
  cursor: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'next_cursor of the previous page: entries older than those it showed' })),
}, { additionalProperties: false });
export type UsageQuery = Static<typeof UsageQuery>;

export const UsageEntry = Type.Object({
  type: Type.Union([Type.Literal('charge'), Type.Literal('refund')], {
    description: 'charge: a request\'s held credits were spent (it succeeded); refund: they were given back (it failed, passed its deadline, its client left, or its process died)',
  }),
  credits: Type.Integer({ minimum: 0, description: 'charge: the credits spent; refund: the credits given back' }),
  request_id: Type.Union([Type.String(), Type.Null()], { description: 'the x-request-id of the request' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'refunds: why (deadline, client_closed, expired, or the error_code); null for charges' }),
  time: Type.String({ format: 'date-time', description: 'when the credits were spent or given back' }),
});
export type UsageEntry = Static<typeof UsageEntry>;

export const UsageResponse = Type.Object({
  status: Type.Literal('success'),
  key: Type.String({ description: 'the key\'s shown prefix' }),
  balance: Type.Object({
    available: Type.Integer({ description: 'credits a request can hold now' }),
    held: Type.Integer({ description: 'credits held by requests still running' }),
  }),
  entries: Type.Array(UsageEntry, { description: 'newest first' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as ?cursor= for older entries; null when there are none' }),
});
export type UsageResponse = Static<typeof UsageResponse>;
