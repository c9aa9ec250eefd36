// Property tests over random element sets: the Wasm core and the JS build of the same source give
// exactly the same result, and every result keeps the core's invariants.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wasm, js, stable } from './helpers/elements.ts';
import { loadSplit, SPLITS } from '../train/a11y/evaluate.ts';
import type { RawElement, SnapshotRequest } from '../src/schema/snapshot.ts';
import { Buf, Feature } from '../assembly/layout.ts';
import { encode } from '../src/rank/encode.ts';
import { embedTable } from '../src/rank/embed-table.ts';
import { loadGoals } from '../train/real/evaluate.ts';

const TAGS = ['a', 'button', 'input', 'div', 'span', 'select', 'textarea', 'img', 'h2', 'li', 'summary'];
const coord = fc.oneof(fc.double({ min: -3000, max: 6000, noNaN: true }), fc.integer({ min: -50, max: 2000 }));
const size = fc.oneof(fc.double({ min: -10, max: 2000, noNaN: true }), fc.integer({ min: 0, max: 400 }));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const rawElement = (id: number): fc.Arbitrary<RawElement> => fc.record({
  tag: fc.constantFrom(...TAGS),
  rect: fc.record({ x: coord, y: coord, width: size, height: size }),
  text: maybe(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('Add to cart', 'Sign in', 'Search', 'Buy now'))),
  in_viewport: maybe(fc.boolean()),
  is_occluded: maybe(fc.boolean()),
  scroll_y: maybe(fc.integer({ min: 0, max: 5000 })),
  group_key: maybe(fc.constantFrom('x1-h2', 'x0-h1', 'card', 'x-3-h4')),
  styles: maybe(fc.record({
    z_index: maybe(fc.oneof(fc.constantFrom('auto', '0', '1', '10', '1000', '-1'), fc.integer({ min: -5, max: 3000 }))),
    cursor: maybe(fc.constantFrom('pointer', 'auto', 'text')),
    bg_color: maybe(fc.oneof(fc.constantFrom('rgba(0, 0, 0, 0)', 'rgb(255, 255, 255)', '#2563eb', 'transparent'),
      fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `rgb(${r}, ${g}, ${b})`))),
    display: maybe(fc.constantFrom('block', 'none', 'inline')),
    opacity: maybe(fc.constantFrom('1', '0', '0.5')),
  })),
  attributes: maybe(fc.record({
    role: maybe(fc.constantFrom('button', 'link', 'checkbox', 'tab', 'bogus', 'menuitem')),
    href: maybe(fc.constantFrom('https://a.test/', '/x')),
    input_type: maybe(fc.constantFrom('text', 'submit', 'checkbox', 'search', 'hidden', 'password')),
    disabled: maybe(fc.constantFrom('true', 'false', true, false)),
    aria_label: maybe(fc.string({ maxLength: 10 })),
    class: maybe(fc.constantFrom('btn btn-primary', 'nav', 'cta')),
    value: maybe(fc.string({ maxLength: 5 })),
    section: maybe(fc.constantFrom('Leave a Reply', 'Footer', 'Most read')),
  })),
}).map((e) => ({ id, ...e }) as RawElement);

const page = fc.integer({ min: 0, max: 120 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => rawElement(i + 1))));

const snapshot: fc.Arbitrary<SnapshotRequest> = fc.record({
  raw: page,
  viewport: maybe(fc.record({ width: fc.integer({ min: 320, max: 1920 }), height: fc.integer({ min: 320, max: 1200 }) })),
  limit: maybe(fc.integer({ min: 1, max: 150 })),
  minArea: maybe(fc.integer({ min: 0, max: 5000 })),
  roles: maybe(fc.subarray(['button', 'link', 'textbox', 'generic', 'checkbox'])),
  tags: maybe(fc.subarray(['a', 'button', 'div', 'input'])),
  previous: maybe(page),
}).map((p) => ({
  url: 'https://example.test/',
  viewport: p.viewport,
  raw_elements: p.raw as RawElement[],
  options: { limit: p.limit, filter: { min_area: p.minArea, allowed_roles: p.roles, allowed_tags: p.tags }, previous: p.previous as RawElement[] | undefined },
}));

const hasNaN = (v: unknown): boolean =>
  typeof v === 'number' ? Number.isNaN(v) : v !== null && typeof v === 'object' ? Object.values(v).some(hasNaN) : false;

test('Wasm and JS builds give identical results', () => {
  fc.assert(fc.property(snapshot, (req) => {
    assert.deepEqual(stable(wasm.rank(req)), stable(js.rank(req)));
  }), { numRuns: 400, seed: 20261121 });
});

test('results are sorted, limited, drawn from the input, in range, and free of NaN', () => {
  fc.assert(fc.property(snapshot, (req) => {
    const r = wasm.rank(req);
    const limit = Math.min(req.options?.limit ?? 50, 100);
    const ranked = r.elements.filter((e) => e.diff_status !== 'REMOVED');
    assert.ok(ranked.length <= limit);
    const inputIds = new Set(req.raw_elements.map((e) => e.id));
    const prevIds = new Set((req.options?.previous ?? []).map((e) => e.id));
    for (const e of r.elements) {
      assert.ok(e.diff_status === 'REMOVED' ? prevIds.has(e.id) : inputIds.has(e.id));
      assert.ok(Number.isInteger(e.importance) && e.importance >= 0 && e.importance <= 1000);
    }
    for (let k = 1; k < ranked.length; k++) assert.ok(ranked[k - 1].importance >= ranked[k].importance);
    assert.ok(!hasNaN(r), 'no NaN anywhere in the result');
    assert.ok(r.viewport.width > 0 && r.viewport.height > 0);
  }), { numRuns: 300, seed: 7 });
});

test('Wasm and JS builds agree on large pages (5,000 elements)', () => {
  const big = fc.sample(fc.tuple(...Array.from({ length: 50 }, (_, i) => rawElement(i))), { numRuns: 100, seed: 3 }).flat()
    .map((e, i) => ({ ...e, id: i }));
  const req = { url: 'u', raw_elements: big, options: { limit: 100 } };
  assert.equal(big.length, 5000);
  assert.deepEqual(stable(wasm.rank(req)), stable(js.rank(req)));
});

test('Wasm and JS builds agree on every page of the goal-less importance evaluation (real pages, every split)', () => {
  for (const split of SPLITS) {
    for (const p of loadSplit(split)) {
      const req = { ...p.request, options: { limit: 50 } };
      assert.deepEqual(stable(wasm.rank(req)), stable(js.rank(req)), p.id);
    }
  }
});

/** Every rerank feature of every element (the goal-embedding cosines among them), from one build. */
function goalFeatures(ranker: typeof wasm, req: SnapshotRequest): number[] {
  encode(req, ranker.core, { emitFeatures: true });
  ranker.core.run();
  return Array.from(ranker.core.f64(Buf.FEATURES));
}

const GOALS = ['sign in', 'purchase admission to the show', 'open the third story under Most read', 'Войти', 'ログイン', 'read the privacy terms', ''];

test('with a goal, Wasm and JS builds agree on every element: results and every rerank feature (embedding cosines included)', () => {
  assert.ok(embedTable(), 'the goal-embedding table is loaded');
  const withGoal = fc.tuple(snapshot, fc.oneof(fc.constantFrom(...GOALS), fc.string({ maxLength: 30 }))).map(([req, goal]) => ({ ...req, goal }));
  fc.assert(fc.property(withGoal, (req) => {
    assert.deepEqual(stable(wasm.rank(req)), stable(js.rank(req)));
    if (req.goal.trim()) assert.deepEqual(goalFeatures(wasm, req), goalFeatures(js, req));
  }), { numRuns: 300, seed: 20261127 });
});

test('with a goal, Wasm and JS builds agree on every element of every train and dev page of the real goal set', () => {
  let elements = 0, embedded = 0;
  const seen = new Set<string>();
  for (const g of loadGoals().filter((x) => x.page.split !== 'test')) {
    if (seen.has(g.page.id)) continue; // one goal per page: the pages are what varies
    seen.add(g.page.id);
    const req = { ...g.page.request, goal: g.goal, options: { limit: 100_000 } };
    const a = goalFeatures(wasm, req), b = goalFeatures(js, req);
    assert.deepEqual(a, b, `${g.page.id}: ${g.goal}`);
    for (let i = Feature.EMB_OWN; i < a.length; i += Feature.COUNT) if (a[i] !== 0) embedded++;
    elements += a.length / Feature.COUNT;
  }
  assert.ok(seen.size >= 150 && embedded > elements / 2, `${seen.size} pages, ${embedded} of ${elements} elements with an own-text cosine`);
});
