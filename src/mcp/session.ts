// One agent's browser for the MCP tools: a Chromium launched on first use, one context, its tabs, and
// per tab what the last snapshot saw (raw elements for the next `since_last`, result elements to name
// an id in answers). `close` ends the browser process; a later call launches a new one.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { CollectedElement } from '../collect/types.ts';
import type { SnapshotElement } from '../schema/snapshot.ts';
// No proxy over stdio (the browser is the user's own): the base flags; over HTTP `proxy.flags`.
import { BASE_CHROMIUM_FLAGS, launchOptions } from '../observe/browser/browser-pool.ts';
import type { PlaywrightStorageState } from './storage-state.ts';


export interface SessionOptions {
  /** Chromium executable (Debian's /usr/bin/chromium by default). */
  chromium: string;
  viewport?: { width: number; height: number };
  /** Checks a URL before the browser opens it (the egress guard when serving others); throws to refuse. */
  checkUrl?: (url: string) => Promise<void>;
  /** When serving others: the egress proxy every request of the browser goes through, and its flags. */
  proxy?: { url: () => Promise<string>; flags: string[] };
  /** Cookies and localStorage the context starts with (Playwright's storage state). */
  storageState?: PlaywrightStorageState;
  /** A persistent profile: the context lives in this directory and keeps its state across starts. */
  profileDir?: string;
  /** A visible window (local use; needs a display). */
  headed?: boolean;
}

/** A started browser: its one context, and how to end it. */
interface Running { context: BrowserContext; close(): Promise<void> }

export interface TabMemory {
  /** Raw elements of the latest snapshot: `previous` for the next one with since_last. */
  raw?: CollectedElement[];
  /** Elements of the latest snapshot by id, to name what an action touched. */
  elements: Map<number, SnapshotElement>;
}

export class BrowserSession {
  private running: Promise<Running> | undefined;
  private context: BrowserContext | undefined;
  private readonly pages: Page[] = [];
  private current = 0;
  private readonly memory = new WeakMap<Page, TabMemory>();

  constructor(readonly options: SessionOptions) {}

  get open(): boolean { return this.running !== undefined; }

  private async launch(): Promise<Running> {
    const { proxy, profileDir, headed, storageState } = this.options;
    const server = proxy ? await proxy.url() : undefined;
    const launch = { ...launchOptions(this.options.chromium, proxy ? proxy.flags : BASE_CHROMIUM_FLAGS, server), headless: !headed };
    const viewport = this.options.viewport ?? { width: 1280, height: 800 };
    const gone = () => { this.running = undefined; this.context = undefined; this.pages.length = 0; };
    if (profileDir) {
      const context = await chromium.launchPersistentContext(profileDir, { ...launch, viewport });
      context.on('close', gone);
      return { context, close: () => context.close() };
    }
    const browser = await chromium.launch(launch);
    browser.on('disconnected', gone);
    return { context: await browser.newContext({ viewport, storageState }), close: () => browser.close() };
  }

  private async start(): Promise<BrowserContext> {
    if (this.context && this.running) return this.context;
    this.running ??= this.launch()
      .catch((err) => {
        this.running = undefined;
        // Playwright's first line is generic; the browser's own reason (no display for --headed, a locked
        // profile) is further down its log.
        const lines = (err as Error).message.split('\n');
        const reason = lines.find((l) => /Missing X server|cannot open display|ProcessSingleton|profile .*in use/i.test(l))?.replace(/^.*\]\s*/, '');
        throw new Error(`could not start Chromium at ${this.options.chromium}: ${lines[0]}${reason ? ` (${reason.trim()})` : ''}`);
      });
    const { context } = await this.running;
    if (this.context === context) return context;
    this.context = context;
    this.context.setDefaultTimeout(15_000);
    // Tabs the page opens itself (target=_blank, window.open) join the list; a profile opens with one.
    this.context.on('page', (p) => this.adopt(p));
    for (const p of context.pages()) this.adopt(p);
    return this.context;
  }

  private adopt(page: Page): void {
    if (this.pages.includes(page)) return;
    this.pages.push(page);
    // A new document has new ids: what the last snapshot saw no longer applies.
    page.on('domcontentloaded', () => this.memory.delete(page));
    page.on('close', () => {
      const at = this.pages.indexOf(page);
      if (at < 0) return;
      this.pages.splice(at, 1);
      if (this.current > at || this.current >= this.pages.length) this.current = Math.max(0, this.current - 1);
    });
  }

  /** The current tab, opening the browser and a first tab when needed. */
  async page(): Promise<Page> {
    const context = await this.start();
    if (!this.pages.length) this.adopt(await context.newPage());
    return this.pages[Math.min(this.current, this.pages.length - 1)];
  }

  /** What the latest snapshot of `page` saw (forgotten when the tab loads a new document). */
  memoryOf(page: Page): TabMemory {
    let m = this.memory.get(page);
    if (!m) { m = { elements: new Map() }; this.memory.set(page, m); }
    return m;
  }

  async checkUrl(url: string): Promise<void> {
    let parsed: URL;
    try { parsed = new URL(url); } catch { throw new Error(`navigation failed: ${JSON.stringify(url)} is not a URL`); }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`navigation failed: only http and https URLs are opened (got ${parsed.protocol})`);
    await this.options.checkUrl?.(parsed.href);
  }

  tabs(): { index: number; current: boolean; page: Page }[] {
    return this.pages.map((page, index) => ({ index, current: index === Math.min(this.current, this.pages.length - 1), page }));
  }

  async openTab(url?: string): Promise<Page> {
    if (url) await this.checkUrl(url);
    const context = await this.start();
    const page = await context.newPage();
    this.adopt(page);
    this.current = this.pages.indexOf(page);
    return page;
  }

  switchTo(index: number): Page {
    const page = this.pages[index];
    if (!page) throw new Error(`no tab ${index}: there ${this.pages.length === 1 ? 'is 1 tab' : `are ${this.pages.length} tabs`} (0-based)`);
    this.current = index;
    return page;
  }

  async closeTab(index: number): Promise<void> {
    const page = this.pages[index];
    if (!page) throw new Error(`no tab ${index}: there ${this.pages.length === 1 ? 'is 1 tab' : `are ${this.pages.length} tabs`} (0-based)`);
    await page.close();
  }

  /** Ends the browser process (and its children). */
  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.context = undefined;
    this.pages.length = 0;
    this.current = 0;
    if (running) await (await running.catch(() => undefined))?.close().catch(() => undefined);
  }
}
