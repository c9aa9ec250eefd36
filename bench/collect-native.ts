// The native DOM calls of a first collection (issue 43): bench:peers' 15 tune observation pages, each loaded and
// settled as bench:peers does, then one `wire()` with getBoundingClientRect, checkVisibility, elementFromPoint,
// getComputedStyle (the call only: a style's computation happens at its first property read, which is not wrapped),
// querySelector(All), matches and closest wrapped to time and count each call ("repeat": a call
// on a node, document or window already asked). The wrappers add about a microsecond a call, so the times are an
// upper bound and the counts exact. Scratch tooling for the profile, not a benchmark.
//   WCXB_DIR=... node --import tsx bench/collect-native.ts [loads per page, default 2]
import { openObservePages } from './observe-pages.ts';
import { waitForStable } from '../src/playwright/collect-page.ts';
const runs = Number(process.argv[2] ?? 2);
const { ids, origin, page, close } = await openObservePages();
const tot: Record<string, [number, number]> = {};
let collectSum = 0;
for (const id of ids) for (let r = 0; r < runs; r++) {
  await page.goto(`${origin}/wcxb/${id}.html`, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
  await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
  const res = await page.evaluate<{ acc: Record<string, [number, number]>; ms: number }>(`(() => {
    const acc = {}; const seen = {};
    const wrap = (proto, name, label = name) => {
      const orig = proto[name];
      proto[name] = function (...a) { const t = performance.now(); try { return orig.apply(this, a); } finally { const d = performance.now() - t; const e = (acc[label] ??= [0, 0]); e[0] += d; e[1]++; const ss = (seen[label] ??= new Set()); if (ss.has(this)) { const dd = (acc[label + ' repeat'] ??= [0, 0]); dd[0] += d; dd[1]++; } else ss.add(this); } };
      return () => { proto[name] = orig; };
    };
    const undo = [wrap(Element.prototype, 'getBoundingClientRect'), wrap(Element.prototype, 'checkVisibility'), wrap(Document.prototype, 'elementFromPoint'),
      wrap(window, 'getComputedStyle'), wrap(Element.prototype, 'querySelector'), wrap(Element.prototype, 'querySelectorAll'), wrap(Document.prototype, 'querySelector'), wrap(Document.prototype, 'querySelectorAll'), wrap(Element.prototype, 'matches'), wrap(Element.prototype, 'closest')];
    const t = performance.now();
    window.__sightline.wire({});
    const ms = performance.now() - t;
    undo.forEach((u) => u());
    return { acc, ms };
  })()`);
  collectSum += res.ms;
  for (const [k, [ms, n]] of Object.entries(res.acc)) { const e = (tot[k] ??= [0, 0]); e[0] += ms; e[1] += n; }
}
console.log(`${ids.length} pages x ${runs} first collections (wire()), ${collectSum.toFixed(0)} ms in all with the wrappers; per native call, in all:`);
for (const [k, [ms, n]] of Object.entries(tot).sort((a, b) => b[1][0] - a[1][0])) console.log(k.padEnd(24), ms.toFixed(1).padStart(8), 'ms', String(n).padStart(7), 'calls', (1000 * ms / n).toFixed(2), 'µs/call');
await close();
