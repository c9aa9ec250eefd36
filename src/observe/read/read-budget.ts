// `max_tokens` on read: the content's first whole blocks that fit the budget (o200k tokens). Markdown and
// text are blocks between blank lines (a fenced code block is one block, blank lines and all); HTML is
// cut between whole elements (cut.ts). A first block longer than the whole budget is cut at a line or
// a word, so the answer is never empty while the page has text.
import { fitPrefix, tokenCounter, type TokenCounter } from '../../budget/tokens.ts';
import { cutHtmlAtBlock } from './cut.ts';
import { cutAtBlock } from './markdown.ts';
import type { ReadFormat } from './read.ts';

const FENCE = /^ {0,3}(?:```|~~~)/;

/** Where each block ends (exclusive), for Markdown and text: at blank lines outside code fences. */
function blockEnds(content: string, markdown: boolean): number[] {
  const ends: number[] = [];
  let inFence = false;
  let at = 0;
  for (const line of content.split('\n')) {
    const end = at + line.length;
    if (markdown && FENCE.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && at > 0 && ends[ends.length - 1] !== at - 1) ends.push(at - 1);
    at = end + 1;
  }
  ends.push(content.length);
  return ends;
}

/** The largest character limit whose cut fits the budget (the cut keeps whole blocks when it can). No
 *  text averages 16 characters a token, so the search starts below that: fewer cuts (an HTML cut parses). */
function fitByChars(counter: TokenCounter, cut: (limit: number) => string, length: number, budget: number): string {
  let lo = 0, hi = Math.min(length, budget * 16 + 1);
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (counter.within(cut(mid), budget) !== false) lo = mid; else hi = mid;
  }
  return cut(lo);
}

export async function fitContent(content: string, format: ReadFormat, budget: number): Promise<{ content: string; token_count: number; truncated: boolean }> {
  const counter = await tokenCounter();
  const whole = counter.within(content, budget);
  if (whole !== false) return { content, token_count: whole, truncated: false };
  let kept: string;
  if (format === 'html') {
    kept = fitByChars(counter, (limit) => cutHtmlAtBlock(content, limit).content, content.length, budget);
  } else {
    const ends = blockEnds(content, format === 'markdown');
    const fit = fitPrefix(counter, ends.length, (k) => (k ? content.slice(0, ends[k - 1]).trimEnd() : ''), budget);
    kept = fit.k > 0 ? fit.text
      : fitByChars(counter, (limit) => cutAtBlock(content.slice(0, ends[0]), limit, format === 'markdown').content, ends[0], budget);
  }
  return { content: kept, token_count: counter.count(kept), truncated: true };
}
