// One API server for a load benchmark: the built CLI on a fresh data directory with a key of a billion
// credits and no practical rate limit, quiet logs; resolves once it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteStore } from '../src/store/sqlite.ts';

const CLI = fileURLToPath(new URL('../build/cli.js', import.meta.url));

export interface BenchServer { url: string; proc: ChildProcess; dir: string; key: string }

export async function startBenchServer(flags: string[] = []): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-bench-'));
  const store = openSqliteStore(dir);
  const { key } = await store.createKey(1_000_000_000, true);
  await store.close();
  const proc = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dir, '--log-level', 'warn',
    '--rate-limit', '1000000000', '--rate-burst', '1000000000', ...flags], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    proc.stderr!.on('data', (d) => { err += d; const m = /listening on (\S+)/.exec(err); if (m) resolve(m[1]); });
    proc.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  return { url, proc, dir, key };
}
