// `sightline mcp` on the fixture pages: milliseconds per snapshot tool call over stdio (the SDK's
// client, the server as a child process with its own Chromium) against the same snapshot made in
// process with the client library (its own Chromium), in one run; and tokens (o200k_base) of the
// answer per element line. Run: npm run build && node --import tsx bench/mcp.bench.ts.
// Writes bench/results/mcp.{json,md}.
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { launch } from '../test/helpers/browser.ts';
import { serveFixtures } from '../test/helpers/fixtures.ts';
import { snapshot, waitForStable, toPrompt } from '../src/client/index.ts';

const PAGES = ['search', 'login', 'shop', 'shadow', 'frames', 'long', 'big'];
const RUNS = 15;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const fx = await serveFixtures();
const transport = new StdioClientTransport({ command: process.execPath, args: ['build/cli.js', 'mcp'], cwd: ROOT, stderr: 'inherit' });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

async function call(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args }) as { content: { type: string; text?: string }[]; isError?: boolean };
  const text = r.content.map((c) => c.text ?? '').join('\n');
  if (r.isError) throw new Error(`${name}: ${text}`);
  return text;
}

interface Row { page: string; lines: number; tokens: number; tokens_per_line: number; mcp_ms: number; library_ms: number; ratio: number; since_last_ms: number }
const rows: Row[] = [];
for (const name of PAGES) {
  const url = `${fx.url}/${name}.html`;
  await call('navigate', { url });
  await page.goto(url);
  await waitForStable(page, { quietMs: 100 });
  const mcp: number[] = [], lib: number[] = [], diff: number[] = [];
  let text = '';
  for (let i = 0; i < RUNS + 2; i++) {
    // Alternate the two, so load on the machine falls on both alike; the first two are warm-up.
    let t = performance.now();
    text = await call('snapshot', { limit: 50 });
    const m = performance.now() - t;
    t = performance.now();
    const r = await snapshot(page, { limit: 50 });
    toPrompt(r, { title: await page.title() });
    const l = performance.now() - t;
    t = performance.now();
    await call('snapshot', { since_last: true, limit: 50 });
    const d = performance.now() - t;
    if (i >= 2) { mcp.push(m); lib.push(l); diff.push(d); }
  }
  const lines = text.split('\n').filter((l) => /^\d+ /.test(l)).length;
  const tokens = encode(text).length;
  const row = { page: name, lines, tokens, tokens_per_line: +(tokens / Math.max(1, lines)).toFixed(1), mcp_ms: +median(mcp).toFixed(1), library_ms: +median(lib).toFixed(1), ratio: +(median(mcp) / median(lib)).toFixed(2), since_last_ms: +median(diff).toFixed(1) };
  rows.push(row);
  console.log(JSON.stringify(row));
}
await client.close();
await browser.close();
await fx.close();

const md = [
  `| page | lines | tokens | tokens/line | MCP snapshot ms | library snapshot ms | MCP / library | since_last ms |`,
  `|---|---|---|---|---|---|---|---|`,
  ...rows.map((r) => `| ${r.page} | ${r.lines} | ${r.tokens} | ${r.tokens_per_line} | ${r.mcp_ms} | ${r.library_ms} | ${r.ratio} | ${r.since_last_ms} |`),
].join('\n');
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/mcp.json', import.meta.url), JSON.stringify(rows, null, 2) + '\n');
writeFileSync(new URL('./results/mcp.md', import.meta.url), md + '\n');
console.log(`\n${md}`);
