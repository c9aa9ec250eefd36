// POST /v1/observe (SPEC, legacy door). Read mode: fetch through the egress guard, extract the main
// content in a worker thread (extract-pool.ts; a PDF's text with pdf.ts), answer Markdown/text/HTML. Map and visual: load the page in our Chromium, collect, rank with
// the core, and for visual a screenshot. Credits are held before the work, posted when it succeeds, and
// voided when the page cannot be loaded, the client leaves or the deadline passes (holds.ts): failed loads
// cost nothing.
import { Compile } from 'typebox/compile';
import { SightlineError, badRequest } from '../../schema/errors.ts';
import { ObserveRequest, MAP_DEFAULT_LIMIT, type ReadResult, type MapResult, type VisualResult, type Screenshot, type MapTextResult, type VisualTextResult } from '../../schema/observe.ts';
import type { Ranker } from '../../rank/ranker.ts';
import { toPrompt } from '../../rank/prompt.ts';
import { mapPage, type Engine, type PageMap } from '../../observe/browser/map.ts';
import { shapeElements } from '../../observe/browser/map-shape.ts';
import type { ScreenshotStore } from '../screenshots.ts';
import type { HttpRequest } from '../http.ts';
import type { Store } from '../../store/store.ts';
import { fetchPage, guardedAgent, type FetchOptions } from '../../observe/egress/fetch-page.ts';
import { EgressError, parseHttpUrl, refusalError } from '../../observe/egress/egress.ts';
import type { ExtractPool } from '../../observe/worker/extract-pool.ts';
import { renderPage, looksLikeScriptShell } from '../../observe/browser/render.ts';
import { plainTextPage } from '../../observe/read/read.ts';
import { pageCaller, type PageRunner } from '../../observe/browser/browser-pool.ts';
import { admit } from '../auth.ts';
import type { KeyLimits } from '../limits.ts';
import { withHold } from '../holds.ts';
import { parseJsonBody } from '../body.ts';
import { json, asSightlineError } from '../reply.ts';
import { fieldWarnings } from '../../schema/fields.ts';
import type { Route } from '../router.ts';
import type { Metrics } from '../metrics.ts';
import { credentialsOf, type Credentials } from '../../observe/egress/credentials.ts';
import { fitElements } from '../../budget/elements.ts';
import { fitContent } from '../../observe/read/read-budget.ts';
import { cacheKey, type ObserveCache } from '../observe-cache.ts';

/** SPEC "Limits". */
export const OBSERVE_COSTS = { read: 1, map: 2, map_precision: 10, visual: 10 } as const;

const check = Compile(ObserveRequest);

export interface ObserveDeps {
  store: Store;
  limits: KeyLimits;
  fetch: Omit<FetchOptions, 'signal'>;
  /** The browser pool, started on first use (launching Chromium only when a page needs it). */
  browser: () => Promise<PageRunner>;
  /** Read mode's extraction, in worker threads: a hostile page must not stop the event loop. */
  extract: ExtractPool;
  /** The core with observe's limit cap (MAP_MAX_LIMIT). */
  ranker: Ranker;
  screenshots: ScreenshotStore;
  /** Base of screenshot URLs; empty: http:// + the request's Host. */
  publicUrl: string;
  metrics?: Metrics;
  /** How long a hold may stay unresolved before the sweeper voids it. */
  holdTtlMs: number;
  /** Map's path (--map-path): the performance engine's settle follows it; fast when absent. */
  mapPath?: 'fast' | 'legacy';
  /** Stored results for options.max_age_s (observe-cache.ts); without it the option is ignored. */
  cache?: ObserveCache;
}

/** options.max_age_s: a stored result young enough answers (same credits as the mode); else `work` runs and
 *  its result is stored. The store failing to answer or to keep it makes a miss, never an error. */
async function cachedOr<R extends object>(deps: ObserveDeps, cache: { key: string; maxAgeS: number; mode: string }, cost: number, remaining: number, work: () => Promise<R>): Promise<R> {
  const hit = await deps.cache!.get(cache.key, cache.maxAgeS).catch(() => undefined);
  deps.metrics?.cache(cache.mode, hit !== undefined);
  if (hit) return { ...hit.result, credits_used: cost, credits_remaining: remaining, cached: true, cached_at: new Date(hit.storedMs).toISOString() } as R;
  const fresh = await work();
  await deps.cache!.put(cache.key, fresh).catch(() => undefined);
  return { ...fresh, cached: false };
}

function validate(body: unknown): ObserveRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid request: the body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (b.url === undefined) throw badRequest('Missing required field: url');
  if (typeof b.url !== 'string' || !b.url.trim()) throw new SightlineError('invalid_url', 'url must be a non-empty string');
  // A URL that cannot be loaded is refused before credits are held (as /v1/snapshot refuses an invalid
  // request before any charge): a key with no credits gets the 400 that names its mistake, not a 402.
  try { parseHttpUrl(b.url.trim()); } catch (err) { if (err instanceof EgressError) throw refusalError(err); throw err; }
  if (b.mode != null && !['read', 'map', 'visual'].includes(b.mode as string)) {
    throw new SightlineError('invalid_mode', `Unknown mode ${JSON.stringify(b.mode)}: use read, map or visual`);
  }
  const [first] = check.Errors(body);
  if (first) {
    const path = first.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    throw badRequest(`Invalid request: ${path} ${first.message}`);
  }
  const o = (body as ObserveRequest).options;
  if (o?.elements === false && o.format !== 'text' && b.mode != null && b.mode !== 'read') {
    throw badRequest('Invalid request: options.elements false needs options.format "text" (the result would be empty)');
  }
  return body as ObserveRequest;
}

/** The request with its credentials taken out (never logged or stored: they live in this object only). */
interface Observing { body: ObserveRequest; credentials?: Credentials }

async function read(deps: ObserveDeps, agent: ReturnType<typeof guardedAgent>, req: HttpRequest, { body, credentials }: Observing, remaining: number, key: string): Promise<ReadResult> {
  const { fetch, browser } = deps;
  const render = body.options?.render ?? 'auto';
  const format = body.format ?? 'markdown';
  const readOptions = { format, contentLimit: body.options?.contentLimit ?? undefined, mainContent: body.options?.main_content ?? undefined, includeLinks: body.options?.include_links === true };
  let source: { url: string; html: string; redirects: string[]; blocked: string[]; warnings: string[]; pdf?: Uint8Array };
  if (render === 'always') {
    try {
      const shown = await renderPage(await browser(), fetch.guard, body.url.trim(), fetch.deadlineMs, req.signal, credentials);
      source = { ...shown, redirects: [] };
    } catch (err) {
      // Chromium will not show a download: if it is a PDF, it is read as one (no browser needed).
      if (!(err instanceof SightlineError) || err.code !== 'unsupported_content_type') throw err;
      const page = await fetchPage(body.url.trim(), fetch, agent, req.signal, credentials);
      if (!page.pdf) throw err;
      source = { url: page.url, html: '', redirects: page.redirects, blocked: [], warnings: [], pdf: page.pdf };
    }
  } else {
    // The guard inside fetchPage checks the scheme and every address, at every redirect.
    const page = await fetchPage(body.url.trim(), fetch, agent, req.signal, credentials);
    const html = page.contentType === 'text/plain' ? plainTextPage(page.text) : page.text;
    source = { url: page.url, html, redirects: page.redirects, blocked: [], warnings: [], pdf: page.pdf };
  }
  if (source.pdf) {
    // A PDF: its text laid out as Markdown in a worker (pdf.ts); never rendered, same credits.
    const pdf = source.pdf;
    const started = performance.now();
    let result;
    try { result = await deps.extract.readPdf(pdf, source.url, readOptions, req.signal, key); } finally { deps.metrics?.extraction((performance.now() - started) / 1000); }
    return {
      status: 'success', url: source.url, content: result.content, title: result.title, description: result.description,
      credits_used: OBSERVE_COSTS.read, credits_remaining: remaining, format, truncated: result.truncated, warnings: result.warnings, redirects: source.redirects, rendered: false,
      pages: result.pages, ...(result.links ? { links: result.links } : {}),
    };
  }
  const extract = async (html: string, url: string) => {
    const started = performance.now();
    try { return await deps.extract.read(html, url, readOptions, req.signal, key); } finally { deps.metrics?.extraction((performance.now() - started) / 1000); }
  };
  let result = await extract(source.html, source.url);
  let rendered = render === 'always';
  if (render === 'auto' && looksLikeScriptShell(source.html, result.textLength)) {
    const shown = await renderPage(await browser(), fetch.guard, source.url, fetch.deadlineMs, req.signal, credentials);
    source = { ...shown, redirects: source.redirects };
    result = await extract(source.html, source.url);
    rendered = true;
  }
  const warnings = [...source.warnings, ...result.warnings, ...blockedWarnings(source.blocked)];
  return {
    status: 'success', url: source.url, content: result.content, title: result.title, description: result.description,
    credits_used: OBSERVE_COSTS.read, credits_remaining: remaining, format, truncated: result.truncated, warnings, redirects: source.redirects, rendered,
    ...(result.links ? { links: result.links } : {}),
  };
}

/** options.max_tokens on read: the content's first whole blocks within the budget (read-budget.ts). */
async function budgetRead(result: ReadResult, body: ObserveRequest): Promise<ReadResult> {
  const budget = body.options?.max_tokens;
  if (budget == null) return result;
  const fit = await fitContent(result.content, (body.format ?? 'markdown'), budget);
  return { ...result, content: fit.content, token_count: fit.token_count, truncated: result.truncated || fit.truncated };
}

const blockedWarnings = (blocked: string[]) => blocked.slice(0, 20).map((u) => `blocked: ${u} (egress guard)`);

/** A modal, dialog or consent banner still covers part of the page. */
const modalDetected = (page: PageMap) => page.ranked.modal_detected || page.overlays.some((v) => !v.dismissed && v.kind !== 'layer');

/** The compact text form of the page's ranked elements, with the ids the JSON elements carry (0-based in
 *  result order, or the collector's uid in the dom shape). */
function textOf(page: PageMap, o: NonNullable<ObserveRequest['options']>, kept = page.ranked.elements.length): string {
  const ranked = page.ranked.elements.slice(0, kept);
  const elements = o.element_shape === 'dom' ? ranked : ranked.map((e, i) => ({ ...e, id: i }));
  return toPrompt({ url: page.url, viewport: page.ranked.viewport, modal_detected: modalDetected(page), elements }, { title: page.title });
}

/** options.format "text": the compact form beside (or, with elements: false, instead of) the elements. */
function withText<R extends MapResult>(result: R, text: string | undefined, o: NonNullable<ObserveRequest['options']>): R | (Omit<R, 'interactable_elements' | 'text'> & { text: string }) {
  if (o.format !== 'text' || text === undefined) return result;
  if (o.elements !== false) return { ...result, text };
  const { interactable_elements: _, text: __, ...rest } = result;
  return { ...rest, text };
}

async function map(deps: ObserveDeps, req: HttpRequest, { body, credentials }: Observing, visual: boolean, engine: Engine, cost: number, remaining: number): Promise<MapResult | VisualResult | MapTextResult | VisualTextResult> {
  const o = body.options ?? {};
  const shape = o.element_shape ?? 'common';
  const page = await mapPage(await deps.browser(), deps.fetch.guard, deps.ranker, {
    url: body.url.trim(), engine, limit: o.limit ?? MAP_DEFAULT_LIMIT, filter: o.filter, goal: o.goal ?? undefined, selectors: shape === 'dom',
    screenshot: visual, annotate: visual && o.annotate === true, dismissOverlays: o.dismiss_overlays === true, deadlineMs: deps.fetch.deadlineMs, signal: req.signal,
    settle: deps.mapPath === 'legacy' ? 'fixed' : 'adaptive', credentials,
  });
  deps.metrics?.ranking('observe', page.timings.ranking / 1000);
  let shaped = shapeElements(page, { shape, visualCues: o.include_visual_cues ?? !visual, attributes: o.include_attributes ?? visual });
  let text = o.format === 'text' ? textOf(page, o) : undefined;
  let budget: { token_count: number; truncated: boolean } | undefined;
  if (o.max_tokens != null) {
    // The most important elements that fit, a prefix of the ranking; counted as what the model reads.
    const fit = await fitElements<MapResult['interactable_elements'][number]>(shaped, o.max_tokens, o.format === 'text' ? { text: (kept) => textOf(page, o, kept.length) } : {});
    shaped = fit.elements as MapResult['interactable_elements'];
    text = fit.text;
    budget = { token_count: fit.token_count, truncated: fit.truncated };
  }
  const result: MapResult = {
    status: 'success', url: page.url, viewport: page.ranked.viewport,
    interactable_elements: shaped,
    credits_used: cost, credits_remaining: remaining, engine, elements_total: page.elementsTotal,
    modal_detected: modalDetected(page),
    modal_grids: page.ranked.modal_grids ?? [], overlays: page.overlays,
    ...(o.goal?.trim() && page.ranked.ml_rerank ? { ml_rerank: page.ranked.ml_rerank } : {}),
    warnings: [...page.warnings, ...blockedWarnings(page.blocked)], timings_ms: page.timings, ...budget,
  };
  if (!visual || !page.screenshot) return withText(result, text, o);
  const { png, width, height } = page.screenshot;
  const common = { format: 'png' as const, size_bytes: png.length, width, height, annotated: o.annotate === true };
  let screenshot: Screenshot;
  if (o.screenshot_delivery === 'base64') {
    screenshot = { type: 'base64', data: png.toString('base64'), ...common };
  } else {
    const stored = await deps.screenshots.save(png, deps.publicUrl || `http://${req.host}`);
    screenshot = { type: 'url', url: stored.url, expires_at: stored.expires_at, ...common };
  }
  return withText({ ...result, screenshot }, text, o);
}

export function observeRoute(deps: ObserveDeps): Route {
  const agent = guardedAgent(deps.fetch.guard);
  return async (req) => {
    const account = await admit(deps.store, req, deps.limits);
    const hold = { store: deps.store, ttlMs: deps.holdTtlMs, metrics: deps.metrics, route: 'observe' as const };
    const body = validate(parseJsonBody(req));
    const observing: Observing = { body, credentials: credentialsOf(body, new URL(body.url.trim())) };
    const mode = body.mode ?? 'read';
    const o = body.options ?? {};
    // Cached reads: read, and map without a goal; never a request that carries credentials.
    const cache = deps.cache && o.max_age_s != null && !observing.credentials && (mode === 'read' || (mode === 'map' && !o.goal?.trim()))
      ? { key: cacheKey(mode, body.url.trim(), body.format ?? 'markdown', o as Record<string, unknown>), maxAgeS: o.max_age_s, mode } : undefined;
    // max_age_s where no cache applies: said in the result, so a caller does not count on it.
    const uncached = o.max_age_s == null || cache || !deps.cache ? undefined
      : `not_cached: options.max_age_s does not apply ${observing.credentials ? 'to a request with cookies, headers or storage_state' : mode === 'visual' ? 'to visual' : 'to map with a goal'}`;
    const noted = <R extends { warnings: string[] }>(result: R): R => (uncached ? { ...result, warnings: [...result.warnings, uncached] } : result);
    // Never a silent drop: fields not read (unknown, misplaced, or for another mode) lead the warnings.
    const ignored = fieldWarnings(ObserveRequest, body, mode);
    const started = performance.now();
    // The engine label: read's is `fetch`, or `browser` when the page was rendered.
    let engineLabel = mode === 'read' ? (body.options?.render === 'always' ? 'browser' : 'fetch') : '';
    const timed = async (work: () => Promise<{ warnings: string[] }>) => {
      let outcome = 'ok';
      try {
        const result = await work();
        return json(200, ignored.length ? { ...result, warnings: [...ignored, ...result.warnings] } : result);
      } catch (err) { outcome = asSightlineError(err).code; throw err; } finally {
        deps.metrics?.observe(mode, engineLabel, outcome, (performance.now() - started) / 1000);
      }
    };
    if (mode === 'read') {
      return timed(async () => {
        // The browser pages and extraction processes are shared fairly among keys: the work runs as this key's.
        const result = await pageCaller.run(String(account.id), () => withHold(hold, req, account.id, OBSERVE_COSTS.read, 'read', async (remaining) => {
          const work = () => read(deps, agent, req, observing, remaining, String(account.id));
          return budgetRead(await (cache ? cachedOr(deps, cache, OBSERVE_COSTS.read, remaining, work) : work()), body);
        }));
        if (result.rendered) engineLabel = 'browser';
        if (result.cached) engineLabel = 'cache';
        return noted(result);
      });
    }
    const visual = mode === 'visual';
    // SPEC: visual always uses the precision engine.
    const engine: Engine = visual || body.options?.render_quality === 'precision' ? 'precision' : 'performance';
    engineLabel = engine;
    const cost = visual ? OBSERVE_COSTS.visual : engine === 'precision' ? OBSERVE_COSTS.map_precision : OBSERVE_COSTS.map;
    const what = visual ? 'visual' : `map (${engine})`;
    // The browser pages are shared fairly among keys (PageSlots): the work runs as this key's.
    return timed(() => pageCaller.run(String(account.id), () => withHold(hold, req, account.id, cost, what, async (remaining) => {
      const work = () => map(deps, req, observing, visual, engine, cost, remaining);
      if (!cache) return noted(await work());
      const result = await cachedOr(deps, cache, cost, remaining, work);
      if (result.cached) engineLabel = 'cache';
      return result;
    })));
  };
}
