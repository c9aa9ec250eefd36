// Block pruning for product reads: each block of the chosen read (paragraph, list item, heading,
// table row…) is scored by a small model trained offline on the WCXB tune part (boosted stumps,
// train/read/blocks.ts; weights in block-model.ts), and blocks it scores as not the page's content
// (shop chrome, prices of other offers, size pickers, other products' cards) are removed. MinerU-HTML
// likewise classifies blocks rather than choosing one container. Listing and collection reads were
// tried too and are not pruned: no model held across sites there.
import { type El } from './extract-dom.ts';
import { readBlocks, blockFeatures, centerFeatures, FEATURE_NAMES, type Step } from './block-features.ts';
import { PRODUCT_BLOCK_MODEL, type BlockModel } from './block-model.ts';
export type { BlockModel } from './block-model.ts';

/** Boosted stumps: a bias and [feature name, cut, score below the cut, score at or above it], and the
 *  probability below which a block goes. */

/** A model's stumps over the columns it uses (only those are computed), made once per model. Boosting
 *  picks the same split many times (300 stumps, 66 distinct): stumps on one column and cut are summed into one. */
const COMPILED = new WeakMap<BlockModel, { names: string[]; stumps: [number, number, number, number][] }>();
function compiled(model: BlockModel) {
  let c = COMPILED.get(model);
  if (!c) {
    const names = [...new Set(model.stumps.map(([name]) => name))];
    for (const n of names) if (!FEATURE_NAMES.includes(n)) throw new Error(`block model: unknown feature ${n}`);
    const merged = new Map<string, [number, number, number, number]>();
    for (const [name, cut, below, above] of model.stumps) {
      const same = merged.get(`${name} ${cut}`);
      if (same) { same[2] += below; same[3] += above; } else merged.set(`${name} ${cut}`, [names.indexOf(name), cut, below, above]);
    }
    c = { names, stumps: [...merged.values()] };
    COMPILED.set(model, c);
  }
  return c;
}

/** Probability that each block of `root` is content, by the model. */
export function blockScores(root: El, step: Step, model: BlockModel = PRODUCT_BLOCK_MODEL): { el: El; p: number }[] {
  const { names, stumps } = compiled(model);
  const blocks = readBlocks(root);
  const X = centerFeatures(blockFeatures(root, blocks, step, names), blocks, names);
  return blocks.map((b, i) => {
    let z = model.bias;
    for (const [j, cut, below, above] of stumps) z += X[i][j] < cut ? below : above;
    return { el: b.el, p: 1 / (1 + Math.exp(-z)) };
  });
}

/** Removes from the read's element the blocks the model scores below its threshold; whether any went. */
export function pruneBlocks(root: El, step: Step, model: BlockModel = PRODUCT_BLOCK_MODEL): boolean {
  if (!model.stumps.length) return false;
  const low = blockScores(root, step, model).filter((s) => s.p < model.threshold);
  for (const { el } of low) el.remove();
  return low.length > 0;
}
