// The encoder's per-request memo of string tests (src/rank/label-memo.ts) against the plain calls it stands
// for, on every label, name, class and section of the real client payloads in their order (repeats as a page
// repeats them): the same answers, each distinct string tested once, and ids in first-seen order as the core's
// TEXT_KEY was numbered before (a Map of the non-empty texts, size + 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelMemo, type StringTest } from '../src/rank/label-memo.ts';
import { namesPurchase, namesPurchaseLink, leadsWithPurchase, namesSignIn, namesSearch, asksForQuery } from '../src/rank/action-words.ts';
import { DISMISS_ANY, CONSENT } from '../src/collect/overlay-words.ts';
import { accessibleName } from '../src/rank/text.ts';
import { ACTION_LABEL_MAX } from '../assembly/layout.ts';
import { payload } from '../bench/payloads.ts';

const PLAIN: StringTest[] = [namesPurchaseLink, namesPurchase, namesSignIn, namesSearch, asksForQuery,
  (t) => leadsWithPurchase(t.slice(0, ACTION_LABEL_MAX)), (t) => DISMISS_ANY.test(t.trim()), (t) => CONSENT.test(t)];

const elements = payload(3000).raw_elements;
const strings = elements.flatMap((e) => [e.text || accessibleName(e.attributes), accessibleName(e.attributes),
  e.attributes?.class ?? '', e.attributes?.section ?? '', e.text ?? '']);

test('every answer is the plain test\'s, in any order of asking', () => {
  const memo = new LabelMemo(PLAIN);
  let asked = 0, yes = 0;
  strings.forEach((s, k) => {
    // Each string is asked a different subset of tests in a different order (as the encoder's branches do).
    const order = PLAIN.map((_, t) => (t + k) % PLAIN.length).filter((t) => (k + t) % 3 !== 0);
    const id = memo.id(s);
    for (const t of order) {
      const got = k % 2 ? memo.test(id, s, t) : memo.has(s, t);
      assert.equal(got, PLAIN[t](s), `test ${t} on ${JSON.stringify(s)}`);
      asked++; if (got) yes++;
    }
  });
  assert.ok(asked > 20_000 && yes > 50, `asked ${asked}, true ${yes}`); // the labels exercise both answers
});

test('each distinct string is tested once per test', () => {
  const runs = new Map<string, number>();
  const counted: StringTest[] = PLAIN.map((fn, t) => (s) => { const k = `${t}\u0000${s}`; runs.set(k, (runs.get(k) ?? 0) + 1); return fn(s); });
  const memo = new LabelMemo(counted);
  for (const s of strings) for (let t = 0; t < counted.length; t++) memo.has(s, t);
  assert.equal(runs.size, new Set(strings).size * counted.length);
  assert.ok([...runs.values()].every((n) => n === 1));
  assert.ok(strings.length > 2 * new Set(strings).size, 'the payloads repeat their strings');
});

test('ids: 0 for the empty string, then first-seen order (the former TEXT_KEY numbering)', () => {
  const memo = new LabelMemo(PLAIN);
  const plain = new Map<string, number>();
  for (const s of strings) {
    let k = 0;
    if (s) { const seen = plain.get(s); k = seen ?? plain.size + 1; if (seen === undefined) plain.set(s, k); }
    assert.equal(memo.id(s), k);
  }
  assert.equal(memo.id(''), 0);
  assert.throws(() => new LabelMemo(Array.from({ length: 32 }, () => () => true)));
});
