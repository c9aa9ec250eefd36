// One-way layers: every folder with a DEPS.list may import only what it lists (paths from the repo
// root, package names, or `node:`). Fails when an import crosses a line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|js)$/.test(name)) yield path;
  }
}

function allowedFor(file: string): { list: string; allowed: string[] } | undefined {
  for (let dir = dirname(file); dir.startsWith(ROOT) && dir !== ROOT; dir = dirname(dir)) {
    const list = join(dir, 'DEPS.list');
    if (existsSync(list)) {
      const allowed = readFileSync(list, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
      return { list: relative(ROOT, list), allowed };
    }
  }
  return undefined;
}

test('imports respect every DEPS.list', () => {
  const crossings: string[] = [];
  let checked = 0;
  for (const top of ['assembly', 'src', 'extension']) {
    for (const file of sources(join(ROOT, top))) {
      const rule = allowedFor(file);
      if (!rule) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = m[1] ?? m[2] ?? m[3];
        const target = spec.startsWith('.') ? relative(ROOT, resolve(dirname(file), spec)) + (spec.endsWith('/') ? '/' : '') : spec;
        checked++;
        if (!rule.allowed.some((a) => target === a || target.startsWith(a.endsWith('/') || a.endsWith(':') ? a : `${a}/`))) {
          crossings.push(`${relative(ROOT, file)} imports ${spec} (not allowed by ${rule.list})`);
        }
      }
    }
  }
  assert.ok(checked > 20, `checked ${checked} imports`);
  assert.deepEqual(crossings, []);
});

test('the rank core stays the only place that ranks: src/ never sorts elements by importance', () => {
  for (const file of sources(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /\.sort\([^)]*importance/, `${relative(ROOT, file)} sorts by importance outside the core`);
  }
});

test('no import circles (dpdm, type-only imports included): from every entry the package builds and the extension', async () => {
  const { parseDependencyTree, parseCircular } = await import('dpdm');
  // Every entry scripts/build.js bundles, plus the extension's two and every file under src/ (a module
  // no entry reaches yet must not start a circle either).
  const entries = ['src/index.ts', 'src/client/index.ts', 'src/cli/main.ts', 'src/collect/index.ts', 'src/observe/worker/extract-worker.ts', 'extension/service-worker.ts', 'extension/popup.ts',
    ...[...sources(join(ROOT, 'src'))].map((f) => relative(ROOT, f)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))];
  const tree = await parseDependencyTree(entries, { cwd: ROOT, context: ROOT, transform: false, skipDynamicImports: false, include: /\.ts$/, exclude: /node_modules/, onProgress: () => {} });
  const files = Object.keys(tree);
  assert.ok(files.length > 100, `parsed ${files.length} modules`);
  assert.deepEqual(parseCircular(tree).map((c) => c.join(' -> ')), []);
});
