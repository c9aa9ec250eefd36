// The Python environment of the peers (bench/peers.bench.ts): a venv at bench/peers/.venv (git-ignored),
// made from this machine's python3 and filled from requirements.txt (every package at an exact version),
// pip itself pinned. Made again when requirements.txt or the pip pin changes (a stamp in the venv);
// nothing is installed outside it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const DIR = fileURLToPath(new URL('.', import.meta.url));
export const VENV = join(DIR, '.venv');
const PIP = 'pip==25.1.1'; // pip 23's resolver fails on crawl4ai's lxml[html-clean] extras
const REQUIREMENTS = join(DIR, 'requirements.txt');

export type Venv = { python: string } | { error: string };

function run(cmd: string, args: string[]): string | null {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30 * 60_000 });
  if (r.status === 0) return null;
  const out = `${r.stderr ?? ''}${r.stdout ?? ''}${r.error?.message ?? ''}`.trim().split('\n');
  return `${cmd} ${args.join(' ')}: ${out.slice(-3).join(' | ')}`;
}

/** The venv's python, made first when missing or out of date; the reason when it cannot be made here. */
export function ensureVenv(log: (line: string) => void = () => undefined): Venv {
  const stamp = createHash('sha256').update(readFileSync(REQUIREMENTS)).update(PIP).digest('hex');
  const python = join(VENV, 'bin', 'python');
  const stampFile = join(VENV, '.sightline-stamp');
  if (existsSync(python) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return { python };
  log(`peers: making the Python venv at ${VENV} from ${REQUIREMENTS} (a few minutes the first time)`);
  rmSync(VENV, { recursive: true, force: true });
  const failed = run('python3', ['-m', 'venv', VENV])
    ?? run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', PIP])
    ?? run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS]);
  if (failed) return { error: failed };
  writeFileSync(stampFile, stamp);
  return { python };
}
