// Credentials a caller sends for a logged-in page (docs/decisions.md, "Authenticated observe"): cookies,
// an allow-list of headers and Playwright's storage state. They go to the hosts they name and nowhere
// else: the read fetcher picks them per hop (a redirect off the host drops them), the browser gets the
// cookies scoped by Chromium and the headers only on requests to the page's origin. They live for one
// request: never logged, stored or cached, and the egress guard checks every address as before.
import type { Page } from 'playwright-core';
import { badRequest } from '../../schema/errors.ts';
import type { Cookie, ObserveRequest } from '../../schema/observe.ts';

/** Headers a caller may set: credentials and what a site reads to pick a language or a variant. Never
 *  Host, Cookie (use `cookies`), hop-by-hop (Connection, TE, Upgrade...), proxy (Proxy-*, Forwarded,
 *  X-Forwarded-*, X-Real-IP) or framing headers (Content-Length, Transfer-Encoding). */
const ALLOWED_HEADER = /^(?:authorization|accept-language|user-agent|referer|x-(?!forwarded-|real-ip$)[!#$%&'*+\-.^_`|~0-9a-z]+)$/;

export interface Credentials {
  cookies: Cookie[];
  /** Lower-cased names. */
  headers: Record<string, string>;
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
  /** The requested URL's host: the host of a cookie that names none. */
  host: string;
  /** The requested URL's origin: headers go to it only (or to its https upgrade). */
  origin: string;
  /** The requested URL was https. */
  https: boolean;
}

/** The request's credentials, or undefined when it has none; a header outside the allow-list is a 400. */
export function credentialsOf(body: Pick<ObserveRequest, 'cookies' | 'headers' | 'storage_state'>, url: URL): Credentials | undefined {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(body.headers ?? {})) {
    const lower = name.toLowerCase();
    if (!ALLOWED_HEADER.test(lower)) {
      throw badRequest(`Invalid request: headers.${name.slice(0, 64)} is not allowed (allowed: Authorization, Accept-Language, User-Agent, Referer and X-* other than X-Forwarded-* and X-Real-IP; send cookies in \`cookies\`)`);
    }
    headers[lower] = value;
  }
  const cookies = [...(body.cookies ?? []), ...(body.storage_state?.cookies ?? [])];
  const origins = (body.storage_state?.origins ?? []).filter((o) => o.localStorage.length);
  if (!cookies.length && !Object.keys(headers).length && !origins.length) return undefined;
  return { cookies, headers, origins, host: url.hostname.toLowerCase(), origin: url.origin, https: url.protocol === 'https:' };
}

/** Playwright's rule: a domain with a leading dot is it and its subdomains; without, that host only. */
function domainMatches(cookie: Cookie, host: string, defaultHost: string): boolean {
  const domain = (cookie.domain ?? defaultHost).toLowerCase();
  return domain.startsWith('.') ? host === domain.slice(1) || host.endsWith(domain) : host === domain;
}

/** RFC 6265 5.1.4: the cookie's path is the request's, or a prefix of it ending at a `/`. */
function pathMatches(cookiePath: string, path: string): boolean {
  if (path === cookiePath) return true;
  return path.startsWith(cookiePath) && (cookiePath.endsWith('/') || path[cookiePath.length] === '/');
}

const expired = (c: Cookie, now: number) => c.expires != null && c.expires > 0 && c.expires * 1000 <= now;

/** The Cookie header a request to `url` carries (as a browser would build it), or undefined. */
export function cookieHeader(creds: Credentials, url: URL, now = Date.now()): string | undefined {
  const host = url.hostname.toLowerCase();
  const sent = creds.cookies.filter((c) => domainMatches(c, host, creds.host) && pathMatches(c.path ?? '/', url.pathname)
    && (!c.secure || url.protocol === 'https:') && !expired(c, now));
  return sent.length ? sent.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
}

/** Whether the caller's headers go with a request to `url`: the requested URL's origin, or the same host
 *  upgraded from http to https (a site's usual first redirect); never another port, host or scheme. */
export function sendsHeadersTo(creds: Credentials, url: URL): boolean {
  if (url.origin === creds.origin) return true;
  return !creds.https && url.protocol === 'https:' && url.port === '' && url.hostname.toLowerCase() === creds.host && new URL(creds.origin).port === '';
}

/** The headers (cookies included) the read fetcher adds to a request to `url`. */
export function requestHeaders(creds: Credentials | undefined, url: URL): Record<string, string> {
  if (!creds) return {};
  const out: Record<string, string> = sendsHeadersTo(creds, url) ? { ...creds.headers } : {};
  const cookie = cookieHeader(creds, url);
  if (cookie) out.cookie = cookie;
  return out;
}

/**
 * Gives a fresh page (its context is this request's alone) the credentials: cookies to the context,
 * scoped by Chromium to their host or domain; localStorage set for its origin before the page's scripts
 * run; headers added only to requests for the requested origin (not to their redirect hops). Call before
 * the first navigation and before any other route of the page is registered: the last route registered
 * is asked first, and this one ends the chain for the requests it answers.
 */
export async function applyCredentials(page: Page, creds: Credentials | undefined, timeoutMs: number): Promise<void> {
  if (!creds) return;
  if (creds.cookies.length) {
    const cookies = creds.cookies.filter((c) => !expired(c, Date.now())).map((c) => {
      const common = { name: c.name, value: c.value, httpOnly: c.httpOnly ?? false, secure: c.secure ?? false, sameSite: c.sameSite ?? 'Lax', expires: c.expires ?? -1 };
      const domain = c.domain ?? creds.host;
      if (domain.startsWith('.')) return { ...common, domain, path: c.path ?? '/' };
      // Host-only: set as from a URL of that host, without a Domain attribute. The cookie's path is the
      // URL's directory (RFC 6265's default-path), so the URL ends in a file under the path.
      const path = c.path ?? '/';
      return { ...common, url: `${c.secure || creds.https ? 'https' : 'http'}://${domain.includes(':') ? `[${domain}]` : domain}${path.endsWith('/') ? path : `${path}/`}_` };
    });
    // Playwright refuses some cookies the schema lets through (an expiry below -1, say): the caller's
    // mistake, a 400 (the hold is voided: nothing is charged). Its message names the field, not the value.
    await page.context().addCookies(cookies).catch((err: Error) => {
      throw badRequest(`Invalid request: a cookie was refused by the browser (${err.message.split('\n')[0].replace(/^[\w.]+: /, '').slice(0, 200)})`);
    });
  }
  if (creds.origins.length) {
    await page.context().addInitScript((origins: Credentials['origins']) => {
      for (const o of origins) {
        if (o.origin !== location.origin) continue;
        try { for (const { name, value } of o.localStorage) localStorage.setItem(name, value); } catch { /* storage refused (sandboxed frame) */ }
      }
    }, creds.origins);
  }
  if (Object.keys(creds.headers).length) {
    await page.route('**/*', async (route, request) => {
      if (!sendsHeadersTo(creds, new URL(request.url()))) return route.fallback();
      // Playwright carries a route's header overrides to every redirect hop, whatever its host, and asks no
      // handler about the hop. So this request is made here, redirects not followed (through the browser's
      // proxy, the egress guard), and its answer handed to the page: a redirect then goes on from the page
      // without the headers (cookies still go, scoped by Chromium). test/observe-auth.test.ts checks it.
      try {
        const response = await route.fetch({ headers: { ...request.headers(), ...creds.headers }, maxRedirects: 0, timeout: timeoutMs });
        await route.fulfill({ response });
      } catch {
        await route.abort('connectionfailed').catch(() => undefined);
      }
    });
  }
}
