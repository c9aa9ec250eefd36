// The read pipeline's fetcher: undici with a deadline, at most 5 redirects each checked by the egress
// guard, connections made only to guard-checked addresses, a size cap on the decoded body, and the
// charset taken from the headers, a BOM or the document's <meta>. A PDF (by its Content-Type, or by the
// `%PDF-` magic bytes under a generic or text type) comes back as bytes for pdf.ts.
import { Agent, fetch, type Response } from 'undici';
import type { LookupFunction } from 'node:net';
import { SightlineError } from '../../schema/errors.ts';
import { EgressError, refusalError, type EgressGuard } from './egress.ts';
import { isPdf } from '../pdf/pdf-sniff.ts';
import { requestHeaders, type Credentials } from './credentials.ts';

export const MAX_REDIRECTS = 5;

export interface FetchOptions {
  guard: EgressGuard;
  deadlineMs: number;
  maxBytes: number;
  userAgent?: string;
}

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  charset: string;
  text: string;
  redirects: string[];
  bytes: number;
  /** The body, when it is a PDF (then `text` is empty). */
  pdf?: Uint8Array;
}

const TEXT_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain|application\/xml|text\/xml|application\/(?:rss|atom)\+xml)$/;
/** Text that is neither HTML nor XML (Markdown, CSV, JSON, source code, any other text/*): read as a browser
 *  shows it, like text/plain. */
const PLAIN_TYPES = /^(text\/(?!html$|xml$)[\w.+-]+|application\/(?:json|[\w.-]+\+json|markdown|x-markdown|javascript|x-yaml|yaml|toml|x-sh))$/;
const PDF_TYPES = /^(application\/pdf|application\/x-pdf|application\/acrobat|text\/pdf)$/;
/** Types servers send for a file without saying what it is: read, and kept only when it is a PDF. */
const GENERIC_TYPES = /^(application\/octet-stream|binary\/octet-stream|application\/download|application\/force-download|application\/x-download|application\/unknown)$/;
export const DEFAULT_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Sightline/0.1 Safari/537.36';

/** An agent whose every connection resolves through the guard: no second, unchecked DNS answer. */
export function guardedAgent(guard: EgressGuard): Agent {
  const lookup: LookupFunction = (hostname, options, callback) => {
    guard.resolve(hostname).then(
      ({ address, family }) => (options as { all?: boolean }).all ? (callback as any)(null, [{ address, family }]) : callback(null, address, family),
      (err) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
  return new Agent({ connect: { lookup }, connections: 64 });
}

/**
 * The body's text and encoding, as a browser finds it: a BOM, the header's charset, then the document's own
 * declaration (a <meta> charset, or an XML declaration's encoding); a page that declares none is UTF-8 when
 * it decodes as UTF-8 (that decoding is the text), else windows-1252 (the web's legacy default). A document
 * cannot declare itself UTF-16 (its ASCII declaration proves it is not): WHATWG reads such a <meta> as UTF-8.
 */
export function decodeBody(contentType: string, bytes: Uint8Array): { charset: string; text: string } {
  const declared = declaredCharset(contentType, bytes);
  if (declared) return { charset: declared, text: decode(bytes, declared) };
  try { return { charset: 'utf-8', text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) }; } catch { return { charset: 'windows-1252', text: decode(bytes, 'windows-1252') }; }
}

/** The charset a BOM, the header or the document names, or null. */
function declaredCharset(contentType: string, bytes: Uint8Array): string | null {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (fromHeader) return fromHeader.toLowerCase();
  const start = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const declared = (/<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(start) ?? /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)/i.exec(start))?.[1]?.toLowerCase();
  if (!declared) return null;
  return /^(?:utf-?16|ucs-?2|unicode)/.test(declared) ? 'utf-8' : declared;
}

/** A body with no Content-Type that is not text (an image, an archive, any file with NUL bytes in its start):
 *  what a browser's sniffing would not show as a page. */
function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 1024);
  return head.includes(0) || [[0x89, 0x50, 0x4e, 0x47], [0xff, 0xd8, 0xff], [0x47, 0x49, 0x46, 0x38], [0x50, 0x4b, 0x03, 0x04], [0x1f, 0x8b]]
    .some((magic) => magic.every((b, i) => head[i] === b));
}

/** A Location header as the server meant it: undici hands its bytes over as Latin-1 characters, so a UTF-8
 *  path ("/café") arrives as "/cafÃ©"; such bytes are read back as UTF-8 when they are valid UTF-8. */
function locationOf(raw: string): string {
  if (!/[\x80-\xff]/.test(raw) || /[^\x00-\xff]/.test(raw)) return raw;
  try { return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(raw, 'latin1')); } catch { return raw; }
}

/** windows-1252's 0x80–0x9F (Node's TextDecoder treats the label as ISO-8859-1 and gets these wrong). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const CP1252_LABELS = new Set(['windows-1252', 'cp1252', 'x-cp1252', 'latin1', 'iso-8859-1', 'iso8859-1', 'l1', 'ascii', 'us-ascii', 'iso-ir-100', 'cp819', 'ibm819']);

function decode(bytes: Uint8Array, charset: string): string {
  if (CP1252_LABELS.has(charset)) {
    // The WHATWG Encoding Standard maps all these labels to windows-1252.
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) {
      const part = bytes.subarray(i, i + 8192);
      out += String.fromCharCode(...part).replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);
    }
    return out;
  }
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes); // an unknown label: the web's default
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > maxBytes && !res.headers.get('content-encoding')) {
    await res.body?.cancel();
    throw new SightlineError('too_large', `The page is ${declared} bytes, over the ${maxBytes}-byte limit`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body ?? []) {
      total += chunk.length;
      if (total > maxBytes) throw new SightlineError('too_large', `The page is over the ${maxBytes}-byte limit`);
      chunks.push(chunk);
    }
  } catch (err) {
    // The page server reset the connection, or the body is not valid in its Content-Encoding: the
    // page's failure. (A deadline or a cancel is told apart by fetchPage.)
    if (err instanceof SightlineError) throw err;
    const cause = (err as Error & { cause?: Error }).cause?.message;
    throw new SightlineError('unreachable', `The page's body could not be read: ${(err as Error).message}${cause && !(err as Error).message.includes(cause) ? ` (${cause})` : ''}`);
  }
  return Buffer.concat(chunks, total);
}

/** `credentials`: the caller's cookies and headers, chosen again at every hop (credentials.ts): a redirect
 *  off the host they name does not carry them. */
export async function fetchPage(raw: string, options: FetchOptions, agent: Agent, signal?: AbortSignal, credentials?: Credentials): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(options.deadlineMs);
  const abort = signal ? AbortSignal.any([deadline, signal]) : deadline;
  const redirects: string[] = [];
  let current = raw;
  try {
    for (;;) {
      let checked;
      try {
        checked = await options.guard.check(current);
      } catch (err) {
        if (!(err instanceof EgressError)) throw err;
        throw refusalError(err, redirects.length ? ` (redirected from ${redirects[redirects.length - 1]})` : '', redirects.length > 0);
      }
      const res = await fetch(checked.url, {
        dispatcher: agent, redirect: 'manual', signal: abort,
        headers: { 'user-agent': options.userAgent ?? DEFAULT_UA, accept: 'text/html,application/xhtml+xml;q=0.9,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5', ...requestHeaders(credentials, checked.url) },
      }).catch((err: Error & { cause?: Error }) => {
        if (abort.aborted) throw err;
        const cause = err.cause instanceof EgressError ? err.cause : undefined;
        if (cause) throw new SightlineError('blocked_url', cause.message);
        throw new SightlineError('unreachable', `Cannot reach ${checked.url.host}: ${err.cause?.message ?? err.message}`);
      });
      if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
        await res.body?.cancel();
        if (redirects.length >= MAX_REDIRECTS) throw new SightlineError('unreachable', `More than ${MAX_REDIRECTS} redirects, starting at ${raw}`);
        redirects.push(checked.url.href);
        const location = locationOf(res.headers.get('location')!);
        if (!URL.canParse(location, checked.url)) throw new SightlineError('unreachable', `The page redirected to an invalid URL: ${location.slice(0, 200)}`);
        current = new URL(location, checked.url).href;
        continue;
      }
      if (res.status >= 400) {
        await res.body?.cancel();
        throw new SightlineError('http_error', `The page answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
      }
      const contentType = (res.headers.get('content-type') ?? '').toLowerCase();
      // No type said (or an empty header): sniffed from the bytes below, as a browser does.
      const untyped = !contentType.split(';')[0].trim();
      const mime = untyped ? 'text/html' : contentType.split(';')[0].trim();
      if (!TEXT_TYPES.test(mime) && !PLAIN_TYPES.test(mime) && !PDF_TYPES.test(mime) && !GENERIC_TYPES.test(mime)) {
        await res.body?.cancel();
        throw new SightlineError('unsupported_content_type', `The page is ${mime}: read mode reads HTML, XML, text and PDF`);
      }
      const bytes = await readCapped(res, options.maxBytes);
      if (PDF_TYPES.test(mime) || isPdf(bytes, GENERIC_TYPES.test(mime))) {
        return { url: checked.url.href, status: res.status, contentType: 'application/pdf', charset: '', text: '', redirects, bytes: bytes.length, pdf: bytes };
      }
      if (GENERIC_TYPES.test(mime)) throw new SightlineError('unsupported_content_type', `The page is ${mime} and not a PDF, HTML or text`);
      if (untyped && looksBinary(bytes)) throw new SightlineError('unsupported_content_type', 'The page has no Content-Type and its bytes are not text (an image or another binary file)');
      const { charset, text } = decodeBody(contentType, bytes);
      return { url: checked.url.href, status: res.status, contentType: PLAIN_TYPES.test(mime) ? 'text/plain' : mime, charset, text, redirects, bytes: bytes.length };
    }
  } catch (err) {
    if (deadline.aborted) throw new SightlineError('timeout', `The page did not load within ${options.deadlineMs} ms`);
    if (signal?.aborted) throw new SightlineError('timeout', 'The request was cancelled');
    throw err;
  }
}
