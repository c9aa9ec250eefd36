// The columnar snapshot body (`application/vnd.sightline.columns`): the same request as the SPEC JSON
// body, with the elements' numbers as little-endian typed columns and every string once in a table, so
// the server skips decoding and parsing ~600 KiB of JSON per 1,000 elements. `encodeColumns` (client)
// and `decodeColumns` (server) are exact twins: the decoded request equals JSON.parse(JSON.stringify(r))
// in every field the ranker reads, so it goes through the same validation and gives the same result.
// Layout (docs/decisions.md, "Columnar snapshot body"):
//   "SLC1" | u32 header bytes | u32 n | u32 0 | header JSON (UTF-8), zero-padded to 8 bytes |
//   f64 numbers[numbers] | f64 id[n] x[n] y[n] width[n] height[n] |
//   i32 parent[n] styles[n] attributes[n] iframe_content[n] | i32 column[n] per header field
// header: {"request": the request without raw_elements, "strings": [...], "numbers": count, "fields": [...]}.
// Elements are listed depth-first (a frame's contents right after it), `parent` is the index of the
// element whose iframe_content holds it (-1: raw_elements). A value cell: >= 0 a string of the table,
// -1 absent, -2 null, -3 false, -4 true, <= -16 the number numbers[-16 - cell]. An object cell
// (styles, attributes, iframe_content): -1 absent, -2 null, 0 present.
import { badRequest } from '../schema/errors.ts';

export const COLUMNS_TYPE = 'application/vnd.sightline.columns';
const MAGIC = 0x31434c53; // "SLC1" read as a little-endian u32
const FIXED = 16;
const ABSENT = -1, NULL = -2, FALSE = -3, TRUE = -4, NUMBER = -16;
/** Scalar fields the encoder carries, by where they sit: on the element, in styles, in attributes. Extra
 *  fields the ranker never reads (label_source, position, font_size...) are left out. */
const ELEMENT_FIELDS = ['tag', 'text', 'in_viewport', 'is_occluded', 'scroll_y', 'center_x', 'center_y', 'doc_y', 'group_key',
  'list_id', 'list_index', 'list_length'] as const;
const STYLE_FIELDS = ['z_index', 'cursor', 'display', 'visibility', 'opacity', 'bg_color', 'background_color'] as const;
const ATTRIBUTE_FIELDS = ['role', 'type_', 'aria_label', 'href', 'nearby_text', 'name', 'input_type', 'value', 'value_redacted',
  'checked', 'disabled', 'aria_checked', 'aria_disabled', 'aria_expanded', 'class', 'inferred_label', 'inferred_role', 'section',
  'placeholder', 'a11y_hidden'] as const;
/** What the schema (src/schema/snapshot.ts, RawElement) lets each field hold besides null: a column whose
 *  cells all fit needs no per-element schema check (decodeColumns' `typed`). */
const STR = 1, NUM = 2, BOOL = 4, ANY = 7;
const KINDS: Record<string, number> = {
  tag: STR, text: STR, group_key: STR, in_viewport: BOOL, is_occluded: BOOL, scroll_y: NUM, center_x: NUM, center_y: NUM, doc_y: NUM,
  list_id: NUM, list_index: NUM, list_length: NUM,
  'styles.z_index': STR | NUM, 'styles.opacity': STR | NUM, 'attributes.value_redacted': STR | BOOL, 'attributes.checked': STR | BOOL,
  'attributes.disabled': STR | BOOL, 'attributes.aria_checked': STR | BOOL, 'attributes.aria_disabled': STR | BOOL,
  'attributes.aria_expanded': STR | BOOL, 'attributes.a11y_hidden': STR | BOOL, 'attributes.placeholder': ANY, // an extra field: any value
};
/** Column name -> [where (0 element, 1 styles, 2 attributes), key]. */
const FIELDS = new Map<string, [0 | 1 | 2, string]>([
  ...ELEMENT_FIELDS.map((k) => [k, [0, k]] as [string, [0, string]]),
  ...STYLE_FIELDS.map((k) => [`styles.${k}`, [1, k]] as [string, [1, string]]),
  ...ATTRIBUTE_FIELDS.map((k) => [`attributes.${k}`, [2, k]] as [string, [2, string]]),
]);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const hasToJSON = (v: object) => typeof (v as { toJSON?: unknown }).toJSON === 'function';

/**
 * The columnar body of a snapshot request, or null when the request holds something this format does
 * not carry exactly (a non-object element, a rect that is not four numbers, an object where a field
 * holds a scalar...): send it as JSON then, and the server answers it as before.
 */
export function encodeColumns(request: unknown): Uint8Array | null {
  if (!isObject(request) || hasToJSON(request) || !Array.isArray(request.raw_elements)) return null;
  const flat: Record<string, unknown>[] = [];
  const parents: number[] = [];
  const visit = (list: unknown[], parent: number): boolean => {
    for (const e of list) {
      if (!isObject(e) || hasToJSON(e)) return false;
      const at = flat.length;
      flat.push(e);
      parents.push(parent);
      const frame = e.iframe_content;
      if (Array.isArray(frame)) { if (!visit(frame, at)) return false; } else if (frame !== undefined && frame !== null) return false;
    }
    return true;
  };
  if (!visit(request.raw_elements, -1)) return null;
  const n = flat.length;
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const numbers: number[] = [];
  const cell = (v: unknown): number | null => {
    if (v === undefined) return ABSENT;
    if (v === null) return NULL;
    if (v === true) return TRUE;
    if (v === false) return FALSE;
    if (typeof v === 'string') {
      let id = stringIds.get(v);
      if (id === undefined) { id = strings.length; strings.push(v); stringIds.set(v, id); }
      return id;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return NULL; // as JSON.stringify writes it
      numbers.push(v + 0); // -0 is 0 in JSON
      return NUMBER - (numbers.length - 1);
    }
    return null;
  };
  const objectCell = (v: unknown): number | null => (v === undefined ? ABSENT : v === null ? NULL : isObject(v) && !hasToJSON(v) ? 0 : null);

  const ids = new Float64Array(n), xs = new Float64Array(n), ys = new Float64Array(n), ws = new Float64Array(n), hs = new Float64Array(n);
  const styles = new Int32Array(n), attributes = new Int32Array(n), frames = new Int32Array(n);
  const columns = new Map<string, Int32Array>();
  const column = (name: string) => { let c = columns.get(name); if (!c) { c = new Int32Array(n).fill(ABSENT); columns.set(name, c); } return c; };
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  for (let i = 0; i < n; i++) {
    const e = flat[i];
    const r = e.rect;
    if (!finite(e.id) || !isObject(r) || !finite(r.x) || !finite(r.y) || !finite(r.width) || !finite(r.height)) return null;
    ids[i] = e.id + 0; xs[i] = r.x + 0; ys[i] = r.y + 0; ws[i] = r.width + 0; hs[i] = r.height + 0; // -0 is 0 in JSON
    frames[i] = e.iframe_content === undefined ? ABSENT : e.iframe_content === null ? NULL : 0;
    for (const k of ELEMENT_FIELDS) {
      const c = cell(e[k]);
      if (c === null) return null;
      if (c !== ABSENT) column(k)[i] = c;
    }
    const s = objectCell(e.styles), a = objectCell(e.attributes);
    if (s === null || a === null) return null;
    styles[i] = s; attributes[i] = a;
    if (s === 0) {
      const so = e.styles as Record<string, unknown>;
      for (const k of STYLE_FIELDS) { const c = cell(so[k]); if (c === null) return null; if (c !== ABSENT) column(`styles.${k}`)[i] = c; }
    }
    if (a === 0) {
      const ao = e.attributes as Record<string, unknown>;
      for (const k of ATTRIBUTE_FIELDS) { const c = cell(ao[k]); if (c === null) return null; if (c !== ABSENT) column(`attributes.${k}`)[i] = c; }
    }
  }
  const { raw_elements: _, ...rest } = request;
  const header = new TextEncoder().encode(JSON.stringify({ request: rest, strings, numbers: numbers.length, fields: [...columns.keys()] }));
  const headerEnd = align8(FIXED + header.length);
  const total = headerEnd + 8 * (numbers.length + 5 * n) + 4 * n * (4 + columns.size);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, header.length, true);
  view.setUint32(8, n, true);
  out.set(header, FIXED);
  let at = headerEnd;
  // `out` is fresh and headerEnd a multiple of 8: every column is aligned for a typed view.
  const putF64 = (values: ArrayLike<number>) => {
    if (LITTLE_ENDIAN) new Float64Array(out.buffer, at, values.length).set(values);
    else for (let k = 0; k < values.length; k++) view.setFloat64(at + 8 * k, values[k], true);
    at += 8 * values.length;
  };
  const putI32 = (values: ArrayLike<number>) => {
    if (LITTLE_ENDIAN) new Int32Array(out.buffer, at, values.length).set(values);
    else for (let k = 0; k < values.length; k++) view.setInt32(at + 4 * k, values[k], true);
    at += 4 * values.length;
  };
  putF64(numbers); putF64(ids); putF64(xs); putF64(ys); putF64(ws); putF64(hs);
  putI32(parents); putI32(styles); putI32(attributes); putI32(frames);
  for (const c of columns.values()) putI32(c);
  return out;
}

const align8 = (v: number) => (v + 7) & ~7;

function invalid(detail: string): Error {
  return badRequest(`Invalid columnar body (${COLUMNS_TYPE}): ${detail}`);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Typed views of `count` values at `offset`: in place when aligned (and the host little-endian), else
 *  copied through a DataView (the body's bytes are little-endian). */
function typedAt<T extends Float64Array | Int32Array>(bytes: Uint8Array, offset: number, count: number,
  Kind: { new (buffer: ArrayBufferLike, at: number, n: number): T; new (n: number): T; BYTES_PER_ELEMENT: number },
  read: (view: DataView, at: number) => number): T {
  const at = bytes.byteOffset + offset, size = Kind.BYTES_PER_ELEMENT;
  if (LITTLE_ENDIAN && at % size === 0) return new Kind(bytes.buffer, at, count);
  const view = new DataView(bytes.buffer, at, count * size);
  const out = new Kind(count);
  for (let k = 0; k < count; k++) out[k] = read(view, k * size);
  return out;
}
const f64At = (bytes: Uint8Array, offset: number, count: number) => typedAt(bytes, offset, count, Float64Array, (v, at) => v.getFloat64(at, true));
const i32At = (bytes: Uint8Array, offset: number, count: number) => typedAt(bytes, offset, count, Int32Array, (v, at) => v.getInt32(at, true));

/**
 * The request a columnar body carries, as JSON.parse would give its JSON twin (fields the ranker does not
 * read left out). Throws bad_request naming what is wrong with the body's structure; the request it
 * returns still goes through the same validation as a JSON body.
 */
export function decodeColumns(bytes: Uint8Array): unknown {
  return readColumns(bytes).request;
}

/**
 * decodeColumns, and whether every element already fits the schema's RawElement (`typed`: each cell's
 * kind is one its field allows, every number finite), so that validation need only check the rest of
 * the request (validateRequest's `typedElements`). When not, the full check runs and words the error.
 */
export function readColumns(bytes: Uint8Array): { request: Record<string, unknown>; typed: boolean } {
  if (bytes.length < FIXED) throw invalid(`${bytes.length} bytes is shorter than its ${FIXED}-byte preamble`);
  const pre = new DataView(bytes.buffer, bytes.byteOffset, FIXED);
  if (pre.getUint32(0, true) !== MAGIC) throw invalid('it does not start with "SLC1"');
  const headerBytes = pre.getUint32(4, true);
  const n = pre.getUint32(8, true);
  if (pre.getUint32(12, true) !== 0) throw invalid('bytes 12-15 must be zero');
  if (FIXED + headerBytes > bytes.length) throw invalid(`the header (${headerBytes} bytes) runs past the end of the body`);
  let header: unknown;
  try {
    header = JSON.parse(utf8.decode(bytes.subarray(FIXED, FIXED + headerBytes)));
  } catch (err) {
    throw invalid(`the header is not UTF-8 JSON: ${(err as Error).message}`);
  }
  if (!isObject(header)) throw invalid('the header must be a JSON object');
  const { request, strings, numbers, fields } = header;
  if (!isObject(request)) throw invalid('header.request must be an object');
  if ('raw_elements' in request) throw invalid('header.request must not hold raw_elements (they are the columns)');
  if (!Array.isArray(strings) || !strings.every((s) => typeof s === 'string')) throw invalid('header.strings must be an array of strings');
  if (!Number.isSafeInteger(numbers) || (numbers as number) < 0) throw invalid('header.numbers must be a count');
  if (!Array.isArray(fields)) throw invalid('header.fields must be an array of field names');
  const places: [0 | 1 | 2, string][] = [];
  const allowed: number[] = [];
  const seen = new Set<string>();
  for (const f of fields) {
    const place = typeof f === 'string' ? FIELDS.get(f) : undefined;
    if (!place || seen.has(f)) throw invalid(`header.fields: ${JSON.stringify(f).slice(0, 100)} is ${place ? 'listed twice' : 'not a field of this format'}`);
    seen.add(f);
    places.push(place);
    allowed.push(KINDS[f] ?? STR);
  }
  const numCount = numbers as number;
  const headerEnd = align8(FIXED + headerBytes);
  const expected = headerEnd + 8 * (numCount + 5 * n) + 4 * n * (4 + places.length);
  if (bytes.length !== expected) throw invalid(`${bytes.length} bytes, but its header and ${n} elements make ${expected}`);
  let at = headerEnd;
  const f64 = (count: number) => { const v = f64At(bytes, at, count); at += 8 * count; return v; };
  const i32 = () => { const v = i32At(bytes, at, n); at += 4 * n; return v; };
  const pool = f64(numCount), ids = f64(n), xs = f64(n), ys = f64(n), ws = f64(n), hs = f64(n);
  const parents = i32(), styleCells = i32(), attributeCells = i32(), frameCells = i32();
  const columns = places.map(() => i32());
  const nStrings = strings.length;
  const value = (c: number, column: number, i: number): unknown => {
    if (c >= 0) { if (c < nStrings) return strings[c]; }
    else if (c <= NUMBER) { const k = NUMBER - c; if (k < numCount) return pool[k]; }
    else if (c === NULL) return null;
    else if (c === TRUE) return true;
    else if (c === FALSE) return false;
    throw invalid(`${fields[column]} of element ${i} holds ${c}, which names no value`);
  };
  const objectOf = (c: number, what: string, i: number): Record<string, unknown> | null | undefined => {
    if (c === 0) return {};
    if (c === ABSENT) return undefined;
    if (c === NULL) return null;
    throw invalid(`${what} of element ${i} holds ${c} (0, -1 or -2 expected)`);
  };

  const top: unknown[] = [];
  const list: Record<string, unknown>[] = new Array(n);
  let typed = true;
  for (let i = 0; i < n; i++) {
    const e: Record<string, unknown> = { id: ids[i], rect: { x: xs[i], y: ys[i], width: ws[i], height: hs[i] } };
    if (typed && !(Number.isFinite(ids[i]) && Number.isFinite(xs[i]) && Number.isFinite(ys[i]) && Number.isFinite(ws[i]) && Number.isFinite(hs[i]))) typed = false;
    const s = objectOf(styleCells[i], 'styles', i), a = objectOf(attributeCells[i], 'attributes', i), frame = frameCells[i];
    if (s !== undefined) e.styles = s;
    if (a !== undefined) e.attributes = a;
    if (frame === 0) e.iframe_content = [];
    else if (frame === NULL) e.iframe_content = null;
    else if (frame !== ABSENT) throw invalid(`iframe_content of element ${i} holds ${frame} (0, -1 or -2 expected)`);
    for (let k = 0; k < columns.length; k++) {
      const c = columns[k][i];
      if (c === ABSENT) continue;
      const [where, key] = places[k];
      const target = where === 0 ? e : where === 1 ? s : a;
      if (!target) throw invalid(`${fields[k]} of element ${i} is set but its ${where === 1 ? 'styles' : 'attributes'} are not an object`);
      const v = value(c, k, i);
      if (typed && c !== NULL) {
        const kind = c >= 0 ? STR : c <= NUMBER ? (Number.isFinite(v) ? NUM : 0) : BOOL;
        if ((allowed[k] & kind) === 0) typed = false;
      }
      target[key] = v;
    }
    const p = parents[i];
    if (p === -1) top.push(e);
    else if (p >= 0 && p < i && Array.isArray(list[p].iframe_content)) (list[p].iframe_content as unknown[]).push(e);
    else throw invalid(`parent of element ${i} is ${p}: -1 or an earlier element whose iframe_content is an array expected`);
    list[i] = e;
  }
  request.raw_elements = top;
  return { request, typed };
}
