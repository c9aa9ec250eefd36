// Builds dev5 (issue 38): an independent set of form-centred pages for the goal-less importance evaluation,
// from TeamHG-Memex/Formasaurus (MIT licence): 954 saved pages of some 390 hosts, each with its forms' types
// annotated by hand (formasaurus/data/index.json; the letters in formasaurus/data/config.json: search, login,
// registration, password recovery, contact, mailing list, order, ...). One page per site (shopOf: the registrable
// name), the site's first file in sorted order; a site held by any train/a11y/*.json.gz or train/real/*.json.gz
// page is left out (those pages were tuned on or marked). Each page is rendered exactly as collect-a11y.ts renders
// WCXB pages (renderPage). Sites go to dev5 tune (50%) or the frozen dev5 test (50%) by a seeded hash (dev5SplitOf).
// Writes train/a11y/dev5.json.gz (both halves; each page's `type` is its annotated form types) and, for the blind
// marking of primary actions, scratch/a11y/dev5-tune-controls.txt and scratch/a11y/dev5-test-controls.txt (every
// named control in page order, visible ones flagged, each page header with its form types; not committed).
// The pages are read from a git mirror of Formasaurus at run time, never committed; they are decoded (decodeHtml:
// UTF-8 when valid, else their meta charset) and served as UTF-8, whose HTTP charset the browser follows.
// Run: [FORMASAURUS_REPO=<git dir>] [DEV5_MAX=300] node --import tsx train/a11y/collect-forms.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { hash } from '../../src/rank/goal.ts';
import { renderSet, halfSummary, writeControlListing, type A11yPage, type A11ySplit, type Source } from './collect-a11y.ts';
import { shopOf } from './collect-products.ts';

const REPO = process.env.FORMASAURUS_REPO ?? '/work/.mirror/TeamHG-Memex+Formasaurus/repo';
const MAX = Number(process.env.DEV5_MAX ?? 300);
export const DEV5_SEED = process.env.DEV5_SEED ?? 'a11y-dev5-forms-2026-11';
export const dev5SplitOf = (site: string): A11ySplit => ((hash(`${DEV5_SEED}:${site}`) >>> 0) % 100) < 50 ? 'tune' : 'test';

/** One file of the mirror's HEAD, as bytes. */
function show(path: string): Buffer {
  return execFileSync('git', ['-C', REPO, 'show', `HEAD:formasaurus/data/${path}`], { maxBuffer: 256 << 20 });
}

/** A saved page's text: UTF-8 when its bytes are valid UTF-8 (many pages declaring another charset were saved
 *  re-encoded as UTF-8: decoding them by their meta garbles them), else by its BOM or the first meta charset in
 *  its first 8 kB, else windows-1252 (what browsers assume for undeclared Western pages). */
export function decodeHtml(bytes: Buffer): { html: string; charset: string } {
  try {
    return { html: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
  } catch { /* not UTF-8: its declared charset */ }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    const charset = bytes[0] === 0xff ? 'utf-16le' : 'utf-16be';
    return { html: new TextDecoder(charset).decode(bytes), charset };
  }
  const label = /<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(bytes.subarray(0, 8192).toString('latin1'))?.[1].toLowerCase();
  for (const candidate of [label, 'windows-1252']) {
    if (!candidate || candidate.startsWith('utf-')) continue; // a UTF label on bytes that are not UTF-8: the fallback
    try {
      const decoder = new TextDecoder(candidate);
      return { html: decoder.decode(bytes), charset: decoder.encoding };
    } catch { /* a label TextDecoder does not know */ }
  }
  return { html: new TextDecoder('windows-1252').decode(bytes), charset: 'windows-1252' };
}

/** The sites of every stored a11y and train/real page (by shopOf of its URL and of its site). */
function heldSites(): Set<string> {
  const held = new Set<string>();
  const files = [...readdirSync(new URL('./', import.meta.url)).filter((f) => f.endsWith('.json.gz') && f !== 'dev5.json.gz').map((f) => new URL(`./${f}`, import.meta.url)),
    ...readdirSync(new URL('../real/', import.meta.url)).filter((f) => f.endsWith('.json.gz')).map((f) => new URL(`../real/${f}`, import.meta.url))];
  for (const file of files) {
    for (const p of (JSON.parse(gunzipSync(readFileSync(file)).toString()) as { pages: { site?: string; request: { url: string } }[] }).pages) {
      held.add(shopOf(p.request.url));
      if (p.site) held.add(shopOf(`http://${p.site}/`));
    }
  }
  return held;
}

export interface FormSource extends Source { site: string; forms: string[]; charset: string }

/** dev5's pages: the first file (sorted) of each site no other set holds; when more than `max` sites, the `max`
 *  of lowest seeded hash. `type` is the page's annotated form types ("login, search"). */
export function formSources(max = MAX): { sources: FormSource[]; sites: number; held: number } {
  if (!existsSync(REPO)) throw new Error(`no Formasaurus git mirror at ${REPO}: set FORMASAURUS_REPO to a git directory of TeamHG-Memex/Formasaurus`);
  const index = JSON.parse(show('index.json').toString('utf8')) as Record<string, { url: string; forms: string[] }>;
  const config = JSON.parse(show('config.json').toString('utf8')) as { form_types: { types: { short: string; full: string }[]; NA_value: string; skip_value: string } };
  const names = new Map(config.form_types.types.map((t) => [t.short, t.full]));
  const unlabelled = new Set([config.form_types.NA_value, config.form_types.skip_value]);
  const held = heldSites();
  const first = new Map<string, string>();
  for (const file of Object.keys(index).sort()) {
    const site = shopOf(index[file].url);
    if (!first.has(site)) first.set(site, file);
  }
  const free = [...first.keys()].filter((site) => !held.has(site));
  const rank = (site: string) => hash(`${DEV5_SEED}:pick:${site}`) >>> 0;
  const kept = new Set([...free].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1)).slice(0, max));
  const sources = [...first].filter(([site]) => kept.has(site)).sort((a, b) => (a[1] < b[1] ? -1 : 1)).map(([site, file]) => {
    const url = index[file].url.split('#')[0];
    const forms = [...new Set(index[file].forms.filter((f) => !unlabelled.has(f)).map((f) => names.get(f) ?? f))];
    const { html, charset } = decodeHtml(show(file));
    return { id: `fs-${file.replace(/^html\//, '').replace(/\.html$/, '')}`, url, type: forms.join(', ') || 'no form annotated', site, forms, charset, html };
  });
  return { sources, sites: first.size, held: first.size - free.length };
}

async function main() {
  const started = Date.now();
  const commit = execFileSync('git', ['-C', REPO, 'rev-parse', 'HEAD']).toString().trim();
  const { sources, sites, held } = formSources();
  const charsets = new Map<string, number>();
  for (const s of sources) charsets.set(s.charset, (charsets.get(s.charset) ?? 0) + 1);
  console.log(`Formasaurus ${commit}: ${sites} sites, ${held} held by another set, ${sources.length} pages to render (charsets: ${[...charsets].map(([c, n]) => `${n} ${c}`).join(', ')})`);
  const pages = await renderSet('dev5', DEV5_SEED, sources, dev5SplitOf, (all) => {
    for (const split of ['tune', 'test'] as const) writeControlListing(`dev5-${split}-controls.txt`, all.filter((p) => p.split === split), (p) => `forms: ${p.type}`);
  });
  const perType = new Map<string, number>();
  for (const p of pages) for (const f of sources.find((s) => s.id === p.id)!.forms) perType.set(f, (perType.get(f) ?? 0) + 1);
  const visible = (split: A11ySplit) => pages.filter((p) => p.split === split).reduce((n, p) => n + p.controls.filter((c) => c.visible).length, 0);
  const elements = (split: A11ySplit) => pages.filter((p) => p.split === split).reduce((n, p) => n + p.request.raw_elements.length, 0);
  const empty = pages.filter((p: A11yPage) => !p.request.raw_elements.length || !p.controls.some((c) => c.visible));
  console.log(`${pages.length} of ${sources.length} pages in ${((Date.now() - started) / 1000).toFixed(0)} s; dev5 tune ${halfSummary(pages, 'tune')} (${elements('tune')} elements, ${visible('tune')} visible named controls), `
    + `dev5 test ${halfSummary(pages, 'test')} (${elements('test')} elements, ${visible('test')} visible named controls)`);
  console.log(`pages per form type: ${[...perType].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  console.log(`pages with no element or no visible named control: ${empty.map((p) => `${p.id} (${p.request.raw_elements.length} elements)`).join(', ') || 'none'}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
