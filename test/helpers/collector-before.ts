// The collector as it was before issue 19's speed work, built from git at run time, so the benchmark and
// the before/after test run both collectors in the same browser on the same page. It installs
// `window.__sightlineBefore.collect` (the current collector's registry is shared: same ids for the
// same nodes, whichever collector asks first).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The last commit with the collector before the speed work (src/collect/ as of b4233ac). */
export const BEFORE_COMMIT = 'c314c1f6cece0cd3ad30a7c3c1c78b94751ab6d0';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Is the commit in this clone (a shallow CI clone may not have it)? */
export function beforeAvailable(): boolean {
  try {
    execFileSync('git', ['-C', ROOT, 'cat-file', '-e', `${BEFORE_COMMIT}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Deliberate changes of what the collector lists, made after the speed work, applied to the old source
 * too: the comparison is of the speed work, and the benchmark's two sides must list the same things.
 */
const LATER_CHANGES: { file: string; from: string; to: string }[] = [
  // A label wrapping a text field is no longer listed in the field's place (issue 20, docs/decisions.md).
  { file: 'src/collect/candidates.ts', from: "el.querySelector('input, select, textarea')", to: "el.querySelector('input[type=checkbox], input[type=radio], input[type=file]')" },
  // The viewport in quirks mode is the window's, not the root element's (the whole document; issue 20, dev3).
  { file: 'src/collect/collect.ts', from: "const height = document.documentElement.clientHeight || window.innerHeight;",
    to: "const height = (document.compatMode === 'BackCompat' ? 0 : document.documentElement.clientHeight) || window.innerHeight;" },
  // An anchor without an href is judged by its role, tabindex, click handler and cursor (issue 20, collector recall).
  { file: 'src/collect/candidates.ts', from: "if (tag === 'A') return el.hasAttribute('href') ? Kind.Interactive : Kind.None;",
    to: "if (tag === 'A' && el.hasAttribute('href')) return Kind.Interactive;" },
];

let cached: string | undefined;

/** The old collector as one script (an IIFE) to evaluate in a page. */
export async function beforeCollectorSource(): Promise<string> {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'sightline-collector-before-'));
  try {
    const tar = execFileSync('git', ['-C', ROOT, 'archive', BEFORE_COMMIT, 'src/collect'], { maxBuffer: 64 << 20 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    for (const c of LATER_CHANGES) {
      const file = join(dir, c.file);
      const text = readFileSync(file, 'utf8');
      if (!text.includes(c.from)) throw new Error(`${c.file} at ${BEFORE_COMMIT} has no ${c.from}`);
      writeFileSync(file, text.replace(c.from, c.to));
    }
    const out = await build({
      stdin: {
        contents: "import { collect } from './src/collect/collect.ts';\n(window as any).__sightlineBefore = { collect };\n",
        resolveDir: dir, loader: 'ts', sourcefile: 'before-entry.ts',
      },
      bundle: true, format: 'iife', platform: 'browser', target: 'chrome110', write: false, logLevel: 'warning',
    });
    cached = out.outputFiles[0].text;
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
