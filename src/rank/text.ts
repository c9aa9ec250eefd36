// Text as the result shows it, in one place: the decoder prints it and the diff compares it, so an
// element of a previous *result* matches its raw element again.
import type { RawElement } from '../schema/snapshot.ts';

/** Longest text (in UTF-16 units) an element carries in a result; longer text ends with "…". */
export const MAX_TEXT = 300;

/** Characters of a longer text that are collapsed before cutting (PREFIX_PER_CHAR x MAX_TEXT and a margin). */
const PREFIX = 4 * MAX_TEXT + 64;

export function normalizeText(text: string | null | undefined): string {
  if (!text) return '';
  // A text can be megabytes (a caller's container, a page's nearby text). Collapsing a prefix gives a prefix of
  // the collapsed whole, so when the prefix alone collapses to more than MAX_TEXT the result is the same, and the
  // rest is never read (a 27 MB text had cost 1.2 s here, mostly garbage collection of its copy).
  if (text.length > PREFIX) {
    const head = text.slice(0, PREFIX).replace(/\s+/g, ' ').trim();
    if (head.length > MAX_TEXT) return head.slice(0, MAX_TEXT - 1) + '…';
  }
  const clean = isClean(text) ? text : text.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_TEXT ? clean.slice(0, MAX_TEXT - 1) + '…' : clean;
}

/** JavaScript's white space (regex \s): tab to carriage return, the space separators, U+2028/9, U+FEFF. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c >= 0x80 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

/** Collapsing white space and trimming would leave the text as it is (most labels): every white space
 *  unit is a lone plain space between two other units. */
function isClean(text: string): boolean {
  const last = text.length - 1;
  for (let k = 0, prevSpace = true; k <= last; k++) {
    const c = text.charCodeAt(k);
    if (c === 32 && !prevSpace && k < last) { prevSpace = true; continue; }
    if (isSpace(c)) return false;
    prevSpace = false;
  }
  return true;
}

/** The text holds something besides white space (/\S/.test(text), without the regex call and without the
 *  copy trim() makes): asked of every element. */
export function hasNonSpace(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (!isSpace(text.charCodeAt(k))) return true;
  return false;
}

/** Accessible name: aria-label, then the name the collector computed, then an inferred label. */
export function accessibleName(a: RawElement['attributes']): string {
  return a?.aria_label || a?.name || a?.inferred_label || '';
}

const flag = (v: unknown) => (v == null ? '' : v === true || v === 'true' ? 't' : v === false || v === 'false' ? 'f' : String(v));

/** The state part of an element's content, for the diff: value and the checked/disabled/expanded states. */
export function stateKey(value: unknown, checked: unknown, disabled: unknown, ariaChecked: unknown, ariaExpanded: unknown): string {
  return `${value ?? ''}\u0000${flag(checked)}\u0000${flag(disabled)}\u0000${flag(ariaChecked)}\u0000${flag(ariaExpanded)}`;
}

export const isTrue = (v: unknown) => v === true || v === 'true';

export function isDisabled(a: RawElement['attributes']): boolean {
  return isTrue(a?.disabled) || isTrue(a?.aria_disabled);
}
