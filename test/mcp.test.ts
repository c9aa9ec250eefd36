// `sightline mcp` driven by the MCP SDK's own client over stdio: a real server process, real Chromium
// and the fixture pages served from localhost, through every tool.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { readPng } from './helpers/png.ts';
import { FRAME_ID_SPAN } from '../src/collect/types.ts';
import { McpTools } from '../src/schema/mcp.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
interface Result { content: Content[]; isError?: boolean }
interface Line { id: number; role: string; flags: string[]; text: string }

let fx: FixtureServer;
let client: Client;
let transport: StdioClientTransport;

function start(): Promise<void> {
  transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/cli/main.ts', 'mcp'], cwd: ROOT, stderr: 'pipe' });
  client = new Client({ name: 'sightline-test', version: '1.0.0' });
  return client.connect(transport);
}

before(async () => {
  fx = await serveFixtures();
  await start();
});
after(async () => {
  await client.close().catch(() => undefined);
  await fx.close();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return await client.callTool({ name, arguments: args }) as Result;
}
const textOf = (r: Result) => r.content.filter((c): c is Extract<Content, { type: 'text' }> => c.type === 'text').map((c) => c.text).join('\n');

/** Calls a tool that must succeed; its text. */
async function ok(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = await call(name, args);
  assert.ok(!r.isError, `${name} ${JSON.stringify(args)} failed: ${textOf(r)}`);
  return textOf(r);
}

/** Calls a tool that must fail with a tool error (never a protocol error); its message. */
async function fails(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await call(name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail but said: ${textOf(r)}`);
  return textOf(r);
}

/** The element lines of a snapshot (toPrompt's grammar: "<id> <role>[ <flag>...]: <text>", a value
 *  flag being value= and a JSON string). */
function lines(snapshot: string): Line[] {
  const LINE = /^(\d+) (\S+?)((?: (?:value="(?:[^"\\]|\\.)*"|[a-z]+))*):(?: (.*))?$/;
  return snapshot.split('\n').filter((l) => /^\d+ /.test(l)).map((l) => {
    const m = LINE.exec(l);
    assert.ok(m, `a line of the grammar: ${l}`);
    return { id: Number(m[1]), role: m[2], flags: [...m[3].matchAll(/value="(?:[^"\\]|\\.)*"|[a-z]+/g)].map((f) => f[0]), text: m[4] ?? '' };
  });
}

function pick(snapshot: string, role: string, text: string | RegExp, where: (l: Line) => boolean = () => true): Line {
  const found = lines(snapshot).find((l) => l.role === role && (typeof text === 'string' ? l.text === text : text.test(l.text)) && where(l));
  assert.ok(found, `${role} ${String(text)} in:\n${snapshot}`);
  return found;
}

const open = (name: string) => ok('navigate', { url: `${fx.url}/${name}.html` });

/** Every process below `pid` with its command line. */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...children.get(ppid) ?? [], Number(name)]);
    } catch { /* gone meanwhile */ }
  }
  const out: { pid: number; cmd: string }[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      let cmd = '';
      try { cmd = readFileSync(`/proc/${c}/cmdline`, 'utf8').replaceAll('\0', ' '); } catch { /* gone */ }
      out.push({ pid: c, cmd });
      walk(c);
    }
  };
  walk(pid);
  return out;
}
const browsers = (pid: number) => descendants(pid).filter((p) => /chrom/i.test(p.cmd));

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('sightline mcp over stdio', () => {
  test('lists every tool with its typebox schema as inputSchema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(McpTools).sort());
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok(t.description, t.name);
    }
    assert.deepEqual(Object.keys(tools.find((t) => t.name === 'snapshot')!.inputSchema.properties ?? {}).sort(), ['filter', 'goal', 'limit', 'max_tokens', 'since_last']);
  });

  test('login: type, check and click by ids that stay the same across snapshots', async () => {
    const header = await open('login');
    assert.match(header, /^# "Sign in — Acme" http:\/\/127\.0\.0\.1:\d+\/login\.html scroll=0$/);
    const first = await ok('snapshot', { goal: 'sign in with email and password' });
    assert.ok(first.startsWith(header), first);
    const email = pick(first, 'textbox', 'Email');
    const remember = pick(first, 'checkbox', /Keep me signed in/);
    const submit = pick(first, 'button', 'Sign in');
    assert.equal(lines(first).find((l) => l.text === 'Sign in with passkey')?.flags.includes('disabled'), true);

    assert.match(await ok('type', { id: email.id, text: 'ada@example.com' }), /typed "ada@example.com" into \d+ textbox/);
    assert.match(await ok('check', { id: remember.id }), /^checked /);
    const second = await ok('snapshot', { goal: 'sign in with email and password' });
    assert.equal(pick(second, 'textbox', 'Email').id, email.id, 'same id for the email field');
    assert.equal(pick(second, 'textbox', 'Email').flags[0], 'value="ada@example.com"');
    assert.equal(pick(second, 'checkbox', /Keep me signed in/).id, remember.id);
    assert.ok(pick(second, 'checkbox', /Keep me signed in/).flags.includes('checked'));
    assert.equal(pick(second, 'button', 'Sign in').id, submit.id);

    await ok('click', { id: submit.id });
    assert.match(await ok('wait_for', { text: 'Submitted as ada@example.com' }), /^found/);
    assert.match(await ok('check', { id: remember.id, checked: false }), /^unchecked /);
    assert.ok(!pick(await ok('snapshot', {}), 'checkbox', /Keep me signed in/).flags.includes('checked'));
  });

  test('shop: the modal covers the grid, closing it shows in the since_last diff', async () => {
    await open('shop');
    const before = await ok('snapshot', { goal: 'close the popup', limit: 100 });
    assert.match(before.split('\n')[0], / modal$/);
    const close = pick(before, 'button', 'Close');
    const add = pick(before, 'button', 'Add to cart');
    assert.ok(add.flags.includes('covered'), 'the grid is under the modal');
    assert.match(await fails('click', { id: add.id, timeout_ms: 1000 }), new RegExp(`element ${add.id} is covered by another element`));

    await ok('click', { id: close.id });
    const diff = await ok('snapshot', { since_last: true, limit: 100 });
    const changed = lines(diff);
    assert.ok(changed.length > 0 && changed.length < lines(before).length, diff);
    assert.ok(changed.every((l) => l.flags.some((f) => ['new', 'gone', 'changed', 'moved'].includes(f))), diff);
    assert.ok(changed.some((l) => l.text === 'Subscribe' && l.flags.includes('gone')), diff);
    assert.ok(!diff.split('\n')[0].endsWith(' modal'), 'no modal after closing it');
    assert.match(await ok('snapshot', { since_last: true }), /no change since the last snapshot/);
    // The grid's buttons kept their ids and are no longer covered.
    const after = await ok('snapshot', { limit: 100 });
    assert.equal(lines(after).find((l) => l.id === add.id)?.flags.includes('covered'), false);
  });

  test('shadow DOM: type into and click inside open shadow roots', async () => {
    await open('shadow');
    const s = await ok('snapshot', {});
    await ok('type', { id: pick(s, 'textbox', /Message|Type a message/).id, text: 'hi there' });
    await ok('click', { id: pick(s, 'button', 'Send').id });
    await ok('wait_for', { text: 'clicks: 1' });
    assert.equal(pick(await ok('snapshot', {}), 'textbox', /Message|Type a message/).flags[0], 'value="hi there"');
  });

  test('frames: type into a cross-origin frame and submit with Enter', async () => {
    await open('frames');
    const s = await ok('snapshot', {});
    const cross = pick(s, 'textbox', 'City', (l) => l.id >= FRAME_ID_SPAN);
    const same = pick(s, 'textbox', 'City', (l) => l.id < FRAME_ID_SPAN);
    await ok('type', { id: cross.id, text: 'Lisbon', submit: true });
    await ok('wait_for', { text: 'sent Lisbon' });
    await ok('type', { id: same.id, text: 'Porto', submit: true });
    await ok('wait_for', { text: 'sent Porto' });
    const again = await ok('snapshot', {});
    assert.equal(pick(again, 'textbox', 'City', (l) => l.id === cross.id).flags[0], 'value="Lisbon"');
  });

  test('controls: select an option, hover to reveal a menu, press keys', async () => {
    await open('controls');
    const s = await ok('snapshot', {});
    const lang = pick(s, 'combobox', 'Language');
    assert.match(await ok('select_option', { id: lang.id, values: 'Deutsch' }), /selected \["de"\]/);
    await ok('wait_for', { text: 'language de' });
    assert.match(await fails('select_option', { id: lang.id, values: 'Klingon', timeout_ms: 500 }), /no such option|could not select/);
    assert.match(await fails('select_option', { id: pick(s, 'button', 'Account').id, values: 'x', timeout_ms: 500 }), /not a <select>/);

    assert.doesNotMatch(s, /Profile/, 'the menu is hidden before hovering');
    await ok('hover', { id: pick(s, 'button', 'Account').id });
    const menu = await ok('snapshot', {});
    const profile = pick(menu, 'link', 'Profile');
    await ok('wait_for', { id: profile.id });

    await ok('press_key', { id: pick(s, 'textbox', 'Shortcut').id, key: 'Escape' });
    await ok('wait_for', { text: 'key Escape' });
    await ok('press_key', { key: 'a' }); // the field still has focus
    await ok('wait_for', { text: 'key a' });
  });

  test('long page: scroll the page and an element into view', async () => {
    await open('long');
    const s = await ok('snapshot', {});
    const more = pick(s, 'button', 'Load older releases');
    assert.ok(more.flags.includes('below'), 'below the fold at first');
    assert.match(await ok('scroll', { direction: 'down', pixels: 600 }), /scroll=600/);
    assert.match(await ok('scroll', { direction: 'top' }), /scroll=0/);
    await ok('scroll', { id: more.id });
    const seen = pick(await ok('snapshot', {}), 'button', 'Load older releases');
    assert.equal(seen.id, more.id);
    assert.ok(!seen.flags.includes('below'), `in view now: ${seen.flags.join(' ')}`);
    await ok('click', { id: more.id });
    await ok('wait_for', { text: 'Loaded', id: more.id });
    assert.match(await ok('wait_for', { stable: true }), /stable/);
  });

  test('app layout: the messages below a scrolling container\'s fold are listed as below, and scroll moves that container', async () => {
    await open('app-shell');
    const s = await ok('snapshot', { limit: 100 });
    const last = pick(s, 'button', 'Message 39');
    assert.ok(last.flags.includes('below'), `below the fold at first: ${last.flags.join(' ')}`);
    await ok('scroll', { direction: 'bottom' });
    const seen = pick(await ok('snapshot', { limit: 100 }), 'button', 'Message 39');
    assert.equal(seen.id, last.id);
    assert.ok(!seen.flags.includes('below'), `in view after scrolling the container: ${seen.flags.join(' ')}`);
    await ok('scroll', { direction: 'top' });
    assert.ok(pick(await ok('snapshot', { limit: 100 }), 'button', 'Message 39').flags.includes('below'), 'and back');
  });

  test('since_last lists what a re-render gave new ids, though it looks the same, and the new id acts', async () => {
    await open('rerender');
    const first = await ok('snapshot', {});
    const save = pick(first, 'button', 'Save');
    await ok('click', { id: pick(first, 'button', 'Refresh').id });
    await ok('wait_for', { stable: true });
    const since = await ok('snapshot', { since_last: true });
    assert.ok(!since.includes('(no change since the last snapshot)'), since);
    const again = pick(since, 'button', 'Save');
    assert.notEqual(again.id, save.id, 'a new node, a new id');
    assert.match(since, /re-rendered under new ids/);
    await ok('click', { id: again.id });
    await ok('wait_for', { stable: true });
    assert.match(await ok('snapshot', {}), /^# "saved"/m);
  });

  test('since_last after scrolling: scrolling is not a change, and the header keeps the scroll', async () => {
    await open('long');
    await ok('snapshot', {});
    await ok('scroll', { direction: 'down', pixels: 600 });
    const since = await ok('snapshot', { since_last: true });
    assert.match(since, /scroll=600/, since);
    assert.ok(!/ moved\b/.test(since), `nothing moved on the page:\n${since}`);
    assert.match(since, /\(no change since the last snapshot\)/);
  });

  test('read: the page as Markdown through the extractor', async () => {
    await open('search');
    const md = await ok('read', {});
    assert.match(md, /^# Findit — wireless headphones/);
    assert.match(md, /\[The best wireless headphones of 2026\]\(https:\/\/audio\.example\/best-wireless-2026\)/);
  });

  test('navigate back, forward and reload; a failed navigation is a tool error', async () => {
    await open('login');
    await open('search');
    assert.match(await ok('navigate', { action: 'back' }), /\/login\.html/);
    assert.match(await ok('navigate', { action: 'forward' }), /\/search\.html/);
    assert.match(await ok('navigate', { action: 'reload' }), /\/search\.html/);
    assert.match(await fails('navigate', { url: 'http://127.0.0.1:9/' }), /^navigation failed: net::ERR_/);
    // Chromium's error page must not interrupt the next navigation.
    assert.match(await open('search'), /\/search\.html/);
    assert.match(await fails('navigate', { url: 'http://127.0.0.1:9/' }), /^navigation failed: net::ERR_/);
    assert.match(await fails('navigate', { url: 'file:///etc/passwd' }), /only http and https/);
    assert.match(await fails('navigate', { url: 'not a url' }), /is not a URL/);
    assert.match(await fails('navigate', {}), /either url or action/);
  });

  test('tool errors: unknown ids, bad arguments, unknown tools', async () => {
    await open('login');
    assert.match(await fails('click', { id: 1 }), /no snapshot of this tab yet|not in the latest snapshot/);
    await ok('snapshot', {});
    assert.match(await fails('click', { id: 999_999 }), /^unknown id 999999: not in the latest snapshot/);
    assert.match(await fails('type', { id: 'x', text: 'a' }), /^invalid arguments for type: \/id/);
    assert.match(await fails('type', { text: 'a' }), /^invalid arguments for type/);
    assert.match(await fails('no_such_tool', {}), /unknown tool "no_such_tool"/);
    assert.match(await fails('wait_for', { text: 'never on this page', timeout_ms: 300 }), /expected the page to have text "never on this page" within 300 ms, but the page text is/);
    // After all that the server still answers.
    assert.match(await ok('snapshot', {}), /Sign in/);
  });

  test('an annotated screenshot is a PNG with the ids\' boxes drawn', async () => {
    await open('login');
    const plain = await call('screenshot', {});
    const marked = await call('screenshot', { annotate: true, limit: 5 });
    const image = (r: Result) => {
      const c = r.content.find((x) => x.type === 'image');
      assert.ok(c && c.type === 'image' && c.mimeType === 'image/png', JSON.stringify(r.content.map((x) => x.type)));
      return readPng(Buffer.from(c.data, 'base64'));
    };
    const a = image(plain), b = image(marked);
    assert.equal(a.width, 1280);
    assert.equal(b.height, 800);
    // The listing next to the image names the boxes drawn.
    const drawn = lines(textOf(marked));
    assert.equal(drawn.length, 5);
    // Box outlines are #1a73e8 (or #d33 when covered): count such pixels that the plain shot lacks.
    const blue = (p: [number, number, number]) => Math.abs(p[0] - 0x1a) < 30 && Math.abs(p[1] - 0x73) < 30 && Math.abs(p[2] - 0xe8) < 30;
    let added = 0;
    for (let y = 0; y < b.height; y += 2) for (let x = 0; x < b.width; x += 2) if (blue(b.pixel(x, y)) && !blue(a.pixel(x, y))) added++;
    assert.ok(added > 200, `${added} box pixels drawn`);
    // And the overlay is removed afterwards: a new plain shot has none of them.
    const again = image(await call('screenshot', {}));
    let left = 0;
    for (let y = 0; y < again.height; y += 2) for (let x = 0; x < again.width; x += 2) if (blue(again.pixel(x, y)) && !blue(a.pixel(x, y))) left++;
    assert.equal(left, 0);
  });

  test('a screenshot waits out a page that fades in, and says so when the page never shows', async () => {
    const shot = async () => {
      const r = await call('screenshot', {});
      const c = r.content.find((x) => x.type === 'image');
      assert.ok(c && c.type === 'image');
      const png = readPng(Buffer.from(c.data, 'base64'));
      let dark = 0; // text pixels: a transparent page is all white
      for (let y = 0; y < 200; y += 2) for (let x = 0; x < 640; x += 2) if (png.pixel(x, y).every((v) => v < 128)) dark++;
      return { text: textOf(r), dark };
    };
    await ok('navigate', { url: `${fx.url}/faded.html?lift=1000` });
    const lifted = await shot();
    assert.doesNotMatch(lifted.text, /page_fading/);
    assert.ok(lifted.dark > 50, `the page is drawn (${lifted.dark} dark pixels)`);
    await open('faded');
    const never = await shot();
    assert.match(never.text, /page_fading: the page was still fading in/);
    assert.equal(never.dark, 0, 'captured blank, as said');
  });

  test('tabs: a link opening a new tab, list, switch and close', async () => {
    await open('controls');
    const s = await ok('snapshot', {});
    await ok('click', { id: pick(s, 'link', 'Open sign-in in a new tab').id });
    let listed = '';
    for (const deadline = Date.now() + 5000; Date.now() < deadline && listed.split('\n').length < 2;) listed = await ok('tabs', { action: 'list' });
    assert.equal(listed.split('\n').length, 2, listed);
    assert.match(listed, /^0\* "Settings — controls"/m);
    assert.match(listed, /^1  .*\/login\.html$/m);
    assert.match(await ok('tabs', { action: 'switch', index: 1 }), /^1\* /m);
    await ok('wait_for', { text: 'Keep me signed in' });
    assert.match(await ok('snapshot', {}), /^# "Sign in — Acme"/);
    assert.match(await ok('tabs', { action: 'open', url: `${fx.url}/search.html` }), /^2\* "Findit/m);
    assert.match(await fails('tabs', { action: 'switch', index: 7 }), /no tab 7: there are 3 tabs/);
    const closed = await ok('tabs', { action: 'close', index: 2 });
    assert.equal(closed.split('\n').length, 2, closed);
    assert.doesNotMatch(closed, /Findit/);
    await ok('tabs', { action: 'close', index: 1 });
    assert.match(await ok('tabs', { action: 'list' }), /^0\* "Settings — controls"/);
  });

  test('close ends the browser; the next call opens a new one; the server leaves none behind', async () => {
    await open('login');
    const pid = transport.pid!;
    assert.ok(browsers(pid).length > 0, 'a browser runs under the server');
    assert.equal(await ok('close', {}), 'browser closed');
    assert.ok(await until(() => browsers(pid).length === 0, 5000), `left: ${JSON.stringify(browsers(pid))}`);
    assert.equal(await ok('close', {}), 'no browser was open');

    await open('login');
    assert.ok(browsers(pid).length > 0);
    await client.close();
    const gone = await until(() => { try { process.kill(pid, 0); return false; } catch { return true; } }, 10_000);
    assert.ok(gone, 'the server exits when its client goes');
    assert.equal(descendants(pid).length, 0);
    const stray = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).filter((n) => {
      try { return readFileSync(`/proc/${n}/cmdline`, 'utf8').includes('playwright') && readFileSync(`/proc/${n}/stat`, 'utf8').includes(` ${pid} `); } catch { return false; }
    });
    assert.deepEqual(stray, []);
  });
});
