// A real redis-server for tests (Debian's /usr/bin/redis-server): a free loopback port, no persistence,
// its own temporary directory; kill, pause (SIGSTOP), resume (SIGCONT) and restart on the same port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { freePort } from './free-port.ts';

export const REDIS_SERVER = process.env.SIGHTLINE_REDIS_SERVER ?? '/usr/bin/redis-server';

export interface RedisProcess {
  url: string;
  port: number;
  /** SIGKILL: the process is gone (connections reset, the port refuses). */
  kill(): Promise<void>;
  /** SIGSTOP: the process still holds its sockets but answers nothing. */
  pause(): void;
  resume(): void;
  /** Starts it again on the same port (after kill), empty. */
  restart(): Promise<void>;
  /** Kill and remove its directory. */
  stop(): Promise<void>;
}


async function answers(url: string, deadlineMs = 10_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 500 } });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      await client.close();
      return;
    } catch (err) {
      try { client.destroy(); } catch { /* not open */ }
      if (Date.now() > until) throw new Error(`redis-server at ${url} did not answer: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export async function startRedis(): Promise<RedisProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let proc: ChildProcess;
  let exited: Promise<void>;
  const launch = async () => {
    proc = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    await answers(url);
  };
  await launch();
  const kill = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  };
  return {
    url, port, kill,
    pause: () => { proc.kill('SIGSTOP'); },
    resume: () => { proc.kill('SIGCONT'); },
    restart: async () => { await kill(); await launch(); },
    stop: async () => {
      if (proc.exitCode === null) proc.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
