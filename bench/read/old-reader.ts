// Read mode as it was before issue 18's per-type work, taken from git at run time (like the old collector
// in test/helpers/collector-before.ts), so the read benchmark compares it with this checkout's reader in
// the same run on any clone that has the commit: `git archive` of src/ (with package.json and
// tsconfig.json) into a temporary folder whose node_modules links to this checkout's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The last commit before issue 18's extraction work. */
export const OLD_READER_COMMIT = 'c314c1f6cece0cd3ad30a7c3c1c78b94751ab6d0';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Unpacks the old source (or `commit`'s); null when the commit is not in this clone (a shallow CI clone). */
export function unpackOldReader(commit = OLD_READER_COMMIT): { dir: string; remove: () => void } | null {
  try {
    execFileSync('git', ['-C', ROOT, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sightline-read-old-'));
  try {
    const tar = execFileSync('git', ['-C', ROOT, 'archive', commit, 'src', 'package.json', 'tsconfig.json'], { maxBuffer: 256 << 20 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'), 'dir');
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
