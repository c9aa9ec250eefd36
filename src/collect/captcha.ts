// Captcha evidence (SPEC client_diagnostics.captcha): page text, known widget selectors, challenge
// iframes and URLs. Cheap: a bounded slice of text and a handful of selectors.

import type { CaptchaReport } from './types.ts';

const TEXT = ['verify you are human', "i'm not a robot", 'i am not a robot', 'are you a robot', 'unusual traffic',
  'complete the security check', 'press and hold', 'prove you are human', 'checking your browser'];
const SELECTORS: [string, string][] = [
  ['.g-recaptcha', 'recaptcha'], ['#recaptcha', 'recaptcha'], ['.h-captcha', 'hcaptcha'], ['.cf-turnstile', 'turnstile'],
  ['#cf-challenge-running', 'cloudflare'], ['#challenge-form', 'cloudflare'], ['#px-captcha', 'perimeterx'], ['[data-sitekey]', null!],
];
const IFRAME_SRC = /recaptcha|hcaptcha|turnstile|challenges\.cloudflare\.com|arkoselabs|funcaptcha|geo\.captcha-delivery/i;
const URL_HINT = /captcha|challenge|\/sorry\//i;
const TEXT_LIMIT = 20_000;

/** The first `limit` characters of the body's textContent (its text and CDATA nodes in tree order), without
 *  building the whole of it (it can be megabytes). A TreeWalker steps over the elements natively: a walk of
 *  every node in script cost a page of little text and much markup 1-5 ms (issue 43). The document tree has
 *  no assigned slots, so this is textContent's order. */
function textStart(body: HTMLElement, limit: number): string {
  const walker = body.ownerDocument.createTreeWalker(body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_CDATA_SECTION);
  const parts: string[] = [];
  let length = 0;
  for (let n = walker.nextNode(); n && length < limit; n = walker.nextNode()) {
    const t = (n as CharacterData).data;
    parts.push(t); length += t.length;
  }
  return parts.join('').slice(0, limit);
}

export function detectCaptcha(doc: Document): CaptchaReport {
  const text = (doc.body ? textStart(doc.body, TEXT_LIMIT) : '').toLowerCase();
  const text_hits = TEXT.filter((t) => text.includes(t));
  let provider: string | null = null;
  const selector_hits: string[] = [];
  // One query per selector, not one for their list: Blink answers a lone `#id` from its id map and a lone
  // `.class` with a cheap scan, where the list matched all eight against every element (0.97 against 0.26 ms
  // a page on bench:peers' tune pages, issue 43).
  for (const [selector, name] of SELECTORS) {
    if (doc.querySelector(selector)) { selector_hits.push(selector); provider ??= name ?? null; }
  }
  const iframe_src_hits: string[] = [];
  for (const frame of doc.querySelectorAll('iframe[src]')) {
    const src = (frame as HTMLIFrameElement).src;
    if (IFRAME_SRC.test(src)) { iframe_src_hits.push(src.slice(0, 200)); provider ??= IFRAME_SRC.exec(src)![0].toLowerCase(); }
  }
  const url_hits = URL_HINT.test(doc.location?.href ?? '') ? [doc.location.href.slice(0, 200)] : [];
  const confidence = selector_hits.length || iframe_src_hits.length ? 0.9 : text_hits.length ? 0.6 : url_hits.length ? 0.4 : 0;
  return { detected: confidence >= 0.5, provider_hint: provider, confidence, evidence: { text_hits, selector_hits, iframe_src_hits, url_hits } };
}
