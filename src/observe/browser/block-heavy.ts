// What the performance engine never loads (images, media, fonts: they change no element an agent can
// use), refused inside Chromium by request type. Only those requests stop for a round trip to Node: a
// Fetch-domain interception limited to their resource types, where a Playwright route (`page.route`)
// pauses every request of the page, the document, each stylesheet and each parser-blocking script
// included, and sends it through Node and back before it may go on (issue 43: navigation to DOM ready
// 7 ms shorter at the median and 32 ms on average per WCXB page, more on pages with many blocking scripts).
// docs/decisions.md, "Heavy requests refused by type".
import type { Page } from 'playwright-core';

/** The resource types refused (CDP Network.ResourceType). */
const HEAVY_TYPES = ['Image', 'Media', 'Font'] as const;

/**
 * Refuses the page's heavy requests from now on (before navigating), as Chromium refuses a request a
 * client blocked (`net::ERR_BLOCKED_BY_CLIENT`). The page's own target only: a frame in a process of its
 * own (a cross-site iframe) loads its images, as a page does; no request it makes waits for them.
 */
export async function blockHeavy(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  // A request paused after its page closed fails to be answered: nothing is left to refuse.
  session.on('Fetch.requestPaused', (e) => void session.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'BlockedByClient' }).catch(() => undefined));
  await session.send('Fetch.enable', { patterns: HEAVY_TYPES.map((resourceType) => ({ urlPattern: '*', resourceType, requestStage: 'Request' as const })) });
}

/** The same types refused by a Playwright route, the path before (map's `--map-path legacy`): every request of
 *  the page goes through Node. `fallback`, not `continue`: a route registered before (credentials) may answer. */
const ROUTED = new Set(['image', 'media', 'font']);
export async function routeHeavy(page: Page): Promise<void> {
  await page.route('**/*', (route) => (ROUTED.has(route.request().resourceType()) ? route.abort('blockedbyclient') : route.fallback()));
}
