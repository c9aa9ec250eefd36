// Collects the real-page goal set's pages: real pages rendered offline in Chromium (the document is
// served from its file at its original URL; every other request is aborted, so nothing leaves this
// machine) and collected by the real collector at 1280x800. Sources, read from fetched copies and never
// committed as pages:
//   - the WCXB development split (Murrough-Foley/web-content-extraction-benchmark, CC-BY-4.0): `dev/`
//     only, never `test/`; up to PER_TYPE pages of each page type, one page per site;
//   - Mozilla Readability's test pages (mozilla/readability, Apache-2.0) in languages other than English.
// Writes train/real/pages.json.gz (the collected elements, no HTML), assigns each page's site to
// train, dev or test by a seeded hash, and for goal writers a listing and a screenshot per page in
// scratch/real-pages/. Run: WCXB_DIR=<wcxb checkout> READABILITY_DIR=<readability checkout>
//   node --import tsx train/real/collect-real.ts
// `--more` (or MORE=1) renders the same way a second set into train/real/pages-more.json.gz (listings in
// scratch/real-pages-more/): further WCXB dev pages, only from sites pages.json.gz does not have, one per
// site, in file order, MORE_QUOTA of each type (list- and author-rich types first; articles only with a
// named author; a page with fewer than MORE_MIN_ELEMENTS elements is passed over for the next one).
// pages.json.gz is read, never written, in this mode.
import { readFileSync, writeFileSync, mkdirSync, readdirSync, existsSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { launch } from '../../test/helpers/browser.ts';
import { collectPage, inject } from '../../src/playwright/collect-page.ts';
import { hash } from '../../src/rank/goal.ts';
import type { CollectedElement } from '../../src/collect/types.ts';
import type { Browser, Page } from 'playwright-core';

const WCXB = process.env.WCXB_DIR ?? '/work/wcxb';
const READABILITY = process.env.READABILITY_DIR ?? '/work/rdb';
const PER_TYPE = Number(process.env.PER_TYPE ?? 30);
const SPLIT_SEED = 'real-goals-2026-11';
const MORE = process.argv.includes('--more') || process.env.MORE === '1';
/** Pages of each type for the second set: the goal styles it serves (ordinal, author) need lists and bylines. */
const MORE_QUOTA: Record<string, number> = { article: 14, collection: 10, listing: 10, forum: 10, product: 10, service: 3, documentation: 3 };
const MORE_MIN_ELEMENTS = 40;
const FIRST = new URL('./pages.json.gz', import.meta.url);
const OUT = MORE ? new URL('./pages-more.json.gz', import.meta.url) : FIRST;
const SCRATCH = new URL(MORE ? '../../scratch/real-pages-more/' : '../../scratch/real-pages/', import.meta.url);

/** Readability test pages in languages other than English: name, language. */
const FOREIGN: [string, string][] = [['aktualne', 'cs'], ['folha', 'pt'], ['heise', 'de'], ['lemonde-1', 'fr'], ['liberation-1', 'fr'],
  ['la-nacion', 'es'], ['nytimes-5', 'es'], ['pixnet', 'zh'], ['qq', 'zh'], ['gmw', 'zh'], ['yahoo-4', 'ja'], ['videos-2', 'fr']];

export type Split = 'train' | 'dev' | 'test';
export interface RealPage {
  id: string;
  source: 'wcxb-dev' | 'readability';
  site: string;
  type: string;
  lang: string;
  split: Split;
  request: { url: string; viewport: { width: number; height: number }; raw_elements: CollectedElement[] };
}

/** The site a page belongs to: its host without www. Splits are by site, never by page. */
export const siteOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');
export function splitOf(site: string): Split {
  const r = ((hash(`${SPLIT_SEED}:${site}`) >>> 0) % 100);
  return r < 60 ? 'train' : r < 80 ? 'dev' : 'test';
}
const langOf = (html: string) => (/<html[^>]*\slang=["']?([a-zA-Z]{2})/i.exec(html.slice(0, 20_000))?.[1] ?? 'en').toLowerCase();

interface Source { id: string; source: RealPage['source']; url: string; type: string; html: string; lang?: string; site?: string }

/** WCXB dev pages, one per site, in file order: PER_TYPE of each type, or for `--more` candidates (a few
 *  spare per type, for pages passed over) from sites the first set does not have. */
function wcxbPages(): Source[] {
  const dir = join(WCXB, 'dev');
  const byType = new Map<string, Source[]>();
  const seenSites = new Set<string>();
  if (MORE) for (const p of firstPages()) seenSites.add(p.site);
  for (const file of readdirSync(join(dir, 'ground-truth')).sort()) {
    const truth = JSON.parse(readFileSync(join(dir, 'ground-truth', file), 'utf8'));
    const type = truth._internal?.page_type?.primary ?? 'unknown';
    if (!/^https?:\/\//.test(truth.url ?? '')) continue; // no address: its links cannot be read as on the web
    if (MORE && type === 'article' && !String(truth.ground_truth?.author ?? '').trim()) continue;
    const site = siteOf(truth.url);
    const list = byType.get(type) ?? [];
    if (seenSites.has(site) || list.length >= (MORE ? (MORE_QUOTA[type] ?? 0) + 8 : PER_TYPE)) continue;
    seenSites.add(site);
    const html = gunzipSync(readFileSync(join(dir, 'html', file.replace('.json', '.html.gz')))).toString('utf8');
    list.push({ id: `wcxb-${file.replace('.json', '')}`, source: 'wcxb-dev', url: truth.url, type, html });
    byType.set(type, list);
  }
  return MORE ? Object.keys(MORE_QUOTA).flatMap((type) => byType.get(type) ?? []) : [...byType.values()].flat();
}

function firstPages(): RealPage[] {
  return (JSON.parse(gunzipSync(readFileSync(FIRST)).toString()) as { pages: RealPage[] }).pages;
}

function readabilityPages(): Source[] {
  return FOREIGN.filter(([name]) => existsSync(join(READABILITY, 'test/test-pages', name))).map(([name, lang]) => ({
    id: `rdb-${name}`, source: 'readability', url: `http://fakehost/test/${name}/`, type: 'article', lang, site: name.replace(/-\d+$/, ''),
    html: readFileSync(join(READABILITY, 'test/test-pages', name, 'source.html'), 'utf8'),
  }));
}

/** One line per element for a person writing goals: id, tag, text, names, where it points, where it is. */
function listing(elements: CollectedElement[]): string {
  return elements.map((e) => {
    const a = e.attributes;
    const bits = [String(e.id).padStart(4), e.tag + (a.role ? `[${a.role}]` : '') + (a.type ? `(${a.type})` : ''), JSON.stringify(e.text.slice(0, 80))];
    for (const key of ['aria_label', 'title', 'placeholder', 'name', 'alt']) if (a[key]) bits.push(`${key}=${JSON.stringify(a[key].slice(0, 60))}`);
    if (a.href) bits.push(`href=${a.href.slice(0, 100)}`);
    bits.push(`@${Math.round(e.rect.x)},${Math.round(e.doc_y)} ${Math.round(e.rect.width)}x${Math.round(e.rect.height)}${e.in_viewport ? ' VIEW' : ''}${e.is_occluded ? ' COVERED' : ''}`);
    return bits.join(' ');
  }).join('\n');
}

/** A page rendered offline in a fresh context (its document served from `html` at its own URL, every
 *  other request aborted) and collected at 1280x800, `class` attributes left out. Also re-collects the
 *  set with a newer collector (recollect.ts). */
export async function renderOffline(browser: Browser, url: string, html: string, keep?: (page: Page, raw: CollectedElement[]) => Promise<void>) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block', acceptDownloads: false });
  try {
    const page = await context.newPage();
    // Offline: the document from its file at its own URL (so links resolve as on the web), nothing else.
    await page.route('**/*', (route) => route.request().isNavigationRequest() && route.request().url() === new URL(url).href
      ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html })
      : route.abort('blockedbyclient'));
    await page.goto(url, { waitUntil: 'load', timeout: 20_000 });
    await page.waitForTimeout(300);
    await inject(page.mainFrame());
    const collected = await collectPage(page);
    const raw = collected.raw_elements.map((e) => ({ ...e, attributes: Object.fromEntries(Object.entries(e.attributes).filter(([k]) => k !== 'class')) }));
    await keep?.(page, raw);
    return { url: page.url(), viewport: collected.viewport, raw_elements: raw };
  } finally {
    await context.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sources = MORE ? wcxbPages() : [...wcxbPages(), ...readabilityPages()];
  const kept = new Map<string, number>(); // --more: pages kept per type
  mkdirSync(SCRATCH, { recursive: true });
  const browser = await launch();
  const pages: RealPage[] = [];
  let done = 0;
  for (const s of sources) {
    if (MORE && (kept.get(s.type) ?? 0) >= MORE_QUOTA[s.type]) continue;
    try {
      const request = await renderOffline(browser, s.url, s.html, async (page, raw) => {
        if (MORE && raw.length < MORE_MIN_ELEMENTS) throw new Error(`only ${raw.length} elements, passed over`);
        writeFileSync(new URL(`${s.id}.txt`, SCRATCH), `${s.id} ${s.type} ${s.lang ?? langOf(s.html)} ${s.url}\n${listing(raw)}\n`);
        await page.screenshot({ path: new URL(`${s.id}.png`, SCRATCH).pathname });
      });
      if (MORE) kept.set(s.type, (kept.get(s.type) ?? 0) + 1);
      const site = s.site ?? siteOf(s.url);
      pages.push({ id: s.id, source: s.source, site, type: s.type, lang: s.lang ?? langOf(s.html), split: splitOf(site), request });
    } catch (err) {
      process.stderr.write(`${s.id}: ${(err as Error).message.split('\n')[0]}\n`);
    }
    if (++done % 20 === 0) process.stderr.write(`${done}/${sources.length} pages\n`);
  }
  await browser.close();
  writeFileSync(OUT, gzipSync(JSON.stringify({ splitSeed: SPLIT_SEED, pages })));
  const count = (split: Split) => pages.filter((p) => p.split === split).length;
  if (MORE) writeFileSync(new URL('DONE', SCRATCH), pages.map((p) => p.id).join('\n') + '\n');
  console.log(`${pages.length} pages (train ${count('train')}, dev ${count('dev')}, test ${count('test')}), ${pages.reduce((n, p) => n + p.request.raw_elements.length, 0)} elements`);
}
