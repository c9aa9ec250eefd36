// Read mode's extraction off the event loop: linkedom and turndown take seconds on a hostile page (a
// 7 MB table took 26 s), and on the serving thread that froze every request, the deadline's timer
// included. A few warm worker threads run readPage instead, one page each at a time, with a bounded
// queue (busy when full), a time limit per page (the worker is terminated and replaced), an element
// limit checked before parsing (in the worker, extract-worker.ts), and the request's abort signal
// cancelling a queued page or terminating a running one. Results are readPage's, unchanged. PDFs go the
// same way (readPdf, pdf.ts), under the same limits.
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { SightlineError } from '../schema/errors.ts';
import type { ReadOptions, ReadResult } from './read.ts';
import type { ExtractAnswer, ExtractJob, ExtractWorkerData } from './extract-worker.ts';

export interface ExtractPoolOptions {
  /** Worker threads (pages read at once). */
  size: number;
  /** Pages allowed to wait for a worker; beyond, 503 busy. */
  maxQueue: number;
  /** Time one page may take in a worker; beyond, the worker is replaced and the page refused. */
  timeoutMs: number;
  /** Elements (start tags) a page may have; beyond, refused before parsing. */
  maxNodes: number;
}

export interface ExtractStats { workers: number; busy: number; queued: number; replaced: number }

/** Heap of one worker: a page within the element limit needs far less; a runaway one dies alone. */
const WORKER_HEAP_MB = 1024;

/** The worker's entry: build/extract-worker.js next to the bundle; from the source tree (under tsx,
 *  whose hooks do not reach a worker's entry on Node 20) a bootstrap that registers tsx first. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY: URL | string = FROM_SOURCE
  ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./extract-worker.ts', import.meta.url).href)}); });`
  : new URL('./extract-worker.js', import.meta.url);

/** One worker per core by default, the cores shared among `serving` threads that each have a pool. */
export function defaultExtractWorkers(serving = 1): number {
  return Math.max(1, Math.floor(availableParallelism() / serving));
}

interface Job extends ExtractJob {
  resolve: (result: ReadResult) => void;
  reject: (err: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot { worker?: Worker; ready: boolean; job?: Job; timer?: NodeJS.Timeout }

export class ExtractPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private replaced = 0;
  private closed = false;

  constructor(private readonly options: ExtractPoolOptions) {
    // Started now, not on the first request: a worker takes a few hundred ms to load and warm up.
    this.slots = Array.from({ length: options.size }, () => {
      const slot: Slot = { ready: false };
      this.spawn(slot);
      return slot;
    });
  }

  stats(): ExtractStats {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.job).length, queued: this.queue.length, replaced: this.replaced };
  }

  /** readPage(html, url, options) in a worker. */
  read(html: string, url: string, options: ReadOptions, signal?: AbortSignal): Promise<ReadResult> {
    return this.submit({ html, url, options }, signal);
  }

  /** readPdf(bytes, url, options) in a worker (pdf.ts): the same queue, time limit and cancelling. */
  readPdf(pdf: Uint8Array, url: string, options: ReadOptions, signal?: AbortSignal): Promise<ReadResult> {
    return this.submit({ html: '', pdf, url, options }, signal);
  }

  private submit(page: Omit<ExtractJob, 'id'>, signal?: AbortSignal): Promise<ReadResult> {
    if (this.closed) return Promise.reject(new SightlineError('busy', 'Shutting down'));
    if (signal?.aborted) return Promise.reject(cancelled());
    const idle = this.slots.some((s) => !s.job);
    if (!idle && this.queue.length >= this.options.maxQueue) {
      const err = new SightlineError('busy', `All ${this.options.size} extraction workers are busy and ${this.options.maxQueue} pages are waiting: retry shortly`);
      err.retryAfter = 1;
      return Promise.reject(err);
    }
    return new Promise<ReadResult>((resolve, reject) => {
      const job: Job = { id: this.nextId++, ...page, resolve, reject, signal };
      if (signal) {
        job.onAbort = () => this.cancel(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Terminates every worker; waiting and running pages are refused. The threads keep nothing alive. */
  async close(): Promise<void> {
    this.closed = true;
    const stopping = new SightlineError('busy', 'Shutting down');
    for (const job of this.queue.splice(0)) this.settle(job, stopping);
    await Promise.all(this.slots.map((slot) => {
      const { worker, job } = slot;
      this.detach(slot);
      if (job) this.settle(job, stopping);
      return worker?.terminate();
    }));
  }

  private spawn(slot: Slot): void {
    const data: ExtractWorkerData = { maxNodes: this.options.maxNodes };
    const worker = new Worker(ENTRY, { eval: FROM_SOURCE, workerData: data, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    slot.worker = worker;
    slot.ready = false;
    let failure: Error | undefined;
    worker.on('message', (msg: ExtractAnswer | { ready: true }) => {
      if (slot.worker !== worker) return;
      if ('ready' in msg) { slot.ready = true; return; }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      this.finish(slot);
      this.settle(job, msg.ok ? undefined : new SightlineError(msg.code, msg.message), msg.ok ? msg.result : undefined);
      this.pump();
    });
    worker.on('error', (err) => { failure = err; });
    worker.on('exit', () => {
      if (slot.worker !== worker) return; // replaced on purpose
      const { job, ready } = slot;
      this.detach(slot);
      if (job) this.settle(job, failure && (failure as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new SightlineError('too_large', `The page needs more than ${WORKER_HEAP_MB} MB to read`)
        : new SightlineError('internal_error', `The extraction worker stopped: ${failure?.message ?? 'exited'}`));
      // A worker that died after starting is replaced at once; one that never started is retried by
      // the next page (no restart loop when the entry cannot load).
      if (!this.closed && ready) { this.replaced++; this.spawn(slot); }
      this.pump();
    });
    // After the listeners (a 'message' listener refs the worker again): an idle worker never keeps the
    // process alive; a running page refs its worker.
    if (!slot.job) worker.unref();
  }

  /** Gives waiting pages to idle workers. */
  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.queue.shift();
      if (!job) return;
      if (!slot.worker) this.spawn(slot);
      slot.job = job;
      slot.worker!.ref();
      slot.timer = setTimeout(() => this.replace(slot, new SightlineError('too_large',
        `The page took more than ${this.options.timeoutMs} ms to read (--extract-timeout-ms): it is too large or too complex`)), this.options.timeoutMs);
      const message: ExtractJob = { id: job.id, html: job.html, url: job.url, options: job.options, ...(job.pdf ? { pdf: job.pdf } : {}) };
      slot.worker!.postMessage(message);
    }
  }

  /** The caller gave up (the request's deadline): a waiting page leaves the queue, a running one its worker. */
  private cancel(job: Job): void {
    const waiting = this.queue.indexOf(job);
    if (waiting !== -1) {
      this.queue.splice(waiting, 1);
      this.settle(job, cancelled());
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.replace(slot, cancelled());
  }

  /** Terminates a slot's worker (its page is refused with `err`) and starts a fresh one in its place. */
  private replace(slot: Slot, err: Error): void {
    const { worker, job } = slot;
    this.detach(slot);
    void worker?.terminate();
    if (job) this.settle(job, err);
    if (this.closed) return;
    this.replaced++;
    this.spawn(slot);
    this.pump();
  }

  /** The slot's page is done: its timer stops and its worker may idle. */
  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    slot.worker?.unref();
  }

  private detach(slot: Slot): void {
    this.finish(slot);
    slot.worker = undefined;
    slot.ready = false;
  }

  private settle(job: Job, err?: Error, result?: ReadResult): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (err) job.reject(err); else job.resolve(result!);
  }
}

function cancelled(): SightlineError {
  return new SightlineError('timeout', 'The request was cancelled before its page was read');
}
