// The /v1/observe contract (SPEC "Observe request", "Observe result" read, map and visual modes,
// observe errors).
import Type, { type Static } from 'typebox';
import { forModes } from './fields.ts';
import { Budgeted, ElementFilter, Goal, Maybe, MaxTokens, MlRerank, ModalGrid, Rect, ResultElements, ResultFormat, ResultText, Viewport } from './snapshot.ts';

/** Observe `options.limit`: default and maximum (DESIGN "Decisions"). */
export const MAP_DEFAULT_LIMIT = 50;
export const MAP_MAX_LIMIT = 500;

/** The modes an observe field applies to (fields.ts reads them: a field sent in another mode is named in `warnings`). */
const READ = ['read'], MAP = ['map'], VISUAL = ['visual'], MAP_VISUAL = ['map', 'visual'];

export const ObserveOptions = Type.Object({
  contentLimit: forModes(READ, Maybe(Type.Integer({ minimum: 1, maximum: 500_000 }))),
  main_content: forModes(READ, Maybe(Type.Boolean())),
  include_links: forModes(READ, Maybe(Type.Boolean({ description: 'read: add `links`, the absolute URL and anchor text of every link in the main content (each URL once; for a PDF, its link annotations)' }))),
  render: forModes(READ, Maybe(Type.Union([Type.Literal('auto'), Type.Literal('always'), Type.Literal('never')], {
    description: 'auto (default): render in Chromium when the fetched HTML is a script shell',
  }))),
  // map and visual
  render_quality: forModes(MAP, Maybe(Type.Union([Type.Literal('performance'), Type.Literal('precision')], {
    description: 'map engine: performance (default; images, media and fonts blocked, DOM ready plus a short quiet window, 2 credits) or precision (full load, network quiet, fonts, lazy content; 10 credits). Visual always uses precision.',
  }))),
  limit: forModes(MAP_VISUAL, Maybe(Type.Integer({ minimum: 1, maximum: MAP_MAX_LIMIT, description: `most elements returned, most important first (default ${MAP_DEFAULT_LIMIT})` }))),
  filter: forModes(MAP_VISUAL, Maybe(ElementFilter)),
  include_visual_cues: forModes(MAP_VISUAL, Maybe(Type.Boolean({ description: 'visual_cues on each element (default true in map, false in visual)' }))),
  include_attributes: forModes(MAP_VISUAL, Maybe(Type.Boolean({ description: 'attributes (type, placeholder, aria_label, name, href, value) on each element (default false in map, true in visual)' }))),
  element_shape: forModes(MAP_VISUAL, Maybe(Type.Union([Type.Literal('common'), Type.Literal('dom')], {
    description: 'common (default): id, role, text, bbox {x, y, width, height}...; dom: uid, tag, selector, bbox {x, y, w, h}, is_visible, z_index, attributes',
  }))),
  screenshot_delivery: forModes(VISUAL, Maybe(Type.Union([Type.Literal('url'), Type.Literal('base64')], { description: 'visual: url (default, expiring) or base64 (inline)' }))),
  annotate: forModes(VISUAL, Maybe(Type.Boolean({ description: 'visual: draw each returned element\'s box and id onto the screenshot (set-of-marks)' }))),
  goal: forModes(MAP_VISUAL, Maybe(Goal('map and visual: what the agent wants to do; the goal rerank puts the elements it needs first (ml_rerank in the result)'))),
  dismiss_overlays: forModes(MAP_VISUAL, Maybe(Type.Boolean({ description: 'map and visual: click the control that closes a consent banner or dialog before collecting (default false)' }))),
  format: forModes(MAP_VISUAL, Maybe(ResultFormat)),
  elements: forModes(MAP_VISUAL, Maybe(ResultElements)),
  max_age_s: forModes(['read', 'map'], Maybe(Type.Integer({ minimum: 0, maximum: 86_400, description: 'read, and map without a goal: answer a stored result of the same request at most this many seconds old (cached: true, cached_at), else load the page and store the result. Same credits as the mode. Never for requests with cookies, headers or storage_state.' }))),
  max_tokens: Maybe(MaxTokens('the result: read, the first whole blocks of content; map and visual, the most important elements, whole and in rank order (counted as the text form with format "text", else as JSON)')),
}, { description: 'Options; a key that does not apply to the chosen mode (x-modes) is ignored and named in `warnings`.' });

/** Most cookies, headers and storage-state origins one request may carry. */
export const MAX_COOKIES = 100;
export const MAX_HEADERS = 20;
export const MAX_ORIGINS = 20;

// Credentials for a logged-in page (docs/decisions.md, "Authenticated observe"): used for this request
// only, never logged, stored or cached. A header or cookie value carries no CR, LF or NUL.
const HeaderValue = Type.String({ maxLength: 8192, pattern: '^[^\\r\\n\\x00]*$' });

export const Cookie = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 256, pattern: '^[!#$%&\'*+\\-.^_`|~0-9A-Za-z]+$' }),
  value: Type.String({ maxLength: 4096, pattern: '^[^\\r\\n\\x00;]*$' }),
  domain: Maybe(Type.String({ minLength: 1, maxLength: 253, pattern: '^\\.?[A-Za-z0-9_.:\\[\\]-]+$', description: 'as in Playwright: "example.com" is that host only, ".example.com" it and its subdomains; default: the URL\'s host' })),
  path: Maybe(Type.String({ maxLength: 1024, pattern: '^/', description: 'default "/"' })),
  secure: Maybe(Type.Boolean({ description: 'sent over https only' })),
  httpOnly: Maybe(Type.Boolean()),
  sameSite: Maybe(Type.Union([Type.Literal('Strict'), Type.Literal('Lax'), Type.Literal('None')])),
  expires: Maybe(Type.Number({ description: 'Unix seconds; -1 or absent: a session cookie. An expired cookie is not sent.' })),
}, { description: 'A cookie, in Playwright\'s shape. Sent only to the host (or domain) it names, on its path.' });

export const StorageState = Type.Object({
  cookies: Maybe(Type.Array(Cookie, { maxItems: MAX_COOKIES })),
  origins: Maybe(Type.Array(Type.Object({
    origin: Type.String({ maxLength: 2048 }),
    localStorage: Type.Array(Type.Object({ name: Type.String({ maxLength: 1024 }), value: Type.String({ maxLength: 65_536 }) }), { maxItems: 200 }),
  }), { maxItems: MAX_ORIGINS })),
}, { description: 'Playwright\'s storage state (context.storageState()): its cookies go with the request as `cookies` do; its localStorage is set for pages of its origin (map, visual, and read when rendered).' });

export const RequestHeaders = Type.Record(Type.String({ pattern: '^[!#$%&\'*+\\-.^_`|~0-9A-Za-z]+$', maxLength: 128 }), HeaderValue, {
  maxProperties: MAX_HEADERS,
  description: 'Extra request headers, sent only to the requested URL\'s origin or its https upgrade (never after a redirect off it, never to third parties the page loads). Allowed: Authorization, Accept-Language, User-Agent, Referer and X-* headers other than X-Forwarded-* and X-Real-IP; any other name (Host, Cookie, hop-by-hop or proxy headers) is a 400.',
});

export const ObserveRequest = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 8192, description: 'a valid http or https URL' }),
  // Another value is 400 invalid_mode (checked before the schema, routes/observe.ts).
  // Like /v1/snapshot's optional fields, these may be sent as null: absent, their default.
  mode: Type.Optional(Type.Union([Type.Literal('read'), Type.Literal('map'), Type.Literal('visual'), Type.Null()], { default: 'read' })),
  format: forModes(READ, Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('text'), Type.Literal('html'), Type.Null()], { default: 'markdown', description: 'read mode\'s output format' }))),
  options: Maybe(ObserveOptions),
  cookies: Maybe(Type.Array(Cookie, { maxItems: MAX_COOKIES, description: 'cookies for a logged-in page (read, map, visual); never stored or logged, and the request is never cached' })),
  headers: Maybe(RequestHeaders),
  storage_state: Maybe(StorageState),
});

export const ReadLink = Type.Object({
  url: Type.String({ description: 'absolute URL (http, https or mailto)' }),
  text: Type.String({ description: 'anchor text (or the link\'s aria-label, title or image alt); may be empty' }),
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
  truncated: Type.Boolean({ description: 'content was cut, by contentLimit or max_tokens' }),
  token_count: Type.Optional(Type.Integer({ minimum: 0, description: 'with options.max_tokens: o200k tokens of content' })),
  warnings: Type.Array(Type.String()),
  redirects: Type.Array(Type.String()),
  rendered: Type.Boolean({ description: 'true when the page was read from Chromium' }),
  cached: Type.Optional(Type.Boolean({ description: 'with options.max_age_s: the result was stored earlier (true) or loaded now and stored (false)' })),
  cached_at: Type.Optional(Type.String({ format: 'date-time', description: 'with cached: true, when the stored result was made' })),
  pages: Type.Optional(Type.Integer({ minimum: 1, description: 'a PDF: its page count (the content is its text as Markdown, text or HTML)' })),
  links: Type.Optional(Type.Array(ReadLink, { description: 'with options.include_links: the links of the main content, in order, each URL once' })),
});

export const VisualCues = Type.Object({
  background_color_name: Type.String(),
  cursor_type: Type.String(),
  is_prominent: Type.Boolean(),
});

export const ElementAttributes = Type.Object({
  type: Type.Optional(Type.String()),
  placeholder: Type.Optional(Type.String()),
  aria_label: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  href: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
});

/** SPEC map element, the common shape. */
export const MapElement = Type.Object({
  id: Type.Integer({ description: '0-based, in result order' }),
  role: Type.String(),
  text: Type.String(),
  bbox: Rect,
  in_viewport: Type.Boolean(),
  is_occluded: Type.Boolean(),
  importance: Type.Integer({ minimum: 0, maximum: 1000 }),
  ml_probability: Type.Optional(Type.Number({ description: 'with options.goal: how likely this is the element the goal needs' })),
  visual_cues: Type.Optional(VisualCues),
  attributes: Type.Optional(ElementAttributes),
});

/** SPEC's variant map element (`options.element_shape: "dom"`). */
export const DomElement = Type.Object({
  uid: Type.String({ description: 'the collector\'s id for the node (stable while the page lives)' }),
  tag: Type.String(),
  selector: Type.String({ description: 'CSS selector that finds the element again in its document (Playwright pierces shadow roots with it)' }),
  frames: Type.Optional(Type.Array(Type.String(), { description: 'for elements inside iframes: selectors of the iframes, outermost first' })),
  bbox: Type.Object({ x: Type.Number(), y: Type.Number(), w: Type.Number(), h: Type.Number() }),
  is_visible: Type.Boolean({ description: 'in the viewport and not covered' }),
  z_index: Type.Number(),
  attributes: Type.Object({ type: Type.Union([Type.String(), Type.Null()]), placeholder: Type.Union([Type.String(), Type.Null()]), aria_label: Type.Union([Type.String(), Type.Null()]) }),
  role: Type.String(),
  text: Type.String(),
  importance: Type.Integer({ minimum: 0, maximum: 1000 }),
});

export const Overlay = Type.Object({
  kind: Type.Union([Type.Literal('consent'), Type.Literal('dialog'), Type.Literal('layer')]),
  bounds: Rect,
  coverage: Type.Number({ description: 'share of the viewport, 0..1' }),
  dismissed: Type.Boolean(),
});

export const MapTimings = Type.Object({
  navigation: Type.Number(), settle: Type.Number(), collection: Type.Number(), ranking: Type.Number(), screenshot: Type.Number(), total: Type.Number(),
}, { description: 'milliseconds spent in each phase' });

export const MapResult = Type.Object({
  status: Type.Literal('success'),
  url: Type.String({ description: 'the processed URL, after redirects' }),
  viewport: Viewport,
  interactable_elements: Type.Union([Type.Array(MapElement), Type.Array(DomElement)]),
  credits_used: Type.Number(),
  credits_remaining: Type.Number(),
  engine: Type.Union([Type.Literal('performance'), Type.Literal('precision')]),
  elements_total: Type.Integer({ description: 'elements found on the page before filter and limit' }),
  modal_detected: Type.Boolean({ description: 'a modal, dialog or consent banner covers part of the page' }),
  modal_grids: Type.Array(ModalGrid),
  overlays: Type.Array(Overlay),
  ml_rerank: Type.Optional(MlRerank),
  warnings: Type.Array(Type.String()),
  timings_ms: MapTimings,
  text: Type.Optional(ResultText),
  token_count: Budgeted.properties.token_count,
  truncated: Budgeted.properties.truncated,
  cached: Type.Optional(Type.Boolean({ description: 'with options.max_age_s (map without a goal): the result was stored earlier (true) or loaded now and stored (false)' })),
  cached_at: Type.Optional(Type.String({ format: 'date-time', description: 'with cached: true, when the stored result was made' })),
});

/** Map with `options.format: "text"` and `options.elements: false`: the text instead of the elements. */
export const MapTextResult = Type.Intersect([Type.Omit(MapResult, ['interactable_elements', 'text']), Type.Object({ text: ResultText })]);

export const Screenshot = Type.Object({
  type: Type.Union([Type.Literal('url'), Type.Literal('base64')]),
  url: Type.Optional(Type.String({ description: 'signed address, valid until expires_at; no API key needed' })),
  data: Type.Optional(Type.String({ description: 'base64 PNG (screenshot_delivery: base64)' })),
  format: Type.Literal('png'),
  size_bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601 UTC: the URL answers 404 after it' })),
  annotated: Type.Boolean(),
});

export const VisualResult = Type.Intersect([MapResult, Type.Object({ screenshot: Screenshot })]);
export const VisualTextResult = Type.Intersect([MapTextResult, Type.Object({ screenshot: Screenshot })]);

export const ObserveErrorBody = Type.Object({
  status: Type.Literal('error'),
  error: Type.String({ description: 'short name: invalid_url, blocked_url, unreachable, timeout, http_error, ...' }),
  error_code: Type.String({ description: 'the short name (the same as `error` here; named as on every route)' }),
  message: Type.String(),
  credits_remaining: Type.Optional(Type.Number()),
});

export type ObserveRequest = Static<typeof ObserveRequest>;
export type Cookie = Static<typeof Cookie>;
export type StorageState = Static<typeof StorageState>;
export type ReadResult = Static<typeof ReadResult>;
export type ObserveErrorBody = Static<typeof ObserveErrorBody>;
export type MapElement = Static<typeof MapElement>;
export type DomElement = Static<typeof DomElement>;
export type MapResult = Static<typeof MapResult>;
export type VisualResult = Static<typeof VisualResult>;
export type MapTextResult = Static<typeof MapTextResult>;
export type VisualTextResult = Static<typeof VisualTextResult>;
export type Screenshot = Static<typeof Screenshot>;
export type MapTimings = Static<typeof MapTimings>;
