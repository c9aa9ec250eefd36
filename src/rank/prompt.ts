// The compact text form of a ranked result: what an agent puts in a model's context. One formatter
// behind every door (the library, the client, /v1/snapshot and observe map/visual with
// options.format "text"). The grammar was chosen by counting tokens with a real BPE tokenizer on real
// pages: docs/prompt-format.md has the candidates and the numbers, bench/prompt.bench.ts measures it.
//
//   # "<title>" <url> scroll=<y>[ modal]
//   <id> <role>[ <flag>...]: <text>
//
// A line's head is the id, the role (one word) and the flags (known words, or value= with a JSON
// string); the text runs from the first ": " after the head to the end of the line. Text is one line
// (whitespace collapsed) and trimmed to maxText characters, ending in "…" when cut; an element shows its
// accessible name where the name differs from its visible text and the text does not hold it (labelOf).
import type { RankResult, SnapshotElement } from '../schema/snapshot.ts';

/** Default characters of text per element: past it a link's words rarely change what an agent does. */
export const PROMPT_MAX_TEXT = 60;
const MAX_VALUE = 40;

export interface PromptOptions {
  /** Characters of text (or name) per element, default 60. */
  maxText?: number;
  /** The page title for the header line (the rank result does not carry it). */
  title?: string;
  /** Vertical scroll of the page; default: read from the elements (doc_y - center_y). */
  scrollY?: number;
  /** Leave out the header line. */
  header?: boolean;
}

/** What the formatter reads: a rank result, or the part of one that observe map has. */
export type PromptSource = Pick<RankResult, 'url' | 'elements'> & Partial<Pick<RankResult, 'viewport' | 'modal_detected'>>;

/** Flag words, in the order they appear on a line. Roles are never flags, so the head parses alone. */
export const PROMPT_FLAGS = ['value=', 'redacted', 'checked', 'mixed', 'disabled', 'expanded', 'collapsed', 'covered', 'above', 'below', 'offscreen', 'list', 'new', 'gone', 'changed', 'moved'] as const;

const DIFF_WORDS = { ADDED: 'new', REMOVED: 'gone', MODIFIED: 'changed', MOVED: 'moved' } as const;

/** Roles whose `value` is what a form submits, not what the user sees: their state is a flag. */
export const PROMPT_NO_VALUE_ROLES: ReadonlySet<string> = new Set(['checkbox', 'radio', 'switch', 'button', 'menuitemcheckbox', 'menuitemradio', 'option', 'link', 'tab']);

function oneLine(text: string, max: number): string {
  const s = text.replace(/\s+/g, ' ').trim();
  if (s.length <= max) return s;
  return max <= 1 ? '…' : `${s.slice(0, max - 1).trimEnd()}…`;
}

function flagsOf(e: SnapshotElement, viewportHeight: number | undefined): string[] {
  const flags: string[] = [];
  if (e.value_redacted) flags.push('redacted');
  else if (e.value && !PROMPT_NO_VALUE_ROLES.has(e.role)) flags.push(`value=${JSON.stringify(oneLine(e.value, MAX_VALUE))}`);
  if (e.aria_checked === 'mixed') flags.push('mixed');
  else if (e.checked) flags.push('checked');
  if (e.disabled) flags.push('disabled');
  if (e.expanded === true) flags.push('expanded');
  else if (e.expanded === false) flags.push('collapsed');
  if (e.is_occluded) flags.push('covered');
  if (!e.in_viewport && e.diff_status !== 'REMOVED') {
    const { y, height } = e.bbox;
    flags.push(y + height <= 0 ? 'above' : viewportHeight !== undefined && y >= viewportHeight ? 'below' : 'offscreen');
  }
  if (e.in_dominant_group) flags.push('list');
  if (e.diff_status) flags.push(DIFF_WORDS[e.diff_status]);
  return flags;
}

const WORDY = /[\p{L}\p{N}]/u;
const fold = (s: string) => s.replace(/\s+/g, ' ').toLowerCase();

/**
 * What a model reads for the element: its accessible name where it differs from the visible text (an
 * aria-label "Navigate to Pricing page" on a link drawn "Pricing", "Close" on "×", "Next slide" on
 * "Next"), as the accessibility tree and the peers name it; its text when the text already holds the
 * name (a title "Cart" on "Cart (2)") or there is no name. One label per line, never both: the name
 * costs about a token more per page element that has one (docs/prompt-format.md).
 */
function labelOf(e: Pick<SnapshotElement, 'text' | 'name'>): string {
  const text = e.text?.trim() ?? '', name = e.name?.trim() ?? '';
  if (!WORDY.test(text)) return name || text;
  if (!WORDY.test(name)) return text;
  return fold(text).includes(fold(name)) ? text : name;
}

/** One element's line, without the newline. */
export function promptLine(e: SnapshotElement, options: Pick<PromptOptions, 'maxText'> = {}, viewportHeight?: number): string {
  const flags = flagsOf(e, viewportHeight);
  const text = oneLine(labelOf(e), Math.max(1, Math.floor(options.maxText ?? PROMPT_MAX_TEXT)));
  return `${e.id} ${e.role}${flags.length ? ' ' + flags.join(' ') : ''}:${text ? ' ' + text : ''}`;
}

function scrollOf(elements: SnapshotElement[]): number {
  const e = elements.find((x) => x.doc_y != null && x.center_y != null);
  return e ? Math.max(0, Math.round(e.doc_y! - e.center_y!)) : 0;
}

/** The page header: title, URL, scroll position and whether a modal covers the page. */
export function promptHeader(result: PromptSource, options: PromptOptions = {}): string {
  const title = options.title ? `${JSON.stringify(oneLine(options.title, 120))} ` : '';
  const scroll = Math.round(options.scrollY ?? scrollOf(result.elements));
  return `# ${title}${result.url} scroll=${scroll}${result.modal_detected ? ' modal' : ''}`;
}

/** The result as text: a header line, then one line per element in result order. */
export function toPrompt(result: PromptSource, options: PromptOptions = {}): string {
  const height = result.viewport?.height;
  const lines = result.elements.map((e) => promptLine(e, options, height));
  if (options.header !== false) lines.unshift(promptHeader(result, options));
  return lines.join('\n');
}
