// Twenty real pages for the map benchmark (issue 19; more on request: the settle benchmark's 50): WCXB development pages (Murrough-Foley/
// web-content-extraction-benchmark, CC-BY-4.0; `dev/` only), all from the TUNE part of
// bench/read/wcxb-split.json (checked at load: a page of the frozen test part is refused), picked by id,
// several page types. Served offline by a localhost server the real server's map path reaches through its
// egress guard (`--egress-allow 127.0.0.1/32`): each document at http://127.0.0.1:<port>/wcxb/<id>.html
// with a Content-Security-Policy that keeps every request on that origin, where anything but the
// documents answers 404; so, as train/a11y/collect-a11y.ts renders them, the page's own HTML and
// inline scripts run and nothing else loads (no request leaves the machine, no DNS lookup).
import { createServer } from 'node:http';
import { SPLIT, wcxbPage } from './read/wcxb-eval.ts';
import { hash } from '../src/rank/words.ts';

/** The fixed list: id and page type (WCXB ground truth's `page_type.primary`), three per type or so. */
export const REAL_PAGES: [id: string, type: string][] = [
  ['0003', 'article'], ['0004', 'article'], ['0005', 'article'],
  ['0021', 'service'], ['0025', 'service'], ['0028', 'service'],
  ['0077', 'listing'], ['0083', 'listing'], ['0175', 'listing'],
  ['0172', 'forum'], ['0503', 'forum'], ['0504', 'forum'],
  ['0349', 'documentation'], ['0424', 'documentation'], ['0661', 'documentation'],
  ['0580', 'product'], ['0583', 'product'], ['0584', 'product'],
  ['0635', 'collection'], ['0637', 'collection'],
];

/** A part's page ids in a fixed order hashed with `salt` (bench:peers' subsets and the tools that measure them). */
export const hashedIds = (ids: readonly string[], salt: string) => [...ids].sort((a, b) => (hash(`${salt}:${a}`) >>> 0) - (hash(`${salt}:${b}`) >>> 0));
/** The first `n` pages of a WCXB split part in `salt`'s hashed order. */
export const pickWcxb = (part: keyof typeof SPLIT, n: number, salt: string) => hashedIds(SPLIT[part], salt).slice(0, n);

export interface RealPageServer { urls: { id: string; type: string; url: string }[]; close(): Promise<void> }

const CSP = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:";

/** `count` tune pages: the fixed twenty first, then further tune pages in a fixed order (a hash of the id). */
export function realPageIds(count = REAL_PAGES.length): [id: string, type: string][] {
  const fixed = new Set(REAL_PAGES.map(([id]) => id));
  const more = SPLIT.tune.filter((id) => !fixed.has(id)).sort((a, b) => (hash(`settle:${a}`) >>> 0) - (hash(`settle:${b}`) >>> 0));
  return [...REAL_PAGES, ...more.map((id): [string, string] => [id, wcxbPage(id).type])].slice(0, count);
}

/** `count` tune pages served offline (above). `missDelayMs`: anything but the documents answers 404 after this
 *  long, as a real site's missing resource does after a network round trip (default at once;
 *  bench/map-navigation.bench.ts). */
export async function serveRealPages(count = REAL_PAGES.length, { missDelayMs = 0 } = {}): Promise<RealPageServer> {
  const tune = new Set(SPLIT.tune);
  const pages = realPageIds(count);
  for (const [id] of pages) if (!tune.has(id)) throw new Error(`WCXB page ${id} is not in the tune part of bench/read/wcxb-split.json`);
  const { origin, close } = await serveWcxbPages(pages.map(([id]) => id), { missDelayMs });
  return { urls: pages.map(([id, type]) => ({ id, type, url: `${origin}/wcxb/${id}.html` })), close };
}

/** WCXB pages by id, served offline as above (the caller chooses the part: bench:peers serves the frozen part
 *  too, and reports it in aggregate only): each at `${origin}/wcxb/<id>.html`. */
export async function serveWcxbPages(ids: string[], { missDelayMs = 0 } = {}): Promise<{ origin: string; close(): Promise<void> }> {
  const docs = new Map(ids.map((id) => [`/wcxb/${id}.html`, wcxbPage(id).html]));
  const server = createServer((req, res) => {
    const doc = docs.get((req.url ?? '/').split('?')[0]);
    if (!doc) {
      const miss = () => { res.writeHead(404, { 'content-type': 'text/plain' }); res.end(); };
      if (missDelayMs) setTimeout(miss, missDelayMs); else miss();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP });
    res.end(doc);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}
