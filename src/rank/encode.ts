// The column encoder: validates a snapshot request, flattens frames, interns strings to ints and writes
// numeric columns straight into the core's buffers. No per-element objects cross into the core.
import { Compile } from 'typebox/compile';
import { Buf, F64In, I32In, F64Prev, I32Prev, Param, Flag, Band, Kind, ACTION_LABEL_MAX } from '../../assembly/layout.ts';
import { SnapshotRequest, RawElement, type PreviousElement } from '../schema/snapshot.ts';
import { badRequest, SNAPSHOT_MESSAGES } from '../schema/errors.ts';
import { ROLES, resolveRole, roleCode } from './roles.ts';
import { parseColor } from './color.ts';
import { normalizeText, accessibleName, stateKey, isDisabled, isTrue, hasNonSpace } from './text.ts';
import type { CoreBackend } from './backend.ts';
import { goalTokens, goalCount, readyGoal, writeGoal } from './encode-goal.ts';
import { namesPurchase, namesPurchaseLink, leadsWithPurchase, namesSignIn, namesSearch, asksForQuery, namesSubmit, namesStart } from './action-words.ts';
import { CONSENT, DISMISS_ANY } from '../collect/overlay-words.ts';

export const DEFAULT_LIMIT = 50;
export const DEFAULT_LIMIT_CAP = 100;
/** Most raw elements one request may carry (frames included). */
export const MAX_ELEMENTS = 100_000;
/** Deepest iframe_content nesting that is flattened. */
export const MAX_FRAME_DEPTH = 8;
/** Coordinates are clamped to ±COORD_LIMIT px so every later computation stays finite and exact. */
const COORD_LIMIT = 1e7;
const Z_LIMIT = 2147483647;
/** Longest list (list_length) read: more items than any page lists; beyond it the triple is ignored. */
const LIST_MAX = 1_000_000;

const checkRequest = Compile(SnapshotRequest);
const checkElement = Compile(RawElement);

export interface EncodeOptions {
  /** Server cap for options.limit (default 100). */
  limitCap?: number;
  /** Have the core write its rerank features (training). */
  emitFeatures?: boolean;
  /** The body already passed validateRequest (the server checks before it holds credits). */
  validated?: boolean;
}

/** What the decoder needs besides the core's outputs. */
export interface Encoded {
  request: SnapshotRequest;
  elements: RawElement[];
  previous: PreviousElement[];
  roles: Int32Array;
  prevRoles: Int32Array;
  limit: number;
  interactiveCount: number;
  /** Visible area of canvas/embed/object elements in the viewport, px² (for requires_vision). */
  canvasArea: number;
  /** What the goal asks for, for `ml_rerank.tags`: "type", "press", "open", "choose" joined by "+". */
  goalIntent: string;
  goalOrdinal: number;
}

function pathOf(pointer: string): string {
  // "/raw_elements/3/rect/x" -> "raw_elements[3].rect.x"
  return pointer.split('/').filter(Boolean).reduce((path, part) => /^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part, '');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value;
}

function valueAt(root: unknown, pointer: string): unknown {
  let v: any = root;
  for (const part of pointer.split('/').filter(Boolean)) v = v == null ? undefined : v[part];
  return v;
}

/** Turns the first schema error into a SPEC message naming the field (and element index). */
function requestError(body: unknown, prefix = ''): Error {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return badRequest(`${SNAPSHOT_MESSAGES.invalidRequest}: the body must be a JSON object`);
  }
  const [first] = checkRequest.Errors(body);
  if (!first) return badRequest(SNAPSHOT_MESSAGES.invalidRequest);
  let pointer = first.instancePath;
  if (first.keyword === 'required') {
    const missing = (first.params as { requiredProperties?: string[] }).requiredProperties ?? [];
    const field = pathOf(`${pointer}/${missing[0] ?? ''}`);
    if (pointer === '') return badRequest(`${SNAPSHOT_MESSAGES.missingField}: ${field}`, field);
    pointer = `${pointer}/${missing[0] ?? ''}`;
  }
  const path = prefix + pathOf(pointer);
  const value = valueAt(body, pointer);
  const detail = first.keyword === 'required' ? 'is required'
    : first.keyword === 'maxLength' && typeof value === 'string' ? `must be at most ${(first.params as { limit?: number }).limit} characters (got ${value.length})`
      : `${first.message} (got ${describe(value)})`;
  if (path.startsWith('viewport')) return badRequest(`${SNAPSHOT_MESSAGES.invalidViewport}: ${path} ${detail}`, path);
  if (path.startsWith('raw_elements')) return badRequest(`${SNAPSHOT_MESSAGES.invalidElement}: ${path} ${detail}`, path);
  return badRequest(`${SNAPSHOT_MESSAGES.invalidRequest}: ${path} ${detail}`, path);
}

function elementError(element: unknown, path: string): Error {
  if (element === null || typeof element !== 'object' || Array.isArray(element)) {
    return badRequest(`${SNAPSHOT_MESSAGES.invalidElement}: ${path} must be an object (got ${describe(element)})`, path);
  }
  const [first] = checkElement.Errors(element);
  let pointer = first?.instancePath ?? '';
  let detail = first ? `${first.message} (got ${describe(valueAt(element, pointer))})` : 'is invalid';
  if (first?.keyword === 'required') {
    pointer = `${pointer}/${(first.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? ''}`;
    detail = 'is required';
  }
  const full = `${path}${pointer ? '.' + pathOf(pointer) : ''}`;
  return badRequest(`${SNAPSHOT_MESSAGES.invalidElement}: ${full} ${detail}`, full);
}

/**
 * Validates the request; returns it typed. Throws a bad_request SightlineError with a SPEC message.
 * `typedElements`: the caller knows every raw element fits RawElement (the columnar decoder checked each
 * cell), so the schema checks the request around them; any error found is worded by the full check.
 */
export function validateRequest(body: unknown, typedElements = false): SnapshotRequest {
  if (typedElements && Array.isArray((body as { raw_elements?: unknown }).raw_elements)) {
    try {
      validateRequest({ ...(body as object), raw_elements: [] });
    } catch {
      return validateRequest(body); // throws the full check's error
    }
    return body as SnapshotRequest;
  }
  if (!checkRequest.Check(body)) throw requestError(body);
  const request = body as SnapshotRequest;
  const vp = request.viewport;
  if (vp && !(vp.width > 0 && vp.height > 0)) {
    throw badRequest(`${SNAPSHOT_MESSAGES.invalidViewport}: width and height must be positive numbers`, 'viewport');
  }
  const limit = request.options?.limit;
  if (limit != null && !(limit >= 1)) throw badRequest(`${SNAPSHOT_MESSAGES.invalidRequest}: options.limit must be at least 1`, 'options.limit');
  const minArea = request.options?.filter?.min_area;
  if (minArea != null && !(minArea >= 0)) throw badRequest(`${SNAPSHOT_MESSAGES.invalidRequest}: options.filter.min_area must be a non-negative number`, 'options.filter.min_area');
  if (request.options?.elements === false && request.options.format !== 'text') {
    throw badRequest(`${SNAPSHOT_MESSAGES.invalidRequest}: options.elements false needs options.format "text" (the result would be empty)`, 'options.elements');
  }
  return request;
}

/** The request's elements with frame contents flattened after their frame, depth-first. */
function flatten(request: SnapshotRequest): RawElement[] {
  const top = request.raw_elements;
  if (top.length > MAX_ELEMENTS) throw badRequest(`${SNAPSHOT_MESSAGES.invalidElement}: raw_elements holds ${top.length} elements, at most ${MAX_ELEMENTS} are accepted`, 'raw_elements');
  if (!top.some((e) => e.iframe_content != null && e.iframe_content.length > 0)) return top;
  const out: RawElement[] = [];
  const visit = (list: readonly unknown[], path: string, depth: number, validated: boolean) => {
    for (let k = 0; k < list.length; k++) {
      const e = list[k];
      const here = `${path}[${k}]`;
      if (!validated && !checkElement.Check(e)) throw elementError(e, here);
      const el = e as RawElement;
      out.push(el);
      if (out.length > MAX_ELEMENTS) throw badRequest(`${SNAPSHOT_MESSAGES.invalidElement}: more than ${MAX_ELEMENTS} elements including frames`, 'raw_elements');
      if (el.iframe_content && el.iframe_content.length > 0) {
        if (depth >= MAX_FRAME_DEPTH) throw badRequest(`${SNAPSHOT_MESSAGES.invalidElement}: ${here}.iframe_content is nested deeper than ${MAX_FRAME_DEPTH} frames`, `${here}.iframe_content`);
        visit(el.iframe_content, `${here}.iframe_content`, depth + 1, false);
      }
    }
  };
  visit(top, 'raw_elements', 0, true);
  return out;
}

const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);
const coord = (v: number) => clamp(v, -COORD_LIMIT, COORD_LIMIT);
const size = (v: number) => clamp(v, 0, COORD_LIMIT);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function zIndex(v: unknown): number {
  if (v === 'auto') return 0; // most elements' computed z-index: spares parseInt its NaN
  const n = typeof v === 'number' ? v : typeof v === 'string' ? parseInt(v, 10) : NaN;
  return Number.isFinite(n) ? Math.trunc(clamp(n, -Z_LIMIT, Z_LIMIT)) : 0;
}

const PRIMARY_CLASS = /(^|[\s_-])(primary|cta|call-to-action|btn-main|main-action)($|[\s_-])/i;
/** Section labels of the parts after a page's content: comments, replies, newsletters, footers. */
const AFTERMATTER_SECTION = /\b(comments?|repl(y|ies)|respond|newsletter|footer|subscribe|leave a)\b/i;
const HEADING_ROLE = roleCode('heading');

const GROUP_KEY = /^x(-?\d{1,9})-h(-?\d{1,9})$/;
/** The collector's group key "x<int>-h<int>" as its two numbers, written to out[a] and out[b]; false (nothing
 *  written) for any other key, which is then opaque. */
function readGroupKey(key: string, out: Int32Array, a: number, b: number): boolean {
  const m = GROUP_KEY.exec(key);
  if (m) { out[a] = Number(m[1]); out[b] = Number(m[2]); }
  return m !== null;
}

/** Interns strings to small ints (0 is the empty string / absent). */
class Interner {
  private readonly ids = new Map<string, number>([['', 0]]);
  readonly strings: string[] = [''];
  id(s: string | null | undefined): number {
    if (!s) return 0;
    let id = this.ids.get(s);
    if (id === undefined) { id = this.strings.length; this.ids.set(s, id); this.strings.push(s); }
    return id;
  }
}

function previousRole(p: PreviousElement): number {
  if (p.role) { const code = roleCode(p.role); if (code >= 0) return code; }
  const a = p.attributes;
  return resolveRole((p.tag ?? '').toLowerCase(), a?.input_type ?? a?.type_ ?? '', a?.role ?? '', a?.inferred_role ?? '', !!a?.href);
}

const identityKey = (role: number, text: string | null | undefined, name: string) => `${role}\u0000${normalizeText(text)}\u0000${normalizeText(name)}`;

/** Validates `body`, fills the core's buffers, and returns what the decoder needs. */
export function encode(body: unknown, core: CoreBackend, options: EncodeOptions = {}): Encoded {
  const request = options.validated ? body as SnapshotRequest : validateRequest(body);
  const elements = flatten(request);
  const previous = request.options?.previous ?? [];
  const n = elements.length;
  const nPrev = previous.length;
  const opts = request.options;
  const cap = Math.max(1, Math.floor(options.limitCap ?? DEFAULT_LIMIT_CAP));
  const limit = Math.min(Math.floor(opts?.limit ?? DEFAULT_LIMIT), cap);

  // Tags in allowed_tags get ids 1..k; every other tag shares id 0, which is never allowed.
  const allowedTags = opts?.filter?.allowed_tags;
  const tagIds = new Map<string, number>();
  allowedTags?.forEach((t) => { const k = t.toLowerCase(); if (!tagIds.has(k)) tagIds.set(k, tagIds.size + 1); });
  const allowedRoles = opts?.filter?.allowed_roles;

  const goal = request.goal?.trim() ? goalTokens(elements, request.goal) : null;
  if (goal) readyGoal(core, goal);
  core.prepare(n, nPrev, ROLES.length, tagIds.size + 1, goal?.total ?? 0, goal ? goalCount(goal) : 0, options.emitFeatures && goal ? 1 : 0);
  const f = core.f64(Buf.IN_F64);
  const c = core.i32(Buf.IN_I32);
  const params = core.f64(Buf.PARAMS);

  const diffing = nPrev > 0;
  const ids = new Map<number, number>();
  const idOf = (id: number) => { let v = ids.get(id); if (v === undefined) { v = ids.size; ids.set(id, v); } return v; };
  const keys = new Interner();
  const groupKeys = new Interner();
  const listIds = new Interner();
  // Each distinct group key is read once: the first element that holds it, or -1 when it is opaque (a page's
  // elements share few keys: 84 in the bench's 1,000 elements).
  const keyFirst = new Map<string, number>();
  const colors = new Map<string, number>();
  const roles = new Int32Array(n);
  const prevRoles = new Int32Array(nPrev);
  let interactiveCount = 0;
  let canvasArea = 0;
  const textKeys = new Map<string, number>();

  for (let i = 0; i < n; i++) {
    const e = elements[i];
    const r = e.rect;
    const a = e.attributes;
    const s = e.styles;
    const tag = e.tag ? e.tag.toLowerCase() : '';
    const inputType = (a?.input_type ?? a?.type_ ?? '').toLowerCase();
    const role = resolveRole(tag, inputType, a?.role ?? '', a?.inferred_role ?? '', !!a?.href);
    roles[i] = role;
    const band = ROLES[role].band;
    if (band > 0) interactiveCount++;
    if ((tag === 'canvas' || tag === 'embed' || tag === 'object') && e.in_viewport !== false) canvasArea += size(r.width) * size(r.height);

    f[F64In.X * n + i] = coord(r.x);
    f[F64In.Y * n + i] = coord(r.y);
    f[F64In.W * n + i] = size(r.width);
    f[F64In.H * n + i] = size(r.height);
    f[F64In.SCROLL_Y * n + i] = finite(e.scroll_y) ? coord(e.scroll_y) : 0;

    let flags = 0;
    if (finite(e.center_x) && finite(e.center_y)) {
      flags |= Flag.CENTER_SENT;
      f[F64In.CENTER_X * n + i] = coord(e.center_x);
      f[F64In.CENTER_Y * n + i] = coord(e.center_y);
    }
    if (finite(e.doc_y)) { flags |= Flag.DOC_Y_SENT; f[F64In.DOC_Y * n + i] = coord(e.doc_y); }
    if (typeof e.in_viewport === 'boolean') flags |= Flag.VIEWPORT_SENT | (e.in_viewport ? Flag.IN_VIEWPORT : 0);
    if (typeof e.is_occluded === 'boolean') flags |= Flag.OCCLUDED_SENT | (e.is_occluded ? Flag.OCCLUDED : 0);
    if (isDisabled(a)) flags |= Flag.DISABLED;
    if (s) {
      if (s.cursor === 'pointer') flags |= Flag.CURSOR_POINTER;
      const opacity = s.opacity == null ? 1 : Number(s.opacity);
      if (s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse' || opacity === 0) flags |= Flag.HIDDEN;
    }
    if (tag === 'input' && inputType === 'hidden') flags |= Flag.HIDDEN;
    if (isTrue(a?.a11y_hidden)) flags |= Flag.A11Y_HIDDEN;
    if (band > 0 && (inputType === 'submit' || (a?.class && PRIMARY_CLASS.test(a.class)))) flags |= Flag.PRIMARY_HINT;
    // Submits a form (the core's pageFormSubmit): a <button>'s input_type is its tag, its own type (submit by
    // default, as the DOM reports it) is in type_.
    const text = e.text || accessibleName(a);
    if (band > 0 && (inputType === 'submit' || (tag === 'input' && inputType === 'image')
      || (tag === 'button' && String(a?.type_ ?? '').toLowerCase() === 'submit'))) flags |= Flag.SUBMIT;
    // A plain button (`type=button`) named "Submit" / "Send" submits its form by script (issue 38, fifth round).
    else if (band > 0 && ((tag === 'input' && inputType === 'button') || (tag === 'button' && String(a?.type_ ?? '').toLowerCase() === 'button'))
      && namesSubmit(text)) flags |= Flag.SUBMIT;
    if (hasNonSpace(text)) flags |= Flag.HAS_TEXT;
    if (role === HEADING_ROLE) flags |= Flag.HEADING;
    if (tag === 'details') flags |= Flag.DISCLOSURE;
    // Action words: only in a label the core can promote (namesAction in score.ts: a field, or a link or control
    // named in at most ACTION_LABEL_MAX chars), which spares the phrase patterns a page's long container texts.
    if (band > 0 && (band === Band.INPUT || text.length <= ACTION_LABEL_MAX)) {
      // Sign in also by the accessible name when the page gives one besides the text (a header link showing
      // "myUCLAhealth" is named "myUCLAhealth Login."). Not search: names such as "Cancel Search" and "Close
      // search" label the search form's own toggles.
      // The name is read only when the text said nothing of signing in (most elements never get there).
      // A text field's words say what to type, not what it does: a search box named after a shop whose name
      // holds "buy" is the search, not a purchase (dev3 fold b, eighth round).
      if (ROLES[role].kind !== Kind.TEXT_INPUT && (band === Band.LINK ? namesPurchaseLink(text) : namesPurchase(text))) flags |= Flag.PURCHASE;
      else if (inputType !== 'search' && (namesSignIn(text) || (e.text && namesSignIn(accessibleName(a))))) flags |= Flag.SIGN_IN;
      else if (inputType === 'search' || namesSearch(text) || (tag === 'input' && (inputType === '' || inputType === 'text')
        && (asksForQuery(text) || asksForQuery((a as { placeholder?: string | null } | undefined)?.placeholder ?? '')))) flags |= Flag.SEARCH;
      // Starting to use or buy a service ("Get started", "Request a quote"): a service page's purchase (seventh round).
      else if (ROLES[role].kind !== Kind.TEXT_INPUT && namesStart(text)) flags |= Flag.START;
    }
    // A longer link or control label that begins with the purchase words: an add to cart holding its own stock
    // messages ("Dodaj do koszyka Sprawdź dostępność w sklepie Produkt niedostępny"); only its first chars are read.
    else if ((band === Band.LINK || band === Band.CONTROL) && leadsWithPurchase(text.slice(0, ACTION_LABEL_MAX))) flags |= Flag.PURCHASE | Flag.PURCHASE_LEAD;
    if (band > 0 && a?.section && AFTERMATTER_SECTION.test(a.section)) flags |= Flag.AFTERMATTER;
    // Layers over the page: only a control positioned above it (z-index > 0) can be a consent banner's, and
    // only a short label closes, rejects or accepts (the core decides what forms a layer: score.ts).
    const z = zIndex(s?.z_index);
    if (band > 0 && z > 0 && ((a?.section && CONSENT.test(a.section)) || (a?.nearby_text && CONSENT.test(a.nearby_text)) || CONSENT.test(text))) flags |= Flag.CONSENT;
    if (band > 0 && text.length <= ACTION_LABEL_MAX && DISMISS_ANY.test(text.trim())) flags |= Flag.DISMISS;
    // The label as sent (the collector sends it trimmed, spaces collapsed): a span repeating its control's text.
    if (text) { let k = textKeys.get(text); if (k === undefined) { k = textKeys.size + 1; textKeys.set(text, k); } c[I32In.TEXT_KEY * n + i] = k; }
    if (e.group_key) {
      flags |= Flag.GROUP_SENT;
      const key = e.group_key;
      let first = keyFirst.get(key);
      if (first === undefined) { first = readGroupKey(key, c, I32In.GROUP_A * n + i, I32In.GROUP_B * n + i) ? i : -1; keyFirst.set(key, first); }
      else if (first >= 0) { c[I32In.GROUP_A * n + i] = c[I32In.GROUP_A * n + first]; c[I32In.GROUP_B * n + i] = c[I32In.GROUP_B * n + first]; }
      if (first < 0) { flags |= Flag.GROUP_OPAQUE; c[I32In.GROUP_A * n + i] = groupKeys.id(key); }
    }

    // Repeated items the client found (list_id, list_index, list_length): only a consistent triple counts.
    if (finite(e.list_id) && Number.isInteger(e.list_index) && Number.isInteger(e.list_length)
      && e.list_index! >= 1 && e.list_index! <= e.list_length! && e.list_length! <= LIST_MAX) {
      c[I32In.LIST_ID * n + i] = listIds.id(String(e.list_id));
      c[I32In.LIST_INDEX * n + i] = e.list_index!;
      c[I32In.LIST_SIZE * n + i] = e.list_length!;
    }
    c[I32In.ROLE * n + i] = role;
    c[I32In.BAND * n + i] = band;
    c[I32In.KIND * n + i] = ROLES[role].kind;
    c[I32In.TAG * n + i] = allowedTags ? tagIds.get(tag) ?? 0 : 0;
    c[I32In.FLAGS * n + i] = flags;
    c[I32In.Z * n + i] = z;
    const bg = s?.bg_color ?? s?.background_color;
    if (bg) {
      let packed = colors.get(bg);
      if (packed === undefined) { packed = parseColor(bg); colors.set(bg, packed); }
      c[I32In.BG * n + i] = packed;
    }
    c[I32In.TEXT_LEN * n + i] = text.length;
    if (diffing) {
      c[I32In.KEY_ID * n + i] = idOf(e.id);
      c[I32In.KEY_IDENT * n + i] = keys.id(identityKey(role, e.text, accessibleName(a)));
      c[I32In.KEY_STATE * n + i] = keys.id(stateKey(a?.value, a?.checked, isDisabled(a), a?.aria_checked, a?.aria_expanded));
    }
  }

  if (diffing) {
    const pf = core.f64(Buf.PREV_F64);
    const pc = core.i32(Buf.PREV_I32);
    for (let p = 0; p < nPrev; p++) {
      const e = previous[p];
      const r = e.rect ?? e.bbox ?? { x: 0, y: 0, width: 0, height: 0 };
      const role = previousRole(e);
      prevRoles[p] = role;
      const a = e.attributes;
      pf[F64Prev.X * nPrev + p] = coord(r.x);
      pf[F64Prev.Y * nPrev + p] = coord(r.y);
      pf[F64Prev.W * nPrev + p] = size(r.width);
      pf[F64Prev.H * nPrev + p] = size(r.height);
      // The scroll it was seen at: a raw element's scroll_y, or a result element's doc_y less its center_y.
      const scroll = finite(e.scroll_y) ? e.scroll_y : finite(e.doc_y) && finite(e.center_y) ? e.doc_y - e.center_y : 0;
      pf[F64Prev.SCROLL_Y * nPrev + p] = coord(scroll);
      pc[I32Prev.KEY_ID * nPrev + p] = idOf(e.id);
      pc[I32Prev.ROLE * nPrev + p] = role;
      pc[I32Prev.KEY_IDENT * nPrev + p] = keys.id(identityKey(role, e.text, e.name ?? accessibleName(a)));
      pc[I32Prev.KEY_STATE * nPrev + p] = keys.id(stateKey(e.value ?? a?.value, e.checked ?? a?.checked,
        e.disabled ?? isDisabled(a), e.aria_checked ?? a?.aria_checked, e.aria_expanded ?? a?.aria_expanded));
    }
  }

  if (allowedRoles) {
    const allow = core.i32(Buf.ROLE_ALLOW);
    for (const name of allowedRoles) { const code = roleCode(name.toLowerCase()); if (code >= 0) allow[code] = 1; }
  }
  if (allowedTags) {
    const allow = core.i32(Buf.TAG_ALLOW);
    for (const id of tagIds.values()) allow[id] = 1;
  }

  params[Param.VIEWPORT_W] = request.viewport?.width ?? 0;
  params[Param.VIEWPORT_H] = request.viewport?.height ?? 0;
  params[Param.LIMIT] = limit;
  params[Param.MIN_AREA] = opts?.filter?.min_area ?? 0;
  params[Param.FILTER_ROLES] = allowedRoles ? 1 : 0;
  params[Param.FILTER_TAGS] = allowedTags ? 1 : 0;
  params[Param.HAS_PREVIOUS] = diffing ? 1 : 0;
  if (goal) writeGoal(core, n, goal);

  const intent = goal ? ['type', 'press', 'open', 'choose'].filter((_, b) => goal.goal.intent & (1 << b)).join('+') : '';
  return { request, elements, previous, roles, prevRoles, limit, interactiveCount, canvasArea, goalIntent: intent, goalOrdinal: goal?.goal.ordinal ?? 0 };
}
