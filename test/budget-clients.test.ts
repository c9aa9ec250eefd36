// max_tokens in the client library (ranking locally with the Wasm core) and in `sightline mcp` (the SDK's
// client over stdio, a real server process): on a real page (a WCXB sample page served from localhost),
// what is kept is a prefix of the full ranking and its o200k count is within the budget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser } from 'playwright-core';
import { serveLargePages, goOffline, wcxbIds, WCXB, type LargePages } from './helpers/large-pages.ts';
import { launch } from './helpers/browser.ts';
import { snapshot } from '../src/client/page.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const tokens = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;
const [PAGE] = WCXB.missing ? [] : wcxbIds();

let pages: LargePages;
let browser: Browser;
let client: Client;

before(async () => {
  [pages, browser] = await Promise.all([serveLargePages(), launch()]);
  client = new Client({ name: 'sightline-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/cli/main.ts', 'mcp'], cwd: ROOT, stderr: 'pipe' }));
});
after(async () => {
  await client.close().catch(() => undefined);
  await Promise.all([browser.close(), pages.close()]);
});

async function tool(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args }) as { content: { type: string; text: string }[]; isError?: boolean };
  assert.ok(!r.isError, `${name}: ${r.content.map((c) => c.text).join('\n')}`);
  return r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

test('client library: snapshot with maxTokens keeps a prefix of the ranking within the budget', { skip: WCXB.missing }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await goOffline(page, pages.url);
    await page.goto(`${pages.url}/wcxb/${PAGE}.html`, { waitUntil: 'domcontentloaded' });
    const full = await snapshot(page, { limit: 100 });
    const budgeted = await snapshot(page, { limit: 100, maxTokens: 400 });
    assert.ok(budgeted.elements.length > 0 && budgeted.elements.length < full.elements.length, `${budgeted.elements.length} of ${full.elements.length}`);
    assert.deepEqual(budgeted.elements.map((e) => e.id), full.elements.slice(0, budgeted.elements.length).map((e) => e.id));
    assert.equal(budgeted.token_count, tokens(JSON.stringify(budgeted.elements)));
    assert.ok(budgeted.token_count! <= 400);
    assert.equal(budgeted.truncated, true);
  } finally {
    await page.close();
  }
});

test('MCP: snapshot and read with max_tokens stay within the budget, keeping the first lines and blocks', { skip: WCXB.missing }, async () => {
  await tool('navigate', { url: `${pages.url}/wcxb/${PAGE}.html` });
  const full = await tool('snapshot', { limit: 200 });
  const budgeted = await tool('snapshot', { limit: 200, max_tokens: 250 });
  assert.ok(tokens(budgeted) <= 250, `${tokens(budgeted)} tokens`);
  const lines = budgeted.split('\n');
  assert.match(lines.at(-1)!, /^\(\d+ less important elements left out for max_tokens\)$/);
  const kept = lines.slice(1, -1);
  assert.ok(kept.length > 3, `${kept.length} elements kept`);
  assert.deepEqual(kept, full.split('\n').slice(1, 1 + kept.length), 'the first elements of the full listing');
  const read = await tool('read', {});
  const short = await tool('read', { max_tokens: 200 });
  const [, , , ...content] = short.split('\n');
  assert.ok(tokens(content.join('\n')) <= 200);
  assert.ok(short.length < read.length && read.startsWith(short.trimEnd()), 'the first blocks of the page');
});
