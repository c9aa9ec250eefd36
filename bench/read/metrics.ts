// The two extraction metrics, as the data sets' READMEs define them.

/** Plain text of Markdown: links and images to their text, syntax marks dropped. */
export function markdownText(md: string): string {
  return md
    .replace(/```[^\n]*\n/g, '\n').replace(/```/g, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '').replace(/^\s*[-*+]\s+/gm, '').replace(/^\s*\d+\.\s+/gm, '')
    .replace(/^\s*>\s?/gm, '').replace(/\|/g, ' ').replace(/^[\s:-]+$/gm, '')
    .replace(/[*_~`]/g, '');
}

function counts(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
}

function overlap(a: Map<string, number>, b: Map<string, number>): number {
  let n = 0;
  for (const [k, v] of a) n += Math.min(v, b.get(k) ?? 0);
  return n;
}

/** article-extraction-benchmark: multisets of 4-token shingles over \w+ tokens (case kept). */
export function shingleScores(predicted: string, truth: string): { p: number | null; r: number | null } {
  const shingles = (text: string) => {
    const tokens = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
    const out: string[] = [];
    for (let i = 0; i + 4 <= tokens.length; i++) out.push(tokens.slice(i, i + 4).join(' '));
    if (!out.length && tokens.length) out.push(tokens.join(' '));
    return counts(out);
  };
  const pred = shingles(predicted), gold = shingles(truth);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const np = sum(pred), ng = sum(gold);
  if (!np && !ng) return { p: 1, r: 1 };
  const tp = overlap(pred, gold);
  return { p: np ? tp / np : null, r: ng ? tp / ng : null };
}

/** Mean precision and recall over pages (nulls left out), and F1 of the means. */
export function aggregate(scores: { p: number | null; r: number | null }[]): { precision: number; recall: number; f1: number } {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const precision = mean(scores.map((s) => s.p).filter((x): x is number => x !== null));
  const recall = mean(scores.map((s) => s.r).filter((x): x is number => x !== null));
  return { precision, recall, f1: precision + recall ? 2 * precision * recall / (precision + recall) : 0 };
}

/** WCXB: word-level F1 per page (lower-cased \w+ words, multiset overlap). */
export function wordF1(predicted: string, truth: string): number {
  const words = (t: string) => counts((t.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []));
  const pred = words(predicted), gold = words(truth);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const np = sum(pred), ng = sum(gold);
  if (!np && !ng) return 1;
  if (!np || !ng) return 0;
  const tp = overlap(pred, gold);
  const p = tp / np, r = tp / ng;
  return p + r ? 2 * p * r / (p + r) : 0;
}
