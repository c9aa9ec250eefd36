// Builds everything the package ships: the Wasm rank core (with its raw bindings) and the Node
// library bundle. `npm run build`; also runs on `npm ci` through the `prepare` script.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

const step = (name, fn) => {
  const t0 = performance.now();
  return Promise.resolve(fn()).then(() => console.log(`build: ${name} (${Math.round(performance.now() - t0)} ms)`));
};

await step('rank core -> build/rank.wasm', () =>
  execFileSync(process.execPath, ['node_modules/assemblyscript/bin/asc.js', 'assembly/index.ts', '--target', 'release'], { stdio: 'inherit' }));

await step('library -> build/index.js', () => build({
  entryPoints: { index: 'src/index.ts' },
  outdir: 'build',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
}));
