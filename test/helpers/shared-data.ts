// The shared data folder (real client payloads, the WCXB sample): ../shared/data beside the clone, or
// SIGHTLINE_SHARED_DATA. It is not in the repository. A test that needs it skips, with one line naming
// what is missing and how to get it, on a clone without it; under CI=true (set by .ci/run) it is
// required and a missing folder fails the run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHARED_DATA = process.env.SIGHTLINE_SHARED_DATA ?? fileURLToPath(new URL('../../../shared/data/', import.meta.url));

/**
 * `name` under the shared data folder: `missing` is undefined when it is there, else the skip reason
 * (pass it as node:test's `skip`). Throws when CI=true and it is missing.
 */
export function sharedDir(name: string): { dir: string; missing?: string } {
  const dir = join(SHARED_DATA, name);
  if (existsSync(dir)) return { dir };
  const missing = `needs the shared data folder ${dir}: put it at ../shared/data beside the clone or set SIGHTLINE_SHARED_DATA`;
  if (process.env.CI === 'true') throw new Error(`CI=true: ${missing}`);
  return { dir, missing };
}
