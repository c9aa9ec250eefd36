// Messages between the popup and the service worker.
import type { RankResult } from '../src/schema/snapshot.ts';

export type Request =
  | { type: 'snapshot'; tabId: number; limit?: number; goal?: string }
  | { type: 'highlight'; tabId: number; result: RankResult }
  | { type: 'clear'; tabId: number };

export type Reply = { ok: true; result?: RankResult } | { ok: false; error: string };
