// `--workers N`: N worker threads, each a full serving unit (server.ts) listening on the same port
// (uWS sets SO_REUSEPORT on Linux; the kernel spreads connections). The main thread only supervises:
// it starts worker 0 (which may pick the port), then the others on that port, restarts a worker that
// crashes, and on shutdown asks each to drain and waits for all of them. GET /metrics lands on one
// worker; it asks the supervisor, which collects every worker's registry and sums them.
import { Worker } from 'node:worker_threads';
import { createServer, type AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.ts';
import { startServer, type RunningServer } from './server.ts';
import { createLogger } from './logger.ts';
import { aggregateText, type MetricsSnapshot } from './metrics.ts';

/** Set in workerData so an entry module can tell it was started as a serving worker. */
export const WORKER_FLAG = 'sightlineWorker';

interface WorkerInit { config: ServerConfig; index: number }
type ToMain = { type: 'listening'; port: number; backend: string } | { type: 'error'; message: string }
  | { type: 'metrics-request'; id: number } | { type: 'metrics-json'; id: number; data: MetricsSnapshot };
type ToWorker = { type: 'shutdown' } | { type: 'metrics-collect'; id: number }
  | { type: 'metrics-text'; id: number; text: string; contentType: string } | { type: 'metrics-error'; id: number; message: string };

/** How long the supervisor waits for each worker's metrics. */
const METRICS_WAIT_MS = 2000;

/** Most restarts of crashed workers per minute before the supervisor gives up. */
const MAX_RESTARTS_PER_MINUTE = 5;

export async function runWorkers(config: ServerConfig, logger: Logger, entry: URL): Promise<RunningServer> {
  const workers = new Map<number, Worker>();
  let closing = false;
  const restarts: number[] = [];
  let nextCollect = 0;
  const collecting = new Map<number, (data: MetricsSnapshot) => void>();
  /** Every worker's registry, summed; a worker that does not answer in time is left out. */
  const gatherAll = async () => {
    const snapshots = await Promise.all([...workers.values()].map((w) => new Promise<MetricsSnapshot | undefined>((resolve) => {
      const id = ++nextCollect;
      const timer = setTimeout(() => { collecting.delete(id); resolve(undefined); }, METRICS_WAIT_MS);
      collecting.set(id, (data) => { clearTimeout(timer); collecting.delete(id); resolve(data); });
      w.postMessage({ type: 'metrics-collect', id } satisfies ToWorker);
    })));
    return aggregateText(snapshots.filter((s): s is MetricsSnapshot => s !== undefined));
  };

  const spawn = (index: number, port: number) => new Promise<{ port: number; backend: string }>((resolve, reject) => {
    const init: WorkerInit = { config: { ...config, port }, index };
    const worker = new Worker(entry, { workerData: { [WORKER_FLAG]: init } });
    workers.set(index, worker);
    let started = false;
    worker.on('message', (msg: ToMain) => {
      if (msg.type === 'listening') { started = true; resolve(msg); }
      else if (msg.type === 'metrics-json') collecting.get(msg.id)?.(msg.data);
      else if (msg.type === 'metrics-request') {
        gatherAll().then((m) => worker.postMessage({ type: 'metrics-text', id: msg.id, ...m } satisfies ToWorker),
          (err: Error) => worker.postMessage({ type: 'metrics-error', id: msg.id, message: err.message } satisfies ToWorker));
      } else reject(new Error(`worker ${index}: ${msg.message}`));
    });
    worker.on('error', (err) => {
      if (!started) reject(err);
      else logger.error({ worker: index, err }, 'worker crashed');
    });
    worker.on('exit', (code) => {
      workers.delete(index);
      if (!started) return reject(new Error(`worker ${index} exited with code ${code} before listening`));
      if (closing) return;
      const now = Date.now();
      restarts.push(now);
      while (restarts[0] < now - 60_000) restarts.shift();
      if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
        logger.fatal({ worker: index, code }, 'workers keep crashing: giving up');
        process.exitCode = 1;
        return;
      }
      logger.error({ worker: index, code }, 'worker exited: restarting it');
      spawn(index, port).catch((err) => logger.error({ worker: index, err }, 'worker restart failed'));
    });
  });

  const stopAll = () => Promise.all([...workers.values()].map((w) => new Promise<void>((done) => {
    w.once('exit', () => done());
    w.postMessage({ type: 'shutdown' } satisfies ToWorker);
  })));

  try {
    // uSockets shares a port between threads (SO_REUSEPORT) only when the port is given, not for port 0.
    const first = await spawn(0, config.port || await freePort(config.host));
    const rest = await Promise.all(Array.from({ length: config.workers - 1 }, (_, i) => spawn(i + 1, first.port)));
    return {
      port: first.port,
      backend: [first, ...rest].every((w) => w.backend === first.backend) ? first.backend : 'mixed',
      async close() {
        closing = true;
        await stopAll();
      },
    };
  } catch (err) {
    closing = true;
    await stopAll();
    throw err;
  }
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject).listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The body of a serving worker thread: serve until the supervisor asks for shutdown. */
export async function workerMain(init: WorkerInit, port: import('node:worker_threads').MessagePort): Promise<void> {
  const logger = createLogger(init.config.logLevel, { worker: init.index });
  let server: RunningServer | undefined;
  let nextRequest = 0;
  const asked = new Map<number, { resolve: (m: { text: string; contentType: string }) => void; reject: (err: Error) => void }>();
  const gather = () => new Promise<{ text: string; contentType: string }>((resolve, reject) => {
    const id = ++nextRequest;
    asked.set(id, { resolve, reject });
    port.postMessage({ type: 'metrics-request', id } satisfies ToMain);
  });
  port.on('message', (msg: ToWorker) => {
    if (msg.type === 'shutdown') { if (server) void server.close().finally(() => process.exit(0)); else process.exit(0); }
    else if (msg.type === 'metrics-collect') {
      void (server?.metrics?.registry.getMetricsAsJSON() ?? Promise.resolve([])).then((data) => port.postMessage({ type: 'metrics-json', id: msg.id, data } satisfies ToMain));
    } else {
      const waiting = asked.get(msg.id);
      asked.delete(msg.id);
      if (msg.type === 'metrics-text') waiting?.resolve(msg);
      else waiting?.reject(new Error(msg.message));
    }
  });
  try {
    server = await startServer(init.config, logger, { worker: init.index, gather });
  } catch (err) {
    port.postMessage({ type: 'error', message: (err as Error).message } satisfies ToMain);
    process.exit(1);
  }
  port.postMessage({ type: 'listening', port: server.port, backend: server.backend } satisfies ToMain);
}
