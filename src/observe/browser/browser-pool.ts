// The browser pool: playwright-core driving Debian's Chromium (or a remote browser), a fresh context
// per request, at most `size` pages at once with a bounded queue (busy when full), a hard deadline
// that closes the context or kills the browser, and a relaunch after a crash. Every request the
// browser makes goes through the egress proxy. Up to `spares` fresh contexts, each with its page, are
// kept ready: a new page costs a renderer process (100-500 ms here), which then stays off the
// request's path. Spares are topped up after each answer, between requests rather than alongside one;
// with two, a request that follows straight after an answer finds one ready while the other is made
// (not the default: on a saturated machine the one being made slowed that request by more than the
// wait it saved; bench/README.md, "Warm spares").
// Each spare is used once, by one request, like any other fresh context; spares belong to one browser
// and go with it (closed, crashed, killed).
import { AsyncLocalStorage } from 'node:async_hooks';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SightlineError } from '../../schema/errors.ts';

// The browser reaches nothing but the egress proxy (docs/decisions.md, "Browser network"): no QUIC, WebRTC
// without UDP (TURN over TCP goes through the proxy), and no host name resolved by Chromium itself.
/** DESIGN.md's launch flags for any Chromium we start (QUIC off: it would bypass an HTTP proxy). */
export const BASE_CHROMIUM_FLAGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
/** A Chromium that renders for others, behind the egress proxy: WebRTC only through the proxy, and no
 *  name resolution of its own. The WebRTC policy has two spellings: the full browser reads
 *  `--webrtc-ip-handling-policy`, the headless shell (render-chromium.ts) only `--force-webrtc-ip-handling-policy`
 *  (without it the shell sent STUN over UDP straight to a refused address: test/webrtc-egress.test.ts); each
 *  ignores the other's. */
export const CHROMIUM_FLAGS = [...BASE_CHROMIUM_FLAGS, '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

/** The features playwright-core 1.65 turns off (its `chromiumSwitches`). Chromium keeps only the last
 *  `--disable-features`, so ours must repeat them (test/observe-spares.test.ts checks the launched
 *  browser's command line holds every one of Playwright's). */
export const PLAYWRIGHT_DISABLED_FEATURES = ['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled',
  'PreconnectToSearch', 'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion'];
/**
 * Renderers nobody uses (docs/decisions.md, "Lean renderers"): every new context is a window whose
 * omnibox popup is two WebUI pages (`chrome://omnibox-popup.top-chrome/`, in a renderer process of
 * their own), and every page Chromium hands a renderer starts another spare renderer for the next.
 * Together about two thirds of the CPU a new context with its page costs, on the cores the requests
 * being served need.
 */
export const LEAN_RENDERER_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];
/** Chromium's own calls out that a flag turns off: AutofillServerCommunication, the form-field queries to
 *  content-autofill.googleapis.com on every page with a form (test/chromium-quiet.test.ts). */
export const QUIET_FEATURES = ['AutofillServerCommunication'];
export const LEAN_FLAG = `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...QUIET_FEATURES, ...LEAN_RENDERER_FEATURES].join(',')}`;
/** For a Chromium launched without LEAN_FLAG: Playwright's features and ours, still off. */
export const QUIET_FLAG = `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...QUIET_FEATURES].join(',')}`;
/** Playwright by default closes every browser it launched the moment the process gets SIGINT, SIGTERM or
 *  SIGHUP, which would fail the requests a shutdown is draining (test/server-shutdown.test.ts). The
 *  process owns its stop: the browser goes after the drain, or at the stop's deadline (cli/children.ts). */
const OWN_SIGNALS = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } as const;

/** The launch options of every Chromium we start (pool, browser host, MCP sessions): our own signals,
 *  headless, no sandbox (DESIGN.md's flags), and, given a proxy, every request but loopback through it. */
export function launchOptions(executablePath: string, args: string[], proxyServer?: string) {
  return {
    ...OWN_SIGNALS, executablePath, headless: true, chromiumSandbox: false, args,
    ...(proxyServer === undefined ? {} : { proxy: { server: proxyServer, bypass: '<-loopback>' } }),
  };
}

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
  /** The path before issue 19 (--map-path legacy): the used context is closed before the answer, and
   *  at most one spare is made, after that close. */
  closeBeforeAnswer?: boolean;
  /** Fresh contexts (with their page) kept ready (--map-spares; default 1, at most `size`); 0: every
   *  request makes its own. */
  spares?: number;
  /** When a used spare is replaced: `answered` (default), after the request's answer, between requests;
   *  `taken`, as the request takes it, alongside its work (measured worse when paced: bench/README.md,
   *  "Warm spares"; kept for bench/map-spares.bench.ts). */
  spareRefill?: 'taken' | 'answered';
  /** Page slots shared with other pools (AlternatingBrowsers); by default the pool's own. */
  slots?: PageSlots;
  /** Launch Chromium without the renderers nobody uses (LEAN_FLAG; default true). False: Chromium's
   *  own defaults, as before (kept for bench/map-spares.bench.ts). */
  leanRenderers?: boolean;
}

export interface PoolStats { launches: number; crashes: number; open: number; queued: number; contexts: number; spare: number }

/** The spares a pool with these options keeps: --map-spares, at most its size, at most 1 on the legacy path. */
export function spareCount(options: Pick<PoolOptions, 'spares' | 'closeBeforeAnswer' | 'size'>): number {
  const wanted = Math.max(0, Math.floor(options.spares ?? 1));
  return Math.min(options.closeBeforeAnswer ? 1 : wanted, wanted, options.size);
}

/** What observe needs of a browser: the local pool, or the fleet of browser hosts (browser-fleet.ts). */
export interface PageRunner {
  withPage<T>(work: (page: Page) => Promise<T>, deadlineMs: number, signal?: AbortSignal): Promise<T>;
  stats(): PoolStats;
  close(): Promise<void>;
}

interface Fresh { browser: Browser; context: BrowserContext; page: Page }
/** A spare context, ready or being made, on the browser `on` (the launch it belongs to). */
interface Spare { on: Promise<Browser>; made: Promise<Fresh | undefined>; ready: boolean }

/** The caller's request ended (its deadline passed) while it waited for or used a page. */
const cancelled = () => new SightlineError('timeout', 'The request was cancelled at its deadline');

/** Whose request a page is for (an API key's id), set by the route around its work: each key's share
 *  of the pages (PageSlots) is counted by it. Work outside any key (MCP, tools) counts as one caller. */
export const pageCaller = new AsyncLocalStorage<string>();

/**
 * At most `size` pages at once, then a queue of `maxQueue` (busy when full); one may serve several
 * browsers (AlternatingBrowsers), so `--browser-pages` bounds them together. Fair share (issue 36): one
 * caller runs at most `size - 1` pages at once (one is always left for the others) and keeps at most a
 * quarter of the queue waiting (429 beyond); a freed page goes to the first waiter under its share.
 */
export class PageSlots {
  active = 0;
  readonly waiting: { key: string; grant: () => void }[] = [];
  private readonly running = new Map<string, number>();
  readonly perKey: number;
  readonly perKeyQueued: number;
  constructor(readonly size: number, readonly maxQueue: number) {
    this.perKey = Math.max(1, size - 1);
    this.perKeyQueued = Math.max(1, Math.floor(maxQueue / 4));
  }

  /** A page slot for the current caller; the returned function gives it back. Waiting in the queue
   *  ends when the caller's request is aborted (its deadline passed). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw cancelled();
    const key = pageCaller.getStore() ?? '';
    const release = () => this.release(key);
    const mine = this.running.get(key) ?? 0;
    if (this.active < this.size && mine < this.perKey) { this.take(key); return release; }
    const queued = this.waiting.filter((w) => w.key === key).length;
    if (key && queued >= this.perKeyQueued) {
      const err = new SightlineError('rate_limited', `This key already has ${mine} browser pages open and ${queued} requests waiting, its share: retry when one is done`);
      err.retryAfter = 1;
      throw err;
    }
    if (this.waiting.length >= this.maxQueue) {
      const err = new SightlineError('busy', `All ${this.size} browser pages are busy and ${this.maxQueue} requests are waiting: retry shortly`);
      err.retryAfter = 1;
      throw err;
    }
    await new Promise<void>((resolve, reject) => {
      const entry = { key, grant: () => { signal?.removeEventListener('abort', onAbort); resolve(); } };
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
    return release;
  }

  private take(key: string): void {
    this.active++;
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
  }

  private release(key: string): void {
    this.active--;
    const left = (this.running.get(key) ?? 1) - 1;
    if (left > 0) this.running.set(key, left); else this.running.delete(key);
    // The first waiter whose caller is under its share gets the page.
    while (this.active < this.size) {
      const at = this.waiting.findIndex((w) => (this.running.get(w.key) ?? 0) < this.perKey);
      if (at === -1) return;
      const [next] = this.waiting.splice(at, 1);
      this.take(next.key);
      next.grant();
    }
  }
}

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
  private readonly slots: PageSlots;
  private contexts = new Set<BrowserContext>();
  /** Used contexts closing after their answer; each holds its page slot until closed. */
  private closing = 0;
  /** Spares, oldest first: made or being made, each for the browser it was made on. */
  private spares: Spare[] = [];
  private readonly spareTarget: number;
  private launches = 0;
  /** Browsers that disconnected without our closing them (a crash, a killed process, a remote gone). */
  private crashes = 0;
  private readonly closedByUs = new WeakSet<Browser>();
  private closed = false;

  constructor(private readonly options: PoolOptions) {
    this.spareTarget = spareCount(options);
    this.slots = options.slots ?? new PageSlots(options.size, options.maxQueue);
  }

  stats(): PoolStats {
    return { launches: this.launches, crashes: this.crashes, open: this.slots.active - this.closing, queued: this.slots.waiting.length, contexts: this.contexts.size, spare: this.spares.length };
  }

  /** Used contexts still closing (each holds its page slot until closed). */
  closingContexts(): number {
    return this.closing;
  }

  /** Spares made and ready to be taken (not being made). */
  readySpares(): number {
    return this.spares.filter((s) => s.ready).length;
  }

  private launch(): Promise<Browser> {
    this.launches++;
    const args = [...CHROMIUM_FLAGS, this.options.leanRenderers === false ? QUIET_FLAG : LEAN_FLAG];
    const started = this.options.wsEndpoint
      ? chromium.connect(this.options.wsEndpoint, { headers: this.options.connectHeaders, timeout: CONNECT_TIMEOUT_MS })
      : chromium.launch(launchOptions(this.options.executablePath, args, this.options.proxyUrl));
    const browser = started.then((b) => {
      b.on('disconnected', () => {
        this.dropSpares(browser);
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

  /** The oldest spare that is usable on this browser, else a new context and page. */
  private async fresh(browser: Browser): Promise<Fresh> {
    while (this.spares.length) {
      const pending = this.spares.shift()!; // taken at once: concurrent requests must not share it
      if (!this.options.closeBeforeAnswer && this.options.spareRefill === 'taken') this.prepareSpares();
      const spare = await pending.made;
      if (spare && spare.browser === browser && browser.isConnected() && !spare.page.isClosed()) return spare;
      if (spare) void spare.context.close().catch(() => undefined);
    }
    return this.create(browser);
  }

  /**
   * Runs `work` on a fresh page in a fresh context; the context is closed whatever happens. `signal`
   * is the caller's request: when it aborts (the router's deadline), the wait or the work ends at once
   * and the context is closed, so nothing goes on for a request that has been answered.
   */
  async withPage<T>(work: (page: Page) => Promise<T>, deadlineMs: number, signal?: AbortSignal): Promise<T> {
    if (this.closed) throw new SightlineError('busy', 'Shutting down');
    const release = await this.slots.acquire(signal);
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
        this.prepareSpares();
        void this.closeContext(done).finally(() => { this.closing--; release(); });
      } else {
        if (context) await this.closeContext(context);
        this.prepareSpares();
        release();
      }
    }
  }

  /**
   * Tops the spares up to their number on the running browser. Not while requests wait for a page:
   * each of those makes its own, and a spare made then would only compete with them for the CPU.
   */
  private prepareSpares(): void {
    const browser = this.browser;
    if (this.closed || !browser || this.slots.waiting.length) return;
    while (this.spares.length < this.spareTarget) {
      const made = browser.then((b) => (b.isConnected() && !this.closed ? this.create(b) : undefined)).then((fresh) => {
        // Closed (or killed) while it was being made: it must not outlive the pool.
        if (fresh && (this.closed || this.browser !== browser)) { void fresh.context.close().catch(() => undefined); return undefined; }
        return fresh;
      }).catch(() => undefined);
      const spare: Spare = { on: browser, made, ready: false };
      void made.then(() => { spare.ready = true; });
      this.spares.push(spare);
    }
  }

  /** Forgets the spares of a browser that went away: their contexts went with it. */
  private dropSpares(on: Promise<Browser>): void {
    this.spares = this.spares.filter((s) => s.on !== on);
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
    const spares = this.spares;
    this.spares = [];
    await Promise.all(spares.map((s) => s.made.then((f) => f?.context.close()).catch(() => undefined)));
    const browser = await current?.catch(() => undefined);
    if (browser) this.closedByUs.add(browser);
    await browser?.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.kill();
  }
}

/**
 * Several local Chromiums (--map-browsers), each a BrowserPool with its own spares, sharing the page
 * slots. A request goes to a browser whose spare is ready and that serves nothing else, else to the
 * least busy (in turn), so a spare being made after an answer is made in another browser process than
 * the next request's: each browser has one UI thread, which otherwise serves the new context and the
 * request in turn (bench/README.md, "Lean renderers and a second browser").
 */
export class AlternatingBrowsers implements PageRunner {
  private readonly pools: BrowserPool[];
  private readonly slots: PageSlots;
  private readonly busy: number[];
  private turn = 0;

  constructor(options: PoolOptions, browsers: number) {
    this.slots = options.slots ?? new PageSlots(options.size, options.maxQueue);
    this.pools = Array.from({ length: Math.max(1, browsers) }, () => new BrowserPool({ ...options, slots: this.slots }));
    this.busy = this.pools.map(() => 0);
  }

  async withPage<T>(work: (page: Page) => Promise<T>, deadlineMs: number, signal?: AbortSignal): Promise<T> {
    const order = this.pools.map((_, i) => (i + this.turn) % this.pools.length);
    const i = order.find((k) => this.busy[k] === 0 && this.pools[k].readySpares() > 0)
      ?? order.reduce((a, b) => (this.busy[b] < this.busy[a] ? b : a));
    this.turn = i + 1;
    this.busy[i]++;
    try {
      return await this.pools[i].withPage(work, deadlineMs, signal);
    } catch (err) {
      // A browser killed while idle can look alive, its spare too, until its disconnect arrives; the
      // page never began loading, so the request runs once more on the same pool, which relaunches it.
      if (!(err instanceof BrowserGoneError) || err.started || signal?.aborted) throw err;
      return await this.pools[i].withPage(work, deadlineMs, signal);
    } finally {
      this.busy[i]--;
    }
  }

  stats(): PoolStats {
    const each = this.pools.map((p) => p.stats());
    const sum = (k: 'launches' | 'crashes' | 'contexts' | 'spare') => each.reduce((n, s) => n + s[k], 0);
    const closing = this.pools.reduce((n, p) => n + p.closingContexts(), 0);
    return { launches: sum('launches'), crashes: sum('crashes'), open: this.slots.active - closing, queued: this.slots.waiting.length, contexts: sum('contexts'), spare: sum('spare') };
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((p) => p.close()));
  }
}
