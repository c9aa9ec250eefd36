// What the core receives for a goal is what one filtered scan of each text gives, although the door keeps
// each text's goal-independent scan across requests (src/rank/text-memory.ts) and only filters it per goal:
// on every element of the real goal set's train and dev pages, goal after goal (new goals, a goal
// again, concept goals), its own words and concepts, trigrams, counts, context and section words equal
// a scan with the goal's filters read straight from its text (the one-pass tokeniser of src/rank/goal.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goalTokens, ownText } from '../src/rank/encode-goal.ts';
import { parseGoal, scanText, startText, counted, trigramCount, HashFilter, TEXT_WORDS, type Scan } from '../src/rank/goal.ts';
import { tablesFor, linkConcepts, PHRASES, PHRASE_ENDS } from '../src/rank/concepts.ts';
import { hrefWords, memory, MAX_TEXTS } from '../src/rank/text-memory.ts';
import { loadGoals } from '../train/real/evaluate.ts';
import type { RawElement } from '../src/schema/snapshot.ts';

const GOALS = ['sign in to my account', 'share this article on LinkedIn', 'open the second article about the election results',
  'contact us by email', 'sign in to my account', 'Zum Warenkorb hinzufügen', 'search for running shoes', 'search for running shoes', 'read the privacy policy'];

/** For one goal: an element's hashes as a single filtered scan of its texts gives them (sorted: the core
 *  counts members). */
function reference(goal: string) {
  const concepts: number[] = [];
  startText();
  scanText(goal, { words: [], wordFilter: null, countWords: false, trigrams: null, trigramFilter: null, concepts: true, conceptSink: concepts, seen: new Set(), limit: TEXT_WORDS, phrases: PHRASES, ends: new HashFilter(PHRASE_ENDS) });
  const parts = parseGoal(goal);
  const tables = concepts.length ? tablesFor(concepts) : null;
  const wordFilter = new HashFilter([...parts.words, ...concepts]), trigramFilter = new HashFilter(parts.trigrams);
  const scan = (words: number[], trigrams: number[] | null, countWords: boolean, withConcepts: boolean, limit: number): Scan => ({
    words, wordFilter, countWords, trigrams, trigramFilter, concepts: withConcepts && tables !== null, conceptSink: words, seen: new Set(), limit,
    phrases: tables?.phrases ?? new Map(), ends: tables?.ends ?? new HashFilter([]),
  });
  return (e: RawElement) => {
    const own: number[] = [], tri: number[] = [], ctx: number[] = [], sec: number[] = [];
    let ownCount = 0, triCount = 0;
    const text = ownText(e);
    if (text) {
      startText();
      scanText(text, scan(own, tri, true, true, 10));
      ownCount = counted.words;
      triCount = trigramCount();
    }
    const href = e.attributes?.href, nearby = e.attributes?.nearby_text;
    if (href || nearby) {
      startText();
      const s = scan(ctx, null, false, !!href, 6);
      if (href) scanText(hrefWords(href), s);
      if (nearby) scanText(nearby, s);
      if (href && tables?.links) linkConcepts(String(href), { push: (c: number) => { if (wordFilter.has(c)) ctx.push(c); } }, s.seen);
    }
    if (e.attributes?.section) {
      startText();
      scanText(e.attributes.section, scan(sec, null, false, false, 0));
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    return { own: sorted(own), tri: sorted(tri), ctx: sorted(ctx), sec: sorted(sec), ownCount, triCount };
  };
}

test('the kept scans filtered per goal give what one filtered scan of each text gives, on every element of the real pages', () => {
  const pages = new Map(loadGoals().filter((g) => g.page.split !== 'test').map((g) => [g.page.id, g.page.request.raw_elements as RawElement[]]));
  let elements = 0, kept = 0;
  for (const goal of GOALS) {
    const scanned = reference(goal);
    for (const raw of pages.values()) {
      const t = goalTokens(raw, goal);
      const span = (h: { data: Int32Array }, at: number, length: number) => [...h.data.subarray(at, at + length)].sort((a, b) => a - b);
      raw.forEach((e, i) => {
        const o = 11 * i, s = t.spans, want = scanned(e);
        const got = { own: span(t.own, s[o], s[o + 1]), tri: span(t.tri, s[o + 4], s[o + 5]), ctx: span(t.ctx, s[o + 2], s[o + 3]), sec: span(t.sec, s[o + 8], s[o + 9]), ownCount: s[o + 6], triCount: s[o + 7] };
        assert.deepEqual(got, want, `${goal}: element ${e.id} ${JSON.stringify(ownText(e)).slice(0, 80)}`);
        kept += got.own.length + got.tri.length + got.ctx.length;
      });
      elements += raw.length;
      assert.ok(memory.kept().texts <= MAX_TEXTS);
    }
  }
  assert.ok(elements > 50_000 && kept > 10_000, `${elements} elements, ${kept} hashes kept`);
});
