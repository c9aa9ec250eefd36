// The light client package (packages/client, `@sightline/client`): installed from its packed tarball into
// an empty project it adds at most 15 packages and 25 MB (issue 40) and no server dependency; then, with
// the consumer's own playwright-core, it ranks a real page in Chromium with the Wasm core, prints it with
// toPrompt, says how to get the optional token counter when max_tokens is asked without it, and a strict
// TypeScript consumer compiles against its declarations.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from './helpers/browser.ts';
import { installInto, npmInstall, packTarball, strictCompile } from './helpers/consumer-project.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_PACKAGES = 15;
const MAX_BYTES = 25 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'sightline-client-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const versionOf = (name: string) => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version as string;

test('@sightline/client from its tarball: at most 15 packages and 25 MB, no server dependency; it ranks a real page and a strict consumer compiles', async () => {
  const { file: tarball, files } = packTarball(ROOT, './packages/client', dir);
  for (const f of ['dist/client.js', 'dist/index.js', 'dist/rank.wasm', 'dist/collector.js', 'dist/goal-embed.bin', 'dist/types/src/client/index.d.ts', 'dist/types/src/index.d.ts']) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }

  const project = join(dir, 'consumer');
  const { packages, bytes: size } = installInto(project, tarball);
  console.log(`client install: ${packages.length} packages (${packages.join(', ')}), ${(size / 1048576).toFixed(1)} MB`);
  assert.ok(packages.length <= MAX_PACKAGES, `${packages.length} packages: ${packages.join(', ')}`);
  assert.ok(size <= MAX_BYTES, `${(size / 1048576).toFixed(1)} MB`);
  for (const server of ['pg', 'redis', 'better-sqlite3', 'uWebSockets.js', 'pdfjs-dist', '@aws-sdk/client-s3', 'linkedom', 'playwright-core', 'gpt-tokenizer']) {
    assert.ok(!packages.includes(server), `${server} is not installed with the client`);
  }

  // What a user of the page helpers adds themselves: their own Playwright (and Node's types for tsc).
  npmInstall(project, [`playwright-core@${versionOf('playwright-core')}`, `@types/node@${versionOf('@types/node')}`]);
  writeFileSync(join(project, 'use.mjs'), `
import { chromium } from 'playwright-core';
import { snapshot, toPrompt, find } from '@sightline/client';
import { rank } from '@sightline/client/rank';
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, headless: true, chromiumSandbox: false, args: JSON.parse(process.env.CHROMIUM_ARGS) });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent('<main><h1>Blue mug</h1><p>A mug, blue.</p><label>Quantity <input name=q value=1></label><button>Add to cart</button><a href="/reviews">Reviews</a></main><footer><a href="/about">About us</a></footer>');
  const result = await snapshot(page);
  const cart = find(result, { role: 'button', text: 'Add to cart' });
  let budget = 'no error';
  try { await snapshot(page, { maxTokens: 40 }); } catch (err) { budget = err.message; }
  const empty = await rank({ url: 'https://example.test/', raw_elements: [] });
  const goal = await snapshot(page, { goal: 'buy this mug' });   // the goal rerank reads the package's embedding table
  console.log(JSON.stringify({ count: result.elements.length, cart: cart?.id ?? null, prompt: toPrompt(result), budget, empty: empty.elements.length, goalFirst: goal.elements[0]?.text ?? null, reranked: goal.ml_rerank?.applied ?? false }));
} finally { await browser.close(); }
`);
  const run = () => JSON.parse(execFileSync(process.execPath, ['use.mjs'], { cwd: project, encoding: 'utf8', env: { ...process.env, CHROMIUM, CHROMIUM_ARGS: JSON.stringify(CHROMIUM_ARGS) }, timeout: 60_000 }));
  const used = run();
  assert.ok(used.count >= 4, `ranked ${used.count} elements`);
  assert.notEqual(used.cart, null, 'the Add to cart button is found in the local ranking');
  assert.match(used.prompt, /Add to cart/);
  assert.match(used.budget, /optional peer dependency.*npm install gpt-tokenizer@4\.0\.0/, 'max_tokens without gpt-tokenizer says how to get it');
  assert.equal(used.empty, 0);
  assert.equal(used.reranked, true, 'a goal is reranked with the table the package carries');
  assert.equal(used.goalFirst, 'Add to cart');

  const tsc = strictCompile(project, `
import { SightlineApi, snapshot, toPrompt, type ObserveRequest, type RankResult } from '@sightline/client';
import { rank, createRanker, type SnapshotRequest } from '@sightline/client/rank';
const request: SnapshotRequest = { url: 'https://example.test/', raw_elements: [] };
const result: RankResult = await rank(request);
const api = new SightlineApi({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'sl_x' });
const observe: ObserveRequest = { url: 'https://example.test/', mode: 'read' };
console.log(toPrompt(result), api, observe, snapshot, await createRanker());
// @ts-expect-error: a wrong field type is caught, so the declarations are real and not \`any\`
const wrong: SnapshotRequest = { url: 1, raw_elements: [] };
console.log(wrong);
`);
  assert.equal(tsc, '', `tsc --strict on the consumer:\n${tsc}`);

  // With the optional token counter installed, the same call fits the budget.
  npmInstall(project, [`gpt-tokenizer@${versionOf('gpt-tokenizer')}`]);
  assert.equal(run().budget, 'no error');
});
