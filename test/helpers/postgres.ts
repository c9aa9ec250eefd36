// A real Postgres for tests: Debian's postgresql 15 binaries, a cluster made with initdb in a temp dir,
// listening on a free loopback port and a unix socket in that dir. Postgres refuses to run as root, so
// as root it runs as the `postgres` system user (the Debian package makes it) through runuser.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

export const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  dir: string;
  /** A URL for database `name` on this server. */
  urlFor(name: string): string;
  /** Creates an empty database; returns its URL. */
  createDatabase(name: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  /** `pg_ctl stop -m immediate`: every connection cut at once, no clean shutdown. */
  stopImmediate(): void;
  /** Starts the server again on the same data directory and port (nothing when it runs). */
  start(): void;
  /** Stops the server and removes its directory. */
  destroy(): void;
}


const asRoot = process.getuid?.() === 0;

/** Runs a postgres binary, as the postgres user when we are root. */
function run(bin: string, args: string[]): string {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, bin), ...args]] : [join(PG_BIN, bin), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  const port = await freePort();
  // fsync off is safe for a killed process (the kernel keeps what was written); synchronous_commit stays
  // on, or a commit acknowledged just before an immediate stop could be lost (a 200 without its post).
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  let running = false;
  const start = () => {
    if (running) return;
    run('pg_ctl', ['-D', data, '-l', log, '-o', opts, '-w', '-t', '30', 'start']);
    running = true;
  };
  const stop = (mode: 'immediate' | 'fast') => {
    if (!running) return;
    running = false;
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, 'pg_ctl'), '-D', data, '-m', mode, '-w', 'stop']] : [join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']];
    spawnSync(cmd, argv, { stdio: 'ignore' });
  };
  try {
    start();
  } catch (err) {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`postgres did not start: ${(err as Error).message}\n${text}`);
  }
  const urlFor = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: urlFor('postgres') });
    await client.connect();
    try { return await fn(client); } finally { await client.end(); }
  };
  return {
    url: urlFor('postgres'),
    port,
    dir,
    urlFor,
    async createDatabase(name) {
      await admin((c) => c.query(`CREATE DATABASE "${name}"`));
      return urlFor(name);
    },
    async dropDatabase(name) {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
    stopImmediate: () => stop('immediate'),
    start,
    destroy() {
      stop('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
