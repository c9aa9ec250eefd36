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
// UTF-8 when valid and free of C1 controls, else as the egress room reads a page) and served as UTF-8, whose HTTP
// charset the browser follows. `--redecode` re-renders only the pages whose decoded text changed since dev5.json.gz
// was written (the C1 fix) and rewrites them in place, every other page byte for byte.
// Run: [FORMASAURUS_REPO=<git dir>] [DEV5_MAX=300] node --import tsx train/a11y/collect-forms.ts
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gunzipSync, gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { hash } from '../../src/rank/goal.ts';
import { renderSet, renderPage, halfSummary, writeControlListing, type A11yPage, type A11ySplit, type Source } from './collect-a11y.ts';
import { launch } from '../../test/helpers/browser.ts';
import { shopOf } from './collect-products.ts';
import { decodeBody } from '../../src/observe/egress/fetch-page.ts';

const REPO = process.env.FORMASAURUS_REPO ?? '/work/.mirror/TeamHG-Memex+Formasaurus/repo';
const MAX = Number(process.env.DEV5_MAX ?? 300);
export const DEV5_SEED = process.env.DEV5_SEED ?? 'a11y-dev5-forms-2026-11';
export const dev5SplitOf = (site: string): A11ySplit => ((hash(`${DEV5_SEED}:${site}`) >>> 0) % 100) < 50 ? 'tune' : 'test';

/** One file of the mirror's HEAD, as bytes. */
function show(path: string): Buffer {
  return execFileSync('git', ['-C', REPO, 'show', `HEAD:formasaurus/data/${path}`], { maxBuffer: 256 << 20 });
}

/** A saved page's text. Many pages were saved as UTF-8 of their bytes read as Latin-1, whatever their real charset
 *  (decoding them by their meta garbles them), so: bytes that are not UTF-8 are read as a browser reads them
 *  (`decodeBody`, the egress room's decoding of a fetched page: BOM, meta charset, else windows-1252). Valid UTF-8
 *  is the text, unless it holds C1 controls (U+0080–U+009F), which no page means: those are bytes 0x80–0x9F of the
 *  original that the saving read as Latin-1. When every character is Latin-1, the original bytes are the text's
 *  Latin-1 bytes and `decodeBody` reads them (their meta's windows-1252 quotes, or UTF-8 saved twice: "â\u0080\u0099"
 *  is "’"); a text that also holds other characters keeps them and only its C1 bytes are read as windows-1252. */
export function decodeHtml(bytes: Buffer): { html: string; charset: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const { text: html, charset } = decodeBody('', bytes);
    return { html, charset };
  }
  if (!/[\u0080-\u009f]/.test(text)) return { html: text, charset: 'utf-8' };
  if (!/[^\u0000-\u00ff]/.test(text)) {
    const { text: html, charset } = decodeBody('', Buffer.from(text, 'latin1'));
    return { html, charset: `utf-8 of latin-1 read, ${charset}` };
  }
  const c1 = (c: string) => decodeBody('text/html; charset=windows-1252', Uint8Array.of(c.charCodeAt(0))).text;
  return { html: text.replace(/[\u0080-\u009f]/g, c1), charset: 'utf-8, C1 as windows-1252' };
}

/** The sites of every stored a11y and train/real page (by shopOf of its URL and of its site), but those of `except`
 *  (the set being built). */
export function heldSites(except = 'dev5.json.gz'): Set<string> {
  const held = new Set<string>();
  const files = [...readdirSync(new URL('./', import.meta.url)).filter((f) => f.endsWith('.json.gz') && f !== except).map((f) => new URL(`./${f}`, import.meta.url)),
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

/** `--redecode`: re-renders, in place, the stored dev5 pages whose source is not plain UTF-8 (a C1 repair or a
 *  non-UTF-8 page), and prints, for every marked id on them (primary-dev5.json), its element before and after, so a
 *  mark whose element moved shows. Every other page is kept as stored. */
async function redecode() {
  const file = new URL('./dev5.json.gz', import.meta.url);
  const stored = JSON.parse(gunzipSync(readFileSync(file)).toString()) as { splitSeed: string; pages: A11yPage[] };
  const marks = (JSON.parse(readFileSync(new URL('./primary-dev5.json', import.meta.url), 'utf8')) as { pages: Record<string, { ids: number[] } | null> }).pages;
  const bySource = new Map(formSources().sources.map((s) => [s.id, s]));
  const browser = await launch();
  const describe = (p: A11yPage, id: number) => {
    const e = p.request.raw_elements.find((x) => x.id === id);
    const c = p.controls.filter((x) => x.id === id).map((x) => `${x.role} ${JSON.stringify(x.name.slice(0, 50))}`).join(' | ');
    return e ? `${e.tag}[${(e.attributes as Record<string, unknown>)?.input_type ?? ''}] ${JSON.stringify(String(e.text ?? '').slice(0, 50))} ${c}` : 'absent';
  };
  let changed = 0;
  for (const [k, old] of stored.pages.entries()) {
    const s = bySource.get(old.id);
    if (!s || s.charset === 'utf-8') continue;
    const got = await renderPage(browser, s, undefined, s.id, s.site, dev5SplitOf(s.site));
    if (!got) { console.log(`${old.id}: failed to render, kept as stored`); continue; }
    const same = JSON.stringify(got) === JSON.stringify(old);
    if (!same) { stored.pages[k] = got; changed++; }
    const ids = marks[old.id]?.ids ?? [];
    const moved = ids.filter((id) => describe(old, id) !== describe(got, id));
    console.log(`${old.id} (${old.split}, ${s.charset}): ${same ? 'same payload' : 'payload changed'}; elements ${old.request.raw_elements.length} -> ${got.request.raw_elements.length}; `
      + `visible named controls ${old.controls.filter((c) => c.visible).length} -> ${got.controls.filter((c) => c.visible).length}; marked ids ${ids.length}, their element or name differs: ${moved.length}`);
    for (const id of moved) console.log(`  id ${id}: ${describe(old, id)}  ->  ${describe(got, id)}`);
  }
  await browser.close();
  writeFileSync(file, gzipSync(JSON.stringify(stored)));
  console.log(`${changed} pages rewritten in dev5.json.gz`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await (process.argv.includes('--redecode') ? redecode() : main());
