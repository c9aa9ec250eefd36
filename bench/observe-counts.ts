// What an observation's work is made of (issue 43), on bench:peers' tune observation pages: the elements in
// the document, those the collector's walk visits, what kindOf makes of them, how many pass checkVisibility,
// how many fold into a parent they fill, how many are described (named) and sent, how many the ranker keeps
// and how many end in the text (top 50); the payload's size (wire form and plain JSON), the evaluate round
// trips of one collectPageTitled, and the time of the wire encoding in the page and its decoding in Node.
// The counts come from a copy of this tree's src/collect with counters put into its walk (in memory, here,
// never shipped): a replacement that no longer matches the walk's code is an error, not a silent zero.
//   WCXB_DIR=... node --import tsx bench/observe-counts.ts [pages, default 15]
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Frame } from 'playwright-core';
import { openObservePages } from './observe-pages.ts';
import { collectPageTitled, waitForStable } from '../src/playwright/collect-page.ts';
import { wireToResult } from '../src/collect/wire.ts';
import { createRanker, toPrompt } from '../src/index.ts';
import { quantile } from './stats.ts';

const N = Number(process.argv[2] ?? 15);
const COUNTERS: [string, string][] = [
  ['  for (let el = root.firstElementChild; el; el = el.nextElementSibling) {\n', '$&    inc(\'visited\');\n'],
  ['    if (kind === Kind.Interactive || (kind === Kind.Static && w.includeStatic)) {\n', '    inc(kind === Kind.Interactive ? \'interactive\' : kind === Kind.Static ? \'static\' : \'none\');\n$&'],
  ['      const area = rect ? rect.width * rect.height : 0;\n', '$&      if (rect) inc(\'checkVisible\');\n'],
  ['      if (clipped !== \'clipped\') {\n', '      if (fillsParent) inc(\'fillsParent\');\n$&        inc(\'described\');\n'],
];
const dir = mkdtempSync(join(tmpdir(), 'sightline-counts-'));
let source: string;
try {
  cpSync(new URL('../src/collect', import.meta.url).pathname, join(dir, 'collect'), { recursive: true });
  let code = readFileSync(join(dir, 'collect/collect.ts'), 'utf8');
  for (const [at, put] of COUNTERS) {
    if (!code.includes(at)) throw new Error(`the walk changed: no ${JSON.stringify(at.trim())} in collect.ts`);
    code = code.replace(at, put);
  }
  code += '\nexport const COUNTS: Record<string, number> = {};\nfunction inc(k: string): void { COUNTS[k] = (COUNTS[k] ?? 0) + 1; }\n';
  writeFileSync(join(dir, 'collect/collect.ts'), code);
  const out = await build({
    stdin: { contents: 'import { collect, COUNTS } from \'./collect/collect.ts\';\nimport { resultToWire } from \'./collect/wire.ts\';\n(window as any).__counted = { collect, encode: resultToWire, COUNTS };\n', resolveDir: dir, loader: 'ts' },
    bundle: true, format: 'iife', platform: 'browser', target: 'chrome110', write: false, logLevel: 'warning',
  });
  // Its own registry key: its ids do not move the shipped collector's.
  source = out.outputFiles[0].text.replaceAll('"__sightlineRegistry"', '"__sightlineRegistry__counted"').replaceAll('"__sightlineQuiet"', '"__sightlineQuiet__counted"');
} finally { rmSync(dir, { recursive: true, force: true }); }

const { ids, origin, page, close } = await openObservePages(N);
const ranker = await createRanker({ limitCap: 100_000 });
// Round trips: every evaluate and evaluateHandle of any frame during one collectPageTitled.
let trips = 0;
const frameProto = Object.getPrototypeOf(page.mainFrame()) as Record<string, (this: Frame, ...a: unknown[]) => unknown>;
for (const m of ['evaluate', 'evaluateHandle']) {
  const orig = frameProto[m];
  frameProto[m] = function (this: Frame, ...a: unknown[]) { trips++; return orig.apply(this, a); };
}
const rows: Record<string, number>[] = [];
for (const id of ids) {
  await page.goto(`${origin}/wcxb/${id}.html`, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
  await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
  trips = 0;
  const { title } = await collectPageTitled(page);
  const roundTrips = trips;
  // The counted copy, after the observation (its walk is then warm: its times are not the observation's).
  await page.evaluate(source);
  const r = await page.evaluate(() => {
    const c = (window as unknown as { __counted: { collect(): { collect_ms: number }; encode(r: unknown): string; COUNTS: Record<string, number> } }).__counted;
    for (const k of Object.keys(c.COUNTS)) delete c.COUNTS[k];
    const res = c.collect();
    const t = performance.now();
    const wire = c.encode(res);
    return { counts: { ...c.COUNTS }, elements: document.querySelectorAll('*').length, wire, encodeMs: performance.now() - t, jsonBytes: JSON.stringify(res).length };
  });
  const t = performance.now();
  const res = wireToResult(r.wire);
  const decodeMs = performance.now() - t;
  const request = { url: page.url(), viewport: res.viewport, raw_elements: res.raw_elements as never, options: { limit: 50 } };
  const top = ranker.rank(request);
  const ranked = ranker.rank({ ...request, options: { limit: 100_000 } });
  const els = res.raw_elements;
  rows.push({
    elements: r.elements, visited: 0, none: 0, interactive: 0, static: 0, checkVisible: 0, fillsParent: 0, described: 0, ...r.counts,
    sent: els.length, withName: els.filter((e) => e.attributes.name).length, withNearby: els.filter((e) => e.attributes.nearby_text).length,
    ranked: ranked.elements.length, inText: top.elements.length, textChars: toPrompt(top, { title }).length,
    wireBytes: Buffer.byteLength(r.wire), jsonBytes: r.jsonBytes, roundTrips, frames: page.frames().length,
    encodeMs: Math.round(r.encodeMs * 100) / 100, decodeMs: Math.round(decodeMs * 100) / 100,
  });
  if (process.env.COUNTS_PER_PAGE) console.log(id, JSON.stringify(rows.at(-1)));
}
await close();
console.log(`${ids.length} tune observation pages (bench:peers'), per page: p50, mean, sum`);
for (const k of Object.keys(rows[0])) {
  const xs = rows.map((row) => row[k]);
  const sum = xs.reduce((a, b) => a + b, 0);
  console.log(`${k.padEnd(13)} ${String(quantile(xs, 0.5)).padStart(9)} ${(sum / xs.length).toFixed(1).padStart(10)} ${(Math.round(sum * 100) / 100).toString().padStart(10)}`);
}
