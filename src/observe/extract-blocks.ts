// Block pruning for product reads: each block of the chosen read (paragraph, list item, heading,
// table row…) is scored by a small model trained offline on the WCXB tune part (boosted stumps,
// train/read/blocks.ts; weights in block-model.ts), and blocks it scores as not the page's content
// (shop chrome, prices of other offers, size pickers, other products' cards) are removed. MinerU-HTML
// likewise classifies blocks rather than choosing one container. Listing and collection reads were
// tried too and are not pruned: no model held across sites there.
import { parseHTML } from 'linkedom';
import { type El } from './extract-dom.ts';
import { readBlocks, blockFeatures, centerFeatures, FEATURE_NAMES, type Step } from './block-features.ts';
import { PRODUCT_BLOCK_MODEL } from './block-model.ts';

/** Boosted stumps: a bias and [feature name, cut, score below the cut, score at or above it], and the
 *  probability below which a block goes. */
export interface BlockModel { threshold: number; bias: number; stumps: [string, number, number, number][] }

const INDEX = new Map(FEATURE_NAMES.map((n, j) => [n, j]));

/** Probability that each block of `root` is content, by the model. */
export function blockScores(root: El, step: Step, model: BlockModel = PRODUCT_BLOCK_MODEL): { el: El; p: number }[] {
  const blocks = readBlocks(root);
  const X = centerFeatures(blockFeatures(root, blocks, step), blocks);
  const stumps = model.stumps.map(([name, cut, below, above]) => {
    const j = INDEX.get(name);
    if (j === undefined) throw new Error(`block model: unknown feature ${name}`);
    return [j, cut, below, above] as const;
  });
  return blocks.map((b, i) => {
    let z = model.bias;
    for (const [j, cut, below, above] of stumps) z += X[i][j] < cut ? below : above;
    return { el: b.el, p: 1 / (1 + Math.exp(-z)) };
  });
}

/** The read's HTML as a body without the blocks the model scores below its threshold; null when none goes. */
export function pruneBlocks(html: string, step: Step, model: BlockModel = PRODUCT_BLOCK_MODEL): El | null {
  if (!model.stumps.length) return null;
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const root = document.body as El;
  const low = blockScores(root, step, model).filter((s) => s.p < model.threshold);
  if (!low.length) return null;
  for (const { el } of low) el.remove();
  return root;
}
