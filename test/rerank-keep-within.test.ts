// Issue 37 item 4: the no-goal order's first visible controls that an unconfident goal's order leaves beyond
// the limit take the list's last places, and those of them the goal's order already puts within the limit
// stay there (the missing ones used to take the last places whoever held them, pushing a kept control out).
// Real core, both builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wasm, js, el, request } from './helpers/elements.ts';
import { KEEP_COUNT } from '../src/rank/encode-goal.ts';
import type { RankResult } from '../src/schema/snapshot.ts';

// A header of two buttons and a search box the no-goal order puts first, then forty links: "Harbour notes"
// first, six "Harbour news" parts, then council stories.
const text = (k: number) => (k === 0 ? 'Harbour notes' : k < 7 ? `Harbour news, part ${k}` : `Story ${k + 1}: the council votes on the school budget`);
const page = () => [
  el({ tag: 'button', text: 'Subscribe', rect: [900, 10, 120, 40] }),
  el({ tag: 'button', text: 'Log in', rect: [1040, 10, 100, 40] }),
  el({ tag: 'input', text: '', attributes: { input_type: 'search', aria_label: 'Search the site' }, rect: [400, 10, 300, 40] }),
  ...Array.from({ length: 40 }, (_, k) => el({ tag: 'a', text: text(k), attributes: { href: `/news/story-${k + 1}` }, rect: [40, 80 + 18 * k, 600, 16] })),
];

const LIMIT = 8;
const GOAL = 'harbour ferry timetable';
const ids = (r: RankResult) => r.elements.map((e) => e.id);

for (const [name, ranker] of [['wasm', wasm], ['js build', js]] as const) {
  test(`${name}: a kept no-goal control the goal's order already puts within the limit is not pushed out`, () => {
    const raw = page();
    const plain = ranker.rank(request(raw, { options: { limit: raw.length } }));
    const kept = plain.elements.filter((e) => e.in_viewport && !e.is_occluded).slice(0, Math.min(KEEP_COUNT, LIMIT / 2));
    const all = ranker.rank(request(raw, { goal: GOAL, options: { limit: raw.length } })); // the goal's order, nothing kept
    const place = (id: number) => all.elements.findIndex((e) => e.id === id);
    const within = kept.filter((e) => place(e.id) < LIMIT), missing = kept.filter((e) => place(e.id) >= LIMIT);
    // The case: some kept controls are missing, and one within the limit sits in the last places they take.
    assert.ok(missing.length > 0, 'a kept control is beyond the limit');
    assert.ok(within.some((e) => place(e.id) >= LIMIT - missing.length), `a kept control within the limit sits in its last ${missing.length} places`);
    const r = ranker.rank(request(raw, { goal: GOAL, options: { limit: LIMIT } }));
    assert.equal(r.ml_rerank!.is_high_confidence, false, `top probability ${r.ml_rerank!.top_probability}`);
    assert.equal(r.elements.length, LIMIT);
    for (const e of kept) assert.ok(ids(r).includes(e.id), `no-goal #${plain.elements.indexOf(e)} (${e.text || 'search box'}, goal's place ${place(e.id)}) kept`);
    // The list: the goal's order within the limit less as many others as the missing need, then the missing in no-goal order.
    const keptIds = new Set(kept.map((e) => e.id));
    const head = all.elements.slice(0, LIMIT).map((e) => e.id);
    const others = head.filter((id) => !keptIds.has(id)).slice(0, LIMIT - kept.length);
    const expected = [...head.filter((id) => keptIds.has(id) || others.includes(id)), ...missing.map((e) => e.id)];
    assert.deepEqual(ids(r), expected);
  });
}
