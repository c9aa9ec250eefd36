// A pool of worker threads for benchmarks that run several readers on many pages (bench/read.bench.ts).
// Each task (a page reference: workers read the page from disk themselves, so the main thread holds only
// scores) is run by one worker, which runs every named part (reader) on it in turn and reports each
// part's result and the CPU time of the worker's own thread while it ran. A part that runs longer than
// the timeout, or a worker that dies (out of memory, exit), costs that part on that page only: the
// worker is replaced and the page goes on with its remaining parts. A part that throws is reported as
// an error by the worker itself, which carries on.
//
// Main thread: runParts(). Worker: serveParts() (see bench/read/worker.ts).
import { Worker, parentPort, type ResourceLimits } from 'node:worker_threads';
import { readFileSync } from 'node:fs';

export type Failure = 'timeout' | 'crash' | 'error';

/** One part's outcome on one task: its result and thread CPU time, or why it has none. */
export interface PartOutcome<R> { name: string; result?: R; cpuNs?: number; failure?: Failure; message?: string }

export interface PoolOptions {
  /** The worker's module (a .ts file is loaded through tsx, whose hooks do not reach a worker on Node 20). */
  entry: URL;
  size: number;
  /** Longest one part may run on one task before its worker is replaced, ms. */
  timeoutMs: number;
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
  /** Asked before each task is handed out: true stops handing out tasks (those running finish; tasks
   *  not started are left with no outcomes). */
  stop?: () => boolean;
  /** Called after every finished task. */
  onTask?: (done: number, total: number, failures: number) => void;
}

type ToWorker<T> = { task: T; skip: string[] };
type FromWorker<R> =
  | { kind: 'start'; name: string }
  | { kind: 'part'; name: string; result?: R; cpuNs: number; error?: string }
  | { kind: 'done' }
  | { kind: 'ready' };

/** A Worker for a module, a TypeScript one through tsx's loader registered first. */
export function moduleWorker(entry: URL, options: { workerData?: unknown; resourceLimits?: ResourceLimits }): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * Runs every task on the pool; resolves with each task's part outcomes, in task order (within a task:
 * in the order the parts ran; a part skipped after a failure appears once, with its failure; a task
 * never started because of `stop`, or a part never run because of it, has none).
 */
export function runParts<T, R>(tasks: T[], options: PoolOptions): Promise<PartOutcome<R>[][]> {
  const outcomes: PartOutcome<R>[][] = tasks.map(() => []);
  const queue: number[] = tasks.map((_, i) => i);
  let done = 0, failures = 0;
  return new Promise((resolve, reject) => {
    let live = 0, failed = false;
    /** Each running worker's stop: its timer cleared, its thread terminated. */
    const workers = new Map<Worker, () => void>();
    const finish = () => { if (done === tasks.length && live === 0) resolve(outcomes); };
    /** The run cannot go on: every worker still running is stopped, so none keeps the process alive. */
    const abort = (e: Error) => {
      if (failed) return;
      failed = true;
      for (const stop of workers.values()) stop();
      reject(e);
    };
    const spawn = () => {
      if (failed) return;
      if (options.stop?.() && queue.length) { done += queue.length; queue.length = 0; }
      if (!queue.length) { finish(); return; }
      live++;
      let worker: Worker;
      try {
        worker = moduleWorker(options.entry, { workerData: options.workerData, resourceLimits: options.resourceLimits });
      } catch (e) {
        abort(e as Error);
        return;
      }
      let current = -1, running = '', timer: NodeJS.Timeout | undefined, gone = false, ended = false;
      workers.set(worker, () => { gone = true; clearTimeout(timer); void worker.terminate(); });
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => fail('timeout', `over ${options.timeoutMs} ms`), options.timeoutMs);
      };
      const next = () => {
        clearTimeout(timer);
        if (options.stop?.() && queue.length) { done += queue.length; queue.length = 0; }
        if (!queue.length) { ended = true; gone = true; void worker.terminate(); return; }
        current = queue.shift()!;
        running = '';
        arm();
        worker.postMessage({ task: tasks[current], skip: outcomes[current].map((o) => o.name) } satisfies ToWorker<T>);
      };
      /** The running part failed in a way that takes its worker: record it, requeue the rest of the task. */
      const fail = (failure: Failure, message: string) => {
        if (gone || failed) return;
        if (current < 0) { gone = true; clearTimeout(timer); abort(new Error(`a worker failed before taking a task: ${message}`)); return; }
        gone = true;
        clearTimeout(timer);
        void worker.terminate();
        if (running) {
          outcomes[current].push({ name: running, failure, message });
          failures++;
          queue.unshift(current);
        } else {
          // Died between parts or while loading the task: nothing to charge it to, so it cannot
          // loop; a task failing this way twice is given up as a whole.
          outcomes[current].push({ name: '*', failure, message });
          failures++;
          if (outcomes[current].filter((o) => o.name === '*').length < 2) queue.unshift(current);
          else { done++; options.onTask?.(done, tasks.length, failures); }
        }
        live--;
        spawn();
      };
      worker.on('message', (m: FromWorker<R>) => {
        if (failed) return;
        if (m.kind === 'ready') { next(); return; }
        if (m.kind === 'start') { running = m.name; arm(); return; }
        if (m.kind === 'part') {
          running = '';
          if (m.error !== undefined) { outcomes[current].push({ name: m.name, failure: 'error', message: m.error, cpuNs: m.cpuNs }); failures++; }
          else outcomes[current].push({ name: m.name, result: m.result, cpuNs: m.cpuNs });
          arm();
          return;
        }
        done++;
        options.onTask?.(done, tasks.length, failures);
        next();
      });
      worker.on('error', (e) => fail('crash', e.message));
      worker.on('exit', (code) => {
        workers.delete(worker);
        if (gone) { if (ended) { live--; finish(); } return; }
        fail('crash', `worker exited with code ${code}`);
      });
    };
    if (!tasks.length) { resolve(outcomes); return; }
    for (let i = 0; i < Math.max(1, Math.min(options.size, tasks.length)); i++) spawn();
  });
}

/**
 * CPU time of the calling thread, ns: Linux's per-thread scheduler clock (/proc/thread-self/schedstat,
 * nanoseconds), else its user + system ticks (/proc/thread-self/stat), else null (not Linux). A
 * synchronous read runs on the calling thread, so in a worker this is the worker's own time.
 */
export function threadCpuNs(): number | null {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]);
  } catch { /* no schedstat: try stat */ }
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 1e7; // utime, stime in 1/100 s (USER_HZ)
  } catch {
    return null;
  }
}

/** How the worker measures a part: thread CPU time, or wall time where there is none. */
export const CPU_CLOCK = threadCpuNs() === null ? 'wall' : 'thread-cpu';
const clockNs = (): number => threadCpuNs() ?? performance.now() * 1e6;

/**
 * Worker side: for each task, load it once, then run each part not in `skip`, posting when it starts
 * and its result with the CPU time it took. The loading is not charged to any part.
 */
export function serveParts<T, P, R>(load: (task: T) => P, parts: Record<string, (page: P) => R>): void {
  if (!parentPort) throw new Error('serveParts runs in a worker thread');
  const port = parentPort;
  port.postMessage({ kind: 'ready' } satisfies FromWorker<R>);
  port.on('message', ({ task, skip }: ToWorker<T>) => {
    const page = load(task);
    for (const [name, part] of Object.entries(parts)) {
      if (skip.includes(name)) continue;
      port.postMessage({ kind: 'start', name } satisfies FromWorker<R>);
      const t0 = clockNs();
      try {
        const result = part(page);
        port.postMessage({ kind: 'part', name, result, cpuNs: clockNs() - t0 } satisfies FromWorker<R>);
      } catch (e) {
        port.postMessage({ kind: 'part', name, cpuNs: clockNs() - t0, error: (e as Error).message } satisfies FromWorker<R>);
      }
    }
    port.postMessage({ kind: 'done' } satisfies FromWorker<R>);
  });
}


