// Read mode without a browser: HTML in, the page's main content out as Markdown, text or cleaned HTML,
// cut at a block boundary (cut.ts). PDFs have their own reader (pdf.ts) with the same result.
import { parseHTML } from 'linkedom';
import { extract } from './extract.ts';
import { textOf } from './extract-dom.ts';
import { toMarkdown } from './markdown.ts';
import { plainText } from './plain-text.ts';
import { cutContent, type ReadFormat } from './cut.ts';

export type { ReadFormat } from './cut.ts';
export const DEFAULT_CONTENT_LIMIT = 50_000;
export const MAX_CONTENT_LIMIT = 500_000;
/** Content shorter than this (in characters) gets a warning: not loaded, blocked, or a captcha. */
const SHORT_CONTENT = 200;

export interface ReadOptions {
  format?: ReadFormat;
  contentLimit?: number;
  mainContent?: boolean;
  /** Add `links`: the main content's links (options.include_links). */
  includeLinks?: boolean;
}

export interface ReadLink { url: string; text: string }

export interface ReadResult {
  title: string;
  description: string;
  content: string;
  truncated: boolean;
  warnings: string[];
  /** Characters of text before cutting: the script-shell test uses it. */
  textLength: number;
  /** With includeLinks: absolute URL and anchor text of each link in the content, each URL once. */
  links?: ReadLink[];
  /** PDFs: the document's page count. */
  pages?: number;
}

/** A text/plain page as the document a browser shows for it: its text, escaped, in one <pre>. */
export function plainTextPage(text: string): string {
  return `<!doctype html><html><body><pre>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre></body></html>`;
}

/**
 * The links of extracted content (its links are already absolute): http(s) and mailto, each URL once
 * with its first non-empty text (anchor text, else aria-label, title or an image's alt), in order.
 * Parsed again only when asked for, so reads without include_links cost what they did.
 */
export function linksOf(html: string): ReadLink[] {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const seen = new Map<string, string>();
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href')!.trim();
    if (!/^(?:https?:|mailto:)/i.test(href)) continue;
    const text = textOf(a) || a.getAttribute('aria-label')?.trim() || a.getAttribute('title')?.trim() || a.querySelector('img[alt]')?.getAttribute('alt')?.trim() || '';
    if (!seen.get(href)) seen.set(href, text);
  }
  return [...seen].map(([url, text]) => ({ url, text }));
}

export function readPage(html: string, url: string, options: ReadOptions = {}): ReadResult {
  const extracted = extract(html, url, { mainContent: options.mainContent });
  const format = options.format ?? 'markdown';
  const full = format === 'html' ? extracted.html.trim() : format === 'text' ? plainText(extracted.html) : toMarkdown(extracted.html);
  const { content, truncated } = cutContent(full, format, options.contentLimit ?? DEFAULT_CONTENT_LIMIT);
  const warnings: string[] = [];
  if (extracted.text.length < SHORT_CONTENT) warnings.push(`content_short: only ${extracted.text.length} characters of text were found (the page may not have loaded, may need a browser, or may be blocked)`);
  if (truncated) warnings.push(`content_truncated: cut at ${content.length} of ${full.length} characters (contentLimit)`);
  return {
    title: extracted.title, description: extracted.description, content, truncated, warnings, textLength: extracted.text.length,
    ...(options.includeLinks ? { links: linksOf(extracted.html) } : {}),
  };
}
