// Ours against the tools people would pick instead, measured in one run on this machine (issue 43).
// Read: word F1 (WCXB's metric) overall and per page type, and pages per CPU-second on one core, for our read
// (src/observe/read/read.ts), Trafilatura, rs-trafilatura, readability-lxml, Crawl4AI's Markdown (its own
// scraping and Markdown steps on the HTML, no browser: raw, its default, and fit, its pruning filter) and
// Mozilla Readability (jsdom + turndown, as bench:read runs it). Every reader reads a page before the next
// page is taken, in an order rotating page by page (interleaved); ours and Readability run in this process,
// the Python peers in one Python process (bench/peers/read_peers.py), each timed by its own process's CPU
// clock around the extraction alone.
// Observation: on pages loaded in Chromium, the time from a loaded page to the text an LLM is given, its
// o200k tokens (gpt-tokenizer), and its coverage of the page's visible named controls (Chromium's
// accessibility tree: a control role with a name, its box inside the 1280x800 viewport at scroll 0; a
// control counts as covered when its name, lower-cased with spaces collapsed, first 40 characters, is in
// the text): ours (collect + Wasm rank, map's default top 50, + toPrompt, the MCP text form), browser-use's
// DOM state (bench/peers/browser_use_dom.py: get_browser_state_summary + llm_representation, over CDP to
// a Chromium started here), and Playwright MCP's browser_snapshot (its CLI over stdio, as an MCP client).
// Pages: WCXB development pages (WCXB_DIR; never its test/ folder), a fixed subset of each part of
// bench/read/wcxb-split.json (tune and the frozen test part; the frozen part is reported in aggregate
// only), picked in a fixed hashed order; the observation pages are served offline from loopback, with a
// CSP that keeps every request on that origin.
// Python peers run from a pinned venv the script makes (bench/peers/venv.ts); a peer that cannot be
// installed or run is reported as such, with the reason.
// Run: npm run bench:peers. Env: BENCH_PEERS_READ_PER_TYPE (read pages per page type and part, default 15),
// BENCH_PEERS_READ_BASE=<commit> (our read at that commit too, one more reader in the same interleaved loop: before/after
// of a change with the peers in one run; the commit's src/ is unpacked by bench/read/old-reader.ts), BENCH_PEERS_OBSERVE
// (pages per part, default 15), BENCH_PEERS_SKIP_VENV=1 (no Python peers), BENCH_PEERS_PARTS=tune (the tune part alone,
// for work in progress: the frozen part is read once, at the end of a change; such a run prints its tables and
// writes no file), BENCH_PEERS_MISSES=1 (with BENCH_PEERS_PARTS=tune: lists, page by page, each visible named control a peer's
// text covers and ours, top 50, does not, with why: past the top 50, collected but printed otherwise, or not collected; and
// where the truth taken again after the observers moved). Every run reports, per part in aggregate, how much that retaken truth moved.
// Writes bench/results/peers.{json,md,svg} and the section between the peers markers in bench/README.md.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readPage } from '../src/observe/read/read.ts';
import { createRanker, toPrompt } from '../src/index.ts';
import type { SnapshotRequest } from '../src/schema/snapshot.ts';
import { collectPageTitled, waitForStable } from '../src/playwright/collect-page.ts';
import { REPLACED } from '../src/observe/browser/navigate.ts';
import { launch, CHROMIUM } from '../test/helpers/browser.ts';
import { hash } from '../src/rank/words.ts';
import { readabilityMarkdown } from './read/readability.ts';
import { unpackOldReader } from './read/old-reader.ts';
import { markdownText, wordF1 } from './read/metrics.ts';
import { SPLIT, WCXB_DIR, wcxbAvailable, wcxbPage } from './read/wcxb-eval.ts';
import { serveWcxbPages, hashedIds, pickWcxb } from './wcxb-pages.ts';
import { typeOf } from './read/pages.ts';
import { bootstrapMean, quantile } from './stats.ts';
import { peersChart } from './peers/chart.ts';
import { ensureVenv, VENV } from './peers/venv.ts';
import { visibleNamedControls, norm } from './visible-controls.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** Read pages per page type and part (WCXB's test part is 69% articles: a plain sample leaves other types nearly empty). */
const READ_PER_TYPE = Number(process.env.BENCH_PEERS_READ_PER_TYPE ?? 15);
const OBSERVE_N = Number(process.env.BENCH_PEERS_OBSERVE ?? 15);
const ALL_PARTS = ['tune', 'test'] as const;
type Part = typeof ALL_PARTS[number];
const PARTS: readonly Part[] = process.env.BENCH_PEERS_PARTS === 'tune' ? ['tune'] : ALL_PARTS;
if (process.env.BENCH_PEERS_PARTS && process.env.BENCH_PEERS_PARTS !== 'tune') throw new Error('BENCH_PEERS_PARTS: only "tune" (or unset: both parts)');
const TUNE_ONLY = PARTS.length === 1;
const MISSES = TUNE_ONLY && process.env.BENCH_PEERS_MISSES === '1';
const TYPES = ['article', 'documentation', 'service', 'forum', 'collection', 'listing', 'product'];
const log = (s: string) => process.stderr.write(s + '\n');

if (!wcxbAvailable()) {
  console.log(`peers: no WCXB checkout at ${WCXB_DIR}/dev (set WCXB_DIR to a checkout of Murrough-Foley/web-content-extraction-benchmark); nothing measured`);
  process.exit(0);
}
const hashed = hashedIds, pick = pickWcxb;
/** `perType` pages of each page type of a part, each type's in a fixed hashed order. */
const pickByType = (part: Part, perType: number, salt: string) => {
  const ids = hashed(SPLIT[part], salt);
  return TYPES.flatMap((t) => ids.filter((id) => typeOf({ set: part, id }) === t).slice(0, perType));
};
const htmlPath = (id: string) => { const f = join(WCXB_DIR, 'dev', 'html', `${id}.html`); return existsSync(f) ? f : `${f}.gz`; };

// ---- The Python side ----
/** Why a peer did not run, when it did not. */
const unavailable: Record<string, string> = {};
const PY_READERS = ['trafilatura', 'rs-trafilatura', 'readability-lxml', 'crawl4ai', 'crawl4ai-fit'];
const venv = process.env.BENCH_PEERS_SKIP_VENV === '1' ? { error: 'BENCH_PEERS_SKIP_VENV=1' } : ensureVenv(log);
if ('error' in venv) for (const p of [...PY_READERS, 'browser-use']) unavailable[p] = `the pinned venv could not be made: ${venv.error}`;

/** A line-per-request child process (the Python peers), restarted after a request it did not answer in time. */
class LineWorker {
  private proc!: ChildProcessWithoutNullStreams;
  private waiting: ((line: string) => void)[] = [];
  constructor(private readonly cmd: string, private readonly args: string[], private readonly env: NodeJS.ProcessEnv = {}) { this.start(); }
  private start() {
    this.proc = spawn(this.cmd, this.args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...this.env } });
    this.proc.stderr.on('data', () => undefined);
    createInterface({ input: this.proc.stdout }).on('line', (line) => this.waiting.shift()?.(line));
  }
  async call<T>(job: object, timeoutMs: number): Promise<T> {
    const answer = new Promise<string>((resolve) => this.waiting.push(resolve));
    this.proc.stdin.write(JSON.stringify(job) + '\n');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((r) => { timer = setTimeout(() => r(null), timeoutMs); });
    const line = await Promise.race([answer, late]);
    clearTimeout(timer);
    if (line === null) { this.waiting = []; this.proc.kill('SIGKILL'); this.start(); throw new Error(`no answer in ${timeoutMs} ms`); }
    return JSON.parse(line) as T;
  }
  close() { this.proc.stdin.end(); setTimeout(() => this.proc.kill('SIGKILL'), 5000).unref(); }
}

// ---- Read ----
const READ_BASE = process.env.BENCH_PEERS_READ_BASE;
const baseReader = READ_BASE ? unpackOldReader(READ_BASE) : null;
if (READ_BASE && !baseReader) throw new Error(`BENCH_PEERS_READ_BASE: commit ${READ_BASE} is not in this clone`);
const readBase = baseReader ? (await import(pathToFileURL(join(baseReader.dir, 'src/observe/read/read.ts')).href) as { readPage: typeof readPage }).readPage : null;
const READERS = ['ours', ...(readBase ? ['ours-base'] : []), 'rs-trafilatura', 'trafilatura', 'readability-lxml', 'readability', 'crawl4ai', 'crawl4ai-fit'];
const LABEL: Record<string, string> = {
  ours: 'Sightline read (this checkout)', 'ours-base': `Sightline read at ${READ_BASE?.slice(0, 7)} (before)`, 'rs-trafilatura': 'rs-trafilatura 0.1.1', trafilatura: 'Trafilatura 2.3.1',
  'readability-lxml': 'readability-lxml 0.9', readability: 'Mozilla Readability 0.6 (jsdom + turndown)',
  crawl4ai: 'Crawl4AI 0.9.5, raw Markdown (default)', 'crawl4ai-fit': 'Crawl4AI 0.9.5, fit Markdown (pruning filter)',
  'sightline-map': 'Sightline map, top 50 (collect + rank + text form)', 'sightline-map-all': 'Sightline map, every element (no limit)', 'browser-use': 'browser-use 0.13.14 DOM state', 'playwright-mcp': 'Playwright MCP snapshot',
};
interface ReadScore { f1: number; cpuMs: number; failed: boolean }
const readScores: Record<string, Record<Part, (ReadScore & { type: string })[]>> = Object.fromEntries(READERS.map((r) => [r, { tune: [], test: [] }]));
const readPages = PARTS.flatMap((part) => pickByType(part, READ_PER_TYPE, 'peers-read').map((id) => ({ part, id })));
// One mixed order of both parts' pages (a stop midway leaves both read alike).
readPages.sort((a, b) => (hash(`mix:${a.part}:${a.id}`) >>> 0) - (hash(`mix:${b.part}:${b.id}`) >>> 0));
const py = 'python' in venv ? new LineWorker(venv.python, [join(HERE, 'peers', 'read_peers.py')]) : null;
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const load0 = loadavg()[0];
const tRead = performance.now();
for (const [k, { part, id }] of readPages.entries()) {
  const p = wcxbPage(id);
  const order = READERS.map((_, i) => READERS[(i + k) % READERS.length]);
  for (const reader of order) {
    if (unavailable[reader]) continue;
    let text = '', ms = 0, failed = false;
    try {
      if (reader === 'ours' || reader === 'ours-base' || reader === 'readability') {
        const c0 = cpuMs();
        text = reader === 'ours' ? readPage(p.html, p.url, { format: 'markdown', contentLimit: 500_000 }).content
          : reader === 'ours-base' ? readBase!(p.html, p.url, { format: 'markdown', contentLimit: 500_000 }).content : readabilityMarkdown(p.html, p.url);
        ms = cpuMs() - c0;
      } else {
        const r = await py!.call<{ text: string; cpu_ms: number; error: string | null }>({ peer: reader, path: htmlPath(id), url: p.url }, 120_000);
        if (r.error && /ModuleNotFoundError|ImportError/.test(r.error)) { unavailable[reader] = `cannot be imported: ${r.error}`; continue; }
        text = r.text; ms = r.cpu_ms; failed = !!r.error;
      }
    } catch { failed = true; }
    readScores[reader][part].push({ f1: wordF1(markdownText(text), p.truth), cpuMs: ms, failed, type: p.type });
  }
  if ((k + 1) % 10 === 0) process.stderr.write(`\rpeers read: ${k + 1}/${readPages.length} pages, ${((performance.now() - tRead) / 60_000).toFixed(1)} min`);
}
process.stderr.write('\n');
py?.close();
baseReader?.remove();
const readMinutes = (performance.now() - tRead) / 60_000;

// ---- Observation ----
const obsPages = PARTS.flatMap((part) => pick(part, OBSERVE_N, 'peers-observe').map((id) => ({ part, id })))
  .sort((a, b) => (hash(`mix:${a.part}:${a.id}`) >>> 0) - (hash(`mix:${b.part}:${b.id}`) >>> 0));
/** Why an observer failed, by message (tool errors only, never page text), counted. */
const failures: Record<string, Record<string, number>> = {};
const site = await serveWcxbPages(obsPages.map(({ id }) => id));
const origin = site.origin;

const OBSERVERS = ['sightline-map', 'browser-use', 'playwright-mcp'];
/** Measured alongside ours (the same collection): every element ranked, no limit. */
const REPORTED = ['sightline-map', 'sightline-map-all', 'browser-use', 'playwright-mcp'];
interface ObsScore { ms: number; tokens: number; covered: number; controls: number; coveredDrawn: number; drawn: number; failed: boolean }
/** Per page, the truth taken again after the observers: how many controls it gained and lost (aggregate only). */
const truthMoves: Record<Part, { controls: number; gained: number; lost: number }[]> = { tune: [], test: [] };
const obsScores: Record<string, Record<Part, ObsScore[]>> = Object.fromEntries(REPORTED.map((o) => [o, { tune: [], test: [] }]));

// Ours, and the controls' truth, in Debian's Chromium through playwright-core; other origins refused.
const ranker = await createRanker({ limitCap: 100_000 });
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await ctx.route((url) => !url.href.startsWith(origin), (route) => route.abort());
const page = await ctx.newPage();
// Playwright MCP, spawned and called as an MCP client would (as bench:mcp-tokens does).
const require = createRequire(import.meta.url);
const mcpOut = mkdtempSync(join(tmpdir(), 'playwright-mcp-'));
let mcp: Client | null = new Client({ name: 'sightline-bench', version: '1' });
let mcpVersion = '?';
try {
  await mcp.connect(new StdioClientTransport({
    command: process.execPath,
    args: [join(dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js'), '--headless', '--isolated', '--no-sandbox',
      '--executable-path', CHROMIUM, '--viewport-size', '1280x800', '--allowed-origins', origin, '--image-responses', 'omit', '--output-dir', mcpOut],
    stderr: 'ignore',
  }));
  mcpVersion = mcp.getServerVersion()?.version ?? '?';
  LABEL['playwright-mcp'] = `Playwright MCP ${mcpVersion} snapshot`;
} catch (err) { unavailable['playwright-mcp'] = `could not start: ${(err as Error).message}`; mcp = null; }
const textOf = (r: unknown) => ((r as { content: { type: string; text?: string }[] }).content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// browser-use, on a Chromium started here for it: every origin but loopback goes to a dead proxy.
let bu: LineWorker | null = null;
let buChrome: ReturnType<typeof spawn> | null = null;
const buProfile = mkdtempSync(join(tmpdir(), 'browser-use-profile-'));
if ('python' in venv) {
  try {
    const port = 20000 + (process.pid % 20000);
    buChrome = spawn(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`, `--user-data-dir=${buProfile}`,
      '--window-size=1280,800', '--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=127.0.0.1', '--no-first-run', '--disable-background-networking', 'about:blank'], { stdio: 'ignore' });
    let ws = '';
    for (let i = 0; i < 50 && !ws; i++) {
      await new Promise((r) => setTimeout(r, 200));
      ws = await fetch(`http://127.0.0.1:${port}/json/version`).then((r) => r.json()).then((j: { webSocketDebuggerUrl: string }) => j.webSocketDebuggerUrl).catch(() => '');
    }
    if (!ws) throw new Error('its Chromium did not open a CDP port');
    bu = new LineWorker(venv.python, [join(HERE, 'peers', 'browser_use_dom.py'), ws]);
  } catch (err) { unavailable['browser-use'] = (err as Error).message; }
}

const tObs = performance.now();
for (const [k, { part, id }] of obsPages.entries()) {
  const url = `${origin}/wcxb/${id}.html`;
  // The truth first, on our loaded page (the same HTML everywhere).
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
  await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
  // Also which of them Chromium draws: the tree keeps hover menus at opacity 0, which no one sees.
  const truth = await visibleNamedControls(ctx, page, true).catch(() => []);
  const controls = truth.map((c) => c.name), drawnControls = truth.filter((c) => c.drawn).map((c) => c.name);
  const cover = (text: string) => { const t = norm(text); return { covered: controls.filter((c) => t.includes(c)).length, controls: controls.length,
    coveredDrawn: drawnControls.filter((c) => t.includes(c)).length, drawn: drawnControls.length }; };
  const order = OBSERVERS.map((_, i) => OBSERVERS[(i + k) % OBSERVERS.length]);
  const texts: Record<string, string> = {};
  let ourNames: string[] = [];
  for (const o of order) {
    if (unavailable[o]) continue;
    let text = '', ms = 0, failed = false;
    try {
      if (o === 'sightline-map') {
        // As for the truth: a page whose load event never comes is observed as it stands after 30 s (Playwright
        // MCP's navigation does not fail on it either); the clock starts after the wait.
        await page.goto(url, { waitUntil: 'load', timeout: 30_000 }).catch(() => undefined);
        // Elements and title in one round trip, as observe map asks for them. A page that replaces its
        // document under the settle wait or the collection is waited for and read again, as observe map does
        // (readSettled); the clock starts after the settle wait of the read that counts.
        let got: Awaited<ReturnType<typeof collectPageTitled>> | undefined;
        let t = 0;
        for (let attempt = 1; !got; attempt++) {
          try {
            await waitForStable(page, { quietMs: 100, timeoutMs: 3000 });
            t = performance.now();
            got = await collectPageTitled(page);
          } catch (err) {
            if (attempt >= 3 || !REPLACED.test((err as Error).message)) throw err;
            await page.waitForLoadState('load', { timeout: 30_000 }).catch(() => undefined);
          }
        }
        const { collected: c, title } = got;
        const collected = performance.now();
        const request: SnapshotRequest = { url: page.url(), viewport: c.viewport, raw_elements: c.raw_elements as unknown as SnapshotRequest['raw_elements'], options: { limit: 50 } };
        text = toPrompt(ranker.rank(request), { title });
        ms = performance.now() - t;
        const t2 = performance.now();
        const all = toPrompt(ranker.rank({ ...request, options: { limit: 100_000 } }), { title });
        obsScores['sightline-map-all'][part].push({ ms: collected - t + performance.now() - t2, tokens: o200k(all).length, ...cover(all), failed: false });
        if (MISSES) {
          texts['sightline-map-all'] = all;
          ourNames = c.raw_elements.flatMap((e) => [e.text, e.attributes.name ?? '', e.attributes.aria_label ?? ''].map(norm));
        }
      } else if (o === 'playwright-mcp') {
        let nav = textOf(await mcp!.callTool({ name: 'browser_navigate', arguments: { url } }));
        // A page's alert() or confirm() blocks every other tool until it is handled, as an agent would.
        for (let i = 0; i < 3 && /modal state|dialog/i.test(nav) && !/```yaml/.test(nav); i++) {
          nav = textOf(await mcp!.callTool({ name: 'browser_handle_dialog', arguments: { accept: true } }));
        }
        const t = performance.now();
        const snap = textOf(await mcp!.callTool({ name: 'browser_snapshot', arguments: {} }));
        ms = performance.now() - t;
        const yaml = /```yaml\n([\s\S]*?)```/.exec(snap)?.[1]; // the page snapshot, not the tool's preamble
        if (yaml === undefined) throw new Error(`no snapshot: ${snap.split('\n').find((l) => /error|modal|dialog/i.test(l))?.slice(0, 100) ?? 'no yaml block'}`);
        text = yaml;
      } else {
        const r = await bu!.call<{ text: string; ms: number; error: string | null }>({ url }, 60_000);
        if (r.error) throw new Error(r.error);
        text = r.text; ms = r.ms;
      }
    } catch (err) {
      failed = true;
      const why = (err as Error).message.split('\n')[0].replace(/https?:\/\/\S+/g, '<url>').slice(0, 120);
      (failures[o] ??= {})[why] = (failures[o][why] ?? 0) + 1;
      // every element's row is the same observation: it fails with it (rows stay page-aligned for the shared pages)
      if (o === 'sightline-map') obsScores['sightline-map-all'][part].push({ ms: 0, tokens: 0, ...cover(''), failed: true });
    }
    obsScores[o][part].push({ ms, tokens: o200k(text).length, ...cover(text), failed });
    texts[o] = text;
  }
  // The truth again, on our page as our observation left it, after every observer (seconds after the first): a
  // page that changes with time (a carousel, a ticker, late content) moves the truth, and with it every coverage.
  const again = (await visibleNamedControls(ctx, page).catch(() => [])).map((x) => x.name);
  const gained = again.filter((x) => !controls.includes(x)), lost = controls.filter((x) => !again.includes(x));
  truthMoves[part].push({ controls: controls.length, gained: gained.length, lost: lost.length });
  if (MISSES) {
    const n = Object.fromEntries(Object.entries(texts).map(([o, t]) => [o, norm(t)]));
    const peers = OBSERVERS.filter((o) => o !== 'sightline-map' && n[o]);
    const lines = truth.filter((c) => n['sightline-map'] !== undefined && !n['sightline-map'].includes(c.name) && peers.some((o) => n[o].includes(c.name))).map((c) => {
      const why = n['sightline-map-all']?.includes(c.name) ? 'past the top 50' : ourNames.some((x) => x.includes(c.name)) ? 'collected, printed otherwise' : 'not collected';
      return `  [${c.role}] "${c.name}"${c.drawn ? '' : ' (not drawn)'}: ${why}; covered by ${peers.filter((o) => n[o].includes(c.name)).join(', ')}`;
    });
    log(`\n${id}: ${controls.length} controls, ours misses ${controls.filter((c) => !n['sightline-map']?.includes(c)).length}; truth after the observers: +${gained.length} -${lost.length}${gained.length + lost.length ? ` (${[...gained.map((x) => `+"${x}"`), ...lost.map((x) => `-"${x}"`)].slice(0, 6).join(' ')})` : ''}`);
    for (const l of lines) log(l);
  }
  process.stderr.write(`\rpeers observe: ${k + 1}/${obsPages.length} pages`);
}
process.stderr.write('\n');
const obsMinutes = (performance.now() - tObs) / 60_000;
await mcp?.close().catch(() => undefined);
bu?.close();
await new Promise((r) => setTimeout(r, 1000));
buChrome?.kill('SIGTERM');
await browser.close();
await site.close();
rmSync(mcpOut, { recursive: true, force: true });
setTimeout(() => rmSync(buProfile, { recursive: true, force: true }), 2000).unref();
const load1 = loadavg()[0];
for (const o of OBSERVERS) if (!unavailable[o] && PARTS.every((p) => obsScores[o][p].every((s) => s.failed))) unavailable[o] = 'failed on every page (see stderr)';

// ---- Tables ----
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const f3 = (x: number) => x.toFixed(3);
interface ReadRow { reader: string; part: Part; pages: number; failed: number; f1: number; ci: [number, number]; byType: Record<string, number | null>; pagesPerCpuS: number }
const readRows: ReadRow[] = PARTS.flatMap((part) => READERS.filter((r) => !unavailable[r]).map((reader) => {
  const s = readScores[reader][part];
  const byType = Object.fromEntries(TYPES.map((t) => { const xs = s.filter((x) => x.type === t).map((x) => x.f1); return [t, xs.length ? mean(xs) : null]; }));
  return { reader, part, pages: s.length, failed: s.filter((x) => x.failed).length, f1: mean(s.map((x) => x.f1)), ci: bootstrapMean(s.map((x) => x.f1)), byType,
    pagesPerCpuS: s.length / (s.reduce((a, x) => a + x.cpuMs, 0) / 1000 || 1) };
}));
const typeCounts = (part: Part) => TYPES.map((t) => `${t} ${readScores.ours[part].filter((x) => x.type === t).length}`).join(', ');
interface ObsRow { observer: string; part: Part; pages: number; failed: number; msP50: number; msMean: number; tokens: number; tokensP50: number; coverage: number; coverageShared: number; coverageDrawn: number }
const pooled = (s: ObsScore[]) => s.reduce((a, x) => a + x.covered, 0) / (s.reduce((a, x) => a + x.controls, 0) || 1);
const pooledDrawn = (s: ObsScore[]) => s.reduce((a, x) => a + x.coveredDrawn, 0) / (s.reduce((a, x) => a + x.drawn, 0) || 1);
const obsRows: ObsRow[] = PARTS.flatMap((part) => {
  const observers = REPORTED.filter((o) => !unavailable[o] && obsScores[o][part].length);
  // The pages every observer observed: a page one of them failed on is scored out of its rows only, and would
  // otherwise count against the others in their pooled coverage.
  const shared = (i: number) => observers.every((o) => obsScores[o][part][i] && !obsScores[o][part][i].failed);
  return observers.map((observer) => {
    const s = obsScores[observer][part].filter((x) => !x.failed);
    return { observer, part, pages: s.length, failed: obsScores[observer][part].length - s.length, msP50: quantile(s.map((x) => x.ms), 0.5), msMean: mean(s.map((x) => x.ms)),
      tokens: mean(s.map((x) => x.tokens)), tokensP50: quantile(s.map((x) => x.tokens), 0.5), coverage: pooled(s),
      coverageShared: pooled(obsScores[observer][part].filter((_, i) => shared(i))), coverageDrawn: pooledDrawn(obsScores[observer][part].filter((_, i) => shared(i))) };
  });
});

const partName = (p: Part) => (p === 'tune' ? 'tune' : '**frozen test**');
const md: string[] = [
  `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}, Chromium ${browser.version()}; load average ${load0.toFixed(1)} → ${load1.toFixed(1)}. ` +
  `Read: ${READ_PER_TYPE} pages of each page type of each part of WCXB dev (bench/read/wcxb-split.json), a fixed hashed subset (tune: ${typeCounts('tune')}${TUNE_ONLY ? '; the tune part alone (BENCH_PEERS_PARTS=tune)' : `; frozen test: ${typeCounts('test')}`}), ` +
  `every reader on every page, interleaved, ${readMinutes.toFixed(1)} min. Observation: ${OBSERVE_N} pages of each part, ${obsMinutes.toFixed(1)} min.`,
  '',
  '**Read** (word F1, mean over pages; 95% bootstrap interval; pages per CPU-second of the reader\'s own process, one core):',
  '',
  `| part | reader | pages | failed | word F1 | 95% | ${TYPES.join(' | ')} | pages/CPU-s |`,
  `|---|---|---|---|---|---|${TYPES.map(() => '---').join('|')}|---|`,
  ...readRows.map((r) => `| ${partName(r.part)} | ${LABEL[r.reader]} | ${r.pages} | ${r.failed} | ${r.reader === 'ours' ? `**${f3(r.f1)}**` : f3(r.f1)} | ${f3(r.ci[0])}–${f3(r.ci[1])} | ${TYPES.map((t) => (r.byType[t] === null ? '–' : f3(r.byType[t]!))).join(' | ')} | ${r.pagesPerCpuS.toFixed(1)} |`),
  '',
  '**Observation** (time from a loaded page to the text an LLM is given; o200k tokens; coverage: share of the visible named controls whose name is in the text, pooled over the observer\'s pages, and over the pages all observers observed; drawn: the same shared pages, only the controls Chromium draws, `checkVisibility` with opacity and visibility):',
  '',
  '| part | observer | pages | failed | ms p50 | ms mean | tokens/page (mean) | tokens p50 | coverage | coverage, shared pages | coverage, drawn (shared) |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...obsRows.map((r) => `| ${partName(r.part)} | ${LABEL[r.observer]} | ${r.pages} | ${r.failed} | ${r.msP50.toFixed(0)} | ${r.msMean.toFixed(0)} | ${r.tokens.toFixed(0)} | ${r.tokensP50.toFixed(0)} | ${(100 * r.coverage).toFixed(1)}% | ${(100 * r.coverageShared).toFixed(1)}% | ${(100 * r.coverageDrawn).toFixed(1)}% |`),
  '',
  ...PARTS.map((part) => {
    const m = truthMoves[part], moved = m.filter((x) => x.gained + x.lost > 0), sum = (k: 'controls' | 'gained' | 'lost') => m.reduce((a, x) => a + x[k], 0);
    return `Truth taken again on each page after the observers (${partName(part)}): ${sum('controls')} controls at first, ${sum('lost')} of them gone and ${sum('gained')} new, on ${moved.length} of ${m.length} pages${moved.length ? ' (pages that change with time move every observer\'s coverage between runs)' : ''}.`;
  }),
  '',
  ...(Object.keys(failures).length ? ['Failures (counted above, scored out of the observation means):', '', ...Object.entries(failures).flatMap(([o, m]) => Object.entries(m).map(([why, n]) => `- ${LABEL[o] ?? o}: ${n} × ${why}`)), ''] : []),
  ...(Object.keys(unavailable).length ? ['Not measured here:', '', ...Object.entries(unavailable).map(([p, why]) => `- ${LABEL[p] ?? p}: ${why}`), ''] : []),
];
if (TUNE_ONLY) { console.log(md.join('\n')); process.exit(0); }
const svg = peersChart(readRows, obsRows);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/peers.md', import.meta.url), md.join('\n') + '\n');
writeFileSync(new URL('./results/peers.svg', import.meta.url), svg);
writeFileSync(new URL('./results/peers.json', import.meta.url), JSON.stringify({
  date: new Date().toISOString(), readPagesPerType: READ_PER_TYPE, failures, observePagesPerPart: OBSERVE_N, venv: VENV, unavailable, readRows, obsRows,
  // The truth retaken after the observers, summed per part (no page named).
  truthMoved: Object.fromEntries(PARTS.map((p) => [p, { pages: truthMoves[p].length, pagesMoved: truthMoves[p].filter((x) => x.gained + x.lost > 0).length,
    controls: truthMoves[p].reduce((a, x) => a + x.controls, 0), gone: truthMoves[p].reduce((a, x) => a + x.lost, 0), added: truthMoves[p].reduce((a, x) => a + x.gained, 0) }])),
  // Page ids of the tune part only; the frozen part is never listed.
  tunePages: { read: readPages.filter((p) => p.part === 'tune').map((p) => p.id), observe: obsPages.filter((p) => p.part === 'tune').map((p) => p.id) },
}, null, 1) + '\n');
const readme = new URL('./README.md', import.meta.url);
const START = '<!-- peers:start (npm run bench:peers writes this part) -->', END = '<!-- peers:end -->';
const text = readFileSync(readme, 'utf8');
const section = `${START}\n![peers](results/peers.svg)\n\n${md.join('\n')}\n${END}`;
writeFileSync(readme, text.includes(START) ? text.replace(new RegExp(`${START.replace(/[()]/g, '\\$&')}[\\s\\S]*?${END}`), section) : `${text.trimEnd()}\n\n${section}\n`);
console.log(md.join('\n'));
