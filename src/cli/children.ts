// The processes this one started and theirs (Chromium and its helpers), read from /proc: what a shutdown
// cut short must not leave behind. A launched Chromium that stopped answering ignores the pipe closing,
// and playwright-core's own exit hook runs only in the thread that launched it (a serving worker).
import { readdirSync, readFileSync } from 'node:fs';

/** Every process below `pid`, children before theirs; empty where there is no /proc. */
export function descendants(pid: number = process.pid): number[] {
  const children = new Map<number, number[]>();
  let names: string[];
  try { names = readdirSync('/proc'); } catch { return []; }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try { stat = readFileSync(`/proc/${name}/stat`, 'utf8'); } catch { continue; } // gone meanwhile
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid);
    if (list) list.push(Number(name)); else children.set(ppid, [Number(name)]);
  }
  const out: number[] = [];
  const walk = (p: number) => { for (const c of children.get(p) ?? []) { out.push(c); walk(c); } };
  walk(pid);
  return out;
}

/** SIGKILL every descendant (a stopped process dies of it too); returns how many were signalled. */
export function killDescendants(): number {
  let n = 0;
  for (const pid of descendants()) {
    try { process.kill(pid, 'SIGKILL'); n++; } catch { /* already gone */ }
  }
  return n;
}

/** What a stop may take beyond the requests' grace: closing browsers, pools and the store. */
export const DISPOSE_MS = 10_000;

/**
 * Arms a stop's deadline: past `ms`, whatever still runs (a Chromium that stopped answering hangs its close:
 * test/server-shutdown.test.ts) is killed and the process exits 1. Unref'd: a stop that ends in time exits as
 * it means to.
 */
export function stopDeadline(ms: number, logger: { error(fields: object, msg: string): void }): void {
  const since = Date.now();
  setTimeout(() => {
    logger.error({ after_ms: Date.now() - since, killed: killDescendants() }, 'shutdown timed out: exiting now');
    process.exit(1);
  }, ms).unref();
}
