// POST /v1/observe (SPEC, legacy door). Read mode: fetch through the egress guard, extract the main
// content, answer Markdown/text/HTML. A credit is reserved before the fetch and refunded when the page
// cannot be read: failed loads cost nothing.
import { Compile } from 'typebox/compile';
import { SightlineError, badRequest } from '../../schema/errors.ts';
import { ObserveRequest, type ReadResult } from '../../schema/observe.ts';
import type { RateLimit, Store } from '../../store/store.ts';
import { fetchPage, guardedAgent, type FetchOptions } from '../../observe/fetch-page.ts';
import { readPage } from '../../observe/read.ts';
import { renderPage, looksLikeScriptShell } from '../../observe/render.ts';
import type { BrowserPool } from '../../observe/browser-pool.ts';
import { admit } from '../auth.ts';
import { parseJsonBody } from '../body.ts';
import { json } from '../reply.ts';
import type { Route } from '../router.ts';

/** SPEC "Limits". */
export const OBSERVE_COSTS = { read: 1, map: 2, map_precision: 10, visual: 10 } as const;

const check = Compile(ObserveRequest);

export interface ObserveDeps {
  store: Store;
  rateLimit: RateLimit;
  fetch: Omit<FetchOptions, 'signal'>;
  /** The browser pool, started on first use (launching Chromium only when a page needs it). */
  browser: () => Promise<BrowserPool>;
}

function validate(body: unknown): ObserveRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid request: the body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (b.url === undefined) throw badRequest('Missing required field: url');
  if (typeof b.url !== 'string' || !b.url.trim()) throw new SightlineError('invalid_url', 'url must be a non-empty string');
  if (b.mode !== undefined && !['read', 'map', 'visual'].includes(b.mode as string)) {
    throw new SightlineError('invalid_mode', `Unknown mode ${JSON.stringify(b.mode)}: use read, map or visual`);
  }
  const [first] = check.Errors(body);
  if (first) {
    const path = first.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    throw badRequest(`Invalid request: ${path} ${first.message}`);
  }
  return body as ObserveRequest;
}

export function observeRoute({ store, rateLimit, fetch, browser }: ObserveDeps): Route {
  const agent = guardedAgent(fetch.guard);
  return async (req) => {
    const account = admit(store, req, rateLimit);
    const body = validate(parseJsonBody(req));
    const mode = body.mode ?? 'read';
    if (mode !== 'read') throw new SightlineError('invalid_mode', `mode "${mode}" is not available on this server yet: use read`);

    const cost = OBSERVE_COSTS.read;
    const remaining = store.reserve(account.id, cost);
    if (remaining === null) throw new SightlineError('insufficient_credits', `Insufficient credits: read costs ${cost} credit`);
    try {
      const render = body.options?.render ?? 'auto';
      const format = body.format ?? 'markdown';
      const readOptions = { format, contentLimit: body.options?.contentLimit, mainContent: body.options?.main_content };
      let source: { url: string; html: string; redirects: string[]; blocked: string[] };
      if (render === 'always') {
        const shown = await renderPage(await browser(), fetch.guard, body.url.trim(), fetch.deadlineMs);
        source = { ...shown, redirects: [] };
      } else {
        // The guard inside fetchPage checks the scheme and every address, at every redirect.
        const page = await fetchPage(body.url.trim(), fetch, agent, req.signal);
        source = { url: page.url, html: page.text, redirects: page.redirects, blocked: [] };
      }
      let read = readPage(source.html, source.url, readOptions);
      let rendered = render === 'always';
      if (render === 'auto' && looksLikeScriptShell(source.html, read.textLength)) {
        const shown = await renderPage(await browser(), fetch.guard, source.url, fetch.deadlineMs);
        source = { ...shown, redirects: source.redirects };
        read = readPage(source.html, source.url, readOptions);
        rendered = true;
      }
      req.creditsUsed = cost;
      const warnings = [...read.warnings, ...source.blocked.slice(0, 20).map((u) => `blocked: ${u} (egress guard)`)];
      const result: ReadResult = {
        status: 'success', url: source.url, content: read.content, title: read.title, description: read.description,
        credits_used: cost, credits_remaining: remaining, format, truncated: read.truncated, warnings, redirects: source.redirects, rendered,
      };
      return json(200, result);
    } catch (err) {
      store.refund(account.id, cost);
      throw err;
    }
  };
}
