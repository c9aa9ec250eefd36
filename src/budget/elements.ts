// `max_tokens` over ranked elements (/v1/snapshot, observe map and visual, the client, MCP): the most
// important elements that fit, whole and in rank order, so what is kept is a prefix of the ranking.
// What is counted is what the model reads: the text form with `format: "text"`, else the elements as JSON.
import { fitPrefix, tokenCounter } from './tokens.ts';

export interface ElementBudget<E> {
  /** The kept elements: a prefix of those given. */
  elements: E[];
  /** With a text renderer: the text form of the kept elements ('' when not even its header fits). */
  text?: string;
  token_count: number;
  truncated: boolean;
}

/**
 * The longest prefix of `elements` within `budget` tokens. `text`, when given, renders a prefix as the
 * text form and is what is counted; otherwise `JSON.stringify` of the prefix (`json`, default: the
 * elements themselves) is.
 */
export async function fitElements<E>(elements: E[], budget: number, render: { text?: (kept: E[]) => string; json?: (kept: E[]) => unknown } = {}): Promise<ElementBudget<E>> {
  const counter = await tokenCounter();
  const asText = render.text;
  const asJson = render.json ?? ((kept: E[]) => kept);
  const fit = fitPrefix(counter, elements.length, (k) => asText ? asText(elements.slice(0, k)) : JSON.stringify(asJson(elements.slice(0, k))), budget);
  return { elements: elements.slice(0, fit.k), ...(asText ? { text: fit.text } : {}), token_count: fit.tokens, truncated: fit.k < elements.length };
}
