// The goal's part of encoding: per element, hashes of its own words (text, name, aria label,
// placeholder, value), of its context (href path, nearby text) and of its own trigrams, written into
// TOKENS with their spans; the goal's hashes, intent and ordinal; the model's weights. Only runs when
// the request has a goal.
import { Buf, Feature, I32In, Param } from '../../assembly/layout.ts';
import type { RawElement } from '../schema/snapshot.ts';
import { parseGoal, scanText, startText, counted, trigramCount, HashFilter, TEXT_WORDS, type Scan, type GoalParts, type HashSink } from './goal.ts';
import { linkConcepts, tablesFor, PHRASES, PHRASE_ENDS } from './concepts.ts';
import { RERANK_MODEL } from './rerank-model.ts';
import type { CoreBackend } from './backend.ts';
import { embedTable } from './embed-table.ts';
import { embedSpans, readyEmbed, writeEmbed, KEEP_CHARS, type EmbedSpans } from './encode-embed.ts';

/** A growable i32 buffer reused across requests (encoding is synchronous): no array per element. */
class Hashes implements HashSink {
  data = new Int32Array(4096);
  length = 0;
  push(h: number): void {
    if (this.length === this.data.length) { const grown = new Int32Array(this.data.length * 2); grown.set(this.data); this.data = grown; }
    this.data[this.length++] = h;
  }
  view(): Int32Array { return this.data.subarray(0, this.length); }
  append(hashes: Int32Array): void {
    while (this.length + hashes.length > this.data.length) { const grown = new Int32Array(this.data.length * 2); grown.set(this.data); this.data = grown; }
    this.data.set(hashes, this.length);
    this.length += hashes.length;
  }
}

/**
 * Per element, where its kept hashes start in each buffer (element i's span ends where i + 1's starts)
 * and how many distinct words and trigrams it has in all (trigrams: when any is kept; 0 otherwise, as the
 * share is 0 then). Only hashes the goal holds are kept: the core counts matches and divides by these
 * totals, so the rest need not cross into it. Section labels: each distinct label read once; per
 * element its span in `sec` and the label's id (0: none sent).
 */
export interface GoalTokens { goal: GoalParts; concepts: number[]; own: Hashes; ctx: Hashes; tri: Hashes; starts: Int32Array; counts: Int32Array; sec: Hashes; secSpans: Int32Array; total: number; embed: EmbedSpans | null }

const own = new Hashes(), ctx = new Hashes(), tri = new Hashes(), sec = new Hashes();
/** Label -> [start, length, id] in `sec` for this request: a menu's fifty links share one label. */
const sections = new Map<string, [number, number, number]>();
/** What a text gave for one goal: its kept own hashes and trigrams and its counts. */
interface OwnRead { words: Int32Array; trigrams: Int32Array; wordCount: number; trigramCount: number }
/**
 * What texts gave for the last goal, across requests (an agent sends one goal with snapshot after
 * snapshot of pages that share most of their texts): own text -> OwnRead, link -> nearby text -> kept
 * context hashes. What a text gives depends on the goal only (its words, trigrams and concepts filter
 * and find), so the memory starts over when the goal changes, and when it holds READ_TEXTS texts.
 */
const read = { goal: '', own: new Map<string, OwnRead>(), ctx: new Map<string, Map<string, Int32Array>>(), size: 0 };
const READ_TEXTS = 16384;
/** The concepts found in the text being read: a few at most, so a short array. */
class Found {
  private items: number[] = [];
  has(h: number): boolean { return this.items.includes(h); }
  add(h: number): void { this.items.push(h); }
  clear(): void { if (this.items.length) this.items.length = 0; }
}
const seenConcepts = new Found();
const NO_PHRASES = new Map<number, number[]>(), NO_ENDS = new HashFilter([]), ALL_ENDS = new HashFilter(PHRASE_ENDS);
/** The element's own text: words (counted, goal's kept), trigrams (counted, goal's kept), concepts. */
const ownScan: Scan = { words: own, wordFilter: null, countWords: true, trigrams: tri, trigramFilter: null, concepts: false, conceptSink: own, seen: seenConcepts, limit: 0, phrases: NO_PHRASES, ends: NO_ENDS };
/** Its context: link path and nearby text, words the goal holds, concepts in the path's first words. */
const ctxScan: Scan = { words: ctx, wordFilter: null, countWords: false, trigrams: null, trigramFilter: null, concepts: false, conceptSink: ctx, seen: seenConcepts, limit: 0, phrases: NO_PHRASES, ends: NO_ENDS };
/** A link's concepts (its site, share intent, mailto/tel) that the goal names. */
const linkSink = { filter: null as HashFilter | null, push(h: number): void { if (this.filter!.has(h)) ctx.push(h); } };
/** A section label: the words the goal holds (the core counts matches only). */
const secScan: Scan = { words: sec, wordFilter: null, countWords: false, trigrams: null, trigramFilter: null, concepts: false, conceptSink: sec, seen: seenConcepts, limit: 0, phrases: NO_PHRASES, ends: NO_ENDS };
/** A label names its concept in its first words ("Log in", not a paragraph's tenth word). */
const LABEL_WORDS = 10;
/** Path words of a link read for concepts ("/account/login"); the nearby text after them is not. */
const PATH_WORDS = 6;

/** Text, name, aria label, placeholder, value (unless redacted), inferred label: each once (a button's
 *  name usually repeats its text). */
function ownText(e: RawElement): string {
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

/** The path and query of a link: "https://shop.example/cart?step=2" -> "/cart?step=2" (the tokeniser
 *  splits on the punctuation). The host names the site, not the link. */
function hrefWords(href: string): string {
  const scheme = href.indexOf('://');
  const path = scheme >= 0 ? href.indexOf('/', scheme + 3) : 0;
  if (path < 0) return '';
  const rest = href.slice(path);
  if (!rest.includes('%')) return rest;
  try { return decodeURIComponent(rest); } catch { return rest; }
}

export function goalTokens(elements: RawElement[], goal: string): GoalTokens {
  const n = elements.length;
  own.length = ctx.length = tri.length = sec.length = 0;
  sections.clear();
  // The goal's concepts first: elements are searched only for those (none named: no search at all).
  const concepts = new Hashes();
  seenConcepts.clear();
  startText();
  scanText(goal, { words: new Hashes(), wordFilter: null, countWords: false, trigrams: null, trigramFilter: null, concepts: true, conceptSink: concepts, seen: seenConcepts, limit: TEXT_WORDS, phrases: PHRASES, ends: ALL_ENDS });
  const goalConcepts = [...concepts.view()];
  const parts = parseGoal(goal);
  const tables = goalConcepts.length ? tablesFor(goalConcepts) : null;
  // What the core compares each span with: own words and context with the goal's words and concepts,
  // trigrams with its trigrams.
  const wordFilter = new HashFilter([...parts.words, ...goalConcepts]);
  ownScan.wordFilter = ctxScan.wordFilter = secScan.wordFilter = linkSink.filter = wordFilter;
  ownScan.trigramFilter = new HashFilter(parts.trigrams);
  ownScan.concepts = ctxScan.concepts = tables !== null;
  if (tables) { ownScan.phrases = ctxScan.phrases = tables.phrases; ownScan.ends = ctxScan.ends = tables.ends; }
  ownScan.limit = LABEL_WORDS;
  ctxScan.limit = PATH_WORDS;
  // starts[3i], [3i+1], [3i+2]: own, context and trigram starts of element i; entry 3n closes the spans.
  // counts[2i], [2i+1]: its distinct own words (concepts included) and trigrams.
  const starts = new Int32Array(3 * n + 3);
  // secSpans[3i], [3i+1], [3i+2]: start and length in `sec`, and 1 + the label's id (0: none sent).
  const secSpans = new Int32Array(3 * n);
  const counts = new Int32Array(2 * n);
  // Pages repeat their texts ("Read more", a menu in the header and the footer, links to one page),
  // and an agent's snapshots repeat pages: a text read for this goal before gives what it gave then.
  if (read.goal !== goal || read.size >= READ_TEXTS) { read.goal = goal; read.own.clear(); read.ctx.clear(); read.size = 0; }
  const table = embedTable();
  const texts: string[] = table ? new Array(n) : [];
  for (let i = 0; i < n; i++) {
    const e = elements[i];
    starts[3 * i] = own.length; starts[3 * i + 1] = ctx.length; starts[3 * i + 2] = tri.length;
    const label = e.attributes?.section;
    if (label) {
      let span = sections.get(label);
      if (!span) {
        const start = sec.length;
        startText();
        scanText(label, secScan);
        span = [start, sec.length - start, sections.size + 1];
        sections.set(label, span);
      }
      secSpans[3 * i] = span[0]; secSpans[3 * i + 1] = span[1]; secSpans[3 * i + 2] = span[2];
    }
    const text = ownText(e);
    if (table) texts[i] = text;
    if (text) {
      let known = read.own.get(text);
      if (!known) {
        // Concepts join the words they came from; the core tells them apart by the goal's concept set.
        seenConcepts.clear();
        startText();
        scanText(text, ownScan);
        known = { words: own.data.slice(starts[3 * i], own.length), trigrams: tri.data.slice(starts[3 * i + 2], tri.length), wordCount: counted.words, trigramCount: trigramCount() };
        if (text.length <= KEEP_CHARS) { read.own.set(text, known); read.size++; }
      } else {
        own.append(known.words);
        tri.append(known.trigrams);
      }
      counts[2 * i] = known.wordCount; counts[2 * i + 1] = known.trigramCount;
    }
    const href = e.attributes?.href;
    const nearby = e.attributes?.nearby_text;
    if (!href && !nearby) continue;
    const link = href || '', near = nearby || '';
    const keep = link.length + near.length <= KEEP_CHARS;
    let byNearby = keep ? read.ctx.get(link) : undefined;
    const knownCtx = byNearby?.get(near);
    if (knownCtx) { ctx.append(knownCtx); continue; }
    seenConcepts.clear();
    startText();
    // The path's concepts only: the nearby text is read after it, as one text.
    ctxScan.concepts = tables !== null && !!href;
    if (href) scanText(hrefWords(href), ctxScan);
    if (nearby) scanText(nearby, ctxScan);
    if (href && tables?.links) linkConcepts(String(href), linkSink, seenConcepts);
    if (keep) {
      if (!byNearby) read.ctx.set(link, byNearby = new Map());
      byNearby.set(near, ctx.data.slice(starts[3 * i + 1], ctx.length));
      read.size++;
    }
  }
  starts[3 * n] = own.length; starts[3 * n + 1] = ctx.length; starts[3 * n + 2] = tri.length;
  // Meaning: the goal-embedding table's tokens, when a table is loaded.
  const embed = table ? embedSpans(table, elements, goal, texts, hrefWords) : null;
  return { goal: parts, concepts: goalConcepts, own, ctx, tri, starts, counts, sec, secSpans, total: own.length + ctx.length + tri.length + sec.length, embed };
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
  return t.goal.words.length + t.goal.trigrams.length + t.concepts.length + t.goal.listWords.length;
}

/** Before `prepare`: the core holds the goal-embedding table the request uses (loaded once). */
export function readyGoal(core: CoreBackend, t: GoalTokens): void {
  if (t.embed) readyEmbed(core, t.embed);
}

/** Writes the goal, the tokens and the model into the prepared core. */
export function writeGoal(core: CoreBackend, n: number, t: GoalTokens): void {
  const c = core.i32(Buf.IN_I32);
  const tokens = core.i32(Buf.TOKENS);
  // TOKENS holds every element's own words, then every context, then every trigram list, then the
  // distinct section labels' words.
  const base = [0, t.own.length, t.own.length + t.ctx.length];
  const secBase = base[2] + t.tri.length;
  tokens.set(t.own.view(), base[0]);
  tokens.set(t.ctx.view(), base[1]);
  tokens.set(t.tri.view(), base[2]);
  tokens.set(t.sec.view(), secBase);
  const columns = [[I32In.OWN_START, I32In.OWN_LEN], [I32In.CTX_START, I32In.CTX_LEN], [I32In.TRI_START, I32In.TRI_LEN]] as const;
  const { starts, counts } = t;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      c[columns[k][0] * n + i] = base[k] + starts[3 * i + k];
      c[columns[k][1] * n + i] = starts[3 * (i + 1) + k] - starts[3 * i + k];
    }
    c[I32In.SEC_START * n + i] = secBase + t.secSpans[3 * i];
    c[I32In.SEC_LEN * n + i] = t.secSpans[3 * i + 1];
    c[I32In.SEC_ID * n + i] = t.secSpans[3 * i + 2];
    c[I32In.OWN_COUNT * n + i] = counts[2 * i];
    c[I32In.TRI_COUNT * n + i] = counts[2 * i + 1];
  }
  const goal = core.i32(Buf.GOAL);
  goal.set(t.goal.words, 0);
  goal.set(t.goal.trigrams, t.goal.words.length);
  goal.set(t.concepts, t.goal.words.length + t.goal.trigrams.length);
  goal.set(t.goal.listWords, t.goal.words.length + t.goal.trigrams.length + t.concepts.length);
  core.f64(Buf.WEIGHTS).set(WEIGHTS);
  const params = core.f64(Buf.PARAMS);
  params[Param.HAS_GOAL] = 1;
  params[Param.GOAL_WORDS] = t.goal.words.length;
  params[Param.GOAL_TRIGRAMS] = t.goal.trigrams.length;
  params[Param.GOAL_CONCEPTS] = t.concepts.length;
  params[Param.GOAL_LIST_WORDS] = t.goal.listWords.length;
  params[Param.INTENT] = t.goal.intent;
  params[Param.ORDINAL] = t.goal.ordinal;
  params[Param.MIN_CONFIDENCE] = RERANK_MODEL.minConfidence;
  params[Param.FUSION] = RERANK_MODEL.fusion;
  params[Param.KEEP_BELOW] = KEEP_BELOW;
  params[Param.KEEP_COUNT] = KEEP_COUNT;
  if (t.embed) writeEmbed(core, n, t.embed);
}
