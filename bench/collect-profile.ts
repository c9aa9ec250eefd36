// Where the in-page collector spends its time (issue 43): Chromium's sampling profiler (CDP Profiler) around
// repeated collect() calls on WCXB tune pages served offline, self time summed by function over all pages,
// plus the native calls the samples landed in (getComputedStyle, getBoundingClientRect, ... show as their own
// frames). Reads the tune part only (bench/wcxb-pages.ts realPageIds). PROFILE_FIRST=1 profiles, instead, the
// first collection in each document as bench:peers times it (`wire()`, no warm-up call; the page loaded and
// settled again for each of the runs): cold code, first reads of each node, which the warm runs do not show.
//   WCXB_DIR=... node --import tsx bench/collect-profile.ts [pages, default 8] [runs per page, default 5]
import { launch } from '../test/helpers/browser.ts';
import { serveRealPages } from './wcxb-pages.ts';
import { inject, waitForStable } from '../src/playwright/collect-page.ts';

const pages = Number(process.argv[2] ?? 8), runs = Number(process.argv[3] ?? 5);
const site = await serveRealPages(pages);
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await ctx.route((url) => !url.href.startsWith(new URL(site.urls[0].url).origin), (route) => route.abort());
const page = await ctx.newPage();
const cdp = await ctx.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[]; positionTicks?: { line: number; ticks: number }[] }
const lines = new Map<string, number>();
/** Time with the function anywhere on the stack (inclusive), by name. */
const inclusive = new Map<string, number>();
const self = new Map<string, number>();
let total = 0, collectMs = 0;
const FIRST = process.env.PROFILE_FIRST === '1';
for (const { url } of site.urls) for (let load = 0; load < (FIRST ? runs : 1); load++) {
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
  await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
  await inject(page.mainFrame());
  if (!FIRST) await page.evaluate(() => JSON.stringify(window.__sightline!.collect())); // warm
  await cdp.send('Profiler.start');
  collectMs += FIRST
    ? await page.evaluate(() => { const t = performance.now(); window.__sightline!.wire({}); return performance.now() - t; })
    : await page.evaluate((n) => { let ms = 0; for (let i = 0; i < n; i++) { const r = window.__sightline!.collect(); JSON.stringify(r); ms += r.collect_ms; } return ms; }, runs);
  const { profile } = await cdp.send('Profiler.stop') as unknown as { profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] } };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const t of n.positionTicks ?? []) { const k = `${n.callFrame.functionName || '(anon)'}@${t.line}`; lines.set(k, (lines.get(k) ?? 0) + t.ticks); }
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  profile.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const names = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) names.add(byId.get(at)!.callFrame.functionName || '(anon)');
    for (const name of names) inclusive.set(name, (inclusive.get(name) ?? 0) + profile.timeDeltas[i] / 1000);
    const key = `${n.callFrame.functionName || '(anon)'}:${n.callFrame.lineNumber + 1}`;
    const dt = profile.timeDeltas[i] / 1000;
    self.set(key, (self.get(key) ?? 0) + dt); total += dt;
  });
}
await browser.close();
await site.close();
console.log(`${site.urls.length} pages x ${runs} collections${FIRST ? ' (each the first in its document, wire() timed)' : ''}; collect_ms sum ${collectMs.toFixed(0)} ms; profiled ${total.toFixed(0)} ms`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(100 * v / total).toFixed(1).padStart(5)}%  ${v.toFixed(1).padStart(7)} ms  ${k}`);
if (process.env.PROFILE_LINES) for (const [k, v] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${String(v).padStart(6)} ticks  ${k}`);
if (process.env.PROFILE_INCLUSIVE) for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`incl ${(100 * v / total).toFixed(1).padStart(5)}%  ${v.toFixed(1).padStart(7)} ms  ${k}`);
