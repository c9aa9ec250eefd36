// options.max_tokens through the real server, on 50 real pages (the WCXB development sample, served
// from localhost): read's content and snapshot's elements (collected from the same pages in Chromium)
// never exceed the budget counted with the o200k tokenizer here, token_count is that count, and at
// 500, 1,000 and 2,000 tokens what is kept is a prefix: of the full ranking for elements, of the full
// content (whole blocks) for read. Then map and visual, in both formats, once each.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { parseHTML } from 'linkedom';
import type { Browser } from 'playwright-core';
import { startServer, createKey, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { serveLargePages, goOffline, wcxbIds, WCXB, type LargePages } from './helpers/large-pages.ts';
import { launch } from './helpers/browser.ts';
import { collectPage } from '../src/playwright/collect-page.ts';

const BUDGETS = [500, 1000, 2000];
const PAGES = WCXB.missing ? [] : wcxbIds().slice(0, 50);
const tokens = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;

/** Where the Markdown block after `from` ends: the first blank line after it outside a code fence. */
function nextBlockEnd(markdown: string, from: number): number {
  let at = from + markdown.slice(from).search(/\S|$/);
  at = markdown.lastIndexOf('\n', at) + 1;
  let fenced = false;
  for (const line of markdown.slice(at).split('\n')) {
    if (/^ {0,3}(?:```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && !line.trim()) return at;
    at += line.length + 1;
  }
  return markdown.length;
}

let pages: LargePages;
let server: ServerProcess;
let key: string;
let browser: Browser;

before(async () => {
  [pages, server, browser] = await Promise.all([
    serveLargePages(),
    startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '100000', '--rate-burst', '100000', '--page-timeout-ms', '20000']),
    launch(),
  ]);
  key = await createKey(server.dataDir, 1_000_000);
});
after(async () => {
  await Promise.all([server.stop(), browser.close(), pages.close()]);
  removeDataDir(server.dataDir);
});

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

test('the sample has 50 pages', { skip: WCXB.missing }, () => assert.equal(PAGES.length, 50));

test('read: on 50 real pages the content never exceeds the budget and is a prefix of the whole content', { skip: WCXB.missing }, async () => {
  let cut = 0;
  for (const id of PAGES) {
    const url = `${pages.url}/wcxb/${id}.html`;
    const full = await observe(server, key, { url, options: { render: 'never' } });
    assert.equal(full.status, 200, `${id}: ${JSON.stringify(full.body)}`);
    assert.equal(full.body.token_count, undefined, 'no budget, no count');
    for (const budget of BUDGETS) {
      const res = await observe(server, key, { url, options: { render: 'never', max_tokens: budget } });
      assert.equal(res.status, 200, `${id}: ${JSON.stringify(res.body)}`);
      const { content, token_count, truncated } = res.body;
      const counted = tokens(content);
      assert.ok(counted <= budget, `${id} at ${budget}: ${counted} tokens`);
      assert.equal(token_count, counted, `${id} at ${budget}: token_count`);
      assert.equal(truncated, content !== full.body.content);
      if (!truncated) continue;
      cut++;
      // Whole blocks: the kept content is where the full content has a block boundary.
      assert.ok(full.body.content.startsWith(content), `${id} at ${budget}: a prefix`);
      assert.match(full.body.content.slice(content.length, content.length + 2), /^\n\n|^\s*$/, `${id} at ${budget}: cut at a block boundary`);
      // The longest such prefix: the content up to the next block boundary would not have fitted.
      assert.ok(tokens(full.body.content.slice(0, nextBlockEnd(full.body.content, content.length)).trimEnd()) > budget, `${id} at ${budget}: the next block would fit`);
    }
  }
  assert.ok(cut >= 50, `${cut} budgeted reads were cut`);
});

test('read in text and html formats: within the budget, a prefix of the whole content, on 5 pages', { skip: WCXB.missing }, async () => {
  for (const id of PAGES.slice(0, 5)) {
    const url = `${pages.url}/wcxb/${id}.html`;
    for (const format of ['text', 'html'] as const) {
      const full = await observe(server, key, { url, format, options: { render: 'never' } });
      const res = await observe(server, key, { url, format, options: { render: 'never', max_tokens: 500 } });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      assert.ok(tokens(res.body.content) <= 500 && res.body.token_count === tokens(res.body.content), `${id} ${format}: ${res.body.token_count}`);
      if (!res.body.truncated) continue;
      assert.ok(res.body.content.length > 0, `${id} ${format}: something is kept`);
      // Text keeps whole blocks of the full text; HTML keeps whole elements (its cut closes what it opens).
      if (format === 'text') assert.ok(full.body.content.startsWith(res.body.content), `${id} text: a prefix`);
      else {
        const textOf = (html: string) => (parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body.textContent ?? '').replace(/\s+/g, ' ').trim();
        assert.ok(textOf(full.body.content).startsWith(textOf(res.body.content)), `${id} html: the text of the start of the page`);
      }
    }
  }
});

test('snapshot: on the same 50 pages, the elements kept are a prefix of the full ranking, within the budget', { skip: WCXB.missing }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  let cut = 0;
  try {
    for (const id of PAGES) {
      const page = await context.newPage();
      await goOffline(page, pages.url);
      await page.goto(`${pages.url}/wcxb/${id}.html`, { waitUntil: 'domcontentloaded' });
      const collected = await collectPage(page);
      await page.close();
      const request = { url: `https://example.com/${id}`, viewport: collected.viewport, raw_elements: collected.raw_elements, options: { limit: 100 } };
      const full = await post('/v1/snapshot', request);
      assert.equal(full.status, 200, `${id}: ${JSON.stringify(full.body).slice(0, 300)}`);
      const fullIds = full.body.elements.map((e: { id: number }) => e.id);
      for (const budget of BUDGETS) {
        for (const format of ['json', 'text'] as const) {
          const res = await post('/v1/snapshot', { ...request, options: { limit: 100, max_tokens: budget, format } });
          assert.equal(res.status, 200);
          const ids = res.body.elements.map((e: { id: number }) => e.id);
          assert.deepEqual(ids, fullIds.slice(0, ids.length), `${id} at ${budget} (${format}): a prefix of the ranking`);
          const counted = tokens(format === 'text' ? res.body.text : JSON.stringify(res.body.elements));
          assert.ok(counted <= budget, `${id} at ${budget} (${format}): ${counted} tokens`);
          assert.equal(res.body.token_count, counted);
          assert.equal(res.body.truncated, ids.length < fullIds.length);
          if (res.body.truncated) {
            cut++;
            // The next element would not have fitted: the prefix is the longest.
            const one = full.body.elements.slice(0, ids.length + 1);
            const next = format === 'text' ? (await post('/v1/snapshot', { ...request, options: { limit: ids.length + 1, format } })).body.text : JSON.stringify(one);
            assert.ok(tokens(next) > budget, `${id} at ${budget} (${format}): one more element would fit`);
          }
        }
      }
    }
  } finally {
    await context.close();
  }
  assert.ok(cut >= 50, `${cut} budgeted snapshots were cut`);
});

test('map and visual: both formats keep a prefix of the ranking within the budget', { skip: WCXB.missing }, async () => {
  const url = `${pages.url}/wcxb/${PAGES[0]}.html`;
  const full = await observe(server, key, { url, mode: 'map', options: { limit: 200, format: 'text' } });
  assert.equal(full.status, 200);
  const texts = full.body.interactable_elements.map((e: { text: string }) => e.text);
  for (const [mode, format] of [['map', 'json'], ['map', 'text'], ['visual', 'json']] as const) {
    const res = await observe(server, key, { url, mode, options: { limit: 200, max_tokens: 300, format, screenshot_delivery: 'base64' } });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    const kept = res.body.interactable_elements.map((e: { text: string }) => e.text);
    assert.ok(kept.length > 0 && kept.length < texts.length, `${mode} ${format}: ${kept.length} of ${texts.length} kept`);
    if (mode === 'map') assert.deepEqual(kept, texts.slice(0, kept.length), `${mode} ${format}: a prefix`);
    const counted = tokens(format === 'text' ? res.body.text : JSON.stringify(res.body.interactable_elements));
    assert.ok(counted <= 300);
    assert.equal(res.body.token_count, counted);
    assert.equal(res.body.truncated, true);
    if (format === 'text') assert.equal(res.body.text.split('\n').length, kept.length + 1, 'the text lists the kept elements');
  }
});

test('max_tokens below 1 or not an integer is a 400, free', { skip: WCXB.missing }, async () => {
  for (const max_tokens of [0, -5, 1.5, '100']) {
    const res = await observe(server, key, { url: `${pages.url}/wcxb/${PAGES[0]}.html`, options: { max_tokens } });
    assert.equal(res.status, 400, String(max_tokens));
    assert.equal(res.body.error, 'bad_request');
    const snap = await post('/v1/snapshot', { url: 'https://example.com', raw_elements: [], options: { max_tokens } });
    assert.equal(snap.status, 400);
  }
});
