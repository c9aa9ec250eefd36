// Counting tokens as a model pays for them: gpt-tokenizer's o200k_base table (GPT-4o and later), loaded
// on the first budgeted request (about 2.4 MB of ranks: nothing loads it unless max_tokens is asked for).
// Text is counted as text: a page that contains "<|endoftext|>" is not refused, its characters count.

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base');

export interface TokenCounter {
  /** Tokens of `text`. */
  count(text: string): number;
  /** Tokens of `text` when at most `limit`, else false; stops counting past the limit. */
  within(text: string, limit: number): number | false;
}

const PLAIN = { disallowedSpecial: new Set<string>() };
let loading: Promise<TokenCounter> | undefined;

export function tokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((o200k: O200k) => ({
    count: (text) => o200k.countTokens(text, PLAIN),
    within: (text, limit) => o200k.isWithinTokenLimit(text, limit, PLAIN),
  }), (err) => {
    loading = undefined;
    // The light client package (@sightline/client) has gpt-tokenizer as an optional peer: say how to get it.
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error('max_tokens counts tokens with gpt-tokenizer, an optional peer dependency of @sightline/client: npm install gpt-tokenizer@4.0.0', { cause: err });
    }
    throw err;
  });
  return loading;
}

/**
 * The largest `k` (0..n) whose `render(k)` is within `budget` tokens, with that rendering and its count.
 * `render(k)` is the first k parts (elements in rank order, blocks in document order) as the caller
 * returns them; tokens grow with k, so a binary search finds it in log n counts, each stopping early past
 * the budget. Should even `render(0)` not fit, k is 0 and the text is empty.
 */
export function fitPrefix(counter: TokenCounter, n: number, render: (k: number) => string, budget: number): { k: number; text: string; tokens: number } {
  const all = render(n);
  const whole = counter.within(all, budget);
  if (whole !== false) return { k: n, text: all, tokens: whole };
  let lo = 0, hi = n; // render(lo) fits (or lo is 0), render(hi) does not
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (counter.within(render(mid), budget) !== false) lo = mid; else hi = mid;
  }
  const text = render(lo);
  const tokens = counter.within(text, budget);
  return tokens !== false ? { k: lo, text, tokens } : { k: 0, text: '', tokens: 0 };
}
