// client_metrics: readiness, how long the DOM has been quiet (a MutationObserver started when the
// collector is first injected), and the node count.

const KEY = '__sightlineQuiet';

interface Quiet { last: number }

/** Starts watching mutations (once per window); before any is seen, quiet time counts from DOM ready. */
export function watchMutations(): void {
  const host = window as unknown as Record<string, Quiet | undefined>;
  if (host[KEY]) return;
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const quiet: Quiet = { last: nav?.domContentLoadedEventEnd || performance.now() };
  host[KEY] = quiet;
  new MutationObserver(() => { quiet.last = performance.now(); })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

/** Readiness and quiet time only: cheap enough to poll. */
export function quietness(doc: Document): { ready_state: string; quiet_ms: number } {
  const quiet = (window as unknown as Record<string, Quiet | undefined>)[KEY];
  return { ready_state: doc.readyState, quiet_ms: Math.round(performance.now() - (quiet?.last ?? 0)) };
}

export function clientMetrics(doc: Document): { ready_state: string; quiet_ms: number; node_count: number } {
  return { ...quietness(doc), node_count: doc.getElementsByTagName('*').length };
}
