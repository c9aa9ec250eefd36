// The goal-embedding part of encoding (only with a goal and a table): WordPiece tokens of the goal
// and, per element, of its own text, its link's path and its section label, as rows of the table.
// The core holds the table (loaded into it once per process, per core instance), so a request hands
// over token ids only. Each distinct text of a request is one span its elements share; a text's ids are
// kept across requests (an agent observes a page again and again, and a site's pages share menus), under
// a slot number by which the core keeps the text's cosine with the goal while the goal stays the same.
import { Buf, I32In, Param } from '../../assembly/layout.ts';
import type { RawElement } from '../schema/snapshot.ts';
import type { EmbedTable } from './embed-table.ts';
import type { CoreBackend } from './backend.ts';

/** Tokens read per text: a label's first words say what it is (and bound the core's work). */
const GOAL_TOKENS = 48, OWN_TOKENS = 16, LINK_TOKENS = 16, SECTION_TOKENS = 16;
/** Texts (own texts, links and section labels) whose token ids are kept across requests, each in a
 *  slot of its own for which the core keeps a cosine; they start over when a request could run out. */
const SLOTS = 49152;
/** Longer texts (a paragraph, not a label) are read each time, not kept: the memory stays small. */
export const KEEP_CHARS = 256;

export interface EmbedSpans {
  table: EmbedTable;
  /** Table row of each token: the goal's first, then every distinct text's. */
  ids: Int32Array;
  goalLen: number;
  /** Per element: own start, own length, link start, link length, section start, section length. */
  spans: Int32Array;
  /** Beside `ids`: at each span's start, 1 + its text's slot. */
  slots: Int32Array;
  /** Kept cosines count only within one epoch: a new one starts with a new goal or new slot numbers. */
  epoch: number;
}

/** A growable i32 buffer reused across requests (encoding is synchronous). */
class Ids {
  data = new Int32Array(8192);
  length = 0;
  push(id: number): void {
    if (this.length === this.data.length) this.grow(1);
    this.data[this.length++] = id;
  }
  /** Appends `count` zeros. */
  fill(count: number): void {
    if (this.length + count > this.data.length) this.grow(count);
    this.data.fill(0, this.length, this.length + count);
    this.length += count;
  }
  append(ids: Int32Array): void {
    if (this.length + ids.length > this.data.length) this.grow(ids.length);
    this.data.set(ids, this.length);
    this.length += ids.length;
  }
  private grow(more: number): void {
    const grown = new Int32Array(Math.max(this.data.length * 2, this.length + more));
    grown.set(this.data);
    this.data = grown;
  }
}

const out = new Ids(), slots = new Ids();
/** One text's ids while it is tokenised. */
const spelled: number[] = [];
/** A kept text: its token ids and its slot. */
interface Known { ids: Int32Array; slot: number }
/** Per table: own text, link (by href) and section label -> Known, across requests; the goal last seen. */
interface Kept { kinds: Map<string, Known>[]; slots: number; goal: string; epoch: number }
const cached = new WeakMap<EmbedTable, Kept>();
/** Epochs are numbered across tables and cores: a core compares the epoch it kept a cosine in. */
let lastEpoch = 0;
const MAX_EPOCH = 0x3fffffff;

/** `ownTexts`: each element's own text, as the hashing pass read it. */
export function embedSpans(table: EmbedTable, elements: RawElement[], goal: string, ownTexts: string[], hrefWords: (href: string) => string): EmbedSpans {
  const n = elements.length, tok = table.tokenizer;
  let kept = cached.get(table);
  if (!kept) cached.set(table, kept = { kinds: [new Map(), new Map(), new Map()], slots: 0, goal: '', epoch: 0 });
  // New slot numbers (the texts start over when their slots run out) or a new goal: a new epoch.
  if (kept.slots > 0 && kept.slots + 3 * n > SLOTS) { for (const m of kept.kinds) m.clear(); kept.slots = 0; kept.epoch = 0; }
  if (kept.goal !== goal || kept.epoch === 0) { kept.goal = goal; kept.epoch = newEpoch(); }
  const known = kept.kinds;
  out.length = 0;
  const goalLen = tok.tokenize(goal, GOAL_TOKENS, out);
  slots.length = 0;
  slots.fill(goalLen);
  const spans = new Int32Array(6 * n);
  // text -> start * 256 + length in this request: a page repeats its labels, links and section names
  const seen = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const limits = [OWN_TOKENS, LINK_TOKENS, SECTION_TOKENS];
  // key: the text, or for a link its href (its words are read only when its ids are not known)
  const span = (i: number, k: number, key: string) => {
    if (!key) return;
    const packed = seen[k].get(key);
    if (packed !== undefined) { spans[6 * i + 2 * k] = packed >>> 8; spans[6 * i + 2 * k + 1] = packed & 0xff; return; }
    let text = known[k].get(key);
    if (!text) {
      spelled.length = 0;
      tok.tokenize(k === 1 ? hrefWords(key) : key, limits[k], spelled);
      // A long text, or one past the last slot (a request of more than SLOTS / 3 elements), is neither
      // kept nor numbered.
      text = { ids: Int32Array.from(spelled), slot: key.length <= KEEP_CHARS && kept.slots < SLOTS ? kept.slots++ : -1 };
      if (text.slot >= 0) known[k].set(key, text);
    }
    const at = out.length, len = text.ids.length;
    out.append(text.ids);
    slots.fill(len);
    if (len > 0) slots.data[at] = text.slot + 1;
    seen[k].set(key, at * 256 + len);
    spans[6 * i + 2 * k] = at; spans[6 * i + 2 * k + 1] = len;
  };
  for (let i = 0; i < n; i++) {
    const e = elements[i];
    span(i, 0, ownTexts[i]);
    const href = e.attributes?.href;
    if (href) span(i, 1, String(href));
    const section = e.attributes?.section;
    if (section) span(i, 2, section);
  }
  return { table, ids: out.data.subarray(0, out.length), goalLen, spans, slots: slots.data.subarray(0, slots.length), epoch: kept.epoch };
}

/** A new epoch; when they run out, every core's kept cosines are dropped (tables are loaded again). */
function newEpoch(): number {
  if (lastEpoch === MAX_EPOCH) { lastEpoch = 0; tagged = new WeakMap(); }
  return ++lastEpoch;
}

/** Tags of the tables loaded into cores (a core holds one; tableTag() says which). */
let tagged = new WeakMap<EmbedTable, number>();
let lastTag = 0;

/** Before `prepare` (loading a table ends a request): makes sure the core holds the request's table, loading
 *  it unless the core holds it already (once per process and core instance): the rows and scales are copied
 *  in, and every later request hands over token ids only. */
export function readyEmbed(core: CoreBackend, t: EmbedSpans): void {
  let tag = tagged.get(t.table);
  if (tag === undefined) tagged.set(t.table, tag = ++lastTag);
  if (core.tableTag() === tag) return;
  core.loadTable(t.table.size, t.table.dim, tag, SLOTS);
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
