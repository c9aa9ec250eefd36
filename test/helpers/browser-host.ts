// Runs `node build/cli.js browser-host` as its users do, in its own process group (so a kill takes its
// Chromium with it), optionally through a command that execs it (`ip netns exec NS`).
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, type LogLine } from './server.ts';

export interface HostProcess {
  ws: string;
  port: number;
  proc: ChildProcess;
  /** Everything it printed (stderr and its JSON log lines). */
  out: () => string;
  logs: () => LogLine[];
  stop(): Promise<void>;
  /** SIGKILL to the whole group: the host and its Chromium die at once. */
  kill(): Promise<void>;
}

export function startHost(flags: string[], options: { env?: NodeJS.ProcessEnv; prefix?: string[] } = {}): Promise<HostProcess> {
  const command = [...(options.prefix ?? []), process.execPath, CLI, 'browser-host', ...flags];
  const proc = spawn(command[0], command.slice(1), { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let text = '';
  proc.stdout!.on('data', (d) => { text += d; });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(Object.assign(new Error(`browser-host exited with ${code}: ${text}`), { code, text })));
    proc.stderr!.on('data', (d) => {
      text += d;
      const ws = /browser host listening on (\S+)/.exec(text)?.[1];
      if (!ws) return;
      resolve({
        ws, port: Number(new URL(ws).port), proc, out: () => text,
        logs: () => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine),
        async stop() { if (alive()) process.kill(-proc.pid!, 'SIGTERM'); await exited; },
        async kill() { if (alive()) process.kill(-proc.pid!, 'SIGKILL'); await exited; },
      });
    });
  });
}
