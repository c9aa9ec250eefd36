// The goal-embedding part of encoding (only with a goal and a table): WordPiece tokens of the goal
// and, per element, of its own text, its link's path and its section label, as rows of the table.
// The core holds the table (loaded into it once per process, per core instance), so a request hands
// over token ids only. Each distinct text of a request is one span its elements share; a text's ids are
// kept across requests with the text (text-memory.ts), under a slot number by which the core keeps the
// sum of its tokens' rows (whatever the goal) and its cosine with the goal (while the goal stays).
import { Buf, I32In, Param } from '../../assembly/layout.ts';
import type { EmbedTable } from './embed-table.ts';
import type { CoreBackend } from './backend.ts';
import { Hashes, memory, hrefWords, MAX_TEXTS, type Text } from './text-memory.ts';

/** Tokens read per text: a label's first words say what it is (and bound the core's work). */
const GOAL_TOKENS = 48, OWN_TOKENS = 16, LINK_TOKENS = 16, SECTION_TOKENS = 16;
const LIMITS = [OWN_TOKENS, LINK_TOKENS, SECTION_TOKENS];
/** The core's rings (powers of two): kept cosines, one per kept text; kept sums of the most recently
 *  numbered texts (dim f64 each: 4 MB with the shipped table's 128). */
const KEPT_COSINES = MAX_TEXTS, KEPT_SUMS = 4096;

export interface EmbedSpans {
  table: EmbedTable;
  /** Table row of each token: the goal's first, then every distinct text's. */
  ids: Int32Array;
  goalLen: number;
  /** Per element: own start, own length, link start, link length, section start, section length. */
  spans: Int32Array;
  /** Beside `ids`: at each span's start, 1 + its text's slot. */
  slots: Int32Array;
  /** Kept cosines count only within one epoch: a new one starts with a new goal. */
  epoch: number;
}

const out = new Hashes(), slots = new Hashes();
/** One text's ids while it is tokenised. */
const spelled: number[] = [];
let spans = new Int32Array(0);
/** The goal last seen and its epoch. */
const kept = { goal: '', epoch: 0 };
/** Epochs are numbered across tables and cores: a core compares the epoch it kept a cosine in. */
let lastEpoch = 0;
const MAX_EPOCH = 0x3fffffff;
/** This request's table and its goal's tokens. */
let table: EmbedTable | null = null;
let goalTokens = 0;

/** Starts a request's tokens: the goal's first. */
export function startEmbed(t: EmbedTable, goal: string, n: number): void {
  table = t;
  if (kept.goal !== goal || kept.epoch === 0) { kept.goal = goal; kept.epoch = newEpoch(); }
  out.length = 0;
  const goalLen = t.tokenizer.tokenize(goal, GOAL_TOKENS, out);
  slots.length = 0;
  slots.fill(goalLen);
  if (spans.length < 6 * n) spans = new Int32Array(6 * n);
  spans.fill(0, 0, 6 * n);
  goalTokens = goalLen;
}

/**
 * Element i's span of kind k (0 own text, 1 link, 2 section label) is text `t`'s tokens: `key`'s (a
 * link's: its path's and query's), read the first time a table needs them. A text's are written once
 * per request (`first`: the request's first sight of it); a kept text is numbered once.
 */
export function embedSpan(i: number, k: number, t: Text, first: boolean, key: string): void {
  if (first) {
    if (!t.ids) {
      spelled.length = 0;
      table!.tokenizer.tokenize(k === 1 ? hrefWords(key) : key, LIMITS[k], spelled);
      t.ids = Int32Array.from(spelled);
      memory.number(t);
    }
    t.embAt = out.length;
    out.append(t.ids);
    slots.fill(t.ids.length);
    if (t.ids.length > 0) slots.data[t.embAt] = t.slot + 1;
  }
  spans[6 * i + 2 * k] = t.embAt; spans[6 * i + 2 * k + 1] = t.ids!.length;
}

export function finishEmbed(n: number): EmbedSpans {
  return { table: table!, ids: out.view(), goalLen: goalTokens, spans: spans.subarray(0, 6 * n), slots: slots.view(), epoch: kept.epoch };
}

/** A new epoch; when they run out, every core's kept cosines are dropped (tables are loaded again). */
function newEpoch(): number {
  if (lastEpoch === MAX_EPOCH) { lastEpoch = 0; forget(); }
  return ++lastEpoch;
}

/** Every core loads its table again (which empties what it keeps): for when numbers would repeat. */
function forget(): void { tagged = new WeakMap(); }

/** Tags of the tables loaded into cores (a core holds one; tableTag() says which). */
let tagged = new WeakMap<EmbedTable, number>();
let lastTag = 0;
/** The memory's era the tags are of: slot numbers that start over make every core forget. */
let era = 0;

/** Before `prepare` (loading a table ends a request): makes sure the core holds the request's table, loading
 *  it unless the core holds it already (once per process and core instance): the rows and scales are copied
 *  in, and every later request hands over token ids only. */
export function readyEmbed(core: CoreBackend, t: EmbedSpans): void {
  if (era !== memory.era) { era = memory.era; forget(); }
  let tag = tagged.get(t.table);
  if (tag === undefined) tagged.set(t.table, tag = ++lastTag);
  if (core.tableTag() === tag) return;
  core.loadTable(t.table.size, t.table.dim, tag, KEPT_COSINES, KEPT_SUMS);
  core.i8(Buf.EMB_TABLE).set(t.table.rows);
  core.f64(Buf.EMB_TABLE_SCALES).set(t.table.scales);
}

/** Allocates and fills the core's embedding inputs (after `prepare`; views are taken afresh). */
export function writeEmbed(core: CoreBackend, n: number, t: EmbedSpans): void {
  core.prepareEmbed(t.ids.length);
  core.i32(Buf.EMB_IDS).set(t.ids);
  core.i32(Buf.EMB_SLOTS).set(t.slots);
  const c = core.i32(Buf.IN_I32);
  const columns = [I32In.EMB_OWN_START, I32In.EMB_OWN_LEN, I32In.EMB_LINK_START, I32In.EMB_LINK_LEN, I32In.EMB_SEC_START, I32In.EMB_SEC_LEN];
  for (let k = 0; k < 6; k++) {
    const at = columns[k] * n;
    for (let i = 0; i < n; i++) c[at + i] = t.spans[6 * i + k];
  }
  const params = core.f64(Buf.PARAMS);
  params[Param.EMB_DIM] = t.table.dim;
  params[Param.EMB_GOAL_LEN] = t.goalLen;
  params[Param.EMB_EPOCH] = t.epoch;
}
