// Trains the block model of read mode (src/observe/read/extract-blocks.ts) on the WCXB tune part and
// measures what pruning does to the read, per fold. Pages read through the product step (or the
// listing and collection steps: --family listing) give the blocks; each block is labelled content when
// most of its word trigrams (its words, under three) are in the page's ground truth. Logistic
// regression, each page weighing the same (a block by its share of the page's words).
// Thresholds are chosen on fold a alone, by cross-validation over its sites (three groups of sites:
// train on two, score the third); fold b is scored once, in aggregate, at the chosen threshold. Never
// the test part.
// Run: node --import tsx train/read/blocks.ts [--family product|listing] [--features all|struct|head] [--l2 0.01] [--train a|ab] [--write]
//      (the reads are cached in /tmp/blocks-reads.json: they do not depend on the model)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseHTML } from 'linkedom';
import { extractRead } from '../../src/observe/read/extract.ts';
import { toMarkdown, cutAtBlock } from '../../src/observe/read/markdown.ts';
import { readBlocks, blockFeatures, centerFeatures, FEATURE_NAMES, type Step } from '../../src/observe/read/block-features.ts';
import { dropScriptText } from '../../src/observe/read/extract-product.ts';
import type { El } from '../../src/observe/read/extract-dom.ts';
import { hash } from '../../src/rank/words.ts';
import { wcxbSplit, foldOf, WCXB_DIR, SPLIT } from '../../bench/read/wcxb-eval.ts';
import { markdownText, wordF1 } from '../../bench/read/metrics.ts';

const { values } = parseArgs({ options: {
  train: { type: 'string', default: 'a' }, write: { type: 'boolean' }, l2: { type: 'string', default: '0.01' },
  cache: { type: 'string', default: '/tmp/blocks-reads.json' }, family: { type: 'string', default: 'product' },
  features: { type: 'string', default: 'all' }, without: { type: 'string', default: '' }, threshold: { type: 'string' }, model: { type: 'string', default: 'stumps' }, oracle: { type: 'boolean' }, rounds: { type: 'string', default: '300' }, unit: { type: 'string', default: 'block' }, 'no-center': { type: 'boolean' }, pages: { type: 'string' }, 'by-tag': { type: 'boolean' },
} });
// The tag of a definition list is left out by default: fold a's sites used <dl> for shop panels, but a
// product's specifications are often one (the model trained with it dropped them on our fixture).
if (!process.argv.some((a) => a.startsWith('--without'))) values.without = 'tag:dt/dd';
const STEPS = new Set(values.family === 'product' ? ['product'] : ['listing', 'collection']);
interface Read { id: string; fold: 'a' | 'b'; type: string; as: string; html: string; truth: string }

// 1. The chosen read of every tune page.
let reads: Read[];
if (existsSync(values.cache)) reads = JSON.parse(readFileSync(values.cache, 'utf8'));
else {
  // The reads as the block step gets them: not pruned by the shipped model.
  reads = wcxbSplit('tune')!.map((p) => { const { read, as } = extractRead(p.html, p.url, undefined, true); return { id: p.id, fold: foldOf(p.url), type: p.type, as, html: read.html, truth: p.truth }; });
  writeFileSync(values.cache, JSON.stringify(reads));
}
const urlOf = new Map(SPLIT.tune.map((id) => [id, JSON.parse(readFileSync(join(WCXB_DIR, 'dev', 'ground-truth', `${id}.json`), 'utf8')).url as string]));
const hostOf = (id: string) => { try { return new URL(urlOf.get(id)!).hostname.replace(/^www\./, ''); } catch { return 'invalid'; } };
/** Cross-validation group of a fold-a site (a hash unlike the fold's). */
const groupOf = (id: string) => (hash(`cv:${hostOf(id)}`) >>> 0) % 3;

// Which features the model may use: all, structure only, or structure and heading words.
const without = new Set(values.without.split(',').filter(Boolean));
const use = FEATURE_NAMES.map((n) => !without.has(n) && (values.features === 'all' || (!n.startsWith('cls:') && (values.features === 'head' || !n.startsWith('head:')))) ? 1 : 0);

// 2. Blocks, features and labels.
const tokens = (t: string) => t.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
const grams = (ws: string[]) => ws.length < 3 ? [ws.join(' ')] : ws.slice(2).map((_, i) => ws.slice(i, i + 3).join(' '));
interface Row { x: number[]; y: number; w: number; page: number }
const rows: Row[] = [];
reads.forEach((r, page) => {
  if (!STEPS.has(r.as)) return;
  const truthWords = tokens(r.truth);
  const truthGrams = new Set(grams(truthWords));
  const truthText = ` ${truthWords.join(' ')} `;
  const { document } = parseHTML(`<!doctype html><html><body>${r.html}</body></html>`);
  const root = document.body as El;
  const blocks = readBlocks(root);
  const X = blockFeatures(root, blocks, r.as as Step);
  const pageWords = blocks.reduce((s, b) => s + b.words, 0) || 1;
  if (!values['no-center']) centerFeatures(X, blocks);
  blocks.forEach((b, i) => {
    const ws = tokens(b.text);
    const share = ws.length < 3 ? (truthText.includes(` ${ws.join(' ')} `) ? 1 : 0) : grams(ws).filter((g) => truthGrams.has(g)).length / (ws.length - 2);
    rows.push({ x: X[i].map((x, j) => x * use[j]), y: share >= 0.5 ? 1 : 0, w: b.words / pageWords, page });
  });
});

// 3. Logistic regression by full-batch gradient descent (Adam), L2 on all but the bias.
function fit(train: Row[]): number[] {
  const d = FEATURE_NAMES.length;
  const w = new Array(d).fill(0), m = new Array(d).fill(0), v = new Array(d).fill(0);
  const l2 = Number(values.l2);
  const W = train.reduce((s, r) => s + r.w, 0) || 1;
  for (let it = 1; it <= 800; it++) {
    const g = new Array(d).fill(0);
    for (const r of train) {
      let z = 0; for (let j = 0; j < d; j++) z += w[j] * r.x[j];
      const e = (1 / (1 + Math.exp(-z)) - r.y) * r.w;
      for (let j = 0; j < d; j++) if (r.x[j]) g[j] += e * r.x[j];
    }
    for (let j = 0; j < d; j++) {
      const gj = g[j] / W + (j ? l2 * w[j] : 0);
      m[j] = 0.9 * m[j] + 0.1 * gj; v[j] = 0.999 * v[j] + 0.001 * gj * gj;
      w[j] -= 0.05 * (m[j] / (1 - 0.9 ** it)) / (Math.sqrt(v[j] / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  return w;
}
/** Boosted stumps (Newton steps on the log loss): each a feature, a cut and the two leaves' scores. */
type Stump = [feature: number, cut: number, left: number, right: number];
function fitStumps(train: Row[]): { bias: number; stumps: Stump[] } {
  const d = FEATURE_NAMES.length, rate = 0.1, lambda = 1;
  const W = train.reduce((s, r) => s + r.w, 0) || 1;
  const pos = train.reduce((s, r) => s + r.w * r.y, 0) / W;
  const bias = Math.log(Math.max(1e-3, pos) / Math.max(1e-3, 1 - pos));
  const z = train.map(() => bias);
  // Candidate cuts: the feature's distinct values (at most 16 quantiles).
  const cuts = Array.from({ length: d }, (_, j) => {
    const vs = [...new Set(train.map((r) => r.x[j]))].sort((a, b) => a - b);
    if (vs.length < 2) return [];
    const step = Math.max(1, Math.floor(vs.length / 16));
    return vs.filter((_, k) => k % step === 0 && k > 0);
  });
  const stumps: Stump[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const g = train.map((r, i) => r.w * (1 / (1 + Math.exp(-z[i])) - r.y) / W * 1000);
    const h = train.map((r, i) => { const p = 1 / (1 + Math.exp(-z[i])); return r.w * p * (1 - p) / W * 1000; });
    let best: Stump | null = null, bestGain = 0;
    for (let j = 0; j < d; j++) {
      if (!use[j]) continue;
      for (const c of cuts[j]) {
        let gl = 0, hl = 0, gr = 0, hr = 0;
        train.forEach((r, i) => { if (r.x[j] < c) { gl += g[i]; hl += h[i]; } else { gr += g[i]; hr += h[i]; } });
        const gain = gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - (gl + gr) ** 2 / (hl + hr + lambda);
        if (gain > bestGain) { bestGain = gain; best = [j, c, -rate * gl / (hl + lambda), -rate * gr / (hr + lambda)]; }
      }
    }
    if (!best) break;
    stumps.push(best);
    train.forEach((r, i) => { z[i] += r.x[best![0]] < best![1] ? best![2] : best![3]; });
  }
  return { bias, stumps };
}
const stumpsProb = (m: { bias: number; stumps: Stump[] }, x: number[]) => { let z = m.bias; for (const [j, c, l, r] of m.stumps) z += x[j] < c ? l : r; return 1 / (1 + Math.exp(-z)); };
type Model = (x: number[]) => number;
let lastStumps: { bias: number; stumps: Stump[] } | null = null;
const train = (rs: Row[]): Model => {
  if (values.model === 'stumps') { const m = fitStumps(rs); lastStumps = m; return (x) => stumpsProb(m, x); }
  const w = fit(rs); return (x) => prob(w, x);
};
const prob = (w: number[], x: number[]) => { let z = 0; for (let j = 0; j < x.length; j++) z += w[j] * x[j]; return 1 / (1 + Math.exp(-z)); };

// 4. The read with the blocks below a threshold removed (the blocks in readBlocks order), word F1 of its Markdown.
const f1 = (html: string, truth: string) => wordF1(markdownText(cutAtBlock(toMarkdown(html), 500_000).content), truth);
/** A product read's HTML after the steps that follow the model at run time (pruneProduct: dropScriptText). */
const after = (root: El) => { dropScriptText(root); return root.innerHTML; };
/** Block groups that may get thresholds of their own (--by-tag): headings, table rows and cells, list items and terms, the rest. */
const GROUPS = ['heading', 'table', 'item', 'other'] as const;
const groupOfTag = (tag: string) => /^H[1-6]$/.test(tag) ? 0 : /^(?:TR|TD|TH)$/.test(tag) ? 1 : /^(?:LI|DT|DD)$/.test(tag) ? 2 : 3;
function prunedF1(r: Read, probs: number[], t: number | number[]): number {
  const { document } = parseHTML(`<!doctype html><html><body>${r.html}</body></html>`);
  const root = document.body as El;
  const blocks = readBlocks(root);
  let p = probs;
  if (values.unit === 'section') {
    // A section runs from a heading to the next: its blocks share the section's word-weighted mean.
    p = probs.slice();
    let start = 0;
    const close = (end: number) => {
      let sw = 0, sp = 0;
      for (let k = start; k < end; k++) { sw += blocks[k].words; sp += blocks[k].words * probs[k]; }
      for (let k = start; k < end; k++) p[k] = sp / Math.max(1, sw);
      start = end;
    };
    blocks.forEach((b, i) => { if (i > start && /^H[1-6]$/.test(b.el.tagName)) close(i); });
    close(blocks.length);
  }
  blocks.forEach((b, i) => { if (p[i] < (typeof t === 'number' ? t : t[groupOfTag(b.el.tagName)])) b.el.remove(); });
  return f1(values.family === 'product' ? after(root) : root.innerHTML, r.truth);
}
const base = reads.map((r) => STEPS.has(r.as) && values.family === 'product' ? f1(after(parseHTML(`<!doctype html><html><body>${r.html}</body></html>`).document.body as El), r.truth) : f1(r.html, r.truth));
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const probsByPage = (model: (page: number) => Model) => {
  const out = new Map<number, number[]>();
  for (const r of rows) { const p = out.get(r.page) ?? []; p.push(model(r.page)(r.x)); out.set(r.page, p); }
  return out;
};
const THRESHOLDS = [0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5];
const typesOf = (idx: number[]) => [...new Set(idx.map((i) => reads[i].type))].sort();
function table(label: string, idx: number[], probs: Map<number, number[]>, thresholds: number[]): Map<number, number> {
  const scores = new Map(thresholds.map((t) => [t, idx.map((i) => probs.has(i) ? prunedF1(reads[i], probs.get(i)!, t) : base[i])]));
  console.log(`${label}: word F1, no pruning, then pruned below each threshold (pages of each WCXB type)`);
  console.log(`  ${'type'.padEnd(14)} ${'n'.padStart(4)} ${'none'.padStart(6)}${thresholds.map((t) => String(t).padStart(7)).join('')}`);
  for (const type of ['all', 'pruned', ...typesOf(idx)]) {
    const sel = idx.flatMap((i, k) => (type === 'all' || (type === 'pruned' ? probs.has(i) : reads[i].type === type)) ? [k] : []);
    console.log(`  ${type.padEnd(14)} ${String(sel.length).padStart(4)} ${mean(sel.map((k) => base[idx[k]])).toFixed(3).padStart(6)}${thresholds.map((t) => mean(sel.map((k) => scores.get(t)![k])).toFixed(3).padStart(7)).join('')}`);
  }
  return new Map(thresholds.map((t) => [t, mean(idx.flatMap((i, k) => probs.has(i) ? [scores.get(t)![k]] : []))]));
}

const foldA = reads.flatMap((r, i) => r.fold === 'a' ? [i] : []);
const foldB = reads.flatMap((r, i) => r.fold === 'b' ? [i] : []);
console.log(`${values.family} reads: ${rows.length} blocks on ${new Set(rows.map((r) => r.page)).size} pages (fold a ${rows.filter((r) => reads[r.page].fold === 'a').length}); content share ${(rows.filter((r) => r.y).length / rows.length).toFixed(2)}; features ${values.features}, l2 ${values.l2}`);

// 5. Fold a, cross-validated over its sites: the threshold is chosen here.
const aRows = rows.filter((r) => reads[r.page].fold === 'a');
if (values.oracle) {
  const labels = new Map<number, number[]>();
  for (const r of aRows) { const p = labels.get(r.page) ?? []; p.push(r.y); labels.set(r.page, p); }
  table('fold a, blocks removed by their label (an oracle: the bound of block pruning)', foldA, labels, [0.5]);
}
const cvWeights = [0, 1, 2].map((g) => train(aRows.filter((r) => groupOf(reads[r.page].id) !== g)));
const cv = table('fold a, cross-validated by site (3 groups)', foldA, probsByPage((page) => cvWeights[groupOf(reads[page].id)]), THRESHOLDS);
if (values.pages) {
  // Fold a only: each pruned page's F1 before and after at --pages <threshold>, and what went.
  const t = Number(values.pages);
  const cvProbs = probsByPage((page) => cvWeights[groupOf(reads[page].id)]);
  for (const [page, probs] of cvProbs) {
    if (reads[page].fold !== 'a') continue;
    const r = reads[page];
    const { document } = parseHTML(`<!doctype html><html><body>${r.html}</body></html>`);
    const blocks = readBlocks(document.body as El);
    const labels = rows.filter((x) => x.page === page).map((x) => x.y);
    const gone = blocks.flatMap((b, i) => probs[i] < t ? [`${labels[i] ? 'TRUTH' : 'extra'} ${probs[i].toFixed(2)} ${b.el.tagName} ${b.text.slice(0, 70)}`] : []);
    console.log(`${r.id} ${hostOf(r.id)} g${groupOf(r.id)} ${base[page].toFixed(3)} -> ${prunedF1(r, probs, t).toFixed(3)}; blocks ${blocks.length}, truth ${labels.filter(Boolean).length}, removed ${gone.length} (truth ${gone.filter((g) => g.startsWith('TRUTH')).length})`);
    for (const g of gone.slice(0, 6)) console.log(`    ${g}`);
  }
}
const chosen = values.threshold ? Number(values.threshold) : [...cv].sort((x, y) => y[1] - x[1])[0][0];
console.log(`chosen threshold (fold a CV, mean F1 of the pruned pages): ${chosen}`);

// 5b. --by-tag: a threshold per block group, by coordinate search on fold a's cross-validated scores
// (two passes from the chosen one); fold b is scored once at them (below).
let byTag: number[] | null = null;
if (values['by-tag']) {
  const cvProbs = probsByPage((page) => cvWeights[groupOf(reads[page].id)]);
  const pruned = foldA.filter((i) => cvProbs.has(i));
  const score = (ts: number[]) => mean(pruned.map((i) => prunedF1(reads[i], cvProbs.get(i)!, ts)));
  let found: number[] = GROUPS.map(() => chosen);
  let best = score(found);
  for (let pass = 0; pass < 2; pass++) {
    for (let g = 0; g < GROUPS.length; g++) {
      for (const t of [0, ...THRESHOLDS, 0.6]) {
        const ts: number[] = found.slice(); ts[g] = t;
        const f = score(ts);
        if (f > best + 1e-9) { best = f; found = ts; }
      }
    }
  }
  byTag = found;
  console.log(`fold a CV by block group: ${GROUPS.map((g, k) => `${g} ${found[k]}`).join(', ')}; mean F1 of the pruned pages ${score(GROUPS.map(() => chosen)).toFixed(3)} -> ${best.toFixed(3)}`);
}

// 6. The model trained on fold a (or both), fold b's aggregates at the chosen threshold.
const trainFolds = new Set(values.train.split(''));
const finalModel = train(rows.filter((r) => trainFolds.has(reads[r.page].fold)));
const w = values.model === 'lr' ? fit(rows.filter((r) => trainFolds.has(reads[r.page].fold))) : [];
if (w.length) console.log('largest weights:', FEATURE_NAMES.map((n, j) => [n, w[j]] as const).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 16).map(([n, x]) => `${n} ${x.toFixed(2)}`).join(', '));
if (values.train === 'a') table('fold b (model trained on fold a)', foldB, probsByPage(() => finalModel), [chosen]);
if (values.train === 'a' && byTag) {
  const probs = probsByPage(() => finalModel);
  const sel = foldB.filter((i) => probs.has(i));
  console.log(`fold b (model trained on fold a), pruned pages ${sel.length}: one threshold ${mean(sel.map((i) => prunedF1(reads[i], probs.get(i)!, chosen))).toFixed(3)}, by block group ${mean(sel.map((i) => prunedF1(reads[i], probs.get(i)!, byTag!))).toFixed(3)}`);
  for (const type of typesOf(foldB)) {
    const idx = foldB.filter((i) => reads[i].type === type);
    const f = (t: number | number[]) => mean(idx.map((i) => probs.has(i) ? prunedF1(reads[i], probs.get(i)!, t) : base[i])).toFixed(3);
    console.log(`  ${type.padEnd(14)} ${String(idx.length).padStart(4)} one ${f(chosen)} by group ${f(byTag)}`);
  }
}
if (values.write) {
  if (values.family !== 'product' || !lastStumps) throw new Error('--write ships the product family\'s stumps only');
  const m = lastStumps as { bias: number; stumps: Stump[] };
  const r4 = (x: number) => Number(x.toFixed(4));
  const stumps = m.stumps.map(([j, c, l, r]) => `  ['${FEATURE_NAMES[j]}', ${r4(c)}, ${r4(l)}, ${r4(r)}],`).join('\n');
  writeFileSync(new URL('../../src/observe/read/block-model.ts', import.meta.url), `// The block model of product reads (extract-blocks.ts): boosted stumps over the centred features of
// block-features.ts, each [feature, cut, score below the cut, score at or above it]. Written by
// \`node --import tsx train/read/blocks.ts ${process.argv.slice(2).join(' ')}\` (trained on WCXB tune fold${values.train.length > 1 ? 's' : ''} ${values.train.split('').join(' and ')};
// ${m.stumps.length} rounds; threshold chosen by cross-validation over fold a's sites). Do not edit by hand.
import type { BlockModel } from './extract-blocks.ts';

export const PRODUCT_BLOCK_MODEL: BlockModel = { threshold: ${chosen}, bias: ${r4(m.bias)}, stumps: [
${stumps}
] };
`);
  console.log(`wrote the product model (trained on fold ${values.train}) to src/observe/read/block-model.ts`);
}
