// Malformed input: a clear error naming the element and field, or a sane result; never a crash or hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wasm, el, request } from './helpers/elements.ts';
import { SightlineError } from '../src/schema/errors.ts';
import { encodeColumns, decodeColumns, readColumns } from '../src/rank/columns.ts';
import type { RankResult } from '../src/schema/snapshot.ts';

/** What ranking `body` gives: the result (timestamp blanked) or the error's code, message and path. */
function outcome(rank: () => RankResult): unknown {
  try {
    return { ...rank(), timestamp: '' };
  } catch (err) {
    assert.ok(err instanceof SightlineError, `expected a SightlineError, got ${err}`);
    return { code: err.code, status: err.status, message: err.message, path: err.path };
  }
}

/** The columnar body (src/rank/columns.ts) answers as its JSON twin: the same result or the same error. */
function sameThroughColumns(body: unknown) {
  const columns = encodeColumns(body);
  if (!columns) return;
  const twin = outcome(() => wasm.rank(JSON.parse(JSON.stringify(body))));
  assert.deepEqual(outcome(() => wasm.rank(decodeColumns(columns))), twin);
  // As the server reads it: the elements' schema check skipped when every cell was of its field's kind.
  assert.deepEqual(outcome(() => { const { request, typed } = readColumns(columns); return wasm.rank(wasm.validate(request, typed), true); }), twin);
}

function rejects(body: unknown, message: RegExp, path?: string) {
  sameThroughColumns(body);
  assert.throws(() => wasm.rank(body), (err: unknown) => {
    assert.ok(err instanceof SightlineError, `expected a SightlineError, got ${err}`);
    assert.equal(err.code, 'bad_request');
    assert.equal(err.status, 400);
    assert.match(err.message, message);
    if (path) assert.equal(err.path, path);
    return true;
  });
}

test('wrong types name the element index and the field', () => {
  const bad = { ...el(), rect: { x: '12', y: 0, width: 10, height: 10 } };
  rejects(request([el(), el(), bad as never]), /^Invalid element format: raw_elements\[2\]\.rect\.x must be number \(got string\)/, 'raw_elements[2].rect.x');
  rejects(request([{ ...el(), id: 'seven' } as never]), /Invalid element format: raw_elements\[0\]\.id must be number/);
  rejects(request([{ ...el(), in_viewport: 'yes' } as never]), /raw_elements\[0\]\.in_viewport/);
  rejects(request([{ ...el(), attributes: { href: 42 } } as never]), /raw_elements\[0\]\.attributes\.href must be string/);
  rejects(request(['not an element' as never]), /Invalid element format: raw_elements\[0\]/);
  rejects(request([el({ iframe_content: [{ id: 1, rect: { x: 0, y: 0, width: 1 } }] })]), /raw_elements\[0\]\.iframe_content\[0\]\.rect\.height is required/);
});

test('missing fields and bad envelopes use the SPEC messages', () => {
  rejects({ raw_elements: [] }, /^Missing required field: url$/, 'url');
  rejects({ url: 'u' }, /^Missing required field: raw_elements$/, 'raw_elements');
  rejects({ url: 'u', raw_elements: [{ id: 1 }] }, /raw_elements\[0\]\.rect is required/);
  rejects({ url: 'u', raw_elements: {} }, /Invalid element format: raw_elements must be array/);
  rejects({ url: 'u', raw_elements: [], viewport: { width: 0, height: 800 } }, /^Invalid viewport dimensions/);
  rejects({ url: 'u', raw_elements: [], viewport: { width: -5, height: 800 } }, /^Invalid viewport dimensions/);
  rejects({ url: 'u', raw_elements: [], viewport: { width: '1280', height: 800 } }, /^Invalid viewport dimensions: viewport\.width/);
  rejects({ url: 'u', raw_elements: [], options: { limit: 0 } }, /options\.limit must be at least 1/);
  rejects({ url: 'u', raw_elements: [], options: { filter: { allowed_roles: 'button' } } }, /options\.filter\.allowed_roles must be array/);
  rejects(null, /body must be a JSON object/);
  rejects([1, 2], /body must be a JSON object/);
  rejects('text', /body must be a JSON object/);
});

test('NaN and Infinity coordinates are refused with the field named', () => {
  rejects(request([el({ rect: [NaN, 0, 10, 10] })]), /raw_elements\[0\]\.rect\.x must be number \(got NaN\)/);
  rejects(request([el({ rect: [0, Infinity, 10, 10] })]), /raw_elements\[0\]\.rect\.y must be number \(got Infinity\)/);
  rejects(request([{ ...el(), doc_y: -Infinity }]), /raw_elements\[0\]\.doc_y/);
});

test('negative sizes, absurd coordinates and odd styles give a sane result', () => {
  const weird = [
    el({ tag: 'button', rect: [10, 10, -50, -20] }),
    el({ tag: 'button', rect: [1e300, -1e300, 1e300, 1e300] }),
    el({ tag: 'a', attributes: { href: 'x' }, styles: { z_index: 'banana', bg_color: 'not-a-colour', opacity: 'x' } }),
    el({ tag: 'input', styles: { z_index: 99999999999 } }),
  ];
  sameThroughColumns(request(weird));
  const r = wasm.rank(request(weird));
  assert.equal(r.elements.length, 4);
  for (const e of r.elements) {
    assert.ok(Number.isFinite(e.bbox.x) && Number.isFinite(e.bbox.width) && e.bbox.width >= 0);
    assert.ok(e.importance >= 0 && e.importance <= 1000);
  }
  assert.equal(r.elements.find((e) => e.id === weird[0].id)!.bbox.width, 0);
  assert.equal(r.elements.find((e) => e.id === weird[3].id)!.z_index, 2147483647);
});

test('huge strings are accepted and truncated in the result', () => {
  const huge = 'word '.repeat(400_000);
  const r = wasm.rank(request([el({ tag: 'button', text: huge, attributes: { aria_label: huge, nearby_text: huge } })]));
  const e = r.elements[0];
  assert.ok(e.text.length <= 300 && e.text.endsWith('…'));
  assert.ok(e.name!.length <= 300);
  assert.ok(e.nearby_text!.length <= 300);
});

test('100,000 elements rank; more are refused with a clear message', () => {
  const page = Array.from({ length: 100_000 }, (_, k) => ({ id: k, tag: k % 3 ? 'div' : 'a', rect: { x: k % 1000, y: k, width: 50, height: 20 } }));
  const t0 = performance.now();
  const r = wasm.rank({ url: 'u', raw_elements: page });
  assert.equal(r.elements.length, 50);
  assert.ok(performance.now() - t0 < 30_000, 'finishes (a hang guard, not a speed claim)');
  rejects({ url: 'u', raw_elements: [...page, { id: -1, rect: { x: 0, y: 0, width: 1, height: 1 } }] }, /holds 100001 elements, at most 100000 are accepted/);
});

test('extra fields and nulls are accepted, as real clients send them', () => {
  const body = request([{
    ...el({ tag: 'a' }),
    attributes: { href: null, role: null, label_source: 'inner_text', value_redacted: 'true', checked: null },
    styles: { z_index: 'auto', position: 'static', font_size: '16px', cursor: null },
    some_future_field: { nested: [1, 2, 3] },
    text: null,
  } as never]);
  assert.ok(encodeColumns(body), 'extra fields do not stop the columnar form');
  sameThroughColumns(body);
  const r = wasm.rank(request([{
    ...el({ tag: 'a' }),
    attributes: { href: null, role: null, label_source: 'inner_text', value_redacted: 'true', checked: null },
    styles: { z_index: 'auto', position: 'static', font_size: '16px', cursor: null },
    some_future_field: { nested: [1, 2, 3] },
    text: null,
  } as never]));
  assert.equal(r.elements.length, 1);
  assert.equal(r.elements[0].value_redacted, true);
  assert.equal(r.elements[0].role, 'generic', 'an <a> without href is not a link');
});
