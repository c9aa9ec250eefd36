// The goal-embedding part of encoding (only with a goal and a table): WordPiece tokens of the goal
// and, per element, of its own text, its link's path and its section label, as rows of the table.
// Each distinct text is tokenised once and its elements share one span; each distinct token's row
// crosses into the core once (EMB_ROWS), so a request moves a few hundred KB, not the table.
import { Buf, I32In, Param } from '../../assembly/layout.ts';
import type { RawElement } from '../schema/snapshot.ts';
import type { EmbedTable } from './embed-table.ts';
import type { CoreBackend } from './backend.ts';

/** Tokens read per text: a label's first words say what it is (and bound the core's work). */
const GOAL_TOKENS = 48, OWN_TOKENS = 16, LINK_TOKENS = 16, SECTION_TOKENS = 16;

export interface EmbedSpans {
  table: EmbedTable;
  /** Local row of each token: the goal's first, then every distinct text's. */
  ids: Int32Array;
  goalLen: number;
  /** Table row of each local row. */
  rows: Int32Array;
  /** Per element: own start, own length, link start, link length, section start, section length. */
  spans: Int32Array;
}

/** Token rows of a request, each table row numbered by first use (a stamp per table row, so nothing is
 *  cleared between requests). */
class Tokens {
  data = new Int32Array(8192);
  length = 0;
  rows: number[] = [];
  constructor(private readonly local: Int32Array, private readonly stamp: Int32Array, private readonly request: number) {}
  push(id: number): void {
    let r: number;
    if (this.stamp[id] === this.request) r = this.local[id];
    else { r = this.rows.length; this.stamp[id] = this.request; this.local[id] = r; this.rows.push(id); }
    if (this.length === this.data.length) { const grown = new Int32Array(this.data.length * 2); grown.set(this.data); this.data = grown; }
    this.data[this.length++] = r;
  }
}

const scratch = new WeakMap<EmbedTable, { local: Int32Array; stamp: Int32Array; request: number }>();

/** `ownTexts`: each element's own text, as the hashing pass read it. */
export function embedSpans(table: EmbedTable, elements: RawElement[], goal: string, ownTexts: string[], hrefWords: (href: string) => string): EmbedSpans {
  const n = elements.length, tok = table.tokenizer;
  let mine = scratch.get(table);
  if (!mine) scratch.set(table, mine = { local: new Int32Array(table.size), stamp: new Int32Array(table.size), request: 0 });
  if (mine.request >= 0x3fffffff) { mine.stamp.fill(0); mine.request = 0; }
  const out = new Tokens(mine.local, mine.stamp, ++mine.request);
  const goalLen = tok.tokenize(goal, GOAL_TOKENS, out);
  const spans = new Int32Array(6 * n);
  // text -> [start, length]: a page repeats its labels, links and section names
  const seen = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const limits = [OWN_TOKENS, LINK_TOKENS, SECTION_TOKENS];
  // key: the text, or for a link its href (its words are read only the first time)
  const span = (i: number, k: number, key: string) => {
    if (!key) return;
    const start = seen[k].get(key);
    if (start !== undefined) { spans[6 * i + 2 * k] = start >>> 8; spans[6 * i + 2 * k + 1] = start & 0xff; return; }
    const at = out.length, len = tok.tokenize(k === 1 ? hrefWords(key) : key, limits[k], out);
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
  return { table, ids: out.data.subarray(0, out.length), goalLen, rows: Int32Array.from(out.rows), spans };
}

/** Allocates and fills the core's embedding buffers (after `prepare`; views are taken afresh). */
export function writeEmbed(core: CoreBackend, n: number, t: EmbedSpans): void {
  const { dim } = t.table;
  core.prepareEmbed(t.ids.length, t.rows.length, dim);
  core.i32(Buf.EMB_IDS).set(t.ids);
  const rows = core.i8(Buf.EMB_ROWS), scales = core.f64(Buf.EMB_SCALES);
  const from = t.table.rows, fromScales = t.table.scales;
  for (let r = 0; r < t.rows.length; r++) {
    const id = t.rows[r];
    rows.set(from.subarray(id * dim, (id + 1) * dim), r * dim);
    scales[r] = fromScales[id];
  }
  const c = core.i32(Buf.IN_I32);
  const columns = [I32In.EMB_OWN_START, I32In.EMB_OWN_LEN, I32In.EMB_LINK_START, I32In.EMB_LINK_LEN, I32In.EMB_SEC_START, I32In.EMB_SEC_LEN];
  for (let k = 0; k < 6; k++) {
    const at = columns[k] * n;
    for (let i = 0; i < n; i++) c[at + i] = t.spans[6 * i + k];
  }
  const params = core.f64(Buf.PARAMS);
  params[Param.EMB_DIM] = dim;
  params[Param.EMB_GOAL_LEN] = t.goalLen;
}
