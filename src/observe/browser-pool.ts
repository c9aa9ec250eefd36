// The browser pool: playwright-core driving Debian's Chromium (or a remote browser), a fresh context
// per request, at most `size` pages at once with a bounded queue (busy when full), a hard deadline
// that closes the context or kills the browser, and a relaunch after a crash. Every request the
// browser makes goes through the egress proxy. One spare context with its page is prepared ahead:
// a new page costs a renderer process (100-300 ms here), which then stays off the request's path.
// The spare is used once, by one request, like any other fresh context.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SightlineError } from '../schema/errors.ts';

// The browser reaches nothing but the egress proxy (docs/decisions.md, "Browser network"): no QUIC, WebRTC
// without UDP (TURN over TCP goes through the proxy), and no host name resolved by Chromium itself.
/** DESIGN.md's launch flags for any Chromium we start (QUIC off: it would bypass an HTTP proxy). */
export const BASE_CHROMIUM_FLAGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
/** A Chromium that renders for others, behind the egress proxy: WebRTC only through the proxy, and no
 *  name resolution of its own. */
export const CHROMIUM_FLAGS = [...BASE_CHROMIUM_FLAGS, '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

export interface PoolOptions {
  executablePath: string;
  /** A remote browser (a browser host, browser-fleet.ts): connect instead of launching. */
  wsEndpoint?: string;
  /** Headers of the connection to the remote browser (the host's token, the pages this pool reserves). */
  connectHeaders?: Record<string, string>;
  /** The browser went away without our closing it, or could not be reached (a host is down). */
  onGone?: (why: string) => void;
  /** The egress proxy every request goes through. */
  proxyUrl: string;
  size: number;
  maxQueue: number;
  /** The path before issue 19 (--map-path legacy): the used context is closed before the answer. */
  closeBeforeAnswer?: boolean;
  /** Contexts prepared ahead (--map-spares; 1 when absent); 0: none, every request creates its own. */
  spares?: number;
}

export interface PoolStats { launches: number; crashes: number; open: number; queued: number; contexts: number; spare: number }

/** What observe needs of a browser: the local pool, or the fleet of browser hosts (browser-fleet.ts). */
export interface PageRunner {
  withPage<T>(work: (page: Page) => Promise<T>, deadlineMs: number, signal?: AbortSignal): Promise<T>;
  stats(): PoolStats;
  close(): Promise<void>;
}

interface Fresh { browser: Browser; context: BrowserContext; page: Page }

/** The caller's request ended (its deadline passed) while it waited for or used a page. */
const cancelled = () => new SightlineError('timeout', 'The request was cancelled at its deadline');

/**
 * The browser could not be had or went away before the work ended: a crash, a killed process, a browser
 * host that is down. `started` tells whether the page had begun loading (its first request went out):
 * browser-fleet.ts retries one that had not on another host.
 */
export class BrowserGoneError extends SightlineError {
  constructor(message: string, readonly started: boolean) {
    super('internal_error', message);
  }
}

/** How long connecting to a remote browser may take. */
const CONNECT_TIMEOUT_MS = 5000;

/** What Playwright says when the browser (or the page with it) is gone. */
const GONE = /closed|crash|disconnected|Target page/i;
/** The same, as only Playwright says it (a page's own network errors never read like this). */
const PLAYWRIGHT_GONE = /Target page, context or browser has been closed|Browser has been closed|browser has disconnected/i;

export class BrowserPool implements PageRunner {
  private browser: Promise<Browser> | undefined;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private contexts = new Set<BrowserContext>();
  /** Used contexts closing after their answer; each holds its page slot until closed. */
  private closing = 0;
  private spare: Promise<Fresh | undefined> | undefined;
  private launches = 0;
  /** Browsers that disconnected without our closing them (a crash, a killed process, a remote gone). */
  private crashes = 0;
  private readonly closedByUs = new WeakSet<Browser>();
  private closed = false;

  constructor(private readonly options: PoolOptions) {}

  stats(): PoolStats {
    return { launches: this.launches, crashes: this.crashes, open: this.active - this.closing, queued: this.waiting.length, contexts: this.contexts.size, spare: this.spare ? 1 : 0 };
  }

  private launch(): Promise<Browser> {
    this.launches++;
    const proxy = { server: this.options.proxyUrl, bypass: '<-loopback>' };
    const started = this.options.wsEndpoint
      ? chromium.connect(this.options.wsEndpoint, { headers: this.options.connectHeaders, timeout: CONNECT_TIMEOUT_MS })
      : chromium.launch({ executablePath: this.options.executablePath, headless: true, chromiumSandbox: false, args: CHROMIUM_FLAGS, proxy });
    const browser = started.then((b) => {
      b.on('disconnected', () => {
        if (!this.closed && !this.closedByUs.has(b)) {
          this.crashes++;
          this.options.onGone?.('disconnected');
        }
        if (this.browser === browser) this.browser = undefined;
      });
      return b;
    }, (err: Error) => {
      this.browser = undefined;
      const why = err.message.split('\n')[0];
      if (this.options.wsEndpoint) this.options.onGone?.(why);
      throw new BrowserGoneError(this.options.wsEndpoint ? `The browser host ${this.options.wsEndpoint} cannot be reached: ${why}` : `Chromium did not start: ${why}`, false);
    });
    return browser;
  }

  /** A page slot; waiting in the queue ends when the caller's request is aborted (its deadline passed). */
  private async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw cancelled();
    if (this.active < this.options.size) { this.active++; return; }
    if (this.waiting.length >= this.options.maxQueue) {
      const err = new SightlineError('busy', `All ${this.options.size} browser pages are busy and ${this.options.maxQueue} requests are waiting: retry shortly`);
      err.retryAfter = 1;
      throw err;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(granted);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(cancelled());
      };
      const granted = () => { signal?.removeEventListener('abort', onAbort); resolve(); };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(granted);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next(); else this.active--;
  }

  /** The running browser; one that died (killed, crashed) before its disconnect event is replaced. */
  private async liveBrowser(): Promise<Browser> {
    this.browser ??= this.launch();
    const current = this.browser;
    const browser = await current;
    if (browser.isConnected()) return browser;
    if (this.browser === current) this.browser = this.launch();
    return this.browser;
  }

  private async create(browser: Browser): Promise<Fresh> {
    // No downloads: a page that starts one must not fill our disk.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block', acceptDownloads: false });
    try {
      return { browser, context, page: await context.newPage() };
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
  }

  /** The spare if it belongs to this browser, else a new context and page. */
  private async fresh(browser: Browser): Promise<Fresh> {
    const pending = this.spare; // taken at once: concurrent requests must not share it
    this.spare = undefined;
    const spare = await pending?.catch(() => undefined);
    const usable = spare && spare.browser === browser && browser.isConnected() && !spare.page.isClosed() ? spare : undefined;
    if (spare && !usable) void spare.context.close().catch(() => undefined);
    return usable ?? this.create(browser);
  }

  /**
   * Runs `work` on a fresh page in a fresh context; the context is closed whatever happens. `signal`
   * is the caller's request: when it aborts (the router's deadline), the wait or the work ends at once
   * and the context is closed, so nothing goes on for a request that has been answered.
   */
  async withPage<T>(work: (page: Page) => Promise<T>, deadlineMs: number, signal?: AbortSignal): Promise<T> {
    if (this.closed) throw new SightlineError('busy', 'Shutting down');
    await this.acquire(signal);
    let stopAbort: (() => void) | undefined;
    let context: BrowserContext | undefined;
    let timer: NodeJS.Timeout | undefined;
    let started = false;
    let used: Browser | undefined;
    let answered = false;
    try {
      let browser = await this.liveBrowser();
      let got: Fresh;
      try {
        got = await this.fresh(browser);
      } catch (err) {
        // The browser died and its disconnect event has not arrived yet: replace it, once.
        if (!GONE.test((err as Error).message ?? '')) throw err;
        await this.kill();
        browser = await this.liveBrowser();
        got = await this.create(browser);
      }
      used = got.browser;
      context = got.context;
      this.contexts.add(context);
      const page = got.page;
      page.once('request', () => { started = true; });
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SightlineError('timeout', `The page did not finish within ${deadlineMs} ms`)), deadlineMs);
        if (!signal) return;
        const onAbort = () => reject(cancelled());
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        stopAbort = () => signal.removeEventListener('abort', onAbort);
      });
      const result = await Promise.race([work(page), expired]);
      answered = true;
      return result;
    } catch (err) {
      // Whatever the work made of it (navigate() turns a failed goto into `unreachable`), a browser that
      // went away is the browser's failure, not the page's.
      const gone = used && (!used.isConnected() || PLAYWRIGHT_GONE.test((err as Error).message ?? ''));
      if (gone && !(err instanceof BrowserGoneError) && !signal?.aborted) {
        throw new BrowserGoneError('The browser stopped while loading the page; retry the request', started);
      }
      if (err instanceof SightlineError) throw err;
      const message = (err as Error).message ?? String(err);
      if (GONE.test(message)) {
        throw new BrowserGoneError('The browser stopped while loading the page; retry the request', started);
      }
      throw err;
    } finally {
      clearTimeout(timer);
      stopAbort?.();
      if (answered && context && !this.options.closeBeforeAnswer) {
        // Answered: the next request's spare is started at once, and this context closes off the
        // caller's path, its slot held until it has (failed work still closes before its error).
        const done = context;
        this.closing++;
        this.prepareSpare();
        void this.closeContext(done).finally(() => { this.closing--; this.release(); });
      } else {
        if (context) await this.closeContext(context);
        this.prepareSpare();
        this.release();
      }
    }
  }

  /** Between requests, not during one: a spare made while a page loads competes with it for the CPU. */
  private prepareSpare(): void {
    const browser = this.browser;
    if (this.closed || this.spare || !browser || this.waiting.length) return; // a waiting request makes its own
    if (this.options.spares === 0) return;
    this.spare = browser.then((b) => (b.isConnected() ? this.create(b) : undefined)).catch(() => undefined);
  }

  /** Closes a context; if that hangs, the browser is killed (and relaunched on the next request). */
  private async closeContext(context: BrowserContext): Promise<void> {
    this.contexts.delete(context);
    const closed = context.close().then(() => true, () => true);
    const stuck = new Promise<boolean>((r) => setTimeout(() => r(false), 3000).unref());
    if (!(await Promise.race([closed, stuck]))) await this.kill();
  }

  private async kill(): Promise<void> {
    const current = this.browser;
    this.browser = undefined;
    const spare = this.spare;
    this.spare = undefined;
    await spare?.then((s) => s?.context.close()).catch(() => undefined);
    const browser = await current?.catch(() => undefined);
    if (browser) this.closedByUs.add(browser);
    await browser?.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.kill();
  }
}
