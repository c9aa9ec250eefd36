// The goal's part of encoding: per element, the hashes the goal holds of its own words (text, name,
// aria label, placeholder, value), of its context (href path, nearby text) and of its own trigrams,
// written into TOKENS with their spans, and the counts of all its words and trigrams; the goal's hashes,
// intent and ordinal; the model's weights. Only runs when the request has a goal. What a text gives
// whatever the goal is kept across requests (text-memory.ts): a new goal only filters it.
import { Buf, Feature, I32In, Param } from '../../assembly/layout.ts';
import type { RawElement } from '../schema/snapshot.ts';
import { parseGoal, scanText, startText, phrasesIn, HashFilter, TEXT_WORDS, type GoalParts } from './goal.ts';
import { tablesFor, PHRASES, PHRASE_ENDS, type ConceptTables } from './concepts.ts';
import { RERANK_MODEL } from './rerank-model.ts';
import type { CoreBackend } from './backend.ts';
import { embedTable } from './embed-table.ts';
import { startEmbed, embedSpan, finishEmbed, readyEmbed, writeEmbed, type EmbedSpans } from './encode-embed.ts';
import { memory, Hashes, type Text } from './text-memory.ts';

/**
 * The hashes the goal holds: every element's own words, contexts, trigrams and the distinct section
 * labels' words, each text's once (elements with one text share its span). Per element in `spans` (SPAN
 * values): own start and length in `own`, context start and length in `ctx`, trigram start and length in
 * `tri`, its distinct words (concepts included) and trigrams in all (trigrams: when any is kept; 0
 * otherwise, as the share is 0 then), section label start and length in `sec` and the label's id (0:
 * none sent). Only hashes the goal holds are kept: the core counts matches and divides by the totals.
 */
export interface GoalTokens { goal: GoalParts; concepts: number[]; own: Hashes; ctx: Hashes; tri: Hashes; sec: Hashes; spans: Int32Array; total: number; embed: EmbedSpans | null }

const SPAN = 11;
const own = new Hashes(), ctx = new Hashes(), tri = new Hashes(), sec = new Hashes();
let spans = new Int32Array(0);

/** The concepts found in the text being filtered: a few at most, so a short array. */
class Found {
  private items: number[] = [];
  get size(): number { return this.items.length; }
  has(h: number): boolean { return this.items.includes(h); }
  add(h: number): void { this.items.push(h); }
  clear(): void { if (this.items.length) this.items.length = 0; }
}
const found = new Found();
const ALL_ENDS = new HashFilter(PHRASE_ENDS), NO_SINK = { push(): void {} };

/** This request's goal: its words and concepts, its trigrams, the lexicon narrowed to its concepts; its
 *  number (a new one for each goal that differs from the last). */
let wordFilter = new HashFilter([]), trigramFilter = new HashFilter([]);
let tables: ConceptTables | null = null;
let lastGoal = '', goalNumber = 0;
const MAX_GOAL_NUMBER = 0x3fffffff;

/** A concept a text names, into `sink` when the goal holds it (each once per text). */
const concept = (sink: Hashes) => (c: number) => { if (!found.has(c)) { found.add(c); if (wordFilter.has(c)) sink.push(c); } };
const ownConcept = concept(own), ctxConcept = concept(ctx);

/** An element's own text: the words, concepts and trigrams the goal holds, and its counts. */
function keepOwn(t: Text): void {
  t.at = own.length;
  t.triAt = tri.length;
  if (t.keptFor === goalNumber) { replay(t, own, 0, t.length); replay(t, tri, t.length, t.triLength); return; }
  const h = t.hashes;
  for (let k = 0; k < t.words; k++) if (wordFilter.has(h[k])) own.push(h[k]);
  found.clear();
  if (tables) phrasesIn(h, t.trigrams, t.sequence, tables.phrases, tables.ends, ownConcept);
  t.length = own.length - t.at;
  t.wordCount = t.words + found.size;
  for (let k = t.words; k < t.trigrams; k++) if (trigramFilter.has(h[k])) tri.push(h[k]);
  t.triLength = tri.length - t.triAt;
  t.triCount = t.triLength > 0 ? t.trigrams - t.words : 0;
  remember(t, own, t.at, t.length, tri, t.triAt, t.triLength);
}

/** A link's context: the words the goal holds, and with an href the concepts of its path's first words
 *  and of the site it points to that the goal names. */
function keepContext(t: Text, href: boolean): void {
  t.at = ctx.length;
  if (t.keptFor === goalNumber) { replay(t, ctx, 0, t.length); return; }
  const h = t.hashes;
  for (let k = 0; k < t.words; k++) if (wordFilter.has(h[k])) ctx.push(h[k]);
  if (tables && href) {
    found.clear();
    phrasesIn(h, t.trigrams, t.sequence, tables.phrases, tables.ends, ctxConcept);
    if (tables.links) for (let k = t.sequence; k < h.length; k++) ctxConcept(h[k]);
  }
  t.length = ctx.length - t.at;
  remember(t, ctx, t.at, t.length, ctx, 0, 0);
}

/** A section label: the words the goal holds (the core counts matches only). */
function keepLabel(t: Text): void {
  t.at = sec.length;
  if (t.keptFor === goalNumber) { replay(t, sec, 0, t.length); return; }
  const h = t.hashes;
  for (let k = 0; k < t.words; k++) if (wordFilter.has(h[k])) sec.push(h[k]);
  t.length = sec.length - t.at;
  remember(t, sec, t.at, t.length, sec, 0, 0);
}

/** Keeps what this goal kept of a kept text (its counts stay in its fields) for the goal's next request. */
function remember(t: Text, a: Hashes, aAt: number, aLength: number, b: Hashes, bAt: number, bLength: number): void {
  if (aLength + bLength > 0) {
    const keep = memory.room(t, aLength + bLength);
    if (!keep) return;
    keep.set(a.data.subarray(aAt, aAt + aLength), 0);
    if (bLength) keep.set(b.data.subarray(bAt, bAt + bLength), aLength);
  }
  t.keptFor = goalNumber;
}

/** Writes `count` of a text's kept hashes from `from` in its `keep`. */
function replay(t: Text, into: Hashes, from: number, count: number): void {
  if (count) into.append(t.keep!.subarray(from, from + count)); // nothing kept: no array
}

/** Text, name, aria label, placeholder, value (unless redacted), inferred label: each once (a button's
 *  name usually repeats its text). */
export function ownText(e: RawElement): string {
  const a = e.attributes;
  const text = e.text ?? '';
  if (!a) return text;
  const redacted = a.value_redacted === true || a.value_redacted === 'true';
  return withPart(withPart(withPart(withPart(withPart(text, a.name), a.aria_label), (a as { placeholder?: string | null }).placeholder),
    redacted ? null : a.value), a.inferred_label);
}

/** `out` and `part` joined by a space, unless `part` is empty or already in `out`. */
function withPart(out: string, part: string | null | undefined): string {
  return part && !out.includes(part) ? (out ? `${out} ${part}` : part) : out;
}

export function goalTokens(elements: RawElement[], goal: string): GoalTokens {
  const n = elements.length;
  own.length = ctx.length = tri.length = sec.length = 0;
  // Numbers that start over would meet old ones in the texts: the texts start over with them.
  let wrapped = false;
  if (goal !== lastGoal || goalNumber === 0) { lastGoal = goal; wrapped = goalNumber === MAX_GOAL_NUMBER; goalNumber = wrapped ? 1 : goalNumber + 1; }
  // The goal's concepts first: elements are searched only for those (none named: no search at all).
  const concepts: number[] = [];
  found.clear();
  startText();
  scanText(goal, { words: NO_SINK, wordFilter: null, countWords: false, trigrams: null, trigramFilter: null, concepts: true, conceptSink: concepts, seen: found, limit: TEXT_WORDS, phrases: PHRASES, ends: ALL_ENDS });
  const goalConcepts = concepts;
  const parts = parseGoal(goal);
  tables = goalConcepts.length ? tablesFor(goalConcepts) : null;
  // What the core compares each span with: own words and context with the goal's words and concepts,
  // trigrams with its trigrams.
  wordFilter = new HashFilter([...parts.words, ...goalConcepts]);
  trigramFilter = new HashFilter(parts.trigrams);
  const table = embedTable();
  memory.begin(table, wrapped);
  const stamp = memory.stamp;
  if (table) startEmbed(table, goal, n);
  if (spans.length < SPAN * n) spans = new Int32Array(SPAN * n);
  else spans.fill(0, 0, SPAN * n);
  let labels = 0;
  for (let i = 0; i < n; i++) {
    const e = elements[i], o = SPAN * i;
    const text = ownText(e);
    if (text) {
      const t = memory.own(text), first = t.stamp !== stamp;
      if (first) { t.stamp = stamp; keepOwn(t); }
      spans[o] = t.at; spans[o + 1] = t.length; spans[o + 4] = t.triAt; spans[o + 5] = t.triLength;
      spans[o + 6] = t.wordCount; spans[o + 7] = t.triCount;
      if (table) embedSpan(i, 0, t, first, text);
    }
    const href = e.attributes?.href, nearby = e.attributes?.nearby_text;
    if (href || nearby) {
      const key = href ? String(href) : '';
      const link = memory.link(key), first = link.stamp !== stamp;
      if (first) link.stamp = stamp;
      if (table && href) embedSpan(i, 1, link, first, key);
      const c = memory.context(link, key, nearby || '');
      if (c.stamp !== stamp) { c.stamp = stamp; keepContext(c, !!href); }
      spans[o + 2] = c.at; spans[o + 3] = c.length;
    }
    const label = e.attributes?.section;
    if (label) {
      const t = memory.label(label), first = t.stamp !== stamp;
      if (first) { t.stamp = stamp; keepLabel(t); t.id = ++labels; }
      spans[o + 8] = t.at; spans[o + 9] = t.length; spans[o + 10] = t.id;
      if (table) embedSpan(i, 2, t, first, label);
    }
  }
  return { goal: parts, concepts: goalConcepts, own, ctx, tri, sec, spans, total: own.length + ctx.length + tri.length + sec.length, embed: table ? finishEmbed(n) : null };
}

/** Below this top probability (is_high_confidence's 0.5: the first element is more likely wrong than
 *  right) the returned list keeps the no-goal order's first KEEP_COUNT visible controls (docs/rerank.md). */
export const KEEP_BELOW = 0.5, KEEP_COUNT = 5;

/** The model's weights in Feature order (by name, so a reordered enum cannot misalign them). */
const WEIGHTS = (() => {
  const w = new Float64Array(Feature.COUNT);
  RERANK_MODEL.features.forEach((name, k) => {
    const at = (Feature as unknown as Record<string, number>)[name];
    if (at === undefined) throw new Error(`rerank model feature ${name} is unknown to the core`);
    w[at] = RERANK_MODEL.weights[k];
  });
  return w;
})();

export function goalCount(t: GoalTokens): number {
  return t.goal.words.length + t.goal.trigrams.length + t.concepts.length + t.goal.listWords.length + t.goal.nounWords.length;
}

/** Before `prepare`: the core holds the goal-embedding table the request uses (loaded once). */
export function readyGoal(core: CoreBackend, t: GoalTokens): void {
  if (t.embed) readyEmbed(core, t.embed);
}

/** Writes the goal, the tokens and the model into the prepared core. */
export function writeGoal(core: CoreBackend, n: number, t: GoalTokens): void {
  const c = core.i32(Buf.IN_I32);
  const tokens = core.i32(Buf.TOKENS);
  // TOKENS holds the own words, then the contexts, then the trigrams, then the section labels' words.
  const ownAt = 0, ctxAt = t.own.length, triAt = ctxAt + t.ctx.length, secAt = triAt + t.tri.length;
  tokens.set(t.own.view(), ownAt);
  tokens.set(t.ctx.view(), ctxAt);
  tokens.set(t.tri.view(), triAt);
  tokens.set(t.sec.view(), secAt);
  const s = t.spans;
  for (let i = 0; i < n; i++) {
    const o = SPAN * i;
    c[I32In.OWN_START * n + i] = ownAt + s[o]; c[I32In.OWN_LEN * n + i] = s[o + 1];
    c[I32In.CTX_START * n + i] = ctxAt + s[o + 2]; c[I32In.CTX_LEN * n + i] = s[o + 3];
    c[I32In.TRI_START * n + i] = triAt + s[o + 4]; c[I32In.TRI_LEN * n + i] = s[o + 5];
    c[I32In.OWN_COUNT * n + i] = s[o + 6]; c[I32In.TRI_COUNT * n + i] = s[o + 7];
    c[I32In.SEC_START * n + i] = secAt + s[o + 8]; c[I32In.SEC_LEN * n + i] = s[o + 9]; c[I32In.SEC_ID * n + i] = s[o + 10];
  }
  const goal = core.i32(Buf.GOAL);
  goal.set(t.goal.words, 0);
  goal.set(t.goal.trigrams, t.goal.words.length);
  goal.set(t.concepts, t.goal.words.length + t.goal.trigrams.length);
  goal.set(t.goal.listWords, t.goal.words.length + t.goal.trigrams.length + t.concepts.length);
  goal.set(t.goal.nounWords, t.goal.words.length + t.goal.trigrams.length + t.concepts.length + t.goal.listWords.length);
  core.f64(Buf.WEIGHTS).set(WEIGHTS);
  const params = core.f64(Buf.PARAMS);
  params[Param.HAS_GOAL] = 1;
  params[Param.GOAL_WORDS] = t.goal.words.length;
  params[Param.GOAL_TRIGRAMS] = t.goal.trigrams.length;
  params[Param.GOAL_CONCEPTS] = t.concepts.length;
  params[Param.GOAL_LIST_WORDS] = t.goal.listWords.length;
  params[Param.GOAL_NOUN_WORDS] = t.goal.nounWords.length;
  params[Param.INTENT] = t.goal.intent;
  params[Param.ORDINAL] = t.goal.ordinal;
  params[Param.MIN_CONFIDENCE] = RERANK_MODEL.minConfidence;
  params[Param.FUSION] = RERANK_MODEL.fusion;
  params[Param.KEEP_BELOW] = KEEP_BELOW;
  params[Param.KEEP_COUNT] = KEEP_COUNT;
  if (t.embed) writeEmbed(core, n, t.embed);
}
