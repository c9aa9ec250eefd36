// What a read answers, shape by shape, through the real server reading pages from a local site: the `text`
// format keeps a table's cells and a code block's lines apart, contentLimit never leaves broken Markdown,
// links keep only schemes a renderer may follow, content types and charsets are read as a browser reads
// them, and a URL that cannot be loaded is refused before any credit is held.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveSite, observe, createKey, balance, type ServedSite } from './helpers/server.ts';

const PROSE = 'This paragraph is long enough to be the main content, with commas, clauses and prose that goes on for a while. ';
const FR = 'Un café crème coûte 3 € à la terrasse — «très bon». '.repeat(6);
/** windows-1252 bytes of a string (the few characters above Latin-1 it needs here). */
const cp1252 = (s: string) => Buffer.from([...s].map((c) => ({ '€': 0x80, '—': 0x97 } as Record<string, number>)[c] ?? c.charCodeAt(0)));
const page = (body: string) => `<html><head><title>T</title></head><body><article><h1>Heading</h1><p>${PROSE}</p>${body}</article></body></html>`;

const ROUTES: Record<string, [string | null, string | Buffer] | ((res: ServerResponse) => void)> = {
  '/table': ['text/html', page(`<table><tr><th>Zone</th><th>Adult</th><th>Child</th></tr><tr><td>1</td><td>12</td><td>6</td></tr><tr><td>2</td><td>18</td><td>9</td></tr></table><pre><code>def f():\n    return 1\n\ndef g():\n    return 2</code></pre>`)],
  '/lines.txt': ['text/plain', 'line one\nline two\n    indented three\n'],
  '/links': ['text/html', page(`<p>${PROSE}Links: <a href="JavaScript:alert(1)">Upper</a>, <a href=" javascript:alert(2)">Spaced</a>, <a href="java\tscript:alert(3)">Tabbed</a>, <a href="vbscript:msgbox(4)">VB</a>, <a href="data:text/html,x">Data</a>, <a href="http://[bad">Broken</a>, <a href="/intro">the intro</a>, <a href="mailto:desk@example.com">mail us</a>, <a href="tel:+441234567890">call us</a>.</p>`)],
  '/long-table': ['text/html', page(`<table><tr><th>Name</th><th>Value</th></tr>${Array.from({ length: 80 }, (_, i) => `<tr><td>row ${i} name</td><td>value ${i}</td></tr>`).join('')}</table>`)],
  '/long-code': ['text/html', page(`<pre><code class="language-python">${Array.from({ length: 60 }, (_, i) => `def f${i}():\n    return ${i}`).join('\n\n')}</code></pre><p>${PROSE}</p>`)],
  '/long-link': ['text/html', page(`<p>${'word '.repeat(200)}<a href="/a-page-with-a-long-address">a link whose text runs on for quite a few words</a> and more words after it.</p>`)],
  '/emoji': ['text/html', page(`<p>${'😀'.repeat(400)}</p>`)],
  '/png-untyped': [null, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1024, 7)])],
  '/html-untyped': [null, page(`<p>${PROSE}</p>`)],
  '/empty-type': ['', page(`<p>${PROSE}</p>`)],
  '/notes.md': ['text/markdown; charset=utf-8', '# Release notes\n\nVersion 2.0 adds a reader, a writer, and a better cache.\n'],
  '/data.json': ['application/json', '{"name": "night bus", "fare": 3}'],
  '/meta-utf16': ['text/html', Buffer.from(`<html><head><meta charset="utf-16"><title>Café</title></head><body><article><h1>Café</h1><p>${FR}</p></article></body></html>`, 'utf8')],
  '/undeclared-1252': ['text/html', cp1252(`<html><head><title>Café</title></head><body><article><h1>Café</h1><p>${FR}</p></article></body></html>`)],
  '/xhtml-sjis': ['application/xhtml+xml', Buffer.concat([
    Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><article><h1>'),
    Buffer.from('8ca98f6f82b5', 'hex'), // 見出し
    Buffer.from('</h1><p>'), Buffer.from('836583588367967b95b682c582b7'.repeat(20), 'hex'), // テスト本文です
    Buffer.from('</p></article></body></html>')])],
  '/café': ['text/html; charset=utf-8', `<html><head><title>Café</title></head><body><article><h1>Café page</h1><p>${FR}</p></article></body></html>`],
  '/to-cafe': (res) => { res.writeHead(302, { location: Buffer.from('/café', 'utf8').toString('latin1') }); res.end(); },
};

let s: ServedSite;
before(async () => {
  s = await serveSite((req: IncomingMessage, res: ServerResponse) => {
    const route = ROUTES[decodeURIComponent((req.url ?? '/').split('?')[0])];
    if (!route) { res.writeHead(404); res.end(); return; }
    if (typeof route === 'function') { route(res); return; }
    const [type, body] = route;
    res.writeHead(200, type === null ? {} : { 'content-type': type });
    res.end(body);
  }, ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000'], 1000);
});
after(() => s.stop());

const read = (path: string, extra: object = {}) => observe(s.server, s.key, { url: s.site + path, ...extra });

test('text format: a table\'s cells apart by tabs and its rows by lines, code and text/plain keep their lines', async () => {
  const t = (await read('/table', { format: 'text' })).body.content as string;
  assert.match(t, /^Zone\tAdult\tChild\n1\t12\t6\n2\t18\t9$/m, t);
  assert.match(t, /def f\(\):\n {4}return 1\n\ndef g\(\):/, t);
  const plain = (await read('/lines.txt', { format: 'text' })).body.content as string;
  assert.equal(plain, 'line one\nline two\n    indented three');
});

test('links keep only http(s), mailto, tel and ftp addresses: script, data and broken ones lose their href, in every format and in links', async () => {
  const r = (await read('/links', { options: { include_links: true } })).body;
  const html = (await read('/links', { format: 'html' })).body.content as string;
  for (const text of [r.content as string, html]) {
    assert.ok(!/script:|data:text|\[bad/i.test(text), text);
    assert.match(text, /Upper/, 'the text of a dropped link stays');
  }
  assert.match(r.content, /\[the intro\]\(http:\/\/127\.0\.0\.1:\d+\/intro\)/);
  assert.match(r.content, /\[call us\]\(tel:\+441234567890\)/, 'a phone link keeps its href');
  assert.deepEqual(r.links.map((l: { url: string }) => l.url), [`${s.site}/intro`, 'mailto:desk@example.com']);
});

test('contentLimit in Markdown: a table is cut between rows, a code block is closed, a link is not cut inside, no half emoji', async () => {
  const table = (await read('/long-table', { options: { contentLimit: 700 } })).body;
  assert.equal(table.truncated, true);
  assert.ok(table.content.length <= 700, `${table.content.length}`);
  assert.match(table.content, /\| row \d+ name \| value \d+ \|$/, table.content.slice(-80));
  const code = (await read('/long-code', { options: { contentLimit: 600 } })).body;
  assert.ok(code.content.length <= 600, `${code.content.length}`);
  assert.equal((code.content.match(/^```/gm) ?? []).length % 2, 0, code.content.slice(-80));
  assert.match(code.content, /```$/);
  const link = (await read('/long-link', { options: { contentLimit: 1110 } })).body;
  assert.ok(!/\[[^\]]*$/.test(link.content), link.content.slice(-80));
  for (const format of ['markdown', 'text']) {
    const emoji = (await read('/emoji', { format, options: { contentLimit: 301 } })).body.content as string;
    assert.ok(!/[\ud800-\udbff]$/.test(emoji), `${format}: ends in half a character`);
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(emoji), `${format}: no lone surrogate`);
  }
});

test('content types as a browser reads them: untyped bytes sniffed, Markdown and JSON read as text, images refused free', async () => {
  const before = await balance(s.server.dataDir, s.key);
  const png = await read('/png-untyped');
  assert.equal(png.status, 422, JSON.stringify(png.body));
  assert.equal(png.body.error, 'unsupported_content_type');
  assert.match(png.body.message, /no Content-Type and its bytes are not text/);
  assert.equal(await balance(s.server.dataDir, s.key), before, 'not charged');
  for (const path of ['/html-untyped', '/empty-type']) {
    const r = await read(path);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    assert.match(r.body.content, /long enough to be the main content/);
  }
  const md = await read('/notes.md', { format: 'text' });
  assert.equal(md.status, 200, JSON.stringify(md.body));
  assert.equal(md.body.content, '# Release notes\n\nVersion 2.0 adds a reader, a writer, and a better cache.');
  const json = await read('/data.json', { format: 'text' });
  assert.equal(json.body.content, '{"name": "night bus", "fare": 3}');
});

test('charsets: a <meta> claiming UTF-16 is read as UTF-8, an undeclared legacy page as windows-1252, an XML declaration is honoured', async () => {
  for (const path of ['/meta-utf16', '/undeclared-1252']) {
    const r = (await read(path)).body;
    assert.match(r.content, /Un café crème coûte 3 € à la terrasse — «très bon»/, `${path}: ${r.content.slice(0, 80)}`);
  }
  const x = (await read('/xhtml-sjis')).body;
  assert.match(x.content, /見出し/, x.content.slice(0, 60));
  assert.match(x.content, /テスト本文です/);
});

test('a redirect whose Location holds raw UTF-8 goes where the server meant', async () => {
  const r = await read('/to-cafe');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.match(r.body.content, /Café page/);
  assert.deepEqual(r.body.redirects, [`${s.site}/to-cafe`]);
});

test('a URL that cannot be loaded is refused (400, or 403 for credentials) before credits are held: a key with none hears why, not 402', async () => {
  const empty = await createKey(s.server.dataDir, 0);
  const cases = [['not a url', 400, 'invalid_url', /not a valid URL/], ['ftp://example.com/file', 400, 'invalid_url', /ftp: URLs are not allowed/],
    ['http://user:pw@example.com/', 403, 'blocked_url', /credentials/]] as const; // a valid URL the service refuses: 403, as before
  for (const [url, status, error, message] of cases) {
    for (const mode of ['read', 'map']) {
      const r = await observe(s.server, empty, { url, mode });
      assert.equal(r.status, status, `${mode} ${url}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error, error);
      assert.match(r.body.message, message);
    }
  }
  assert.equal((await observe(s.server, empty, { url: `${s.site}/table` })).status, 402, 'a valid URL with no credits is still 402');
});
