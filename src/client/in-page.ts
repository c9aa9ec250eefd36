// The rank core as one script a page can run (build/rank-page.js, an IIFE with the Wasm inlined):
// the helpers for Playwright for Python inject it beside the collector and pass collections in and
// results out as JSON strings, so Python ranks with this very core and request builder, never a
// port of them. It installs `window.__sightlineRank` once per window; the Wasm is compiled on the
// first rank (a page whose Content-Security-Policy forbids Wasm refuses that, and the caller ranks in
// a blank page instead).
import { Ranker } from '../rank/ranker.ts';
import { instantiateCore } from '../rank/backend.ts';
import { embedTable, parseEmbedTable, useEmbedTable } from '../rank/embed-table.ts';
import type { CollectResult } from '../collect/types.ts';
import { snapshotRequest, LOCAL_LIMIT_CAP, type RequestOptions } from './request.ts';

/** The rank core's bytes, base64, put in by scripts/build.js. */
declare const __SIGHTLINE_RANK_WASM__: string;

export const RANK_PAGE_VERSION = 2;

export interface RankPageGlobal {
  version: number;
  /** Ranks a collection (CollectResult JSON) of the page at `url`; answers the RankResult as JSON. */
  rank(url: string, collected: string, options: string): Promise<string>;
  /** Whether the goal-embedding table is loaded (too big to inline: the caller passes it once per window). */
  hasTable(): boolean;
  /** Loads the goal-embedding table (goal-embed.bin, base64); a goal ranks as in the library only with it. */
  useTable(base64: string): void;
}

let ranker: Promise<Ranker> | undefined;

function fromBase64(b64: string): Uint8Array {
  const text = atob(b64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

async function rank(url: string, collected: string, options: string): Promise<string> {
  ranker ??= WebAssembly.compile(fromBase64(__SIGHTLINE_RANK_WASM__) as Uint8Array<ArrayBuffer>).then(instantiateCore).then((core) => new Ranker(core, { limitCap: LOCAL_LIMIT_CAP }));
  // A refused compile (CSP) is not kept: the next call may come after a navigation to another page.
  const r = await ranker.catch((err: unknown) => { ranker = undefined; throw err; });
  return JSON.stringify(r.rank(snapshotRequest(url, JSON.parse(collected) as CollectResult, JSON.parse(options) as RequestOptions)));
}

const host = globalThis as unknown as { __sightlineRank?: RankPageGlobal };
if (!host.__sightlineRank || host.__sightlineRank.version < RANK_PAGE_VERSION) host.__sightlineRank = {
  version: RANK_PAGE_VERSION, rank,
  hasTable: () => embedTable() !== null,
  useTable: (b64) => useEmbedTable(parseEmbedTable(fromBase64(b64))),
};
