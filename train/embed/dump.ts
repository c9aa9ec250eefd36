// Dumps the goal set's train and dev pages for the Python step of train/embed (issue 37): each
// element's texts by view (own words, link path, context) and today's ranking per goal from the
// built core, to train/embed/.cache/dump.json. The test split is never read past its split label.
// Run: node --import tsx train/embed/dump.ts [--templates]  (--templates: also the template pages' goals with the
// same views, to .cache/templates.json, for finetune.py)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRanker } from '../../src/index.ts';
import { SECTION_HEADINGS_BACK } from '../../assembly/layout.ts';
import { loadGoals } from '../real/evaluate.ts';
import type { RealPage } from '../real/collect-real.ts';
import type { DataPage } from '../build-data.ts';

const CACHE = new URL('./.cache/', import.meta.url);
const SPLITS = new Set(['train', 'dev']);
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** How many of today's first elements keep their rerank score in the dump (a second stage's candidates). */
const TOP_SCORED = 100;

type Raw = RealPage['request']['raw_elements'][number];

const clean = (s: unknown) => (typeof s === 'string' ? s.replace(/\s+/g, ' ').trim() : '');
const unique = (parts: string[]) => [...new Set(parts.filter(Boolean))].join(' ');

/** The words of a link's target: path segments and query keys, separators as spaces; mailto/tel named. */
export function linkWords(href: string): string {
  if (!href) return '';
  if (/^mailto:/i.test(href)) return `email ${href.slice(7).split('?')[0]}`;
  if (/^tel:/i.test(href)) return `phone ${href.slice(4)}`;
  if (/^javascript:/i.test(href) || href === '#') return '';
  let url: URL;
  try { url = new URL(href); } catch { return ''; }
  let path = url.pathname;
  try { path = decodeURIComponent(path); } catch { /* keep it encoded */ }
  const words = [path, [...url.searchParams.keys()].join(' '), url.hash.slice(1)].join(' ')
    .replace(/\.(html?|php|aspx?|jsp)\b/gi, ' ')
    .split(/[/\-_.?=&+#,;:~%\s]+/)
    .filter((w) => w && !/^\d+$/.test(w) && w.length < 40);
  return words.join(' ');
}

/** The nearest heading above each element whose box spans its centre column (a stand-in for the
 *  core's inferred section; written when the stored pages predated the collector's `section` field, which the
 *  re-collected pages (train/real/recollect.ts) now carry: the teacher table's numbers were measured this way). */
function headingAbove(els: Raw[]): Map<number, string> {
  const heads = els.filter((e) => HEADING_TAGS.has(e.tag ?? '') && clean(e.text))
    .sort((a, b) => (a.doc_y ?? a.rect.y) - (b.doc_y ?? b.rect.y));
  const out = new Map<number, string>();
  for (const e of els) {
    const y = e.doc_y ?? e.rect.y, x = e.center_x ?? e.rect.x + e.rect.width / 2;
    let i = heads.length - 1;
    while (i >= 0 && (heads[i].doc_y ?? heads[i].rect.y) >= y) i--;
    for (let back = 0; i >= 0 && back < SECTION_HEADINGS_BACK; i--, back++) {
      const h = heads[i];
      if (h.id !== e.id && h.rect.x <= x && x <= h.rect.x + h.rect.width) { out.set(e.id, clean(h.text).slice(0, 200)); break; }
    }
  }
  return out;
}

export interface DumpElement { id: number; role: string; own: string; link: string; context: string; importance: number; heuristic: number }
export interface DumpGoal { page: string; split: string; lang: string; style: string; goal: string; targets: number[]; today: number[]; confidence: number; today_score: number[] }

type Ranker = Awaited<ReturnType<typeof createRanker>>;
type Request = RealPage['request'] & { options?: { limit: number } };

/** Every element of a page as the core returns it without a goal (heuristic order), with its three text views. */
function pageViews(ranker: Ranker, request: Request): DumpElement[] {
  const raw = new Map(request.raw_elements.map((e) => [e.id, e]));
  const heading = headingAbove(request.raw_elements);
  return ranker.rank(request).elements.map((e, i) => {
    const a = raw.get(e.id)?.attributes ?? {};
    const value = a.value_redacted ? '' : clean(a.value);
    return {
      id: e.id, role: e.role,
      own: unique([clean(e.text), clean(e.name), clean(a.aria_label), clean(a.inferred_label), value].map((s) => s.slice(0, 300))),
      link: linkWords(e.href ?? a.href ?? ''),
      context: unique([heading.get(e.id) ?? '', clean(e.nearby_text ?? a.nearby_text).slice(0, 300)]),
      importance: e.importance, heuristic: i,
    };
  });
}

/** The template pages' goals (train/data/pages.json.gz) with the same views, for finetune.py's training pairs. */
function dumpTemplates(ranker: Ranker) {
  const data = JSON.parse(gunzipSync(readFileSync(new URL('../data/pages.json.gz', import.meta.url))).toString()) as { pages: DataPage[] };
  const pages: Record<string, { elements: DumpElement[] }> = {};
  const goals: { page: string; goal: string; targets: number[] }[] = [];
  for (const p of data.pages) {
    pages[p.id] = { elements: pageViews(ranker, { ...(p.request as RealPage['request']), options: { limit: 100_000 } }) };
    for (const ex of p.examples) goals.push({ page: p.id, goal: ex.goal, targets: [ex.target] });
  }
  writeFileSync(new URL('templates.json', CACHE), JSON.stringify({ pages, goals }));
  console.log(`templates: ${goals.length} goals on ${data.pages.length} pages`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const ranker = await createRanker({ limitCap: 100_000 });
  const goals = loadGoals().filter((g) => SPLITS.has(g.page.split));
  const pages: Record<string, { split: string; lang: string; elements: DumpElement[] }> = {};
  const outGoals: DumpGoal[] = [];
  for (const g of goals) {
    const request = { ...g.page.request, options: { limit: 100_000 } };
    if (!pages[g.page.id]) pages[g.page.id] = { split: g.page.split, lang: g.page.lang, elements: pageViews(ranker, request) };
    const ranked = ranker.rank({ ...request, goal: g.goal });
    const today = ranked.elements.map((e) => e.id);
    // the rerank's own calibrated probability for its first element: known at run time, so a fusion may gate on it
    const confidence = ranked.ml_rerank?.top_probability ?? 0;
    // the rerank's own score of today's first candidates (a second stage fuses with it: second_stage.py)
    const today_score = ranked.elements.slice(0, TOP_SCORED).map((e) => e.ml_score ?? 0);
    outGoals.push({ page: g.page.id, split: g.page.split, lang: g.page.lang === 'en' ? 'en' : 'non-en', style: g.style, goal: g.goal, targets: g.targets, today, confidence, today_score });
  }
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(new URL('dump.json', CACHE), JSON.stringify({ pages, goals: outGoals }));
  if (process.argv.includes('--templates')) dumpTemplates(ranker);
  const n = Object.values(pages).reduce((s, p) => s + p.elements.length, 0);
  console.log(`${outGoals.length} goals on ${Object.keys(pages).length} pages, ${n} elements, ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
