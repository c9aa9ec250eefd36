// The /v1/snapshot contract (SPEC "Snapshot raw element", "Snapshot result", "Snapshot element").
// These typebox schemas are the single source for request validation, the TS types, and OpenAPI.
// Lenient where SPEC allows (extra fields accepted, values may be null), strict on wrong types.
import Type, { type Static, type TSchema } from 'typebox';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** An optional field that may also be sent as null (absent: its default). */
export const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** Characters of a goal, on every door: a goal is a sentence or a task; its words and intents are read
 *  over the whole of it (about 70 ms per megabyte), so a megabyte goal would hold a worker for nothing. */
export const GOAL_MAX_CHARS = 1000;
export const Goal = (description?: string) => Type.String({ maxLength: GOAL_MAX_CHARS, ...(description ? { description } : {}) });
/** A flag some clients send as a boolean and others as "true"/"false". */
const Flag = Maybe(Type.Union([Type.Boolean(), Type.String()]));

export const Rect = Type.Object({
  x: Type.Number(),
  y: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
});

export const RawElementStyles = Type.Object({
  z_index: Maybe(Type.Union([Type.String(), Type.Number()])),
  cursor: Maybe(Type.String()),
  display: Maybe(Type.String()),
  visibility: Maybe(Type.String()),
  opacity: Maybe(Type.Union([Type.String(), Type.Number()])),
  bg_color: Maybe(Type.String()),
  background_color: Maybe(Type.String()),
});

export const RawElementAttributes = Type.Object({
  role: Maybe(Type.String()),
  type_: Maybe(Type.String()),
  aria_label: Maybe(Type.String()),
  href: Maybe(Type.String()),
  nearby_text: Maybe(Type.String()),
  name: Maybe(Type.String()),
  input_type: Maybe(Type.String()),
  value: Maybe(Type.String()),
  value_redacted: Flag,
  checked: Flag,
  disabled: Flag,
  aria_checked: Flag,
  aria_disabled: Flag,
  aria_expanded: Flag,
  class: Maybe(Type.String()),
  a11y_hidden: Maybe(Type.Union([Type.Boolean(), Type.String()], { description: 'Sightline extension: "true" when the element or an ancestor is aria-hidden="true" or inert (hidden from the accessibility tree though drawn: a closed menu, an off-canvas panel), as our collector sends it; the rank core sinks such an element below the visible controls.' })),
  inferred_label: Maybe(Type.String()),
  inferred_role: Maybe(Type.String()),
  section: Maybe(Type.String({ description: 'Sightline extension: the label of the part of the page the element sits in (its closest labelled landmark, menu or list, or the heading that opens its section), as our collector sends it; used by the goal rerank ("the second story in Most read"). When absent, the rank core infers it from the headings above the element.' })),
});

export const RawElement = Type.Object({
  id: Type.Number(),
  tag: Maybe(Type.String()),
  rect: Rect,
  styles: Maybe(RawElementStyles),
  attributes: Maybe(RawElementAttributes),
  text: Maybe(Type.String()),
  in_viewport: Maybe(Type.Boolean()),
  is_occluded: Maybe(Type.Boolean()),
  /** Elements of frames inside this one, in top-viewport coordinates; flattened into the list. */
  iframe_content: Maybe(Type.Array(Type.Unknown())),
  scroll_y: Maybe(Type.Number()),
  center_x: Maybe(Type.Number()),
  center_y: Maybe(Type.Number()),
  doc_y: Maybe(Type.Number()),
  group_key: Maybe(Type.String()),
  list_id: Maybe(Type.Number({ description: 'Sightline extension: the list of repeated items (cards, result rows, menu items: siblings of one shape, at least 3) the element sits in, as our collector sends it; elements of one item share list_id and list_index. Used by the goal rerank for positions ("the third product"); when absent, the rank core counts positions from geometry.' })),
  list_index: Maybe(Type.Number({ description: 'Sightline extension, with list_id: the 1-based place of the element\'s item in its list, in document order.' })),
  list_length: Maybe(Type.Number({ description: 'Sightline extension, with list_id: how many items the list holds. An inconsistent triple (index not within 1..length) is ignored.' })),
}, { description: 'An element as collected in the browser. Extra fields are accepted.' });

/** An element of an earlier snapshot, for `options.previous`: a raw element or a result element. */
export const PreviousElement = Type.Object({
  id: Type.Number(),
  tag: Maybe(Type.String()),
  role: Maybe(Type.String()),
  text: Maybe(Type.String()),
  name: Maybe(Type.String()),
  value: Maybe(Type.String()),
  checked: Flag,
  disabled: Flag,
  aria_checked: Flag,
  aria_expanded: Flag,
  rect: Type.Optional(Rect),
  bbox: Type.Optional(Rect),
  /** The page's scroll when it was seen (a raw element's), or doc_y and center_y (a result element's): a
   *  box that only scrolled is not MOVED. */
  scroll_y: Maybe(Type.Number()),
  doc_y: Maybe(Type.Number()),
  center_y: Maybe(Type.Number()),
  attributes: Maybe(RawElementAttributes),
});

export const Viewport = Type.Object({ width: Type.Number(), height: Type.Number() });

export const ElementFilter = Type.Object({
  min_area: Maybe(Type.Number({ description: 'smallest bbox area kept, in px² (width × height); not negative' })),
  allowed_roles: Maybe(Type.Array(Type.String())),
  allowed_tags: Maybe(Type.Array(Type.String())),
});

/** `options.format` on /v1/snapshot and observe map/visual (a Sightline extension of SPEC's options). */
export const ResultFormat = Type.Union([Type.Literal('json'), Type.Literal('text')], {
  description: 'json (default): elements only; text: the result also carries `text`, one line per element for a model to read (docs/prompt-format.md)',
});

/** `options.max_tokens`: a budget in o200k tokens for what the result returns (docs/decisions.md, "Token budgets"). */
export const MAX_TOKENS_LIMIT = 1_000_000;
export const MaxTokens = (what: string) => Type.Integer({ minimum: 1, maximum: MAX_TOKENS_LIMIT, description: `at most this many o200k tokens (GPT-4o's tokenizer) of ${what}; the result reports token_count and truncated` });
/** What a budgeted result reports: the tokens of what the budget governs, and whether anything was left out for it. */
export const Budgeted = Type.Object({
  token_count: Type.Optional(Type.Integer({ minimum: 0, description: 'with options.max_tokens: o200k tokens of what the budget governs (the text form with format "text", else the elements as JSON; read: content)' })),
  truncated: Type.Optional(Type.Boolean({ description: 'with options.max_tokens: elements (or content) were left out to fit the budget' })),
});

/** `options.elements`: with format "text", false leaves the JSON elements out. */
export const ResultElements = Type.Boolean({ description: 'false (with format "text"): leave the JSON elements out; default true' });

export const SnapshotOptions = Type.Object({
  limit: Maybe(Type.Number({ description: 'Maximum elements returned; default 50, capped by the server (default cap 100); at least 1, a fraction rounded down.' })),
  filter: Maybe(ElementFilter),
  previous: Maybe(Type.Array(PreviousElement, { description: 'Elements of the previous snapshot: sets diff_status.' })),
  format: Maybe(ResultFormat),
  elements: Maybe(ResultElements),
  max_tokens: Maybe(MaxTokens('the elements: the most important that fit, whole and in rank order (counted as the text form with format "text", else as JSON)')),
});

export const ClientMetrics = Type.Object({
  ready_state: Maybe(Type.String()),
  quiet_ms: Maybe(Type.Number()),
  node_count: Maybe(Type.Number()),
});

export const CaptchaEvidence = Type.Object({
  text_hits: Maybe(Type.Array(Type.String())),
  selector_hits: Maybe(Type.Array(Type.String())),
  iframe_src_hits: Maybe(Type.Array(Type.String())),
  url_hits: Maybe(Type.Array(Type.String())),
});

export const Captcha = Type.Object({
  detected: Maybe(Type.Boolean()),
  confidence: Maybe(Type.Number()),
  provider_hint: Maybe(Type.String()),
  evidence: Maybe(CaptchaEvidence),
});

export const ClientDiagnostics = Type.Object({ captcha: Maybe(Captcha) });

export const SnapshotRequest = Type.Object({
  url: Type.String(),
  viewport: Maybe(Viewport),
  raw_elements: Type.Array(RawElement),
  goal: Maybe(Goal('what the agent wants to do on the page; the goal rerank puts the elements it needs first (ml_rerank in the result)')),
  options: Maybe(SnapshotOptions),
  client_metrics: Maybe(ClientMetrics),
  client_diagnostics: Maybe(ClientDiagnostics),
});

const BBox = Rect;

export const VisualCues = Type.Object({
  is_primary: Type.Boolean(),
  is_clickable: Type.Boolean(),
  background_color_name: Type.String(),
});

export const DiffStatus = Type.Union([
  Type.Literal('ADDED'), Type.Literal('REMOVED'), Type.Literal('MODIFIED'), Type.Literal('MOVED'),
]);

export const SnapshotElement = Type.Object({
  id: Type.Number(),
  role: Type.String(),
  text: Type.String(),
  importance: Type.Integer({ minimum: 0, maximum: 1000 }),
  bbox: BBox,
  visual_cues: VisualCues,
  in_viewport: Type.Boolean(),
  is_occluded: Type.Boolean(),
  z_index: Type.Number(),
  // rerank
  fused_rank_index: Maybe(Type.Number()),
  heuristic_index: Maybe(Type.Number()),
  ml_probability: Maybe(Type.Number()),
  ml_score: Maybe(Type.Number()),
  // layout
  center_x: Maybe(Type.Number()),
  center_y: Maybe(Type.Number()),
  doc_y: Maybe(Type.Number()),
  group_key: Maybe(Type.String()),
  group_index: Maybe(Type.Number()),
  in_dominant_group: Maybe(Type.Boolean()),
  // state
  name: Maybe(Type.String()),
  value: Maybe(Type.String()),
  input_type: Maybe(Type.String()),
  value_redacted: Maybe(Type.Boolean()),
  checked: Maybe(Type.Boolean()),
  disabled: Maybe(Type.Boolean()),
  expanded: Maybe(Type.Boolean()),
  aria_checked: Maybe(Type.String()),
  aria_disabled: Maybe(Type.String()),
  aria_expanded: Maybe(Type.String()),
  // additional
  href: Maybe(Type.String()),
  nearby_text: Maybe(Type.String()),
  diff_status: Maybe(DiffStatus),
});

export const ModalGrid = Type.Object({
  bounds: BBox,
  z_index: Type.Number(),
  viewport_coverage: Type.Number(),
  blocks_interaction: Type.Boolean(),
});

export const MlRerank = Type.Object({
  enabled: Type.Boolean(),
  applied: Type.Boolean(),
  reason: Type.String(),
  candidate_count: Type.Number(),
  top_probability: Type.Number(),
  min_confidence: Type.Number(),
  is_high_confidence: Type.Boolean(),
  tags: Type.Array(Type.String()),
  error: Nullable(Type.String()),
});

export const Diagnostics = Type.Object({
  confidence: Type.Number(),
  reasons: Type.Array(Type.String()),
  metrics: Type.Object({
    ready_state: Nullable(Type.String()),
    quiet_ms: Nullable(Type.Number()),
    node_count: Nullable(Type.Number()),
    interactive_count: Type.Number(),
    raw_elements_count: Type.Number(),
  }),
  captcha: Nullable(Captcha),
  requires_vision: Nullable(Type.Boolean()),
  requires_vision_reason: Nullable(Type.String()),
});

/** What `rank()` returns: the SPEC snapshot result without the server's `credits_*` fields. */
export const RankResult = Type.Object({
  status: Type.Literal('success'),
  url: Type.String(),
  timestamp: Type.String({ format: 'date-time', description: 'server processing time, ISO 8601 UTC' }),
  viewport: Viewport,
  elements: Type.Array(SnapshotElement),
  dominant_group_key: Nullable(Type.String()),
  ml_rerank: Nullable(MlRerank),
  diagnostics: Nullable(Diagnostics),
  modal_detected: Nullable(Type.Boolean()),
  modal_grids: Nullable(Type.Array(ModalGrid)),
  error: Nullable(Type.String()),
});

/** The result as text (`options.format: "text"`): a header line, then one line per element. */
export const ResultText = Type.String({ description: 'with options.format "text": the compact form, one line per element (docs/prompt-format.md)' });

const Cost = Type.Object({
  credits_used: Type.Number(),
  credits_remaining: Type.Number(),
});

/** Request fields the server did not read (unknown, misplaced): present only when there are some. */
export const RequestWarnings = Type.Array(Type.String(), { description: 'fields of the request that were ignored (unknown, or not where the schema reads them), each with where it belongs; present only when there are some' });

/** The /v1/snapshot success body: the rank result plus what the request cost. */
export const SnapshotResponse = Type.Intersect([RankResult, Cost, Budgeted, Type.Object({ text: Type.Optional(ResultText), warnings: Type.Optional(RequestWarnings) })]);

/** The /v1/snapshot success body with `options.format: "text"` and `options.elements: false`. */
export const SnapshotTextResponse = Type.Intersect([Type.Omit(RankResult, ['elements']), Cost, Budgeted, Type.Object({ text: ResultText, warnings: Type.Optional(RequestWarnings) })]);

/** The /v1/snapshot error body (SPEC "Errors"). `credits_remaining` is present when the key is known.
 *  Every error body of the API also carries `error_code` and `message` (observe's too), so a client reads
 *  the same two names on every route. */
export const SnapshotErrorBody = Type.Object({
  status: Type.Literal('error'),
  error: Type.String({ description: 'SPEC: the message' }),
  error_code: Type.String(),
  message: Type.String({ description: 'the message (the same as `error` here; named as on every route)' }),
  credits_remaining: Type.Optional(Type.Number()),
});

export type RawElement = Static<typeof RawElement>;
export type PreviousElement = Static<typeof PreviousElement>;
export type SnapshotRequest = Static<typeof SnapshotRequest>;
export type SnapshotElement = Static<typeof SnapshotElement>;
export type ModalGrid = Static<typeof ModalGrid>;
export type MlRerank = Static<typeof MlRerank>;
export type Diagnostics = Static<typeof Diagnostics>;
export type RankResult = Static<typeof RankResult>;
export type SnapshotResponse = Static<typeof SnapshotResponse>;
export type SnapshotTextResponse = Static<typeof SnapshotTextResponse>;
export type ResultFormat = Static<typeof ResultFormat>;
export type SnapshotErrorBody = Static<typeof SnapshotErrorBody>;
export type DiffStatus = Static<typeof DiffStatus>;
