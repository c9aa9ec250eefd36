// The goal-embedding part of encoding (only with a goal and a table): WordPiece tokens of the goal
// and, per element, of its own text, its link's path and its section label, as rows of the table.
// The core holds the table (loaded into it once per process, per core instance), so a request hands
// over token ids only. Each distinct text of a request is one span its elements share; a text's ids are
// kept across requests (an agent observes a page again and again, and a site's pages share menus).
import { Buf, I32In, Param } from '../../assembly/layout.ts';
import type { RawElement } from '../schema/snapshot.ts';
import type { EmbedTable } from './embed-table.ts';
import type { CoreBackend } from './backend.ts';

/** Tokens read per text: a label's first words say what it is (and bound the core's work). */
const GOAL_TOKENS = 48, OWN_TOKENS = 16, LINK_TOKENS = 16, SECTION_TOKENS = 16;
/** Texts (per kind) whose token ids are kept across requests; the cache starts over when full. */
const CACHE_TEXTS = 16384;

export interface EmbedSpans {
  table: EmbedTable;
  /** Table row of each token: the goal's first, then every distinct text's. */
  ids: Int32Array;
  goalLen: number;
  /** Per element: own start, own length, link start, link length, section start, section length. */
  spans: Int32Array;
}

/** A growable i32 buffer reused across requests (encoding is synchronous). */
class Ids {
  data = new Int32Array(8192);
  length = 0;
  push(id: number): void {
    if (this.length === this.data.length) this.grow(1);
    this.data[this.length++] = id;
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

const out = new Ids();
/** One text's ids while it is tokenised. */
const spelled: number[] = [];
/** Per table: own text, link (by href) and section label -> token ids, across requests. */
const cached = new WeakMap<EmbedTable, Map<string, Int32Array>[]>();

/** `ownTexts`: each element's own text, as the hashing pass read it. */
export function embedSpans(table: EmbedTable, elements: RawElement[], goal: string, ownTexts: string[], hrefWords: (href: string) => string): EmbedSpans {
  const n = elements.length, tok = table.tokenizer;
  let known = cached.get(table);
  if (!known) cached.set(table, known = [new Map(), new Map(), new Map()]);
  out.length = 0;
  const goalLen = tok.tokenize(goal, GOAL_TOKENS, out);
  const spans = new Int32Array(6 * n);
  // text -> start * 256 + length in this request: a page repeats its labels, links and section names
  const seen = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const limits = [OWN_TOKENS, LINK_TOKENS, SECTION_TOKENS];
  // key: the text, or for a link its href (its words are read only when its ids are not known)
  const span = (i: number, k: number, key: string) => {
    if (!key) return;
    const packed = seen[k].get(key);
    if (packed !== undefined) { spans[6 * i + 2 * k] = packed >>> 8; spans[6 * i + 2 * k + 1] = packed & 0xff; return; }
    let ids = known[k].get(key);
    if (!ids) {
      spelled.length = 0;
      tok.tokenize(k === 1 ? hrefWords(key) : key, limits[k], spelled);
      ids = Int32Array.from(spelled);
      if (known[k].size >= CACHE_TEXTS) known[k].clear();
      known[k].set(key, ids);
    }
    const at = out.length;
    out.append(ids);
    seen[k].set(key, at * 256 + ids.length);
    spans[6 * i + 2 * k] = at; spans[6 * i + 2 * k + 1] = ids.length;
  };
  for (let i = 0; i < n; i++) {
    const e = elements[i];
    span(i, 0, ownTexts[i]);
    const href = e.attributes?.href;
    if (href) span(i, 1, String(href));
    const section = e.attributes?.section;
    if (section) span(i, 2, section);
  }
  return { table, ids: out.data.subarray(0, out.length), goalLen, spans };
}

/** Tags of the tables loaded into cores (a core holds one; tableTag() says which). */
const tags = new WeakMap<EmbedTable, number>();
let lastTag = 0;

/** Loads `table` into the core unless it holds it already (once per process and core instance): the
 *  rows and scales are copied in, and every later request hands over token ids only. */
function ensureTable(core: CoreBackend, table: EmbedTable): void {
  let tag = tags.get(table);
  if (tag === undefined) tags.set(table, tag = ++lastTag);
  if (core.tableTag() === tag) return;
  core.loadTable(table.size, table.dim, tag);
  core.i8(Buf.EMB_TABLE).set(table.rows);
  core.f64(Buf.EMB_TABLE_SCALES).set(table.scales);
}

/** Makes sure the core holds the request's table; call before `prepare` (loading a table ends a request). */
export function readyEmbed(core: CoreBackend, t: EmbedSpans): void {
  ensureTable(core, t.table);
}

/** Allocates and fills the core's embedding inputs (after `prepare`; views are taken afresh). */
export function writeEmbed(core: CoreBackend, n: number, t: EmbedSpans): void {
  core.prepareEmbed(t.ids.length);
  core.i32(Buf.EMB_IDS).set(t.ids);
  const c = core.i32(Buf.IN_I32);
  const columns = [I32In.EMB_OWN_START, I32In.EMB_OWN_LEN, I32In.EMB_LINK_START, I32In.EMB_LINK_LEN, I32In.EMB_SEC_START, I32In.EMB_SEC_LEN];
  for (let k = 0; k < 6; k++) {
    const at = columns[k] * n;
    for (let i = 0; i < n; i++) c[at + i] = t.spans[6 * i + k];
  }
  const params = core.f64(Buf.PARAMS);
  params[Param.EMB_DIM] = t.table.dim;
  params[Param.EMB_GOAL_LEN] = t.goalLen;
}
