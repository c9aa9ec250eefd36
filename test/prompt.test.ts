// The compact text form (toPrompt) on real pages: the fixture pages collected in real Chromium, ranked
// by the Wasm core, then formatted; and options.format "text" through the real server on /v1/snapshot
// and observe map/visual. Every line is parsed back with the grammar docs/prompt-format.md states, so
// a line a model could misread fails here.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { Compile } from 'typebox/compile';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { launch } from './helpers/browser.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { startServer, createKey, balance, removeDataDir, observe, snapshot as postSnapshot, type ServerProcess } from './helpers/server.ts';
import { snapshot, collectPage, click, waitForStable, toPrompt, SightlineApi, PROMPT_MAX_TEXT } from '../src/client/index.ts';
import { rank, toPrompt as libraryToPrompt, PROMPT_FLAGS, PROMPT_NO_VALUE_ROLES } from '../src/index.ts';
import type { RankResult, SnapshotElement, SnapshotRequest } from '../src/schema/snapshot.ts';

let fx: FixtureServer;
let browser: Browser;
let page: Page;
let server: ServerProcess;
let key: string;

before(async () => {
  [fx, browser, server] = await Promise.all([
    serveFixtures(), launch(),
    startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000']),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  key = await createKey(server.dataDir, 10_000);
});
after(async () => {
  await Promise.all([browser.close(), fx.close(), server.stop()]);
  removeDataDir(server.dataDir);
});

async function open(name: string): Promise<void> {
  await page.goto(`${fx.url}/${name}.html`);
  await waitForStable(page, { quietMs: 100 });
}

interface Line { id: number; role: string; flags: string[]; value?: string; text: string }

/** The grammar of docs/prompt-format.md, written out independently of the formatter. */
const HEAD = /^(\d+) ([a-z]+)((?: (?:value="(?:[^"\\]|\\.)*"|[a-z]+))*):(?: (.+))?$/;
function parseLine(line: string): Line {
  const m = HEAD.exec(line);
  assert.ok(m, `line parses: ${JSON.stringify(line)}`);
  const flags: string[] = [];
  let value: string | undefined;
  for (const f of m[3].matchAll(/ (value=("(?:[^"\\]|\\.)*")|[a-z]+)/g)) {
    if (f[2]) { value = JSON.parse(f[2]); flags.push('value='); } else flags.push(f[1]);
  }
  for (const f of flags) assert.ok((PROMPT_FLAGS as readonly string[]).includes(f), `${f} is a flag word`);
  return { id: Number(m[1]), role: m[2], flags, value, text: m[4] ?? '' };
}

function parse(text: string): { header: string; lines: Line[] } {
  const [header, ...rest] = text.split('\n');
  return { header, lines: rest.map(parseLine) };
}

const collapse = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** Each line says what its element is: same id, role, text (cut at maxText), and flags that match its fields. */
function assertLinesMatch(lines: Line[], elements: SnapshotElement[], maxText = PROMPT_MAX_TEXT, ids = elements.map((e) => e.id)): void {
  assert.equal(lines.length, elements.length, 'one line per element');
  elements.forEach((e, i) => {
    const l = lines[i];
    const where = `line ${i} (${e.role} ${JSON.stringify(e.text)})`;
    assert.deepEqual([l.id, l.role], [ids[i], e.role], where);
    // The accessible name where it differs from the text and the text does not hold it; else the text.
    const wordy = (x: string) => /[\p{L}\p{N}]/u.test(x);
    const [t, n] = [collapse(e.text), collapse(e.name)];
    const full = !wordy(t) ? n || t : !wordy(n) || t.toLowerCase().includes(n.toLowerCase()) ? t : n;
    if (full.length <= maxText) assert.equal(l.text, full, where);
    else {
      assert.ok(l.text.endsWith('…') && l.text.length <= maxText, `${where}: cut to ${maxText}`);
      assert.ok(full.startsWith(l.text.slice(0, -1)), `${where}: a prefix`);
    }
    const has = (f: string) => l.flags.includes(f);
    assert.equal(has('covered'), e.is_occluded, `${where}: covered`);
    assert.equal(has('list'), e.in_dominant_group === true, `${where}: list`);
    assert.equal(has('disabled'), e.disabled === true, `${where}: disabled`);
    assert.equal(has('checked'), e.checked === true && e.aria_checked !== 'mixed', `${where}: checked`);
    assert.equal(has('redacted'), e.value_redacted === true, `${where}: redacted`);
    assert.equal(has('above') || has('below') || has('offscreen'), !e.in_viewport && e.diff_status !== 'REMOVED', `${where}: off-screen`);
    const value = collapse(e.value);
    if (value && !e.value_redacted && !PROMPT_NO_VALUE_ROLES.has(e.role)) assert.equal(l.value, value.length <= 40 ? value : `${value.slice(0, 39).trimEnd()}…`, `${where}: value`);
    else assert.equal(l.value, undefined, `${where}: no value`);
    const diff = { ADDED: 'new', REMOVED: 'gone', MODIFIED: 'changed', MOVED: 'moved' } as const;
    for (const [status, word] of Object.entries(diff)) assert.equal(has(word), e.diff_status === status, `${where}: ${word}`);
  });
}

const tokensPerElement = (text: string, n: number) => encode(text).length / n;

describe('toPrompt on fixture pages collected in real Chromium', () => {
  test('login: a header, one parseable line per element, values, checked, disabled and redacted', async () => {
    await open('login');
    await page.fill('#email', 'ada@example.com');
    await page.fill('#password', 'hunter2-very-secret');
    await page.check('#remember');
    const r = await snapshot(page, { limit: 50 });
    const text = toPrompt(r, { title: await page.title() });
    assert.equal(libraryToPrompt(r, { title: await page.title() }), text, 'the library and the client export the same formatter');
    const { header, lines } = parse(text);
    assert.equal(header, `# "Sign in — Acme" ${page.url()} scroll=0`);
    assertLinesMatch(lines, r.elements);
    const line = (pred: (e: SnapshotElement) => boolean) => lines[r.elements.findIndex(pred)];
    assert.equal(line((e) => e.name === 'Email').value, 'ada@example.com');
    assert.ok(line((e) => e.name === 'Password').flags.includes('redacted'), 'a password shows as redacted, never its value');
    assert.doesNotMatch(text, /hunter2/);
    assert.deepEqual(line((e) => e.role === 'checkbox').flags, ['checked'], 'a checkbox shows its state, not the value it submits');
    assert.ok(line((e) => e.text === 'Sign in with passkey').flags.includes('disabled'));
    assert.equal(line((e) => e.role === 'link').text, 'Forgot password?');
    assert.ok(tokensPerElement(text, r.elements.length) <= 12, `≤ 12 tokens per element (o200k): ${tokensPerElement(text, r.elements.length)}`);
  });

  test('shop: the modal in the header, covered elements, an icon button by its name; after closing, the diff', async () => {
    await open('shop');
    const before = await snapshot(page, { limit: 100 });
    const text = toPrompt(before, { title: await page.title() });
    const { header, lines } = parse(text);
    assert.equal(header, `# "Gearshop — headphones" ${page.url()} scroll=0 modal`);
    assertLinesMatch(lines, before.elements);
    const close = before.elements.findIndex((e) => e.text === '×');
    assert.equal(lines[close].text, 'Close', 'an icon shows its accessible name');
    const cart = before.elements.findIndex((e) => e.text === 'Add to cart');
    assert.ok(lines[cart].flags.includes('covered'), 'behind the modal');
    assert.ok(lines.some((l) => l.flags.includes('list')), 'the product grid is the dominant list');

    await click(page, before.elements[close].id);
    await waitForStable(page, { quietMs: 100 });
    const after = await snapshot(page, { limit: 100, previous: before.elements });
    assert.equal(toPrompt(after, { header: false }).split('\n').length, after.elements.length, 'header: false leaves the header out');
    const diffed = parse(toPrompt(after, { maxText: 10 }));
    assertLinesMatch(diffed.lines, after.elements, 10);
    const subscribe = after.elements.findIndex((e) => e.text === 'Subscribe');
    assert.ok(diffed.lines[subscribe].flags.includes('gone'), 'the modal\'s button is gone');
    assert.ok(!diffed.lines[after.elements.findIndex((e) => e.text === 'Add to cart')].flags.includes('covered'));
    assert.ok(diffed.lines.some((l) => l.text === 'NC700 hea…'), 'text cut at maxText 10');
  });

  test('a control whose accessible name differs from its text shows the name Chromium\'s accessibility tree gives it', async () => {
    await page.setContent(`<h1>Security</h1><nav>
      <a href="/a" aria-label="Navigate to Home Security Page"><span>Home Security</span></a>
      <a href="/b" aria-label="Learn more about how we earn money">Learn More</a>
      <button aria-label="Open Compare">Compare</button>
      <span id="lbl">Previous slide</span><button aria-labelledby="lbl"><i aria-hidden="true">‹</i> Prev</button>
      <a href="/cart" title="Cart">Cart (2)</a>
      <button aria-label="Close">×</button>
      <a href="/plain">Plain link</a></nav>`);
    const r = await snapshot(page, { limit: 50 });
    const { lines } = parse(toPrompt(r));
    assertLinesMatch(lines, r.elements);
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree') as { nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[] };
    await cdp.detach();
    const names = nodes.filter((n) => !n.ignored && ['link', 'button'].includes(n.role?.value ?? '')).map((n) => String(n.name?.value));
    assert.equal(names.length, 7, JSON.stringify(names));
    for (const name of names) assert.ok(lines.some((l) => l.text === name), `"${name}" is a line's text: ${JSON.stringify(lines.map((l) => l.text))}`);
    assert.ok(!lines.some((l) => l.text === 'Home Security' || l.text === 'Cart'), 'the text where the name adds to it, the text where it holds the name');
  });

  test('long page scrolled: the scroll position, and elements above and below the viewport', async () => {
    await open('long');
    await page.evaluate(() => scrollTo(0, 2000));
    const r = await snapshot(page, { limit: 100 });
    const { header, lines } = parse(toPrompt(r, { title: await page.title() }));
    assert.equal(header, `# "Changelog — long page" ${page.url()} scroll=2000`);
    assertLinesMatch(lines, r.elements);
    const flagOf = (text: string) => lines[r.elements.findIndex((e) => e.text === text)].flags;
    assert.ok(flagOf('Read the notes for 10.0').includes('above'));
    assert.ok(flagOf('Load older releases').includes('below'));
    assert.ok(!flagOf('Home').some((f) => f === 'above' || f === 'below'), 'the sticky header is in view');
  });
});

test('the README\'s toPrompt example prints what its comments say', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /```ts\nimport \{ rank, toPrompt \}[\s\S]*?```/.exec(readme)?.[0];
  assert.ok(block, 'the example is in the README');
  const expected = [...block.matchAll(/^\/\/ (.*)$/gm)].map((m) => m[1]);
  // The request of the README's library example, above it.
  const request = /```js\nimport \{ rank, createRanker \}[\s\S]*?const request = (\{[\s\S]*?\n\});/.exec(readme)?.[1];
  assert.ok(request);
  const result = await rank(new Function(`return ${request}`)());
  assert.deepEqual(toPrompt(result, { title: 'Gearshop' }).split('\n'), expected);
});

describe('options.format "text" through the real server', () => {
  let responseSchemas: Record<string, ReturnType<typeof Compile>>;
  before(async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    const compile = (name: string) => Compile(doc.components.schemas[name]);
    responseSchemas = Object.fromEntries(['SnapshotResponse', 'SnapshotTextResponse', 'MapResult', 'MapTextResult', 'VisualTextResult', 'SnapshotError', 'ObserveError'].map((n) => [n, compile(n)]));
  });
  const conforms = (name: string, body: unknown) => assert.ok(responseSchemas[name].Check(body), `${name}: ${JSON.stringify([...responseSchemas[name].Errors(body)].slice(0, 2))}`);

  async function payload(name: string): Promise<SnapshotRequest> {
    await open(name);
    const c = await collectPage(page);
    return { url: page.url(), viewport: c.viewport, raw_elements: c.raw_elements as unknown as SnapshotRequest['raw_elements'], client_metrics: c.client_metrics };
  }

  test('/v1/snapshot: text beside the elements, or alone with elements: false; one credit each', async () => {
    const body = await payload('shop');
    const start = await balance(server.dataDir, key);
    const both = await postSnapshot(server.url, key, { ...body, options: { limit: 30, format: 'text' } });
    assert.equal(both.status, 200, JSON.stringify(both.body));
    conforms('SnapshotResponse', both.body);
    assert.equal(both.body.text, toPrompt(both.body as RankResult), 'the server\'s text is toPrompt of its own result');
    const { header, lines } = parse(both.body.text);
    assert.equal(header, `# ${body.url} scroll=0 modal`);
    assertLinesMatch(lines, both.body.elements);

    const only = await postSnapshot(server.url, key, { ...body, options: { limit: 30, format: 'text', elements: false } });
    assert.equal(only.status, 200);
    conforms('SnapshotTextResponse', only.body);
    assert.equal(only.body.elements, undefined);
    assert.equal(only.body.text, both.body.text);
    assert.ok(JSON.stringify(only.body).length < JSON.stringify(both.body).length / 3, 'the text alone is a fraction of the JSON');

    const json = await postSnapshot(server.url, key, { ...body, options: { limit: 30 } });
    assert.equal(json.body.text, undefined, 'no text unless asked');
    assert.equal(await balance(server.dataDir, key), start - 3);

    const api = new SightlineApi({ baseUrl: server.url, apiKey: key });
    const viaClient = await api.snapshot({ ...body, options: { limit: 30, format: 'text', elements: false } });
    assert.equal(viaClient.text, both.body.text);
  });

  test('/v1/snapshot: bad format or elements values are 400 in the SPEC error shape and cost nothing', async () => {
    const body = await payload('login');
    const start = await balance(server.dataDir, key);
    for (const [options, field] of [[{ format: 'yaml' }, 'options.format'], [{ format: 5 }, 'options.format'], [{ format: 'text', elements: 'no' }, 'options.elements'], [{ elements: false }, 'options.elements']] as const) {
      const res = await postSnapshot(server.url, key, { ...body, options });
      assert.equal(res.status, 400, JSON.stringify(options));
      conforms('SnapshotError', res.body);
      assert.equal(res.body.error_code, 'bad_request');
      assert.match(res.body.error, new RegExp(`^Invalid request: ${field.replace('.', '\\.')}`));
      assert.equal(res.body.credits_remaining, start);
    }
    assert.equal(await balance(server.dataDir, key), start);
  });

  test('observe map: text with the page title and the result\'s own ids; elements: false; the dom shape\'s uids', async () => {
    const url = `${fx.url}/login.html`;
    const start = await balance(server.dataDir, key);
    const both = await observe(server, key, { url, mode: 'map', options: { format: 'text' } });
    assert.equal(both.status, 200, JSON.stringify(both.body));
    conforms('MapResult', both.body);
    const { header, lines } = parse(both.body.text);
    assert.equal(header, `# "Sign in — Acme" ${url} scroll=0`);
    const els = both.body.interactable_elements as { id: number; role: string; text: string }[];
    assert.deepEqual(lines.map((l) => [l.id, l.role]), els.map((e) => [e.id, e.role]), 'ids 0..n-1 as in interactable_elements');
    assert.deepEqual(lines.map((l) => l.text), els.map((e) => e.text.slice(0, PROMPT_MAX_TEXT)));

    const only = await observe(server, key, { url, mode: 'map', options: { format: 'text', elements: false } });
    assert.equal(only.status, 200);
    conforms('MapTextResult', only.body);
    assert.equal(only.body.interactable_elements, undefined);
    assert.deepEqual(parse(only.body.text).lines.map((l) => [l.id, l.role, l.text]), lines.map((l) => [l.id, l.role, l.text]));

    const dom = await observe(server, key, { url, mode: 'map', options: { format: 'text', element_shape: 'dom', limit: 5 } });
    assert.deepEqual(parse(dom.body.text).lines.map((l) => String(l.id)), dom.body.interactable_elements.map((e: { uid: string }) => e.uid));
    assert.equal(await balance(server.dataDir, key), start - 6, 'map costs 2 credits, with or without text');
  });

  test('observe visual: the text with the screenshot; bad values are 400 and cost nothing', async () => {
    const url = `${fx.url}/shop.html`;
    const visual = await observe(server, key, { url, mode: 'visual', options: { format: 'text', elements: false, screenshot_delivery: 'base64', limit: 10 } });
    assert.equal(visual.status, 200, JSON.stringify(visual.body).slice(0, 300));
    conforms('VisualTextResult', visual.body);
    assert.equal(visual.body.screenshot.type, 'base64');
    const { header, lines } = parse(visual.body.text);
    assert.equal(header, `# "Gearshop — headphones" ${url} scroll=0 modal`);
    assert.deepEqual(lines.map((l) => l.id), [...lines.keys()]);

    const start = await balance(server.dataDir, key);
    for (const options of [{ format: 'yaml' }, { format: 'text', elements: 0 }, { elements: false }]) {
      const res = await observe(server, key, { url, mode: 'map', options });
      assert.equal(res.status, 400, JSON.stringify(options));
      conforms('ObserveError', res.body);
      assert.equal(res.body.error, 'bad_request');
      assert.match(res.body.message, /options\.(format|elements)/);
    }
    assert.equal(await balance(server.dataDir, key), start);
  });
});
