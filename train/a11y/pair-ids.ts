// Re-rendering a page of the a11y evaluation with the current collector while keeping its marks: the
// collector that made the stored payload runs on the same DOM right after the current one, and each old
// id is paired with the current id of the element it came from. Used by recollect.ts (the collectors
// before the label change), recollect-quirks.ts (the collector before the quirks-mode viewport fix) and
// recollect-paired.ts (any one old collector: the ninth round's, the fade and anchor fixes').
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { renderPage, wcxbTruths, sourceOf, type A11yPage, type A11ySplit, type Source } from './collect-a11y.ts';
import { pebSources } from './collect-products.ts';
import { aebSources } from './collect-articles.ts';
import type { PrimaryMark } from './evaluate.ts';
import type { CollectedElement } from '../../src/collect/types.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OLD_KEY = '__sightlineRegistryOld';

/** The collector of `commit` (src/collect/ from git), bundled with its id registry under another window
 *  key, so it and the current collector each number from 1 as they did alone. */
export async function oldCollector(commit: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-collector-old-'));
  try {
    execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['-C', ROOT, 'archive', commit, 'src/collect'], { maxBuffer: 64 << 20 }) });
    const registry = join(dir, 'src/collect/registry.ts');
    const text = readFileSync(registry, 'utf8');
    if (!text.includes("const KEY = '__sightlineRegistry';")) throw new Error(`registry.ts at ${commit} has no registry key`);
    writeFileSync(registry, text.replace("const KEY = '__sightlineRegistry';", `const KEY = '${OLD_KEY}';`));
    const out = await build({
      stdin: { contents: "import { collect } from './src/collect/collect.ts';\n(window as any).__sightlineOld = { collect };\n", resolveDir: dir, loader: 'ts', sourcefile: 'old-entry.ts' },
      bundle: true, format: 'iife', platform: 'browser', target: 'chrome110', write: false, logLevel: 'warning',
    });
    return out.outputFiles[0].text;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In the page (a string: tsx would add helpers to a function's source): each old id's element, paired
 *  with its id in the current collector's list; a label listed before in place of the text field,
 *  select or textarea it wraps is paired with that field. */
const PAIR = `(arg) => {
  const N = window.__sightlineRegistry, O = window.${OLD_KEY};
  const listedNow = new Set(arg.newIds), listedBefore = new Set(arg.oldIds);
  const out = {};
  for (const id of arg.oldIds) {
    const el = O.nodes.get(id) && O.nodes.get(id).deref();
    if (!el) { out[id] = [null, 'gone']; continue; }
    const now = N.ids.get(el);
    if (now !== undefined && listedNow.has(now)) { out[id] = [now, 'self']; continue; }
    if (el.tagName === 'LABEL') {
      const fields = [...el.querySelectorAll('input, select, textarea')].filter((f) => listedNow.has(N.ids.get(f)));
      if (fields.length === 1) {
        const o = O.ids.get(fields[0]);
        out[id] = [N.ids.get(fields[0]), o !== undefined && listedBefore.has(o) ? 'label-field (listed before too)' : 'label-field'];
        continue;
      }
    }
    out[id] = [null, 'not listed now'];
  }
  return JSON.stringify(out);
}`;

export type How = 'self' | 'label-field' | 'label-field (listed before too)' | 'gone' | 'not listed now' | 'not reproduced';
export type IdMap = Record<number, [number | null, How]>;
const same = (a: CollectedElement, b: CollectedElement) => a.tag === b.tag && a.text === b.text;

export interface Rerendered {
  page: A11yPage;
  map: IdMap;
  /** The old collector on the re-rendered DOM gave exactly the stored payload. */
  exact: boolean;
  /** Every stored element was reproduced (same id, tag and text). */
  reproduced: boolean;
}

/** Renders `source` again (renderPage: the current collector), runs `bundle` (oldCollector) on the same
 *  DOM and maps the stored payload's ids to the new ones. An id counts as the same element only where
 *  the stored element and the old collector's output on the new render agree (tag and text). Null when
 *  the page failed twice. */
export async function rerender(browser: Browser, source: Source, old: A11yPage, bundle: string, label: string,
  site?: string, split?: A11ySplit): Promise<Rerendered | null> {
  let again: CollectedElement[] = [];
  let pairs: IdMap = {};
  let now: A11yPage | null = null;
  for (let attempt = 0; attempt < 2 && !now; attempt++) {
    now = await renderPage(browser, source, async (page, collected) => {
      await page.evaluate(bundle);
      again = JSON.parse(await page.evaluate('JSON.stringify(window.__sightlineOld.collect({}).raw_elements)') as string) as CollectedElement[];
      pairs = JSON.parse(await page.evaluate(`(${PAIR})(${JSON.stringify({ oldIds: again.map((e) => e.id), newIds: collected.raw_elements.map((e) => e.id) })})`) as string);
    }, label, site, split);
  }
  if (!now) return null;
  const againById = new Map(again.map((e) => [e.id, e]));
  const map: IdMap = {};
  let reproduced = again.length === old.request.raw_elements.length;
  for (const e of old.request.raw_elements) {
    const a = againById.get(e.id);
    if (!a || !same(a, e)) { reproduced = false; map[e.id] = [null, 'not reproduced']; }
    else map[e.id] = pairs[e.id] ?? [null, 'gone'];
  }
  return { page: now, map, exact: JSON.stringify(again) === JSON.stringify(old.request.raw_elements), reproduced };
}

/** What every re-collection script counts of its re-renders, whatever else it counts. */
export interface RerenderCounts { rendered: number; failed: number; exact: number; reproduced: number; how: Record<string, number> }

/** A stored page of set `f` rendered again and paired (rerender), counted in `st`; null when it failed twice
 *  (the script keeps the stored page). A frozen page is named by its set only (`key`), never by its id. */
export async function rerenderStored(browser: Browser, f: SetName, old: A11yPage, key: string, bundle: string,
  sources: Map<string, Source>, st: RerenderCounts): Promise<Rerendered | null> {
  const label = isFrozen(f, old) ? `a page of ${key}` : old.id;
  const source = sources.get(old.id);
  if (!source) throw new Error(`${label}: no source file (WCXB_DIR, PEB_DIR)`);
  const got = await rerender(browser, source, old, bundle, label, old.site, old.split);
  if (!got) { st.failed++; return null; }
  st.rendered++;
  if (got.exact) st.exact++;
  if (got.reproduced) st.reproduced++;
  for (const [, how] of Object.values(got.map)) st.how[how] = (st.how[how] ?? 0) + 1;
  return got;
}

export interface MarkStat { marks: number; withIds: number; allMapped: number; someMapped: number; noneMapped: number; ids: number; idsMapped: number; viaLabel: number }
export const markStat = (): MarkStat => ({ marks: 0, withIds: 0, allMapped: 0, someMapped: 0, noneMapped: 0, ids: 0, idsMapped: 0, viaLabel: 0 });

/** Moves one page's mark to the new ids (in place) and counts it. A page without a map (not re-rendered)
 *  keeps its ids. */
export function remapMark(mark: PrimaryMark | null, map: IdMap | undefined, st: MarkStat): void {
  st.marks++;
  if (!mark || !mark.ids.length) return;
  st.withIds++;
  const mapped = mark.ids.map((old) => map?.[old]?.[0] ?? null);
  st.ids += mark.ids.length;
  st.idsMapped += mapped.filter((n) => n !== null).length;
  st.viaLabel += mark.ids.filter((old) => map?.[old]?.[1]?.startsWith('label-field')).length;
  const kept = [...new Set(mapped.filter((n): n is number => n !== null))];
  if (kept.length === mark.ids.length) st.allMapped++;
  else if (kept.length) st.someMapped++;
  else st.noneMapped++;
  if (map) mark.ids = kept;
}

/** A marks file, written back in the form it was read in: one entry per line (primary.json,
 *  primary-dev2.json), indented (primary-dev3.json) or indented with a final newline (primary-dev4.json). */
export function writeMarks(url: URL, doc: unknown, was: string): void {
  const wasDoc = JSON.parse(was) as unknown;
  const indented = JSON.stringify(wasDoc, null, 1);
  const forms = [(t: string) => t.replace(/\n +/g, '\n') + '\n', (t: string) => t, (t: string) => t + '\n'];
  const form = forms.find((f) => f(indented) === was);
  if (!form) throw new Error(`${url.pathname}: written in a form writeMarks does not know`);
  writeFileSync(url, form(JSON.stringify(doc, null, 1)));
}

/** Moves the marks of every marks file (primary.json, primary-dev2.json, primary-dev3.json, primary-dev4.json) to their elements'
 *  new ids, page by page through `maps` (a page without a map keeps its marks), writes the maps to
 *  scratch/a11y/<scratchName> (not committed), and returns the marks' counts per file. */
export function remapMarkFiles(maps: Record<string, IdMap>, scratchName: string): Record<string, MarkStat> {
  const markStats: Record<string, MarkStat> = {};
  for (const file of ['primary.json', 'primary-dev2.json', 'primary-dev3.json', 'primary-dev4.json']) {
    const url = new URL(`./${file}`, import.meta.url);
    const was = readFileSync(url, 'utf8');
    const doc = JSON.parse(was) as { pages: Record<string, PrimaryMark | null> };
    for (const [id, mark] of Object.entries(doc.pages)) if (maps[id]) remapMark(mark, maps[id], markStats[file] ??= markStat());
    writeMarks(url, doc, was);
  }
  mkdirSync(new URL('../../scratch/a11y/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`../../scratch/a11y/${scratchName}`, import.meta.url), JSON.stringify(maps));
  return markStats;
}

/** The stored page sets a re-collection walks, each in its file; the test split and dev3's and dev4's test halves
 *  are frozen (re-collected, never scored or listed by these scripts). */
export const SETS = ['tune', 'dev2', 'test', 'dev3', 'dev4'] as const;
export type SetName = typeof SETS[number];
export const setFile = (f: SetName) => new URL(`./${f}.json.gz`, import.meta.url);
export const isFrozen = (f: SetName, p: A11yPage) => f === 'test' || ((f === 'dev3' || f === 'dev4') && p.split === 'test');

/** Every stored page's source (WCXB dev files, the product and article benchmarks' pages), by page id. */
export function allSources(): Map<string, Source> {
  return new Map<string, Source>([
    ...wcxbTruths().map((t) => { const s = sourceOf(t); return [s.id, s] as [string, Source]; }),
    ...pebSources().map((s) => [s.id, s] as [string, Source]),
    ...aebSources().map((s) => [s.id, s] as [string, Source]),
  ]);
}
