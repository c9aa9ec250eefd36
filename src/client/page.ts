// Playwright helpers: collect every frame of a page, rank locally with the Wasm core (or through the
// API), and act on elements by their ids.
import type { Page } from 'playwright-core';
import type { CollectResult, CollectedElement } from '../collect/types.ts';
import type { RankResult, SnapshotRequest, SnapshotResponse, PreviousElement } from '../schema/snapshot.ts';
import { Ranker } from '../rank/ranker.ts';
import { loadWasmCore } from '../rank/load-node.ts';
import { boxesOf } from '../collect/highlight.ts';
import { collectPage, resolve, highlight as drawBoxes } from '../playwright/collect-page.ts';
import type { SightlineApi } from './api.ts';

export { collectPage, resolve, waitForStable } from '../playwright/collect-page.ts';

export interface SnapshotOptions {
  goal?: string;
  limit?: number;
  filter?: { min_area?: number; allowed_roles?: string[]; allowed_tags?: string[] };
  /** Elements of an earlier snapshot, for `diff_status`. */
  previous?: PreviousElement[];
  /** Rank through the API instead of locally. */
  api?: SightlineApi;
}


function request(page: Page, collected: CollectResult, options: SnapshotOptions): SnapshotRequest {
  return {
    url: page.url(),
    viewport: collected.viewport,
    raw_elements: collected.raw_elements as CollectedElement[] as SnapshotRequest['raw_elements'],
    goal: options.goal,
    options: { limit: options.limit, filter: options.filter, previous: options.previous },
    client_metrics: collected.client_metrics,
    client_diagnostics: collected.client_diagnostics,
  };
}

let localRanker: Promise<Ranker> | undefined;

/** Collects every frame and ranks: locally with the Wasm core, or through the API when `api` is given. */
export async function snapshot(page: Page, options: SnapshotOptions & { api: SightlineApi }): Promise<SnapshotResponse>;
export async function snapshot(page: Page, options?: SnapshotOptions): Promise<RankResult>;
export async function snapshot(page: Page, options: SnapshotOptions = {}): Promise<RankResult | SnapshotResponse> {
  const body = request(page, await collectPage(page), options);
  if (options.api) return options.api.snapshot(body);
  localRanker ??= loadWasmCore().then((core) => new Ranker(core, { limitCap: Number.MAX_SAFE_INTEGER }));
  return (await localRanker).rank(body);
}

export async function click(page: Page, id: number): Promise<void> {
  await (await resolve(page, id)).click();
}

/** Replaces the value of a text field (or contenteditable) with `text`, as a user typing would. */
export async function type(page: Page, id: number, text: string): Promise<void> {
  await (await resolve(page, id)).fill(text);
}

export async function scrollTo(page: Page, id: number): Promise<void> {
  await (await resolve(page, id)).scrollIntoViewIfNeeded();
}

/** Draws each element's box and id over the page (main frame); returns a remover. */
export function highlight(page: Page, result: Pick<RankResult, 'elements'>): Promise<() => Promise<void>> {
  return drawBoxes(page, boxesOf(result.elements));
}
