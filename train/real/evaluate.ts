// Scores goal ranking on the real-page goal set: for every goal, where its best target lands in the
// heuristic order (no goal) and in the shipped model's order (the goal given), as recall@1/5/10,
// overall and by split, style and language. The test split is frozen: report on it, never tune on it.
// Run: npm run eval:goals [-- --split test]
import { readFileSync, readdirSync } from 'node:fs';
import { createRanker } from '../../src/index.ts';
import { loadRealPages, type GoalFile, type Style } from './check-goals.ts';
import type { RealPage, Split } from './collect-real.ts';

export interface Scored { page: string; split: Split; style: Style; lang: string; goal: string; heuristic: number; model: number }

const GOALS_DIR = new URL('./goals/', import.meta.url);
const K = [1, 5, 10] as const;

/** Every goal file's goals with their page. */
export function loadGoals(): { page: RealPage; goal: string; style: Style; targets: number[] }[] {
  const pages = loadRealPages();
  const out = [];
  for (const name of readdirSync(GOALS_DIR).filter((f) => f.endsWith('.json')).sort()) {
    const file = JSON.parse(readFileSync(new URL(name, GOALS_DIR), 'utf8')) as GoalFile;
    for (const [id, goals] of Object.entries(file.pages)) {
      const page = pages.get(id);
      if (page) for (const g of goals) out.push({ page, ...g });
    }
  }
  return out;
}

/** 0-based position of the first target in a ranked list of ids (Infinity when absent). */
const positionOf = (ids: number[], targets: number[]) => {
  const at = ids.findIndex((id) => targets.includes(id));
  return at < 0 ? Infinity : at;
};

/** Ranks the goals of the pages `only` keeps (all by default: a split left out is never ranked). */
export async function score(only: (page: RealPage) => boolean = () => true): Promise<Scored[]> {
  const ranker = await createRanker({ limitCap: 100_000 });
  const heuristic = new Map<string, number[]>();
  const out: Scored[] = [];
  for (const g of loadGoals()) {
    if (!only(g.page)) continue;
    const request = { ...g.page.request, options: { limit: 100_000 } };
    let plain = heuristic.get(g.page.id);
    if (!plain) heuristic.set(g.page.id, plain = ranker.rank(request).elements.map((e) => e.id));
    const withGoal = ranker.rank({ ...request, goal: g.goal }).elements.map((e) => e.id);
    out.push({ page: g.page.id, split: g.page.split, style: g.style, lang: g.page.lang === 'en' ? 'en' : 'non-en', goal: g.goal,
      heuristic: positionOf(plain, g.targets), model: positionOf(withGoal, g.targets) });
  }
  return out;
}

/** Share of the rows whose best target is within the first k (by `key`: no goal, or with the goal). */
export const recall = (rows: Scored[], key: 'heuristic' | 'model', k: number) => rows.filter((r) => r[key] < k).length / Math.max(1, rows.length);

/** A Markdown table of recall@k by group: heuristic and model side by side. */
export function table(rows: Scored[], groupBy: (r: Scored) => string): string {
  const groups = new Map<string, Scored[]>();
  for (const r of rows) groups.set(groupBy(r), [...groups.get(groupBy(r)) ?? [], r]);
  const lines = ['| group | goals | heuristic R@1 | R@5 | R@10 | model R@1 | R@5 | R@10 |', '|---|---|---|---|---|---|---|---|'];
  for (const [name, group] of [...groups].sort()) {
    const cells = (key: 'heuristic' | 'model') => K.map((k) => recall(group, key, k).toFixed(3));
    lines.push(`| ${name} | ${group.length} | ${cells('heuristic').join(' | ')} | ${cells('model').join(' | ')} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : undefined;
  const rows = await score((page) => !only || page.split === only);
  const pages = (split: string) => new Set(rows.filter((r) => r.split === split).map((r) => r.page)).size;
  console.log(`${rows.length} goals on ${new Set(rows.map((r) => r.page)).size} pages (train ${pages('train')}, dev ${pages('dev')}, test ${pages('test')} pages)\n`);
  console.log('By split\n\n' + table(rows, (r) => r.split) + '\n');
  console.log('By style\n\n' + table(rows, (r) => `${r.split} ${r.style}`) + '\n');
  console.log('By language\n\n' + table(rows, (r) => `${r.split} ${r.lang}`));
}
