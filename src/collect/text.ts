// Text, accessible names, nearby text and values, with redaction: passwords, one-time codes and card
// data never leave the page.
import { isTag } from './dom.ts';

const MAX_TEXT = 300;
const MAX_NEARBY = 100;

export function clean(text: string | null | undefined, max = MAX_TEXT): string {
  if (!text) return '';
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

function byIds(el: Element, ids: string): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  return ids.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '').join(' ');
}

export function visibleText(el: Element): string {
  if (isTag(el, 'INPUT') && ['submit', 'button', 'reset'].includes(el.type)) return clean(el.value);
  if (isTag(el, 'INPUT') || isTag(el, 'TEXTAREA') || isTag(el, 'SELECT')) return '';
  return clean(el.textContent);
}

/** Accessible name: aria-labelledby, aria-label, label elements, placeholder, title, image alt. */
export function accessibleName(el: Element): string {
  const labelledby = el.getAttribute('aria-labelledby');
  if (labelledby) {
    const name = clean(byIds(el, labelledby));
    if (name) return name;
  }
  const aria = el.getAttribute('aria-label');
  if (aria?.trim()) return clean(aria);
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length) {
    const name = clean([...labels].map((l) => l.textContent).join(' '));
    if (name) return name;
  }
  const placeholder = el.getAttribute('placeholder');
  if (placeholder?.trim()) return clean(placeholder);
  const title = el.getAttribute('title');
  if (title?.trim()) return clean(title);
  const img = el.tagName === 'IMG' ? el : el.querySelector('img[alt]');
  return clean(img?.getAttribute('alt'));
}

/** Text around the element that is not its own: the previous sibling's, else the parent's. */
export function nearbyText(el: Element, own: string): string {
  const prev = clean(el.previousElementSibling?.textContent, MAX_NEARBY);
  if (prev && prev !== own) return prev;
  const parent = el.parentElement;
  if (!parent) return '';
  const around = clean(parent.textContent, MAX_TEXT);
  const rest = clean(own ? around.replace(own, ' ') : around, MAX_NEARBY);
  return rest === own ? '' : rest;
}

const SECRET_AUTOCOMPLETE = /^(one-time-code|cc-|current-password|new-password)/;
const SECRET_NAME = /pass(word)?|pwd|otp|one.?time|cvv|cvc|csc|card.?num|cc.?num|security.?code|pin\b/i;
const CARD_NUMBER = /^\d[\d -]{11,22}\d$/;

/** Luhn check: a 13-19 digit string that passes is treated as a card number. */
function looksLikeCard(value: string): boolean {
  if (!CARD_NUMBER.test(value)) return false;
  const digits = value.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

export function isSecret(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): boolean {
  if (isTag(el, 'INPUT') && el.type === 'password') return true;
  const autocomplete = (el.getAttribute('autocomplete') ?? '').toLowerCase();
  if (SECRET_AUTOCOMPLETE.test(autocomplete)) return true;
  if (SECRET_NAME.test(`${el.getAttribute('name') ?? ''} ${el.id}`)) return true;
  return looksLikeCard(el.value.trim());
}
