// The pages a person opens in a browser: the playground at `/` (src/server/playground/, copied to
// build/playground/ by the build) and the API reference at `/docs` (Swagger UI from the
// swagger-ui-dist package, reading /openapi.json). Files are read once at start and served from
// memory, each with a Content-Security-Policy that allows our own scripts and styles only: no inline
// script, no inline handler, nothing from another origin.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SightlineError } from '../schema/errors.ts';
import type { Reply } from './http.ts';
import type { Route } from './http.ts';
import type { Routes } from './router.ts';

const require = createRequire(import.meta.url);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

/** Next to this module: src/server/playground when run from source, build/playground from the bundle. */
const PLAYGROUND_DIR = fileURLToPath(new URL('./playground/', import.meta.url));

function packageFile(pkg: string, file: string): Buffer {
  return readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file));
}

/**
 * `img-src` also allows the origin of `--public-url`, where visual screenshots are served; `data:` and
 * `blob:` are Swagger UI's icons and the playground's canvases.
 */
export function contentSecurityPolicy(publicUrl: string): string {
  let images = "'self' data: blob:";
  if (publicUrl) { try { images += ` ${new URL(publicUrl).origin}`; } catch { /* checked by config */ } }
  return [
    "default-src 'none'", "script-src 'self'", "style-src 'self'", `img-src ${images}`, "connect-src 'self'",
    "font-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
}

export function pageRoutes(options: { publicUrl: string }): Routes {
  const headers = {
    'content-security-policy': contentSecurityPolicy(options.publicUrl),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
  const files = new Map<string, Reply>();
  const add = (path: string, body: Buffer, name = path) => files.set(path, { status: 200, body, contentType: TYPES[extname(name)] ?? 'application/octet-stream', headers });
  for (const name of readdirSync(PLAYGROUND_DIR)) {
    if (statSync(join(PLAYGROUND_DIR, name)).isFile()) add(`/playground/${name}`, readFileSync(join(PLAYGROUND_DIR, name)));
  }
  // Vendored at run time from their packages: the Markdown renderer and the OpenAPI viewer.
  add('/playground/vendor/marked.esm.js', packageFile('marked', 'lib/marked.esm.js'));
  add('/docs/swagger-ui-bundle.js', packageFile('swagger-ui-dist', 'swagger-ui-bundle.js'));
  add('/docs/swagger-ui.css', packageFile('swagger-ui-dist', 'swagger-ui.css'));

  const page = (path: string): Route => () => {
    const found = files.get(path);
    if (!found) throw new SightlineError('not_found', `No page ${path}`);
    return found;
  };
  const under: Route = (req) => page(req.path)(req);
  return {
    'GET /': page('/playground/index.html'),
    'GET /docs': page('/playground/docs.html'),
    'GET /playground/*': under,
    'GET /docs/*': under,
  };
}
