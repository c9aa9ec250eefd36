// Tokens and milliseconds per page snapshot, as an agent's context pays for them: Playwright MCP's
// page snapshot (its browser_snapshot tool, driven over stdio by the MCP SDK's client, as an MCP client
// does) against our compact text form (top 50 and all elements) and our JSON, on the fixture pages and
// on real pages of the WCXB sample rendered offline (served from loopback; every other origin blocked).
// Both sides run Debian's Chromium at 1280×800. Tokens: gpt-tokenizer's o200k_base table.
// Run: npm run bench:mcp-tokens. Writes bench/results/mcp-tokens.{json,md}.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRanker, toPrompt } from '../src/index.ts';
import type { SnapshotRequest } from '../src/schema/snapshot.ts';
import { launch, CHROMIUM } from '../test/helpers/browser.ts';
import { FIXTURES } from '../test/helpers/fixtures.ts';
import { collectPage, waitForStable } from '../src/playwright/collect-page.ts';
import { SHARED_DATA } from './payloads.ts';

const FIXTURE_PAGES = ['search', 'login', 'shop', 'shadow', 'frames', 'long', 'article', 'consent', 'kontakt', 'big'];
const WCXB = join(SHARED_DATA, 'wcxb-dev-sample', 'html');
const REAL_PAGES = readdirSync(WCXB).filter((f) => f.endsWith('.html.gz')).sort().filter((_, i) => i % 15 === 0); // 21 of 315, every type

// One loopback server for both sets: fixtures by name, WCXB pages under /wcxb/.
const server = createServer((req, res) => {
  const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
  try {
    const body = path.startsWith('/wcxb/') ? gunzipSync(readFileSync(join(WCXB, path.slice(6).replace(/[^\w.]/g, '') + '.gz')))
      : readFileSync(join(FIXTURES, path.replace(/[^\w.-]/g, '')), 'utf8').replaceAll('{{OTHER_ORIGIN}}', origin);
    res.writeHead(200, { 'content-type': path.endsWith('.svg') ? 'image/svg+xml' : 'text/html; charset=utf-8' });
    res.end(body);
  } catch {
    res.writeHead(404); res.end();
  }
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const pages = [
  ...FIXTURE_PAGES.map((p) => ({ set: 'fixtures', name: p, url: `${origin}/${p}.html` })),
  ...REAL_PAGES.map((f) => ({ set: 'WCXB sample', name: f.replace('.html.gz', ''), url: `${origin}/wcxb/${f.replace('.gz', '')}` })),
];

// Playwright MCP, spawned and called as an MCP client would.
const require = createRequire(import.meta.url);
const outputDir = mkdtempSync(join(tmpdir(), 'playwright-mcp-')); // its session files, not in the repo
const playwrightMcp = new Client({ name: 'sightline-bench', version: '1' });
await playwrightMcp.connect(new StdioClientTransport({
  command: process.execPath,
  args: [process.env.PLAYWRIGHT_MCP_CLI ?? join(dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js'), '--headless', '--isolated', '--no-sandbox',
    '--executable-path', CHROMIUM, '--viewport-size', '1280x800', '--allowed-origins', origin, '--image-responses', 'omit', '--output-dir', outputDir],
  stderr: 'ignore',
}));
const pwVersion = playwrightMcp.getServerVersion();
const textOf = (r: unknown) => ((r as { content: { type: string; text?: string }[] }).content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// Ours: the same pages in our collector and Wasm core, formatted by toPrompt (the one formatter).
const ranker = await createRanker({ limitCap: 100_000 });
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await ctx.route((url) => !url.href.startsWith(origin), (route) => route.abort());
const page = await ctx.newPage();

interface Row { set: string; name: string; elements: number; pwTokens: number; pwMs: number; top50Tokens: number; top50Elements: number; allTokens: number; jsonTokens: number; oursMs: number }
const rows: Row[] = [];
for (const p of pages) {
  await playwrightMcp.callTool({ name: 'browser_navigate', arguments: { url: p.url } });
  let t = performance.now();
  const snap = textOf(await playwrightMcp.callTool({ name: 'browser_snapshot', arguments: {} }));
  const pwMs = performance.now() - t;
  // Only the page snapshot counts, not the tool's preamble about tabs or console messages.
  const yaml = /```yaml\n([\s\S]*?)```/.exec(snap)?.[1] ?? snap;

  await page.goto(p.url, { waitUntil: 'load' });
  await waitForStable(page, { quietMs: 100 });
  t = performance.now();
  const c = await collectPage(page);
  const request: SnapshotRequest = { url: page.url(), viewport: c.viewport, raw_elements: c.raw_elements as unknown as SnapshotRequest['raw_elements'] };
  const top50 = ranker.rank({ ...request, options: { limit: 50 } });
  const top50Text = toPrompt(top50, { title: await page.title() });
  const oursMs = performance.now() - t;
  const all = ranker.rank({ ...request, options: { limit: 100_000 } });
  rows.push({
    set: p.set, name: p.name, elements: all.elements.length, pwTokens: o200k(yaml).length, pwMs,
    top50Tokens: o200k(top50Text).length, top50Elements: top50.elements.length,
    allTokens: o200k(toPrompt(all, { title: await page.title() })).length, jsonTokens: o200k(JSON.stringify(top50.elements)).length, oursMs,
  });
  process.stderr.write(`${p.set} ${p.name}: playwright-mcp ${rows.at(-1)!.pwTokens} tokens, ours top 50 ${rows.at(-1)!.top50Tokens}\n`);
}
await playwrightMcp.close();
await browser.close();
server.close();
rmSync(outputDir, { recursive: true, force: true });

const sum = (rs: Row[], f: (r: Row) => number) => rs.reduce((a, r) => a + f(r), 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const md = [
  `Playwright MCP ${pwVersion?.version ?? '?'} (browser_snapshot) against our text form, o200k tokens, Chromium ${browser.version()}, 1280×800; ${pages.length} pages.`,
  '',
  '| pages | n | Playwright MCP snapshot, tokens/page | ours, top 50, tokens/page | ratio, pooled | ratio, median page | ours, top 50, tokens/element | ours, all elements, tokens/page | our JSON, top 50, tokens/page | ms/snapshot, Playwright MCP (median) | ms/snapshot, ours collect+rank+format (median) |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...['fixtures', 'WCXB sample'].map((set) => {
    const rs = rows.filter((r) => r.set === set);
    return `| ${set} | ${rs.length} | ${(sum(rs, (r) => r.pwTokens) / rs.length).toFixed(0)} | ${(sum(rs, (r) => r.top50Tokens) / rs.length).toFixed(0)} | **${(sum(rs, (r) => r.pwTokens) / sum(rs, (r) => r.top50Tokens)).toFixed(1)}×** | ${median(rs.map((r) => r.pwTokens / r.top50Tokens)).toFixed(1)}× | ${(sum(rs, (r) => r.top50Tokens) / sum(rs, (r) => r.top50Elements)).toFixed(1)} | ${(sum(rs, (r) => r.allTokens) / rs.length).toFixed(0)} | ${(sum(rs, (r) => r.jsonTokens) / rs.length).toFixed(0)} | ${median(rs.map((r) => r.pwMs)).toFixed(0)} | ${median(rs.map((r) => r.oursMs)).toFixed(0)} |`;
  }),
  '',
  'Per page:',
  '',
  '| set | page | our elements | Playwright MCP tokens | ours top 50 tokens | ours all tokens | ratio (top 50) |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.set} | ${r.name} | ${r.elements} | ${r.pwTokens} | ${r.top50Tokens} | ${r.allTokens} | ${(r.pwTokens / r.top50Tokens).toFixed(1)}× |`),
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/mcp-tokens.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), playwrightMcp: pwVersion, rows }, null, 2) + '\n');
writeFileSync(new URL('./results/mcp-tokens.md', import.meta.url), md.join('\n') + '\n');
console.log(md.slice(0, 6).join('\n'));
