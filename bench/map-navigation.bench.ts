// Where map's navigation goes on real pages (issue 43): WCXB development pages of the tune part served
// offline from localhost (bench/wcxb-pages.ts), loaded to DOM ready in fresh contexts of one Chromium
// behind the egress proxy, as the performance engine loads them. Per page, in rotating order, variants:
//   route          every request through a Playwright route that aborts images, media and fonts (the path
//                  before issue 43's change);
//   by type        the same types refused inside Chromium, nothing else stopping in Node (block-heavy.ts);
//   by type, 404 after 30 ms   the page server answering each missing subresource after 30 ms, a real
//                  site's round trip (is our offline serving's instant 404 making navigation look cheap?);
//   by type, no JS the page's scripts off (how much of the parse is the page's scripts; not a map setting).
// Each load is split by the document's Navigation Timing: until the response ended, the parse (response
// end to DOM interactive: HTML parsing, inline and parser-blocking scripts, the subresources they wait
// for), the wait for deferred scripts (to DOMContentLoaded's end), and the rest (Playwright's round trips).
// Run: npm run bench:map-navigation (WCXB_DIR names the checkout; BENCH_NAV_PAGES, default 50;
// BENCH_NAV_ROUNDS, default 2). Writes bench/results/map-navigation.json and .md.
import { writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { createEgressGuard } from '../src/observe/egress/egress.ts';
import { startEgressProxy } from '../src/observe/egress/egress-proxy.ts';
import { launchOptions, CHROMIUM_FLAGS, LEAN_FLAG } from '../src/observe/browser/browser-pool.ts';
import { blockHeavy, routeHeavy } from '../src/observe/browser/block-heavy.ts';
import { serveRealPages } from './wcxb-pages.ts';
import { wcxbAvailable, WCXB_DIR } from './read/wcxb-eval.ts';
import { quantile } from './stats.ts';

if (!wcxbAvailable()) { console.log(`skipped: no WCXB checkout at ${WCXB_DIR}/dev (set WCXB_DIR)`); process.exit(0); }
const PAGES = Number(process.env.BENCH_NAV_PAGES ?? 50);
const ROUNDS = Number(process.env.BENCH_NAV_ROUNDS ?? 2);
const MISS_DELAY_MS = 30;

const instant = await serveRealPages(PAGES);
const delayed = await serveRealPages(PAGES, { missDelayMs: MISS_DELAY_MS });
const guard = createEgressGuard(['127.0.0.1/32']);
const proxy = await startEgressProxy(guard, () => undefined);
const browser = await chromium.launch(launchOptions(process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', [...CHROMIUM_FLAGS, LEAN_FLAG], proxy.url));

interface Variant { name: string; js: boolean; delayed: boolean; prepare(page: Page): Promise<void> }
const VARIANTS: Variant[] = [
  { name: 'route', js: true, delayed: false, prepare: routeHeavy },
  { name: 'by type', js: true, delayed: false, prepare: blockHeavy },
  { name: `by type, 404 after ${MISS_DELAY_MS} ms`, js: true, delayed: true, prepare: blockHeavy },
  { name: 'by type, no JS', js: false, delayed: false, prepare: blockHeavy },
];
const PARTS = ['total', 'response', 'parse', 'deferred', 'rest'] as const;
const data: Record<string, Record<typeof PARTS[number], number[]>> = {};
const perPage: Record<string, Record<string, number[]>> = {};
const requests: Record<string, number> = {};
const loads = [loadavg()[0]];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, page] of instant.urls.entries()) {
      const order = VARIANTS.map((_, k) => VARIANTS[(k + i + round) % VARIANTS.length]);
      for (const v of order) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block', javaScriptEnabled: v.js });
        try {
          const tab = await context.newPage();
          await v.prepare(tab);
          let n = 0;
          tab.on('request', () => n++);
          const url = (v.delayed ? delayed : instant).urls[i].url;
          const t0 = Date.now();
          await tab.goto(url, { waitUntil: 'domcontentloaded', timeout: 30_000 });
          const total = Date.now() - t0;
          const t = await tab.evaluate(() => {
            const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
            return { origin: performance.timeOrigin, end: nav.responseEnd, interactive: nav.domInteractive, dcl: nav.domContentLoadedEventEnd };
          });
          const d = (data[v.name] ??= { total: [], response: [], parse: [], deferred: [], rest: [] });
          const before = Math.max(0, t.origin - t0);
          d.total.push(total);
          d.response.push(before + t.end);
          d.parse.push(t.interactive - t.end);
          d.deferred.push(t.dcl - t.interactive);
          d.rest.push(Math.max(0, total - before - t.dcl));
          ((perPage[page.id] ??= {})[v.name] ??= []).push(total);
          if (v.name === 'by type' && round === 0) requests[page.id] = n;
        } finally {
          await context.close();
        }
      }
      process.stderr.write(`\rnavigation: round ${round + 1}/${ROUNDS}, page ${i + 1}/${instant.urls.length}   `);
    }
    loads.push(loadavg()[0]);
  }
  process.stderr.write('\n');
} finally {
  await browser.close();
  await proxy.close();
  await instant.close();
  await delayed.close();
}

const f0 = (x: number) => x.toFixed(0);
const paired = (a: string, b: string) => {
  const d = Object.values(perPage).map((p) => quantile(p[a], 0.5) - quantile(p[b], 0.5));
  return { p50: quantile(d, 0.5), mean: d.reduce((x, y) => x + y, 0) / d.length };
};
const counts = Object.values(requests);
const lines = [
  `Navigation to DOM ready on ${instant.urls.length} WCXB development pages (tune part) served offline, one Chromium behind the egress proxy, fresh context per load, ${ROUNDS} rounds, variants rotating page by page; load average ${f0(Math.min(...loads))}–${f0(Math.max(...loads))} (1 min, 2 cores). Requests per page (by type): p50 ${f0(quantile(counts, 0.5))}, max ${Math.max(...counts)}. ms, p50 / p95:`,
  '',
  `| variant | ${PARTS.join(' | ')} |`,
  `|---|${PARTS.map(() => '---').join('|')}|`,
  ...VARIANTS.map((v) => `| ${v.name} | ${PARTS.map((k) => `${f0(quantile(data[v.name][k], 0.5))} / ${f0(quantile(data[v.name][k], 0.95))}`).join(' | ')} |`),
  '',
  'Paired by page (each page\'s median, then across pages), ms:',
  '',
  '| comparison | p50 of the per-page difference | mean |',
  '|---|---|---|',
  ...VARIANTS.slice(1).map((v) => { const d = paired(v.name, 'route'); return `| ${v.name} − route | ${f0(d.p50)} | ${f0(d.mean)} |`; }),
  '',
];
console.log(lines.join('\n'));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/map-navigation.md', import.meta.url), lines.join('\n'));
writeFileSync(new URL('./results/map-navigation.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, loads, missDelayMs: MISS_DELAY_MS, requests, perPage,
  variants: Object.fromEntries(VARIANTS.map((v) => [v.name, Object.fromEntries(PARTS.map((k) => [k, { p50: quantile(data[v.name][k], 0.5), p95: quantile(data[v.name][k], 0.95) }]))])) }, null, 1) + '\n');
