// The MCP tools: each validates its arguments against src/schema/mcp.ts, acts through the client
// library on the session's current tab, and answers text (snapshots in toPrompt's form) or an image.
// Every failure is a tool error with a message an agent can act on; nothing here throws to the caller.
import type { Page } from 'playwright-core';
import { Compile } from 'typebox/compile';
import { fieldWarnings } from '../schema/fields.ts';
import { McpTools, type McpArgs, type McpToolName } from '../schema/mcp.ts';
import type { RankResult, SnapshotElement } from '../schema/snapshot.ts';
import { fitElements } from '../budget/elements.ts';
import { fitContent } from '../observe/read/read-budget.ts';
import { collectPage, collectPageTitled, rankCollected, click, type, select, check, hover, press, back, scrollTo, highlight, waitForStable, stillFading, FADING_WARNING } from '../client/page.ts';
import { expect } from '../client/expect.ts';
import { toPrompt, promptHeader, promptLine } from '../rank/prompt.ts';
import { readPage } from '../observe/read/read.ts';
import type { CollectedElement } from '../collect/types.ts';
import type { BrowserSession } from './session.ts';

export type ToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
export interface ToolResult { content: ToolContent[]; isError?: boolean; [key: string]: unknown }

const DEFAULT_LIMIT = 50;
const DEFAULT_TIMEOUT = 5000;
/** After an action, how long the page may take to settle before the answer (it never fails on this). */
const SETTLE = { quietMs: 150, timeoutMs: 3000, loaded: false };

const text = (t: string): ToolResult => ({ content: [{ type: 'text', text: t }] });
const failure = (t: string): ToolResult => ({ content: [{ type: 'text', text: t }], isError: true });

/** The tool list as MCP's tools/list answers it. */
export function toolList(): { name: string; description: string; inputSchema: { type: 'object'; [k: string]: unknown } }[] {
  return Object.entries(McpTools).map(([name, t]) => ({
    name, description: t.description, inputSchema: JSON.parse(JSON.stringify(t.input)) as { type: 'object' },
  }));
}

const validators = Object.fromEntries(Object.entries(McpTools).map(([name, t]) => [name, Compile(t.input)])) as
  Record<McpToolName, ReturnType<typeof Compile>>;

async function header(page: Page, result?: RankResult): Promise<string> {
  const title = await page.title().catch(() => '');
  return promptHeader(result ?? { url: page.url(), elements: [] }, { title, ...(result ? {} : { scrollY: await scrollY(page) }) });
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY)).catch(() => 0);

/** "12 button: Sign in" for an id of the latest snapshot, or just "12". */
function named(session: BrowserSession, page: Page, id: number): string {
  const e = session.memoryOf(page).elements.get(id);
  return e ? promptLine(e, { maxText: 40 }) : String(id);
}

/** Ids must come from a snapshot of this tab: an id never seen is an error, not a guess. */
function known(session: BrowserSession, page: Page, id: number): void {
  const m = session.memoryOf(page);
  if (!m.raw) throw new Error(`unknown id ${id}: no snapshot of this tab yet; call snapshot first`);
  if (!m.raw.some((e) => e.id === id)) throw new Error(`unknown id ${id}: not in the latest snapshot of this tab (${page.url()}); call snapshot for current ids`);
}

async function settle(page: Page): Promise<void> {
  await waitForStable(page, SETTLE).catch(() => false);
}

async function afterAction(session: BrowserSession, page: Page, did: string): Promise<ToolResult> {
  await settle(page);
  const now = await session.page().catch(() => page);
  return text(`${did}\n${await header(now)}`);
}

async function snapshotTool(session: BrowserSession, args: McpArgs<'snapshot'>): Promise<ToolResult> {
  const page = await session.page();
  const memory = session.memoryOf(page);
  const { collected, title } = await collectPageTitled(page);
  const sinceLast = args.since_last === true && memory.raw !== undefined;
  const known = new Set((memory.raw ?? []).map((e) => e.id));
  const limit = args.limit ?? DEFAULT_LIMIT;
  const result = await rankCollected(page, collected, {
    goal: args.goal, filter: args.filter ?? undefined,
    // With since_last every element is ranked, so a change below the top `limit` is still seen.
    limit: sinceLast ? collected.raw_elements.length + memory.raw!.length : limit,
    previous: sinceLast ? memory.raw as McpPrevious : undefined,
  });
  memory.raw = collected.raw_elements as CollectedElement[];
  memory.elements = new Map(result.elements.filter((e) => e.diff_status !== 'REMOVED').map((e) => [e.id, e]));
  if (!sinceLast) {
    const note = args.since_last ? '(no earlier snapshot of this tab: all elements)\n' : '';
    return text(await withinBudget(result.elements, args.max_tokens, (kept) => note + toPrompt({ ...result, elements: kept }, { title })));
  }
  // Elements the last snapshot did not list by id stay known for actions. An element the page re-rendered
  // as it was (the diff sees no change) has a new id all the same: it is listed, so the agent has its id.
  const renumbered = (e: SnapshotElement) => !e.diff_status && !known.has(e.id);
  const changed: RankResult = { ...result, elements: result.elements.filter((e: SnapshotElement) => e.diff_status || renumbered(e)).slice(0, limit) };
  return text(await withinBudget(changed.elements, args.max_tokens, (kept) => {
    const body = toPrompt({ ...changed, elements: kept }, { title, scrollY: collected.scroll_y });
    const again = kept.filter(renumbered).length;
    const note = again ? `\n(${again} unflagged: as before, re-rendered under new ids; the old ids are gone)` : '';
    return changed.elements.length ? body + note : `${body}\n(no change since the last snapshot)`;
  }));
}

/** The listing of the most important elements whose text (notes included) fits `maxTokens` o200k tokens;
 *  when some are left out, a last line says how many (counted in the budget too). */
async function withinBudget(elements: SnapshotElement[], maxTokens: number | undefined, render: (kept: SnapshotElement[]) => string): Promise<string> {
  if (maxTokens === undefined) return render(elements);
  const fit = await fitElements(elements, maxTokens, {
    text: (kept) => render(kept) + (kept.length < elements.length ? `\n(${elements.length - kept.length} less important elements left out for max_tokens)` : ''),
  });
  return fit.text ?? '';
}
type McpPrevious = NonNullable<Parameters<typeof rankCollected>[2]>['previous'];

const navigationFailure = (err: unknown) => {
  const msg = (err as Error).message.split('\n')[0].replace(/^page\.\w+: /, '');
  return /^navigation (failed|refused)/.test(msg) ? msg : `navigation failed: ${msg}`;
};

/** page.goto that outlasts a navigation the page had under way (Chromium's error page after a failed
 *  one, a script's redirect): when that navigation goes to the same URL it is awaited, else goto runs
 *  again (at most twice more). */
async function goto(page: Page, url: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await page.goto(url, { waitUntil: 'domcontentloaded' });
    } catch (err) {
      const other = /interrupted by another navigation to "([^"]*)"/.exec((err as Error).message)?.[1];
      if (other === undefined || attempt >= 2) throw err;
      if (other === new URL(url).href) {
        await page.waitForURL(other, { waitUntil: 'domcontentloaded', timeout: 15_000 });
        return null;
      }
      await page.waitForLoadState('load', { timeout: 2000 }).catch(() => undefined);
    }
  }
}

async function navigateTool(session: BrowserSession, args: McpArgs<'navigate'>): Promise<ToolResult> {
  if (!args.url === !args.action) return failure('navigate takes either url or action (back, forward, reload)');
  const page = await session.page();
  let status: number | undefined;
  try {
    if (args.url) {
      await session.checkUrl(args.url);
      status = (await goto(page, args.url))?.status();
    } else if (args.action === 'back') {
      if (!await back(page)) return failure('navigation failed: there is no earlier page in this tab');
    } else if (args.action === 'forward') {
      const before = page.url();
      const r = await page.goForward({ waitUntil: 'domcontentloaded' });
      if (!r && page.url() === before) return failure('navigation failed: there is no later page in this tab');
    } else {
      status = (await page.reload({ waitUntil: 'domcontentloaded' }))?.status();
    }
  } catch (err) {
    // Chromium still commits its error page: let it, so the next navigation is not interrupted by it.
    await page.waitForLoadState('load', { timeout: 2000 }).catch(() => undefined);
    return failure(navigationFailure(err));
  }
  await settle(page);
  return text(`${await header(page)}${status && status >= 400 ? `\n(the page answered HTTP ${status})` : ''}`);
}

async function scrollTool(session: BrowserSession, args: McpArgs<'scroll'>): Promise<ToolResult> {
  const page = await session.page();
  if (args.id !== undefined) {
    known(session, page, args.id);
    await scrollTo(page, args.id);
    return afterAction(session, page, `scrolled ${named(session, page, args.id)} into view`);
  }
  const direction = args.direction ?? 'down';
  await page.evaluate(({ direction, pixels }) => {
    // The page's scroller: the document, or in an app layout whose document does not scroll, its largest
    // scrolling container (what the collector lists below the fold of: collect.ts, pageScroller).
    const root = document.scrollingElement ?? document.documentElement;
    let target: Element | Window = window;
    if (root.scrollHeight <= window.innerHeight + 1) {
      let best = 0;
      for (const el of document.querySelectorAll('*')) {
        if (el.scrollHeight <= el.clientHeight + 1) continue;
        const oy = getComputedStyle(el).overflowY;
        const area = el.clientWidth * el.clientHeight;
        if ((oy === 'auto' || oy === 'scroll') && area > best) { best = area; target = el; }
      }
    }
    const height = target === window ? window.innerHeight : (target as Element).clientHeight;
    const by = pixels ?? Math.round(height * 0.9);
    if (direction === 'top') target.scrollTo(0, 0);
    else if (direction === 'bottom') target.scrollTo(0, target === window ? root.scrollHeight : (target as Element).scrollHeight);
    else target.scrollBy(0, direction === 'up' ? -by : by);
  }, { direction, pixels: args.pixels });
  return afterAction(session, page, `scrolled ${direction}`);
}

async function waitTool(session: BrowserSession, args: McpArgs<'wait_for'>): Promise<ToolResult> {
  const page = await session.page();
  const timeout = args.timeout_ms ?? DEFAULT_TIMEOUT;
  if (args.stable) {
    return await waitForStable(page, { quietMs: 500, timeoutMs: timeout })
      ? text(`the page is stable\n${await header(page)}`)
      : failure(`the page did not become stable within ${timeout} ms (it keeps changing or loading)`);
  }
  if (args.text !== undefined) {
    await expect(page, args.id !== undefined ? { text: args.text, id: args.id } : { text: args.text }, { timeout });
    return text(`found ${JSON.stringify(args.text)}${args.id !== undefined ? ` in ${named(session, page, args.id)}` : ''}`);
  }
  if (args.id !== undefined) {
    await expect(page, args.gone ? { gone: args.id } : { visible: args.id }, { timeout });
    return text(`${named(session, page, args.id)} is ${args.gone ? 'gone' : 'visible'}`);
  }
  return failure('wait_for takes text, id (with gone=true to wait for it to go) or stable=true');
}

async function screenshotTool(session: BrowserSession, args: McpArgs<'screenshot'>): Promise<ToolResult> {
  const page = await session.page();
  let remove: (() => Promise<void>) | undefined;
  let listing = '';
  if (args.annotate) {
    const result = await rankCollected(page, await collectPage(page), { goal: args.goal, limit: args.limit ?? DEFAULT_LIMIT });
    remove = await highlight(page, result);
    listing = toPrompt(result, { title: await page.title().catch(() => '') });
  }
  try {
    const fading = await stillFading(page); // a page still fading in would be captured blank
    const png = await page.screenshot({ type: 'png', fullPage: args.full_page === true });
    const caption = `${listing || await header(page)}${fading ? `\n${FADING_WARNING}` : ''}`;
    return { content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }, { type: 'text', text: caption }] };
  } finally {
    await remove?.().catch(() => undefined);
  }
}

async function tabsTool(session: BrowserSession, args: McpArgs<'tabs'>): Promise<ToolResult> {
  const list = async () => (await Promise.all(session.tabs().map(async (t) =>
    `${t.index}${t.current ? '*' : ' '} ${JSON.stringify(await t.page.title().catch(() => ''))} ${t.page.url()}`))).join('\n');
  if (args.action === 'list') { await session.page(); return text(await list()); }
  if (args.action === 'open') {
    const page = await session.openTab(args.url);
    if (args.url) {
      try { await goto(page, args.url); } catch (err) { return failure(navigationFailure(err)); }
      await settle(page);
    }
    return text(await list());
  }
  if (args.index === undefined) return failure(`tabs ${args.action} needs an index (see tabs list)`);
  await session.page();
  if (args.action === 'switch') { await session.switchTo(args.index).bringToFront(); return text(await list()); }
  await session.closeTab(args.index);
  await session.page(); // a browser whose last tab closed gets a blank one
  return text(await list());
}

async function run(session: BrowserSession, name: McpToolName, a: unknown): Promise<ToolResult> {
  switch (name) {
    case 'navigate': return navigateTool(session, a as McpArgs<'navigate'>);
    case 'snapshot': return snapshotTool(session, a as McpArgs<'snapshot'>);
    case 'scroll': return scrollTool(session, a as McpArgs<'scroll'>);
    case 'wait_for': return waitTool(session, a as McpArgs<'wait_for'>);
    case 'screenshot': return screenshotTool(session, a as McpArgs<'screenshot'>);
    case 'tabs': return tabsTool(session, a as McpArgs<'tabs'>);
    case 'close': {
      const was = session.open;
      await session.close();
      return text(was ? 'browser closed' : 'no browser was open');
    }
    case 'read': {
      const page = await session.page();
      const { max_chars, max_tokens } = a as McpArgs<'read'>;
      const r = readPage(await page.content(), page.url(), { contentLimit: max_chars });
      // max_tokens: the content's first whole blocks that fit (the heading and URL lines are not counted).
      const content = max_tokens === undefined ? r.content : (await fitContent(r.content, 'markdown', max_tokens)).content;
      return text([`# ${r.title || page.url()}`, `<${page.url()}>`, '', content, ...r.warnings.map((w) => `\n(${w})`)].join('\n'));
    }
    case 'press_key': {
      const { key, id, timeout_ms } = a as McpArgs<'press_key'>;
      const page = await session.page();
      if (id !== undefined) known(session, page, id);
      await press(page, key, id, { timeout: timeout_ms });
      return afterAction(session, page, `pressed ${key}${id !== undefined ? ` on ${named(session, page, id)}` : ''}`);
    }
    default: {
      // The element actions: one id, one verb.
      const args = a as { id: number; timeout_ms?: number };
      const page = await session.page();
      known(session, page, args.id);
      const timeout = args.timeout_ms ?? DEFAULT_TIMEOUT;
      const what = named(session, page, args.id);
      if (name === 'click') {
        // A link or script may open a tab: say so when it shows while the page settles.
        let opened = false;
        const onPopup = () => { opened = true; };
        page.on('popup', onPopup);
        try {
          await click(page, args.id, { timeout });
          await settle(page);
        } finally { page.off('popup', onPopup); }
        return afterAction(session, page, `clicked ${what}${opened ? ' (it opened a new tab: see tabs list)' : ''}`);
      }
      if (name === 'hover') { await hover(page, args.id, { timeout }); return afterAction(session, page, `hovered ${what}`); }
      if (name === 'check') {
        const checked = (a as McpArgs<'check'>).checked ?? true;
        await check(page, args.id, { timeout, checked });
        return afterAction(session, page, `${checked ? 'checked' : 'unchecked'} ${what}`);
      }
      if (name === 'select_option') {
        const chosen = await select(page, args.id, (a as McpArgs<'select_option'>).values, { timeout });
        return afterAction(session, page, `selected ${JSON.stringify(chosen)} in ${what}`);
      }
      const t = a as McpArgs<'type'>;
      await type(page, args.id, t.text, { timeout, submit: t.submit });
      return afterAction(session, page, `typed ${JSON.stringify(t.text)} into ${what}${t.submit ? ' and pressed Enter' : ''}`);
    }
  }
}

/** Runs one tool call; never throws (a failure is an isError result with its message). */
export async function callTool(session: BrowserSession, name: string, args: unknown): Promise<ToolResult> {
  if (!(name in McpTools)) return failure(`unknown tool ${JSON.stringify(name)}; tools: ${Object.keys(McpTools).join(', ')}`);
  const tool = name as McpToolName;
  const input = args ?? {};
  const validator = validators[tool];
  if (!validator.Check(input)) {
    const first = [...validator.Errors(input)][0] as { instancePath?: string; message?: string } | undefined;
    return failure(`invalid arguments for ${tool}: ${first ? `${first.instancePath || '(arguments)'} ${first.message}` : 'they do not fit the schema'}`);
  }
  // Never a silent drop: arguments the tool does not read are named after its answer (schema/fields.ts).
  const ignored = fieldWarnings(McpTools[tool].input, input);
  let result: ToolResult;
  try {
    result = await run(session, tool, input);
  } catch (err) {
    result = failure((err as Error)?.message ?? String(err));
  }
  return ignored.length ? { ...result, content: [...result.content, { type: 'text', text: ignored.join('\n') }] } : result;
}
