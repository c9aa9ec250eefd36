// Checks goal files against the collected pages: every page exists, every target id is an element of
// that page and not context (a heading), every style is known, no goal is empty or repeated.
// Run: node --import tsx train/real/check-goals.ts train/real/goals/<file>.json [...]
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { RealPage } from './collect-real.ts';

export const STYLES = ['paraphrase', 'exact', 'ordinal', 'form', 'foreign', 'icon', 'auth', 'contact', 'author', 'consent', 'dismiss', 'pagination'] as const;
export type Style = typeof STYLES[number];
export interface Goal { goal: string; style: Style; targets: number[] }
export interface GoalFile { writer: string; pages: Record<string, Goal[]> }

const CONTEXT_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Every collected page: the first set (pages.json.gz) and the second (pages-more.json.gz, `collect-real.ts --more`). */
export function loadRealPages(): Map<string, RealPage> {
  const pages = new Map<string, RealPage>();
  for (const name of ['./pages.json.gz', './pages-more.json.gz']) {
    const url = new URL(name, import.meta.url);
    if (!existsSync(url)) continue;
    const data = JSON.parse(gunzipSync(readFileSync(url)).toString()) as { pages: RealPage[] };
    for (const p of data.pages) pages.set(p.id, p);
  }
  return pages;
}

/** Problems in one goal file, one line each. */
export function problems(file: GoalFile, pages: Map<string, RealPage>): string[] {
  const out: string[] = [];
  for (const [id, goals] of Object.entries(file.pages ?? {})) {
    const page = pages.get(id);
    if (!page) { out.push(`${id}: no such page`); continue; }
    const byId = new Map(page.request.raw_elements.map((e) => [e.id, e]));
    const seen = new Set<string>();
    for (const g of goals) {
      const where = `${id} "${g.goal}"`;
      if (typeof g.goal !== 'string' || !g.goal.trim()) out.push(`${where}: empty goal`);
      if (seen.has(g.goal?.toLowerCase())) out.push(`${where}: repeated on this page`);
      seen.add(g.goal?.toLowerCase());
      if (!STYLES.includes(g.style)) out.push(`${where}: unknown style ${JSON.stringify(g.style)} (use ${STYLES.join(', ')})`);
      if (!Array.isArray(g.targets) || !g.targets.length) out.push(`${where}: no targets`);
      for (const t of g.targets ?? []) {
        const e = byId.get(t);
        if (!e) out.push(`${where}: target ${t} is not an element of this page`);
        else if (CONTEXT_TAGS.has(e.tag)) out.push(`${where}: target ${t} is a heading (${e.tag} "${e.text.slice(0, 40)}"), not a control`);
      }
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pages = loadRealPages();
  let bad = 0, goals = 0;
  for (const path of process.argv.slice(2)) {
    const file = JSON.parse(readFileSync(path, 'utf8')) as GoalFile;
    const found = problems(file, pages);
    goals += Object.values(file.pages ?? {}).reduce((n, g) => n + g.length, 0);
    for (const p of found) console.log(`${path}: ${p}`);
    bad += found.length;
  }
  console.log(`${goals} goals, ${bad} problems`);
  process.exit(bad ? 1 : 0);
}
