// Playwright helpers: collect every frame of a page, rank locally with the Wasm core (or through the
// API), and act on elements by their ids.
import type { ElementHandle, Page } from 'playwright-core';
import type { CollectResult } from '../collect/types.ts';
import type { RankResult, SnapshotRequest, SnapshotResponse } from '../schema/snapshot.ts';
import { snapshotRequest, LOCAL_LIMIT_CAP, type RequestOptions } from './request.ts';
import { Ranker } from '../rank/ranker.ts';
import { loadWasmCore } from '../rank/load-node.ts';
import { boxesOf } from '../collect/highlight.ts';
import { collectPage, resolve, highlight as drawBoxes } from '../playwright/collect-page.ts';
import type { SightlineApi } from './api.ts';
import { fitElements } from '../budget/elements.ts';

export { collectPage, collectPageTitled, resolve, waitForStable, stillFading, FADING_WARNING } from '../playwright/collect-page.ts';

export interface SnapshotOptions extends RequestOptions {
  /** Rank through the API instead of locally. */
  api?: SightlineApi;
}

const request = (page: Page, collected: CollectResult, options: SnapshotOptions): SnapshotRequest => snapshotRequest(page.url(), collected, options);

let localRanker: Promise<Ranker> | undefined;

/** Ranks an earlier collection of `page` locally with the Wasm core (the MCP server keeps the raw
 *  elements of each snapshot for the next one's `previous`). */
export async function rankCollected(page: Page, collected: CollectResult, options: Omit<SnapshotOptions, 'api'> = {}): Promise<RankResult & Budgeted> {
  localRanker ??= loadWasmCore().then((core) => new Ranker(core, { limitCap: LOCAL_LIMIT_CAP }));
  const ranked = (await localRanker).rank(request(page, collected, options));
  if (options.maxTokens == null) return ranked;
  const fit = await fitElements(ranked.elements, options.maxTokens);
  return { ...ranked, elements: fit.elements, token_count: fit.token_count, truncated: fit.truncated };
}

/** What a result ranked with `maxTokens` adds. */
export interface Budgeted { token_count?: number; truncated?: boolean }

/** Collects every frame and ranks: locally with the Wasm core, or through the API when `api` is given. */
export async function snapshot(page: Page, options: SnapshotOptions & { api: SightlineApi }): Promise<SnapshotResponse>;
export async function snapshot(page: Page, options?: SnapshotOptions): Promise<RankResult & Budgeted>;
export async function snapshot(page: Page, options: SnapshotOptions = {}): Promise<(RankResult & Budgeted) | SnapshotResponse> {
  const collected = await collectPage(page);
  if (options.api) return options.api.snapshot(request(page, collected, options));
  return rankCollected(page, collected, options);
}

/** An action on an element that could not be done, with what an agent can do about it. */
export class ActionError extends Error {
  constructor(message: string, readonly id?: number) { super(message); this.name = 'ActionError'; }
}

export interface ActionOptions {
  /** Milliseconds to wait for the element to be actionable (visible, enabled, not covered); default 5000. */
  timeout?: number;
}

const DEFAULT_ACTION_TIMEOUT = 5000;

/** Playwright's long call logs, said in a line: what was wrong with the element. */
function explain(id: number, verb: string, err: unknown): ActionError {
  if (err instanceof ActionError) return err;
  const text = String((err as Error)?.message ?? err);
  const covered = /<([a-z0-9-]+)[^>]*>.*?intercepts pointer events/is.exec(text);
  if (covered) return new ActionError(`element ${id} is covered by another element (<${covered[1]}>): close the overlay or dialog first`, id);
  if (/is gone/.test(text)) return new ActionError(`unknown or stale id ${id}: ${text}; take a new snapshot`, id);
  if (/not an? <select>|Element is not a <select>/i.test(text)) return new ActionError(`element ${id} is not a <select>: use click for custom drop-downs`, id);
  if (/not a checkbox or radio|Not a checkbox or radio button/i.test(text)) return new ActionError(`element ${id} is not a checkbox or radio button`, id);
  if (/did not find some options/i.test(text)) return new ActionError(`element ${id} has no such option`, id);
  if (/not an <input>, <textarea>|cannot be filled|not editable/i.test(text)) return new ActionError(`element ${id} cannot be typed into (not a text field)`, id);
  if (/element is not enabled|disabled/i.test(text)) return new ActionError(`element ${id} is disabled`, id);
  if (/element is not visible|not visible/i.test(text)) return new ActionError(`element ${id} is not visible`, id);
  if (/Timeout \d+ms exceeded/.test(text)) return new ActionError(`could not ${verb} element ${id} in time: ${text.split('\n')[0]}`, id);
  return new ActionError(`could not ${verb} element ${id}: ${text.split('\n')[0]}`, id);
}

async function act<T>(page: Page, id: number, verb: string, fn: (el: ElementHandle<Element>) => Promise<T>): Promise<T> {
  try {
    return await fn(await resolve(page, id));
  } catch (err) {
    throw explain(id, verb, err);
  }
}

export async function click(page: Page, id: number, options: ActionOptions = {}): Promise<void> {
  await act(page, id, 'click', (el) => el.click({ timeout: options.timeout ?? DEFAULT_ACTION_TIMEOUT }));
}

/** Replaces the value of a text field (or contenteditable) with `text`, as a user typing would; with
 *  `submit`, presses Enter after. */
export async function type(page: Page, id: number, text: string, options: ActionOptions & { submit?: boolean } = {}): Promise<void> {
  const timeout = options.timeout ?? DEFAULT_ACTION_TIMEOUT;
  await act(page, id, 'type into', async (el) => {
    await el.fill(text, { timeout });
    if (options.submit) await el.press('Enter', { timeout });
  });
}

/** Chooses options of a <select> by value or visible label; answers the values now selected. */
export async function select(page: Page, id: number, values: string | string[], options: ActionOptions = {}): Promise<string[]> {
  return act(page, id, 'select in', (el) => el.selectOption(values, { timeout: options.timeout ?? DEFAULT_ACTION_TIMEOUT }));
}

/** Checks (or, with `checked: false`, unchecks) a checkbox or radio button. */
export async function check(page: Page, id: number, options: ActionOptions & { checked?: boolean } = {}): Promise<void> {
  await act(page, id, 'check', (el) => el.setChecked(options.checked ?? true, { timeout: options.timeout ?? DEFAULT_ACTION_TIMEOUT }));
}

export async function hover(page: Page, id: number, options: ActionOptions = {}): Promise<void> {
  await act(page, id, 'hover', (el) => el.hover({ timeout: options.timeout ?? DEFAULT_ACTION_TIMEOUT }));
}

/** Presses a key or chord ("Enter", "Escape", "Control+A") on an element, or on the page without `id`. */
export async function press(page: Page, key: string, id?: number, options: ActionOptions = {}): Promise<void> {
  if (id === undefined) {
    try { await page.keyboard.press(key); } catch (err) { throw new ActionError(`could not press ${key}: ${(err as Error).message.split('\n')[0]}`); }
    return;
  }
  await act(page, id, `press ${key} on`, (el) => el.press(key, { timeout: options.timeout ?? DEFAULT_ACTION_TIMEOUT }));
}

/** Goes back in the tab's history; false when there was nothing to go back to. */
export async function back(page: Page, options: ActionOptions = {}): Promise<boolean> {
  const before = page.url();
  const response = await page.goBack({ timeout: options.timeout ?? 15_000, waitUntil: 'domcontentloaded' }).catch((err) => {
    throw new ActionError(`could not go back: ${(err as Error).message.split('\n')[0]}`);
  });
  return response !== null || page.url() !== before;
}

export async function scrollTo(page: Page, id: number, options: ActionOptions = {}): Promise<void> {
  await act(page, id, 'scroll to', (el) => el.scrollIntoViewIfNeeded({ timeout: options.timeout ?? DEFAULT_ACTION_TIMEOUT }));
}

/** Draws each element's box and id over the page (main frame); returns a remover. */
export function highlight(page: Page, result: Pick<RankResult, 'elements'>): Promise<() => Promise<void>> {
  return drawBoxes(page, boxesOf(result.elements));
}
