// The /v1/observe contract (SPEC "Observe request", "Observe result, read mode", observe errors).
import Type, { type Static } from 'typebox';

export const ObserveOptions = Type.Object({
  contentLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500_000 })),
  main_content: Type.Optional(Type.Boolean()),
  render: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('always'), Type.Literal('never')], {
    description: 'auto (default): render in Chromium when the fetched HTML is a script shell',
  })),
}, { description: 'Read-mode options; keys for other modes are accepted and ignored by read.' });

export const ObserveRequest = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 8192 }),
  mode: Type.Optional(Type.String()),
  format: Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('text'), Type.Literal('html')])),
  options: Type.Optional(ObserveOptions),
});

export const ReadResult = Type.Object({
  status: Type.Literal('success'),
  url: Type.String({ description: 'the processed URL, after redirects' }),
  content: Type.String(),
  title: Type.String(),
  description: Type.String(),
  credits_used: Type.Number(),
  credits_remaining: Type.Number(),
  format: Type.String(),
  truncated: Type.Boolean(),
  warnings: Type.Array(Type.String()),
  redirects: Type.Array(Type.String()),
  rendered: Type.Boolean({ description: 'true when the page was read from Chromium' }),
});

export const ObserveErrorBody = Type.Object({
  status: Type.Literal('error'),
  error: Type.String({ description: 'short name: invalid_url, blocked_url, unreachable, timeout, http_error, ...' }),
  message: Type.String(),
  credits_remaining: Type.Optional(Type.Number()),
});

export type ObserveRequest = Static<typeof ObserveRequest>;
export type ReadResult = Static<typeof ReadResult>;
export type ObserveErrorBody = Static<typeof ObserveErrorBody>;
