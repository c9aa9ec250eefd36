// Runs the real service as its users do: `node build/cli.js serve` in a child process on a free port,
// with its own data directory, and keys made with `sightline keys create`.
import { spawn, execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestListener } from 'node:http';
import { servePages } from './fixtures.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { Account, LedgerRow } from '../../src/store/store.ts';

export const CLI = fileURLToPath(new URL('../../build/cli.js', import.meta.url));

export interface LogLine { msg: string; [field: string]: unknown }

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  logs: LogLine[];
  stderr: () => string;
  /** Everything the process wrote to stdout so far (logs and the dev key banner). */
  stdoutText: () => string;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(): Promise<number | null>;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'sightline-test-'));
}

export function cli(args: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8', env: { ...process.env, ...env } });
}

/**
 * `cli` without blocking this process: use it between HTTP calls to a server. Several blocking CLI runs
 * in a row can outlast the server's keep-alive idle time (10 s in uWebSockets.js) while this process
 * cannot see the server close the idle connection, and the next fetch then fails on the dead socket.
 * Rejects like execFileSync (the error has `status` and `stderr`).
 */
export function cliAsync(args: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8', env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(err, { status: err.code, stderr }));
      else resolve(stdout);
    });
  });
}

/** A key made in the server's store (the CLI that does the same is tested in cli.test.ts). */
export async function createKey(dataDir: string, credits: number, inactive = false): Promise<string> {
  const store = openSqliteStore(dataDir);
  try { return (await store.createKey(credits, !inactive)).key; } finally { await store.close(); }
}

/** The key's available credits, read from the store the server writes. */
export async function balance(dataDir: string, key: string): Promise<number> {
  return (await account(dataDir, key)).credits;
}

/** The key's account (available and held credits) and its ledger, read from the server's store. */
export async function account(dataDir: string, key: string): Promise<Account & { ledger: LedgerRow[] }> {
  const store = openSqliteStore(dataDir);
  try {
    const found = await store.resolve(key);
    if (!found) throw new Error(`no account for ${key}`);
    return { ...found, ledger: await store.ledger(found.id) };
  } finally {
    await store.close();
  }
}

/**
 * Starts `sightline serve --port 0` with extra flags; resolves once it says it is listening.
 * `prefix` runs it through another command that execs it, e.g. `['ip', 'netns', 'exec', 'ns1']`.
 */
export function startServer(flags: string[] = [], options: { dataDir?: string; env?: NodeJS.ProcessEnv; cli?: string; prefix?: string[] } = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? tempDataDir();
  const command = [...(options.prefix ?? []), process.execPath, options.cli ?? CLI, 'serve', '--port', '0', '--data-dir', dataDir, ...flags];
  const proc = spawn(command[0], command.slice(1), {
    env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let err = '';
  let pending = '';
  let out = '';
  return new Promise((resolve, reject) => {
    const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
    proc.once('exit', (code) => reject(new Error(`server exited with ${code} before listening: ${err}`)));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start within 60 s: ${err}`));
    }, 60_000); // generous: CI runs Chromium-heavy tests beside this on two cores
    proc.stdout!.on('data', (d) => {
      out += d;
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.startsWith('{')) logs.push(JSON.parse(line) as LogLine);
    });
    proc.stderr!.on('data', (d) => {
      err += d;
      const url = /sightline: listening on (\S+)/.exec(err)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url, port: Number(new URL(url).port), dataDir, proc, logs, stderr: () => err, stdoutText: () => out, exited,
        async stop() {
          if (proc.exitCode === null) proc.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface Answer { status: number; body: any; headers: Headers }

/** POST /v1/snapshot with a JSON body (or a raw string/Buffer) and a key. */
export async function snapshot(url: string, key: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${url}/v1/snapshot`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    signal: AbortSignal.timeout(Number(process.env.TEST_HTTP_TIMEOUT_MS ?? 30_000)),
    body: typeof body === 'string' ? body : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { parsed = text; }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** n raw elements: buttons and links in rows, the first ones in the viewport. */
export function elements(n: number, y0 = 0) {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    tag: i % 3 === 0 ? 'button' : 'a',
    text: `${i % 3 === 0 ? 'Action' : 'Link'} ${i + 1}`,
    rect: { x: 20 + (i % 4) * 300, y: y0 + Math.floor(i / 4) * 40, width: 200, height: 30 },
    ...(i % 3 === 0 ? {} : { attributes: { href: `https://example.test/${i + 1}` } }),
  }));
}

/** POST /v1/observe with a key; the status, the parsed body and Retry-After. */
export async function observe(target: { url: string }, apiKey: string, body: unknown): Promise<{ status: number; body: any; retryAfter: string | null }> {
  const res = await fetch(`${target.url}/v1/observe`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
}

/** A localhost site serving `handler`, a server started with `flags` (which must let it load the site),
 *  and a key holding `credits`; `stop` ends all three. */
export interface ServedSite { site: string; server: ServerProcess; key: string; stop(): Promise<void> }
export async function serveSite(handler: RequestListener, flags: string[], credits: number): Promise<ServedSite> {
  const pages = await servePages(handler);
  let server: ServerProcess | undefined;
  try {
    server = await startServer(flags);
    const started = server;
    const key = await createKey(started.dataDir, credits);
    return { site: pages.site, server: started, key, async stop() { await started.stop(); removeDataDir(started.dataDir); pages.close(); } };
  } catch (err) {
    if (server) { await server.stop(); removeDataDir(server.dataDir); }
    pages.close();
    throw err;
  }
}
