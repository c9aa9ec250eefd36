// Builds everything the package ships: the Wasm rank core (with its raw bindings) and the Node
// library bundle. `npm run build`; also runs on `npm ci` through the `prepare` script.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const step = (name, fn) => {
  const t0 = performance.now();
  return Promise.resolve(fn()).then(() => console.log(`build: ${name} (${Math.round(performance.now() - t0)} ms)`));
};

await step('rank core -> build/rank.wasm', () =>
  execFileSync(process.execPath, ['node_modules/assemblyscript/bin/asc.js', 'assembly/index.ts', '--target', 'release'], { stdio: 'inherit' }));

const bundle = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
};

// The goal rerank's embedding table beside the core (package export `./goal-embed.bin`): the package's
// runtime files all live in build/, so an install that has only build/ ranks goals too.
copyFileSync('src/rank/goal-embed.bin', 'build/goal-embed.bin');

await step('library -> build/index.js', () => build({ ...bundle, entryPoints: { index: 'src/index.ts' }, outdir: 'build' }));

await step('in-page collector -> build/collector.js', () => build({
  entryPoints: ['src/collect/index.ts'], outfile: 'build/collector.js', bundle: true, format: 'iife',
  platform: 'browser', target: 'chrome110', logLevel: 'warning',
}));

// One script a page can run: the rank core with its Wasm inlined (src/client/in-page.ts). The helpers for
// Playwright for Python inject it beside the collector; both are copied into the Python package
// (clients/python/src/sightline/_assets/, not committed: this build makes them).
await step('in-page rank core -> build/rank-page.js', () => build({
  entryPoints: ['src/client/in-page.ts'], outfile: 'build/rank-page.js', bundle: true, format: 'iife',
  platform: 'browser', target: 'chrome110', logLevel: 'warning', minify: true, // injected on every new document
  define: { __SIGHTLINE_RANK_WASM__: JSON.stringify(readFileSync('build/rank.wasm').toString('base64')) },
}));

await step('Python package assets -> clients/python/src/sightline/_assets/', () => {
  mkdirSync('clients/python/src/sightline/_assets', { recursive: true });
  for (const file of ['collector.js', 'rank-page.js']) copyFileSync(`build/${file}`, `clients/python/src/sightline/_assets/${file}`);
  copyFileSync('src/rank/goal-embed.bin', 'clients/python/src/sightline/_assets/goal-embed.bin'); // passed to rank-page.js with a goal
});

// The Python package's TypedDicts, from the same typebox schemas that validate requests.
await step('Python types -> clients/python/src/sightline/types.py', async () => {
  await build({ ...bundle, entryPoints: { 'python-types': 'scripts/python-types.ts' }, outdir: 'build' });
  execFileSync(process.execPath, ['build/python-types.js', 'clients/python/src/sightline/types.py'], { stdio: 'inherit' });
});

// The declarations package.json's `types` name, for `sightline` and `sightline/client` (tsconfig.types.json).
await step('type declarations -> build/types/', () => {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], { stdio: 'inherit' });
  // src/rank/backend.ts types the core's exports from asc's bindings (build/rank.d.ts): the same path
  // relative to the declarations.
  mkdirSync('build/types/build', { recursive: true });
  copyFileSync('build/rank.d.ts', 'build/types/build/rank.d.ts');
});

await step('client library -> build/client.js', () => build({ ...bundle, entryPoints: { client: 'src/client/index.ts' }, outdir: 'build' }));

// The light client package (packages/client, `@sightline/client`): the library and the client bundled
// under its own name (src/rank/package-asset.ts), beside the core, the collector and the declarations. Its
// only dependency is typebox; no server dependency reaches it (test/client-package.test.ts).
await step('client package -> packages/client/dist/', async () => {
  const dist = 'packages/client/dist';
  rmSync(dist, { recursive: true, force: true });
  await build({ ...bundle, entryPoints: { index: 'src/index.ts', client: 'src/client/index.ts' }, outdir: dist, define: { __SIGHTLINE_PACKAGE__: '"@sightline/client"' } });
  for (const file of ['rank.wasm', 'collector.js', 'rank-page.js']) copyFileSync(`build/${file}`, `${dist}/${file}`);
  copyFileSync('build/goal-embed.bin', `${dist}/goal-embed.bin`); // the goal rerank's meaning (docs/rerank.md)
  cpSync('build/types', `${dist}/types`, { recursive: true });
});

await step('extension -> build/extension/', async () => {
  mkdirSync('build/extension', { recursive: true });
  const browser = { bundle: true, format: 'iife', platform: 'browser', target: 'chrome110', logLevel: 'warning' };
  await build({ ...browser, entryPoints: { 'service-worker': 'extension/service-worker.ts', popup: 'extension/popup.ts' }, outdir: 'build/extension' });
  for (const file of ['manifest.json', 'popup.html']) copyFileSync(`extension/${file}`, `build/extension/${file}`);
  copyFileSync('build/collector.js', 'build/extension/collector.js');
  copyFileSync('build/rank.wasm', 'build/extension/rank.wasm');
  copyFileSync('src/rank/goal-embed.bin', 'build/extension/goal-embed.bin'); // the goal rerank's meaning (docs/rerank.md)
});

await step('command line -> build/cli.js', async () => {
  await build({ ...bundle, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'build', banner: { js: '#!/usr/bin/env node' } });
  chmodSync('build/cli.js', 0o755);
});

// Its own bundle: the server starts read mode's extraction threads from build/extract-worker.js,
// found next to build/cli.js (src/observe/worker/extract-pool.ts).
await step('extraction worker -> build/extract-worker.js', () => build({ ...bundle, entryPoints: { 'extract-worker': 'src/observe/worker/extract-worker.ts' }, outdir: 'build' }));

// The playground and API reference pages, served from next to build/cli.js (src/server/pages.ts).
await step('pages -> build/playground/', () => cpSync('src/server/playground', 'build/playground', { recursive: true }));
