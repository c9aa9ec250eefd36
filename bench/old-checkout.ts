// Another checkout of this repository (the commit before a change, built), for the benchmarks that run its
// ranker beside this one's in one process: rank-old-new.ts, rank-same-output.ts, long-strings.bench.ts.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Ranker } from '../src/rank/ranker.ts';

/** A module of the other checkout, by its path in the repository. */
export const importFrom = (dir: string, path: string) => import(pathToFileURL(resolve(dir, path)).href);

/** The other checkout's ranker on its own Wasm core. */
export async function rankerAt(dir: string): Promise<Ranker> {
  const { Ranker: OldRanker } = await importFrom(dir, 'src/rank/ranker.ts');
  const { loadWasmCore } = await importFrom(dir, 'src/rank/load-node.ts');
  return new OldRanker(await loadWasmCore());
}
