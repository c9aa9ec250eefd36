// Observe map and visual: load the page in a pool page through the egress guard, settle it by engine,
// report (and on request dismiss) overlays, run the collector in every frame, rank with the core, and
// for visual take a PNG of the viewport (with the returned elements' boxes drawn when asked).
import type { Page } from 'playwright-core';
import type { CollectResult, CollectedElement } from '../../collect/types.ts';
import type { Overlay as FoundOverlay } from '../../collect/overlays.ts';
import type { Ranker } from '../../rank/ranker.ts';
import type { RankResult, SnapshotRequest } from '../../schema/snapshot.ts';
import type { MapTimings } from '../../schema/observe.ts';
import { collectPageTitled, highlight, inject, overlaysOf, resolve, selectorsOf, stillFading, waitForStable, FADE_WAIT_MS, FADING_WARNING, type FoundSelector } from '../../playwright/collect-page.ts';
import { boxesOf } from '../../collect/highlight.ts';
import type { PageRunner } from './browser-pool.ts';
import type { EgressGuard } from '../egress/egress.ts';
import { checkUrl, navigate, readSettled } from './navigate.ts';
import { blockHeavy, routeHeavy } from './block-heavy.ts';
import { adaptiveSettle, prepareSettle, type Inflight, type SettleReport } from './settle.ts';
import { applyCredentials, type Credentials } from '../egress/credentials.ts';

export type Engine = 'performance' | 'precision';

export interface MapJob {
  url: string;
  engine: Engine;
  limit: number;
  filter?: NonNullable<SnapshotRequest['options']>['filter'];
  /** The agent's goal: the core's rerank orders by it. */
  goal?: string;
  /** Selectors for the dom element shape. */
  selectors: boolean;
  screenshot: boolean;
  annotate: boolean;
  dismissOverlays: boolean;
  deadlineMs: number;
  /** The caller's request: aborting it closes the page and ends the work. */
  signal?: AbortSignal;
  /**
   * The performance engine's wait before collecting: `adaptive` (default) stops as soon as nothing
   * pending could change the page soon (settle.ts); `fixed` is the path before issue 19 (150 ms of DOM
   * quiet polled from Node, then each read in turn), kept for benchmarks and as a fallback.
   */
  settle?: 'adaptive' | 'fixed';
  /** The caller's cookies, headers and storage state, for this page only (credentials.ts). */
  credentials?: Credentials;
  /** Internal (benchmarks): called with a step's name as each step ends. */
  trace?: (step: string) => void;
  /** Internal (benchmarks): filled with where the adaptive settle's time went. */
  settleReport?: SettleReport;
}

export interface MappedOverlay extends Omit<FoundOverlay, 'dismiss_id'> { dismissed: boolean }

export interface PageMap {
  url: string;
  /** The document's title when it was collected. */
  title: string;
  ranked: RankResult;
  /** The collected elements by id (fields the ranked ones do not carry: tag, cursor, placeholder). */
  raw: Map<number, CollectedElement>;
  elementsTotal: number;
  overlays: MappedOverlay[];
  selectors: Map<number, FoundSelector | null>;
  screenshot: { png: Buffer; width: number; height: number } | null;
  blocked: string[];
  warnings: string[];
  timings: MapTimings;
}

/** Time kept for the screenshot itself when the fade wait runs up to the deadline. */
const SCREENSHOT_RESERVE_MS = 500;
/** Precision nudges lazy content by scrolling at most this many viewports down. */
const LAZY_SCREENS = 8;

async function settle(page: Page, engine: Engine, deadline: number, inflight?: Inflight, report?: SettleReport): Promise<boolean> {
  const left = () => Math.max(0, deadline - Date.now());
  if (engine === 'performance') {
    const adaptive = inflight ? await adaptiveSettle(page, inflight, Math.min(1500, left()), report) : null;
    return adaptive ?? waitForStable(page, { quietMs: 150, timeoutMs: Math.min(1500, left()), loaded: false });
  }
  await page.waitForLoadState('networkidle', { timeout: Math.min(5000, left()) }).catch(() => undefined);
  await page.evaluate(async (screens) => {
    await document.fonts.ready;
    // Lazy images and infinite lists load when they come into view: bring each screen into view once.
    const step = innerHeight;
    for (let i = 1; i <= screens && i * step < document.documentElement.scrollHeight; i++) {
      scrollTo(0, i * step);
      await new Promise((r) => setTimeout(r, 60));
    }
    scrollTo(0, 0);
  }, LAZY_SCREENS).catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: Math.min(2000, left()) }).catch(() => undefined);
  return waitForStable(page, { quietMs: 300, timeoutMs: Math.min(3000, left()) });
}

/** Clicks the control that closes each consent banner or dialog; tells which layers went away. */
async function dismiss(page: Page, found: FoundOverlay[], deadline: number): Promise<MappedOverlay[]> {
  for (const o of found) {
    if (o.dismiss_id === null || o.kind === 'layer') continue;
    const control = await resolve(page, o.dismiss_id).catch(() => null);
    await control?.click({ timeout: Math.min(2000, Math.max(0, deadline - Date.now())) }).catch(() => undefined);
  }
  await waitForStable(page, { quietMs: 150, timeoutMs: Math.min(1500, Math.max(0, deadline - Date.now())), loaded: false });
  const after = await overlaysOf(page).catch(() => found); // the click may have replaced the document
  // Still there: a layer of the same kind in about the same place.
  const stays = (o: FoundOverlay) => after.some((a) => a.kind === o.kind && Math.abs(a.bounds.y - o.bounds.y) < 4 && Math.abs(a.bounds.height - o.bounds.height) < 4);
  return found.map((o) => ({ ...reported(o), dismissed: !stays(o) }));
}

const reported = ({ kind, bounds, coverage }: FoundOverlay) => ({ kind, bounds, coverage });

function rankRequest(url: string, collected: CollectResult, job: MapJob): SnapshotRequest {
  return {
    url,
    viewport: collected.viewport,
    raw_elements: collected.raw_elements as unknown as SnapshotRequest['raw_elements'],
    goal: job.goal,
    options: { limit: job.limit, filter: job.filter },
    client_metrics: collected.client_metrics,
    client_diagnostics: collected.client_diagnostics,
  };
}

export async function mapPage(pool: PageRunner, guard: EgressGuard, ranker: Ranker, job: MapJob): Promise<PageMap> {
  await checkUrl(guard, job.url);
  const trace = job.trace ?? (() => undefined);
  trace('check-url');
  return pool.withPage(async (page) => {
    trace('context+page');
    const started = Date.now();
    const deadline = started + job.deadlineMs;
    const timings: MapTimings = { navigation: 0, settle: 0, collection: 0, ranking: 0, screenshot: 0, total: 0 };
    let mark = performance.now();
    const lap = (phase: keyof MapTimings) => { const now = performance.now(); timings[phase] += Math.round((now - mark) * 10) / 10; mark = now; };
    const warnings: string[] = [];

    // The adaptive path: the settle watcher is installed while the route is set up, not after it.
    const fast = job.engine === 'performance' && job.settle !== 'fixed';
    let inflight: Inflight | undefined;
    await applyCredentials(page, job.credentials, job.deadlineMs);
    if (job.engine === 'performance') {
      if (fast) [inflight] = await Promise.all([prepareSettle(page), blockHeavy(page)]);
      // The path before issue 19 (and 43): every request through a Playwright route.
      else await routeHeavy(page);
    }
    trace('route');
    const navigated = await navigate(page, job.url, job.engine === 'performance' ? 'domcontentloaded' : 'load', job.deadlineMs);
    lap('navigation');
    trace('goto');
    const read = await readSettled(page, navigated, deadline, warnings, async () => {
      const notes: string[] = [];
      // Fast: the collector is injected while the page settles (it changes nothing on the page).
      const [settled] = await Promise.all([settle(page, job.engine, deadline, inflight, job.settleReport), fast ? inject(page.mainFrame()) : undefined]);
      if (!settled) notes.push('page_unsettled: the page was still changing when it was collected');
      trace('settle-wait');
      // No check that the collector is there: overlaysOf and collectPage inject it when the document was
      // replaced since (one round trip less; issue 43).
      let found: FoundOverlay[], collected: CollectResult, title: string;
      let overlays: MappedOverlay[];
      if (fast && !job.dismissOverlays) {
        lap('settle');
        // Reads only, nothing clicked: overlays, elements and title are asked for at once.
        // The title comes with the main frame's collection (one round trip less than page.title()).
        [found, { collected, title }] = await Promise.all([overlaysOf(page), collectPageTitled(page)]);
        overlays = found.map((o) => ({ ...reported(o), dismissed: false }));
        lap('collection');
        trace('collect');
      } else {
        found = await overlaysOf(page);
        overlays = job.dismissOverlays ? await dismiss(page, found, deadline) : found.map((o) => ({ ...reported(o), dismissed: false }));
        lap('settle');
        trace('overlays');
        ({ collected, title } = await collectPageTitled(page));
        trace('collect');
      }
      if (collected.truncated) notes.push(`elements_truncated: ${collected.truncated} elements beyond the collector's limit were not listed`);
      if (collected.client_diagnostics.captcha.detected) notes.push(`captcha: the page shows a captcha (${collected.client_diagnostics.captcha.provider_hint ?? 'unknown provider'})`);
      lap('collection');
      trace('title');
      const ranked = ranker.rank(rankRequest(page.url(), collected, job));
      lap('ranking');
      trace('rank');
      const selectors = job.selectors ? await selectorsOf(page, ranked.elements.map((e) => e.id)) : new Map<number, FoundSelector | null>();
      lap('collection');

      let screenshot: PageMap['screenshot'] = null;
      if (job.screenshot) {
        // A page still fading in when collected would be captured blank: wait the fade out, within FADE_WAIT_MS
        // and the deadline (no round trip for the pages that were drawn).
        if (collected.fading && await stillFading(page, Math.min(FADE_WAIT_MS, deadline - Date.now() - SCREENSHOT_RESERVE_MS))) notes.push(FADING_WARNING);
        // Set-of-marks: the ids drawn are the result's ids (0-based, in result order).
        const clear = job.annotate ? await highlight(page, boxesOf(ranked.elements.map((e, i) => ({ ...e, id: i })))) : null;
        const png = await page.screenshot({ type: 'png', timeout: Math.max(1, deadline - Date.now()) });
        await clear?.();
        screenshot = { png, width: collected.viewport.width, height: collected.viewport.height };
        lap('screenshot');
      }
      return { collected, title, ranked, overlays, selectors, screenshot, notes };
    });
    const { collected, title, ranked, overlays, selectors, screenshot } = read;
    warnings.push(...read.notes);
    timings.total = Date.now() - started;
    const raw = new Map(collected.raw_elements.map((e) => [e.id, e]));
    return { url: page.url(), title, ranked, raw, elementsTotal: collected.raw_elements.length, overlays, selectors, screenshot, blocked: navigated.blocked, warnings, timings };
  }, job.deadlineMs, job.signal);
}
