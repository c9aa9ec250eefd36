// Another checkout of this repository (the commit before a change, built), for the benchmarks that run its
// ranker beside this one's in one process: rank-old-new.ts, rank-same-output.ts, long-strings.bench.ts; and a
// commit's collector as a page script beside this one's (collect-vs-commit.bench.ts, collect-same-output.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Ranker } from '../src/rank/ranker.ts';

/** A module of the other checkout, by its path in the repository. */
export const importFrom = (dir: string, path: string) => import(pathToFileURL(resolve(dir, path)).href);

/** The other checkout's ranker on its own Wasm core. */
export async function rankerAt(dir: string): Promise<Ranker> {
  const { Ranker: OldRanker } = await importFrom(dir, 'src/rank/ranker.ts');
  const { loadWasmCore } = await importFrom(dir, 'src/rank/load-node.ts');
  return new OldRanker(await loadWasmCore());
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A commit of this repository unpacked (`git archive`) into a temporary folder and built there, this
 *  checkout's node_modules shared: the "before" side of a benchmark that runs both in one process or two servers. */
export function builtCheckout(commit: string, prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['-C', ROOT, 'archive', commit], { maxBuffer: 1 << 30 }) });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('node', ['scripts/build.js'], { cwd: dir, stdio: 'ignore' });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A commit's collector (`null`: this checkout's) as one page script installing `window[name].collect`. With
 *  `ownKeys` its id registry and quiet clock live under keys of its own, so two builds in one page keep apart.
 *  With `wire` (a tree that has src/collect/wire.ts) also `window[name].encode`, its in-process wire encoder. */
export async function collectorAt(commit: string | null, name: string, { ownKeys = false, wire = false } = {}): Promise<string> {
  const dir = commit ? mkdtempSync(join(tmpdir(), 'sightline-collector-')) : ROOT;
  try {
    if (commit) execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['-C', ROOT, 'archive', commit, 'src/collect'], { maxBuffer: 64 << 20 }) });
    const out = await build({
      stdin: {
        contents: wire
          ? `import { collect } from './src/collect/collect.ts';\nimport { resultToWire } from './src/collect/wire.ts';\n(window as any).${name} = { collect, encode: resultToWire };\n`
          : `import { collect } from './src/collect/collect.ts';\n(window as any).${name} = { collect };\n`,
        resolveDir: dir, loader: 'ts',
      },
      bundle: true, format: 'iife', platform: 'browser', target: 'chrome110', write: false, logLevel: 'warning',
    });
    const text = out.outputFiles[0].text;
    if (!ownKeys) return text;
    if (!text.includes('"__sightlineRegistry"')) throw new Error('the registry key moved: rename it in collectorAt too');
    return text.replaceAll('"__sightlineRegistry"', `"__sightlineRegistry${name}"`).replaceAll('"__sightlineQuiet"', `"__sightlineQuiet${name}"`);
  } finally { if (commit) rmSync(dir, { recursive: true, force: true }); }
}
