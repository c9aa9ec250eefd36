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
import { mapPage, type Engine, type PageMap } from '../../observe/map.ts';
import { shapeElements } from '../../observe/map-shape.ts';
import type { ScreenshotStore } from '../screenshots.ts';
import type { HttpRequest } from '../http.ts';
import type { Store } from '../../store/store.ts';
import { fetchPage, guardedAgent, type FetchOptions } from '../../observe/fetch-page.ts';
import { EgressError, parseHttpUrl, refusalError } from '../../observe/egress.ts';
import type { ExtractPool } from '../../observe/extract-pool.ts';
import { renderPage, looksLikeScriptShell } from '../../observe/render.ts';
import { plainTextPage } from '../../observe/read.ts';
import type { PageRunner } from '../../observe/browser-pool.ts';
import { admit } from '../auth.ts';
import type { KeyLimits } from '../limits.ts';
import { withHold } from '../holds.ts';
import { parseJsonBody } from '../body.ts';
import { json, asSightlineError } from '../reply.ts';
import { fieldWarnings } from '../../schema/fields.ts';
import type { Route } from '../router.ts';
import type { Metrics } from '../metrics.ts';

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

async function read(deps: ObserveDeps, agent: ReturnType<typeof guardedAgent>, req: HttpRequest, body: ObserveRequest, remaining: number): Promise<ReadResult> {
  const { fetch, browser } = deps;
  const render = body.options?.render ?? 'auto';
  const format = body.format ?? 'markdown';
  const readOptions = { format, contentLimit: body.options?.contentLimit ?? undefined, mainContent: body.options?.main_content ?? undefined, includeLinks: body.options?.include_links === true };
  let source: { url: string; html: string; redirects: string[]; blocked: string[]; warnings: string[]; pdf?: Uint8Array };
  if (render === 'always') {
    try {
      const shown = await renderPage(await browser(), fetch.guard, body.url.trim(), fetch.deadlineMs, req.signal);
      source = { ...shown, redirects: [] };
    } catch (err) {
      // Chromium will not show a download: if it is a PDF, it is read as one (no browser needed).
      if (!(err instanceof SightlineError) || err.code !== 'unsupported_content_type') throw err;
      const page = await fetchPage(body.url.trim(), fetch, agent, req.signal);
      if (!page.pdf) throw err;
      source = { url: page.url, html: '', redirects: page.redirects, blocked: [], warnings: [], pdf: page.pdf };
    }
  } else {
    // The guard inside fetchPage checks the scheme and every address, at every redirect.
    const page = await fetchPage(body.url.trim(), fetch, agent, req.signal);
    const html = page.contentType === 'text/plain' ? plainTextPage(page.text) : page.text;
    source = { url: page.url, html, redirects: page.redirects, blocked: [], warnings: [], pdf: page.pdf };
  }
  if (source.pdf) {
    // A PDF: its text laid out as Markdown in a worker (pdf.ts); never rendered, same credits.
    const pdf = source.pdf;
    const started = performance.now();
    let result;
    try { result = await deps.extract.readPdf(pdf, source.url, readOptions, req.signal); } finally { deps.metrics?.extraction((performance.now() - started) / 1000); }
    return {
      status: 'success', url: source.url, content: result.content, title: result.title, description: result.description,
      credits_used: OBSERVE_COSTS.read, credits_remaining: remaining, format, truncated: result.truncated, warnings: result.warnings, redirects: source.redirects, rendered: false,
      pages: result.pages, ...(result.links ? { links: result.links } : {}),
    };
  }
  const extract = async (html: string, url: string) => {
    const started = performance.now();
    try { return await deps.extract.read(html, url, readOptions, req.signal); } finally { deps.metrics?.extraction((performance.now() - started) / 1000); }
  };
  let result = await extract(source.html, source.url);
  let rendered = render === 'always';
  if (render === 'auto' && looksLikeScriptShell(source.html, result.textLength)) {
    const shown = await renderPage(await browser(), fetch.guard, source.url, fetch.deadlineMs, req.signal);
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

const blockedWarnings = (blocked: string[]) => blocked.slice(0, 20).map((u) => `blocked: ${u} (egress guard)`);

/** options.format "text": the compact form beside (or, with elements: false, instead of) the elements. */
function withText<R extends MapResult>(result: R, page: PageMap, o: NonNullable<ObserveRequest['options']>): R | (Omit<R, 'interactable_elements' | 'text'> & { text: string }) {
  if (o.format !== 'text') return result;
  // The ids the JSON elements carry: 0-based in result order, or the collector's uid in the dom shape.
  const elements = o.element_shape === 'dom' ? page.ranked.elements : page.ranked.elements.map((e, i) => ({ ...e, id: i }));
  const text = toPrompt({ url: result.url, viewport: result.viewport, modal_detected: result.modal_detected, elements }, { title: page.title });
  if (o.elements !== false) return { ...result, text };
  const { interactable_elements: _, text: __, ...rest } = result;
  return { ...rest, text };
}

async function map(deps: ObserveDeps, req: HttpRequest, body: ObserveRequest, visual: boolean, engine: Engine, cost: number, remaining: number): Promise<MapResult | VisualResult | MapTextResult | VisualTextResult> {
  const o = body.options ?? {};
  const shape = o.element_shape ?? 'common';
  const page = await mapPage(await deps.browser(), deps.fetch.guard, deps.ranker, {
    url: body.url.trim(), engine, limit: o.limit ?? MAP_DEFAULT_LIMIT, filter: o.filter, goal: o.goal ?? undefined, selectors: shape === 'dom',
    screenshot: visual, annotate: visual && o.annotate === true, dismissOverlays: o.dismiss_overlays === true, deadlineMs: deps.fetch.deadlineMs, signal: req.signal,
    settle: deps.mapPath === 'legacy' ? 'fixed' : 'adaptive',
  });
  deps.metrics?.ranking('observe', page.timings.ranking / 1000);
  const result: MapResult = {
    status: 'success', url: page.url, viewport: page.ranked.viewport,
    interactable_elements: shapeElements(page, { shape, visualCues: o.include_visual_cues ?? !visual, attributes: o.include_attributes ?? visual }),
    credits_used: cost, credits_remaining: remaining, engine, elements_total: page.elementsTotal,
    modal_detected: page.ranked.modal_detected || page.overlays.some((v) => !v.dismissed && v.kind !== 'layer'),
    modal_grids: page.ranked.modal_grids ?? [], overlays: page.overlays,
    ...(o.goal?.trim() && page.ranked.ml_rerank ? { ml_rerank: page.ranked.ml_rerank } : {}),
    warnings: [...page.warnings, ...blockedWarnings(page.blocked)], timings_ms: page.timings,
  };
  if (!visual || !page.screenshot) return withText(result, page, o);
  const { png, width, height } = page.screenshot;
  const common = { format: 'png' as const, size_bytes: png.length, width, height, annotated: o.annotate === true };
  let screenshot: Screenshot;
  if (o.screenshot_delivery === 'base64') {
    screenshot = { type: 'base64', data: png.toString('base64'), ...common };
  } else {
    const stored = await deps.screenshots.save(png, deps.publicUrl || `http://${req.host}`);
    screenshot = { type: 'url', url: stored.url, expires_at: stored.expires_at, ...common };
  }
  return withText({ ...result, screenshot }, page, o);
}

export function observeRoute(deps: ObserveDeps): Route {
  const agent = guardedAgent(deps.fetch.guard);
  return async (req) => {
    const account = await admit(deps.store, req, deps.limits);
    const hold = { store: deps.store, ttlMs: deps.holdTtlMs, metrics: deps.metrics, route: 'observe' as const };
    const body = validate(parseJsonBody(req));
    const mode = body.mode ?? 'read';
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
        const result = await withHold(hold, req, account.id, OBSERVE_COSTS.read, 'read', (remaining) => read(deps, agent, req, body, remaining));
        if (result.rendered) engineLabel = 'browser';
        return result;
      });
    }
    const visual = mode === 'visual';
    // SPEC: visual always uses the precision engine.
    const engine: Engine = visual || body.options?.render_quality === 'precision' ? 'precision' : 'performance';
    engineLabel = engine;
    const cost = visual ? OBSERVE_COSTS.visual : engine === 'precision' ? OBSERVE_COSTS.map_precision : OBSERVE_COSTS.map;
    const what = visual ? 'visual' : `map (${engine})`;
    return timed(() => withHold(hold, req, account.id, cost, what, (remaining) => map(deps, req, body, visual, engine, cost, remaining)));
  };
}
