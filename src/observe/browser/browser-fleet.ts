// Browser hosts (`--browser-ws a,b,...`): one BrowserPool per host, each request on the host with the
// least load. A host that cannot be reached, drops its connection or misses two health checks is taken
// out; a poller reads every host's GET /healthz each second and takes it back as soon as it answers. A request whose host went
// away before its page sent a first request is tried once more on another host (its hold stays held,
// nothing is charged twice: the hold is posted once, when the work succeeds); after that, or when the
// page had started loading, the error stands and the caller's hold is voided (holds.ts).
import { SightlineError } from '../../schema/errors.ts';
import { BrowserGoneError, BrowserPool, spareCount, type PageRunner, type PoolStats } from './browser-pool.ts';
import { HEALTH_PATH, PAGES_HEADER, type HostLoad } from './browser-host.ts';
import type { Page } from 'playwright-core';

export interface FleetOptions {
  endpoints: string[];
  token: string;
  /** Pages each host's pool opens at once (reserved on the host), and requests queued per host. */
  size: number;
  maxQueue: number;
  /** Each host pool's spare contexts (--map-spares) and path (--map-path legacy), as the local pool's. */
  spares?: number;
  closeBeforeAnswer?: boolean;
  /** How often hosts' health is read. */
  pollMs?: number;
  log?: (event: string, fields: Record<string, unknown>) => void;
}

export interface HostState {
  endpoint: string;
  up: boolean;
  /** Requests of ours on the host (working or queued). */
  inflight: number;
  /** From its last health answer (null: not a Sightline host, or not answered yet). */
  pages: number | null;
  capacity: number | null;
}

interface Host extends HostState {
  pool: BrowserPool;
  health: string;
  /** Our pages when `pages` was read (requests and spares): the rest of `pages` is other instances' load. */
  inflightAtPoll: number;
  /** Health checks missed in a row. */
  missed: number;
}

export type FleetStats = PoolStats & { hosts: HostState[] };

export const HEALTH_POLL_MS = 1000;
const HEALTH_TIMEOUT_MS = 2000;
/** Health checks a host may miss in a row before it is taken out. */
const HEALTH_MISSES = 2;

export class BrowserFleet implements PageRunner {
  private readonly hosts: Host[];
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: FleetOptions) {
    // A connection reserves every page its pool may hold open: the pages at work and its spares.
    const headers: Record<string, string> = { [PAGES_HEADER]: String(options.size + spareCount(options)) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    this.hosts = options.endpoints.map((endpoint) => {
      const health = new URL(endpoint);
      health.protocol = health.protocol === 'wss:' ? 'https:' : 'http:';
      health.pathname = HEALTH_PATH;
      health.search = '';
      const host: Host = {
        endpoint, up: true, inflight: 0, pages: null, capacity: null, inflightAtPoll: 0, missed: 0, health: health.href,
        pool: new BrowserPool({
          executablePath: '', wsEndpoint: endpoint, connectHeaders: headers, proxyUrl: '', size: options.size, maxQueue: options.maxQueue,
          spares: options.spares, closeBeforeAnswer: options.closeBeforeAnswer, onGone: (why) => this.down(host, why),
        }),
      };
      return host;
    });
    this.timer = setInterval(() => void this.poll(), options.pollMs ?? HEALTH_POLL_MS);
    this.timer.unref();
    void this.poll();
  }

  private down(host: Host, why: string): void {
    if (!host.up) return;
    host.up = false;
    this.options.log?.('browser host taken out', { host: host.endpoint, why });
  }

  /** Reads each host's health: one that answers is (back) in, one that does not is out. */
  async poll(): Promise<void> {
    await Promise.all(this.hosts.map(async (host) => {
      try {
        const res = await fetch(host.health, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS), headers: this.options.token ? { authorization: `Bearer ${this.options.token}` } : {} });
        const load = res.ok ? await res.json().catch(() => null) as Partial<HostLoad> | null : null;
        host.pages = typeof load?.pages === 'number' && load.pages >= 0 ? load.pages : null;
        host.capacity = typeof load?.capacity === 'number' ? load.capacity : null;
        host.inflightAtPoll = host.inflight + host.pool.stats().spare;
        host.missed = 0;
        if (!host.up && !this.closed) {
          host.up = true;
          this.options.log?.('browser host back', { host: host.endpoint });
        }
      } catch (err) {
        // One late answer on a busy machine is not a dead host; a refused connection shows at once anyway.
        if (++host.missed >= HEALTH_MISSES) this.down(host, `health: ${(err as Error).message}`);
      }
    }));
  }

  /** The share of the host in use: other instances' pages (from its health) plus ours now. */
  private load(host: Host): number {
    const others = host.pages === null ? 0 : Math.max(0, host.pages - host.inflightAtPoll);
    return (others + host.inflight) / (host.capacity ?? this.options.size);
  }

  private pick(exclude: Set<Host>): Host | undefined {
    let best: Host | undefined;
    for (const h of this.hosts) {
      if (!h.up || exclude.has(h)) continue;
      if (!best || this.load(h) < this.load(best)) best = h;
    }
    return best;
  }

  async withPage<T>(work: (page: Page) => Promise<T>, deadlineMs: number, signal?: AbortSignal): Promise<T> {
    if (this.closed) throw new SightlineError('busy', 'Shutting down');
    const tried = new Set<Host>();
    for (;;) {
      const host = this.pick(tried);
      if (!host) {
        const err = new SightlineError('busy', tried.size
          ? 'The browser host went away before the page started loading, and no other host is available: retry shortly'
          : 'No browser host is available: retry shortly');
        err.retryAfter = 1;
        throw err;
      }
      tried.add(host);
      host.inflight++;
      try {
        return await host.pool.withPage(work, deadlineMs, signal);
      } catch (err) {
        // Once, and only when nothing of the page had happened yet: then the caller cannot tell.
        const retry = err instanceof BrowserGoneError && !err.started && tried.size === 1 && !signal?.aborted;
        if (err instanceof BrowserGoneError) this.down(host, err.message);
        if (!retry) throw err;
        this.options.log?.('retrying on another browser host', { host: host.endpoint, why: err.message });
      } finally {
        host.inflight--;
      }
    }
  }

  stats(): FleetStats {
    const total: PoolStats = { launches: 0, crashes: 0, open: 0, queued: 0, contexts: 0, spare: 0 };
    for (const h of this.hosts) {
      const s = h.pool.stats();
      for (const k of Object.keys(total) as (keyof PoolStats)[]) total[k] += s[k];
    }
    return { ...total, hosts: this.hosts.map(({ endpoint, up, inflight, pages, capacity }) => ({ endpoint, up, inflight, pages, capacity })) };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all(this.hosts.map((h) => h.pool.close()));
  }
}
