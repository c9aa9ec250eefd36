// Which template pages train/train.ts holds out from fitting (a hash of the page id under TRAIN_SEED): one place,
// so the tools that must leave the same pages out (train/embed/dump-tokens.ts) draw the same line.
import { hash } from '../src/rank/goal.ts';

export const TRAIN_SEED = Number(process.env.TRAIN_SEED ?? 7);
export const HELD_OUT = 0.25;
export const heldOutTemplatePage = (id: string): boolean => ((hash(`${TRAIN_SEED}:${id}`) >>> 0) % 1000) / 1000 < HELD_OUT;
