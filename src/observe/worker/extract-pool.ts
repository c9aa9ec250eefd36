// Read mode's extraction off the serving process: linkedom and turndown take seconds on a hostile page
// (a 7 MB table took 26 s), and a PDF whose streams inflate to gigabytes takes that much memory. A few
// warm child processes run readPage (or readPdf) instead, one page each at a time, so that a page that
// must be stopped is stopped by killing its process, and the memory it took goes back to the system
// (a worker thread's did not: the server's RSS ratcheted to 6 GiB over seven hostile PDFs, issue 36).
// Bounds per page: an element limit checked before parsing and a decoded-bytes limit for a PDF's
// streams (in the child, extract-worker.ts), a time limit, and a memory limit watched from here on the
// child's resident set; a child left large by a page is recycled. The request's abort signal cancels a
// queued page or kills a running one. Fair share: one key may run at most `size - 1` pages at once
// (one process is always left for the other keys) and keep `maxQueue / 4` waiting; beyond, 429.
// Results are readPage's, unchanged.
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { SightlineError } from '../../schema/errors.ts';
import type { ReadOptions, ReadResult } from '../read/read.ts';
import type { ExtractAnswer, ExtractJob, ExtractWorkerData } from './extract-worker.ts';

export interface ExtractPoolOptions {
  /** Child processes (pages read at once). */
  size: number;
  /** Pages allowed to wait for a process; beyond, 503 busy. */
  maxQueue: number;
  /** Time one page may take; beyond, its process is killed and replaced, and the page refused. */
  timeoutMs: number;
  /** Elements (start tags) a page may have; beyond, refused before parsing. */
  maxNodes: number;
  /** Resident memory one child may reach while reading a page; beyond, it is killed (422 too_large).
   *  Default 1024 MiB. */
  maxMemoryBytes?: number;
  /** Bytes a PDF's streams may decode to, all together; beyond, refused before they are materialised.
   *  Default 8 × 10 MB. */
  maxDecodedBytes?: number;
}

export interface ExtractStats {
  workers: number; busy: number; queued: number; replaced: number;
  /** Children recycled after a page left them above half the memory limit. */
  recycled: number;
  /** Children killed for passing the memory limit while reading. */
  memoryKilled: number;
  /** Resident memory of every child, summed (bytes; read from /proc at the last scrape). */
  memoryBytes: number;
}

/** What the caller's key may hold: running pages and waiting ones (fair share). */
export interface ExtractShare { running: number; queued: number }

const MIB = 1024 * 1024;
const DEFAULT_MEMORY = 1024 * MIB;
/** How often a working child's resident set is read. */
const WATCH_MS = 50;

/** The child's entry: build/extract-worker.js next to the bundle; from the source tree, the .ts file
 *  under tsx's loader. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = FROM_SOURCE ? new URL('./extract-worker.ts', import.meta.url) : new URL('./extract-worker.js', import.meta.url);
const EXEC_ARGV = FROM_SOURCE ? ['--import', 'tsx'] : [];

/** One process per core by default, at least two per serving thread: a key may use all but one, so
 *  with two every thread keeps one for the other keys (the extraction processes run at nice 10, so
 *  more processes than cores never slow the serving threads). */
export function defaultExtractWorkers(serving = 1): number {
  return Math.max(2, Math.floor(availableParallelism() / serving));
}

interface Job extends ExtractJob {
  key: string;
  resolve: (result: ReadResult) => void;
  reject: (err: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot { child?: ChildProcess; ready: boolean; job?: Job; timer?: NodeJS.Timeout; watch?: NodeJS.Timeout }

/** Resident set of a process in bytes (Linux /proc; 0 elsewhere or when it is gone). */
export function residentBytes(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * 4096;
  } catch {
    return 0;
  }
}

export class ExtractPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, number>();
  private nextId = 1;
  private replaced = 0;
  private recycled = 0;
  private memoryKilled = 0;
  private closed = false;
  private readonly maxMemory: number;
  private readonly maxDecoded: number;

  constructor(private readonly options: ExtractPoolOptions) {
    this.maxMemory = options.maxMemoryBytes ?? DEFAULT_MEMORY;
    this.maxDecoded = options.maxDecodedBytes ?? 80 * 1000 * 1000;
    // Started now, not on the first request: a child takes a few hundred ms to load and warm up.
    this.slots = Array.from({ length: options.size }, () => {
      const slot: Slot = { ready: false };
      this.spawn(slot);
      return slot;
    });
  }

  /** What one key may hold at once: all processes but one (when there are two or more), and a quarter
   *  of the queue. */
  share(): ExtractShare {
    return { running: Math.max(1, this.options.size - 1), queued: Math.max(1, Math.floor(this.options.maxQueue / 4)) };
  }

  stats(): ExtractStats {
    return {
      workers: this.slots.length, busy: this.slots.filter((s) => s.job).length, queued: this.queue.length, replaced: this.replaced,
      recycled: this.recycled, memoryKilled: this.memoryKilled,
      memoryBytes: this.slots.reduce((sum, s) => sum + residentBytes(s.child?.pid), 0),
    };
  }

  /** readPage(html, url, options) in a child process. `key`: whose page it is (fair share). */
  read(html: string, url: string, options: ReadOptions, signal?: AbortSignal, key = ''): Promise<ReadResult> {
    return this.submit({ html, url, options }, key, signal);
  }

  /** readPdf(bytes, url, options) in a child process (pdf.ts): the same queue, limits and cancelling. */
  readPdf(pdf: Uint8Array, url: string, options: ReadOptions, signal?: AbortSignal, key = ''): Promise<ReadResult> {
    return this.submit({ html: '', pdf, url, options }, key, signal);
  }

  private submit(page: Omit<ExtractJob, 'id'>, key: string, signal?: AbortSignal): Promise<ReadResult> {
    if (this.closed) return Promise.reject(new SightlineError('busy', 'Shutting down'));
    if (signal?.aborted) return Promise.reject(cancelled());
    const share = this.share();
    const mine = (this.running.get(key) ?? 0) + (this.waiting.get(key) ?? 0);
    if (key && mine >= share.running + share.queued) {
      const err = new SightlineError('rate_limited', `This key already has ${mine} pages being read or waiting, its share of the extraction processes (${share.running} at once, ${share.queued} waiting): retry when one is done`);
      err.retryAfter = 1;
      return Promise.reject(err);
    }
    const idle = this.slots.some((s) => !s.job);
    if (!idle && this.queue.length >= this.options.maxQueue) {
      const err = new SightlineError('busy', `All ${this.options.size} extraction processes are busy and ${this.options.maxQueue} pages are waiting: retry shortly`);
      err.retryAfter = 1;
      return Promise.reject(err);
    }
    return new Promise<ReadResult>((resolve, reject) => {
      const job: Job = { id: this.nextId++, ...page, key, resolve, reject, signal };
      if (signal) {
        job.onAbort = () => this.cancel(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      bump(this.waiting, key, 1);
      this.pump();
    });
  }

  /** Kills every child; waiting and running pages are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const stopping = new SightlineError('busy', 'Shutting down');
    for (const job of this.queue.splice(0)) { bump(this.waiting, job.key, -1); this.settle(job, stopping); }
    await Promise.all(this.slots.map((slot) => {
      const { child, job } = slot;
      this.detach(slot);
      if (job) this.settle(job, stopping);
      return kill(child);
    }));
  }

  private spawn(slot: Slot): void {
    const data: ExtractWorkerData = { maxNodes: this.options.maxNodes, maxDecodedBytes: this.maxDecoded };
    // The JS heap is bounded too (a runaway page dies alone); external memory (typed arrays) is what
    // the resident-set watch catches.
    const heapMb = Math.max(256, Math.floor(this.maxMemory / MIB));
    const child = fork(ENTRY, [JSON.stringify(data)], {
      execArgv: [...EXEC_ARGV, `--max-old-space-size=${heapMb}`], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    slot.child = child;
    slot.ready = false;
    child.on('message', (msg: ExtractAnswer | { ready: true }) => {
      if (slot.child !== child) return;
      if ('ready' in msg) {
        slot.ready = true;
        if (slot.job) this.startClock(slot);
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      this.finish(slot);
      this.settle(job, msg.ok ? undefined : new SightlineError(msg.code, msg.message), msg.ok ? msg.result : undefined);
      // A page that left the child large (a big heap it will not give back soon) costs it its process.
      if (residentBytes(child.pid) > this.maxMemory / 2) { this.recycled++; this.renew(slot); }
      this.pump();
    });
    child.on('error', () => { /* 'exit' follows */ });
    child.on('exit', (code, signal) => {
      if (slot.child !== child) return; // replaced on purpose
      const { job, ready } = slot;
      this.detach(slot);
      if (job) this.settle(job, new SightlineError('internal_error', `The extraction process stopped (${signal ?? `exit code ${code}`})`));
      // A child that died after starting is replaced at once; one that never started is retried by
      // the next page (no restart loop when the entry cannot load).
      if (!this.closed && ready) { this.replaced++; this.spawn(slot); }
      this.pump();
    });
    // An idle child never keeps the process alive; a running page refs its child.
    if (!slot.job) unref(child);
  }

  /** Gives waiting pages to idle children: the first waiting page whose key has a running page to
   *  spare, so one key's queue never holds back another's page. */
  private pump(): void {
    if (this.closed) return;
    const limit = this.share().running;
    for (const slot of this.slots) {
      if (slot.job) continue;
      const at = this.queue.findIndex((j) => !j.key || (this.running.get(j.key) ?? 0) < limit);
      if (at === -1) return;
      const [job] = this.queue.splice(at, 1);
      bump(this.waiting, job.key, -1);
      bump(this.running, job.key, 1);
      if (!slot.child) this.spawn(slot);
      slot.job = job;
      ref(slot.child!);
      // A child still starting (just replaced) starts the page's clock when it is ready.
      if (slot.ready) this.startClock(slot);
      const message: ExtractJob = { id: job.id, html: job.html, url: job.url, options: job.options, ...(job.pdf ? { pdf: job.pdf } : {}) };
      slot.child!.send(message);
    }
  }

  /** The time and memory limits of the slot's page, from now. */
  private startClock(slot: Slot): void {
    slot.timer = setTimeout(() => {
      const err = new SightlineError('too_large', `The page took more than ${this.options.timeoutMs} ms to read (--extract-timeout-ms): it is too large or too complex`);
      // Its whole time budget was spent on it: the read is charged (docs/decisions.md).
      err.charge = true;
      this.replace(slot, err);
    }, this.options.timeoutMs);
    slot.watch = setInterval(() => {
      if (residentBytes(slot.child?.pid) <= this.maxMemory) return;
      this.memoryKilled++;
      this.replace(slot, new SightlineError('too_large', `The page needs more than ${Math.round(this.maxMemory / MIB)} MiB to read (--extract-memory-mb)`));
    }, WATCH_MS);
  }

  /** The caller gave up (the request's deadline): a waiting page leaves the queue, a running one its child. */
  private cancel(job: Job): void {
    const waiting = this.queue.indexOf(job);
    if (waiting !== -1) {
      this.queue.splice(waiting, 1);
      bump(this.waiting, job.key, -1);
      this.settle(job, cancelled());
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.replace(slot, cancelled());
  }

  /** Kills a slot's child (its page is refused with `err`) and starts a fresh one in its place. */
  private replace(slot: Slot, err: Error): void {
    const { job } = slot;
    this.renew(slot);
    if (job) this.settle(job, err);
    if (this.closed) return;
    this.replaced++;
    this.pump();
  }

  /** A fresh child in the slot's place (the old one killed). */
  private renew(slot: Slot): void {
    const { child } = slot;
    this.detach(slot);
    void kill(child);
    if (!this.closed) this.spawn(slot);
  }

  /** The slot's page is done: its timers stop and its child may idle. */
  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    clearInterval(slot.watch);
    slot.timer = slot.watch = undefined;
    if (slot.job) bump(this.running, slot.job.key, -1);
    slot.job = undefined;
    if (slot.child) unref(slot.child);
  }

  private detach(slot: Slot): void {
    this.finish(slot);
    slot.child = undefined;
    slot.ready = false;
  }

  private settle(job: Job, err?: Error, result?: ReadResult): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (err) job.reject(err); else job.resolve(result!);
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n); else counts.delete(key);
}

/** A child and its IPC channel stop keeping the event loop alive (or start again). */
function unref(child: ChildProcess): void {
  child.unref();
  (child.channel as { unref?: () => void } | undefined)?.unref?.();
}
function ref(child: ChildProcess): void {
  child.ref();
  (child.channel as { ref?: () => void } | undefined)?.ref?.();
}

/** SIGKILL: a page stuck in a synchronous loop would never see a gentler signal. */
function kill(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    // Referenced again: an idle child is unref'd, and a process waiting for nothing else (the server
    // shutting down) would end before this exit arrives, its shutdown left unfinished.
    child.ref();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

function cancelled(): SightlineError {
  return new SightlineError('timeout', 'The request was cancelled before its page was read');
}
