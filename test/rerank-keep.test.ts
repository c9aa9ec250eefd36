// Issue 37 item 4: a goal never hides what no goal would show. When the rerank is not confident
// (top probability below is_high_confidence's 0.5), the returned list still holds the no-goal order's
// first visible controls; a confident rerank is the goal's order alone. Real core, both builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wasm, js, el, request } from './helpers/elements.ts';
import { KEEP_COUNT } from '../src/rank/encode-goal.ts';
import type { RankResult } from '../src/schema/snapshot.ts';

// A header of buttons the no-goal order puts first, then forty article links.
const page = () => [
  el({ tag: 'button', text: 'Subscribe', rect: [900, 10, 120, 40] }),
  el({ tag: 'button', text: 'Log in', rect: [1040, 10, 100, 40] }),
  el({ tag: 'input', text: '', attributes: { input_type: 'search', aria_label: 'Search the site' }, rect: [400, 10, 300, 40] }),
  ...Array.from({ length: 40 }, (_, k) => el({ tag: 'a', text: `Story ${k + 1}: the council votes on the harbour budget`, attributes: { href: `/news/story-${k + 1}` }, rect: [40, 80 + 18 * k, 600, 16] })),
];

const LIMIT = 8;
const ids = (r: RankResult) => r.elements.map((e) => e.id);

for (const [name, ranker] of [['wasm', wasm], ['js build', js]] as const) {
  test(`${name}: an unconfident goal keeps the no-goal order's first visible controls in the list`, () => {
    const raw = page();
    const plain = ranker.rank(request(raw, { options: { limit: raw.length } }));
    const visibleControls = plain.elements.filter((e) => e.in_viewport && !e.is_occluded /* every element here is a control */).slice(0, Math.min(KEEP_COUNT, LIMIT / 2));
    const r = ranker.rank(request(raw, { goal: 'ferry timetable changes for the winter', options: { limit: LIMIT } }));
    assert.equal(r.ml_rerank!.is_high_confidence, false, `top probability ${r.ml_rerank!.top_probability}`);
    assert.equal(r.elements.length, LIMIT);
    for (const e of visibleControls) assert.ok(ids(r).includes(e.id), `no-goal #${plain.elements.indexOf(e)} (${e.text || e.id}) kept`);
    // Without the goal's own reorder they would be gone: the plain goal order (ml_score) puts them lower.
    const all = ranker.rank(request(raw, { goal: 'ferry timetable changes for the winter', options: { limit: raw.length } }));
    const byScore = [...all.elements].sort((a, b) => b.ml_score! - a.ml_score! || a.fused_rank_index! - b.fused_rank_index!).slice(0, LIMIT).map((e) => e.id);
    assert.ok(visibleControls.some((e) => !byScore.includes(e.id)), 'the case needs keeping (a kept control is outside the goal\'s own top)');
    // The rest of the list is the goal's order.
    const rest = r.elements.filter((e) => !visibleControls.some((v) => v.id === e.id));
    const expected = byScore.filter((id) => !visibleControls.some((v) => v.id === id)).slice(0, rest.length);
    assert.deepEqual(rest.map((e) => e.id), expected);
  });

  test(`${name}: a confident goal is its own order`, () => {
    const raw = page();
    const r = ranker.rank(request(raw, { goal: 'open Story 17: the council votes on the harbour budget', options: { limit: LIMIT } }));
    assert.equal(r.ml_rerank!.is_high_confidence, true, `top probability ${r.ml_rerank!.top_probability}`);
    assert.equal(r.elements[0].text, 'Story 17: the council votes on the harbour budget');
    for (let k = 1; k < r.elements.length; k++) assert.ok(r.elements[k - 1].ml_score! >= r.elements[k].ml_score!);
  });
}
