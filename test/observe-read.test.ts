// POST /v1/observe, read mode, end to end: the real server process reads real pages from a local HTTP
// server (loopback opened with --egress-allow 127.0.0.1/32 only), and refuses private addresses.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { startServer, createKey, balance, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { GUARD_CASES } from './helpers/guard-cases.ts';

const ARTICLE = readFileSync(new URL('./fixtures/read/article.html', import.meta.url), 'utf8');
let pages: Server;
let site: string;
let server: ServerProcess;
let closed: ServerProcess;
let key: string;

function route(path: string, res: import('node:http').ServerResponse): void {
  const html = (body: string | Buffer, type = 'text/html; charset=utf-8') => { res.writeHead(200, { 'content-type': type }); res.end(body); };
  const m = /^\/r(\d)$/.exec(path);
  if (m) { res.writeHead(302, { location: Number(m[1]) < 3 ? `/r${Number(m[1]) + 1}` : '/article' }); res.end(); return; }
  const loop = /^\/loop(\d+)$/.exec(path);
  if (loop) { res.writeHead(301, { location: `/loop${Number(loop[1]) + 1}` }); res.end(); return; }
  switch (path) {
    case '/article': return html(ARTICLE);
    case '/one-block': return html(`<html><head><title>One block</title></head><body><article><h1>${'A very long heading about night buses & fares '.repeat(3)}</h1><p>${'Routes run every thirty minutes between midnight and five, with a <em>flat</em> fare & free transfers. '.repeat(30)}</p></article></body></html>`);
    case '/latin1': return html(Buffer.from('<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><article><h1>Caf\xe9 cr\xe8me</h1><p>Un caf\xe9 cr\xe8me co\xfbte 3 \x80 \xe0 la terrasse, servi avec un croissant chaud et beaucoup de patience.</p></article></body></html>', 'latin1'), 'text/html');
    case '/gzip': res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }); res.end(gzipSync(ARTICLE)); return;
    case '/br': res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' }); res.end(brotliCompressSync(ARTICLE)); return;
    case '/404': res.writeHead(404, { 'content-type': 'text/html' }); res.end('<h1>Not found</h1>'); return;
    case '/500': res.writeHead(500, { 'content-type': 'text/html' }); res.end('<h1>Oops</h1>'); return;
    case '/pdf': return html(Buffer.from('%PDF-1.4 ...'), 'application/pdf');
    case '/png': return html(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image/png');
    case '/huge': return html('<html><body><article>' + '<p>All work and no play makes Jack a dull boy. </p>'.repeat(50_000) + '</article></body></html>');
    case '/hang': res.writeHead(200, { 'content-type': 'text/html' }); res.write('<html><body><p>Loading'); return; // never ends
    case '/app': return html(`<html><head><title>App</title></head><body><div id="root"></div><script>
      document.getElementById('root').innerHTML = '<article><h1>Rendered by script</h1>' +
        '<p>' + 'This paragraph exists only after the script runs in a browser, which a plain fetch never sees. '.repeat(6) + '</p></article>';
      </script></body></html>`);
    case '/leaky': return html(`<html><body><article><h1>Leaky page</h1><p>${'A page that tries to reach private addresses from the browser. '.repeat(8)}</p>
      <img src="http://10.0.0.1/pixel.png"><iframe src="http://169.254.169.254/latest/meta-data/"></iframe>
      <script>fetch('http://192.168.1.1/steal').catch(() => {}); try { new WebSocket('ws://10.1.1.1/socket'); } catch {}</script></article></body></html>`);
    case '/slow': setTimeout(() => html(ARTICLE), 4000); return;
    case '/wait': setTimeout(() => html(ARTICLE), 1200); return;
    case '/shell': return html('<html><head><title>App</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>');
    case '/to-metadata': res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }); res.end(); return;
    case '/to-ipv6-loopback': res.writeHead(302, { location: 'http://[::1]:9/' }); res.end(); return;
    case '/to-file': res.writeHead(302, { location: 'file:///etc/passwd' }); res.end(); return;
    // Pages that break mid-answer: the page's failure (502), never ours (500).
    case '/bad-location': res.writeHead(302, { location: 'http://[::1' }); res.end(); return;
    case '/reset': res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' }); res.write(`<html><body>${'x'.repeat(1000)}`); setTimeout(() => res.socket?.destroy(), 50); return;
    case '/bad-gzip': res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }); res.end('this is not gzip at all'); return;
    // Documents without a single element: text, or nothing.
    case '/plain': return html('User-agent: *\nDisallow: /private\n\n# a <b>text</b> file, not HTML: 1 < 2 && 3 > 2\n', 'text/plain; charset=utf-8');
    case '/bare': return html('Just one sentence, and no tag around it at all.');
    case '/empty': return html('');
    // Markup that omits <html>, <head> and <body> (as HTML allows), and a page that is one script.
    case '/omitted': return html(`<!doctype html><title>Omitted tags</title><h1>Omitted tags</h1><p>${'A page that leaves out the optional html, head and body tags. '.repeat(5)}</p>`);
    case '/script-only': return html('<script>location.replace("/article")</script>');
    case '/colspan': return html(`<html><body><article><h1>Wide</h1><p>${'A table whose cell claims an absurd span follows. '.repeat(5)}</p><table><tr><th colspan="99999999">All</th></tr><tr><td>1</td></tr></table></article></body></html>`);
    case '/deep': return html(`<html><body><article><h1>Deep</h1><p>${'Deep text. '.repeat(30)}${'<b>'.repeat(6000)}inner${'</b>'.repeat(6000)}</p></article></body></html>`);
    default: res.writeHead(404); res.end();
  }
}

before(async () => {
  pages = createServer((req, res) => route(req.url ?? '/', res));
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', () => r()));
  site = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
  [server, closed] = await Promise.all([
    startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--max-page-mb', '1', '--page-timeout-ms', '1500']),
    startServer(['--rate-limit', '1000', '--rate-burst', '1000']),
  ]);
  key = await createKey(server.dataDir, 1000);
});
after(async () => {
  await Promise.all([server.stop(), closed.stop()]);
  removeDataDir(server.dataDir);
  removeDataDir(closed.dataDir);
  pages.closeAllConnections();
  pages.close();
});


describe('reading pages', () => {
  test('an article: main content as Markdown with a GFM table, fenced code, absolute links and lazy images', async () => {
    const before = await balance(server.dataDir, key);
    const r = await observe(server, key, { url: `${site}/article` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'success');
    assert.equal(r.body.title, 'Tuning Node.js servers');
    assert.equal(r.body.description, 'How we cut p99 latency in half by reading bodies once and corking writes.');
    assert.equal(r.body.credits_used, 1);
    assert.equal(await balance(server.dataDir, key), before - 1);
    const md: string = r.body.content;
    assert.match(md, /^# Tuning Node\.js servers/m);
    assert.match(md, /\| Version \| p50 ms \| p99 ms \|\n\| --- \| --- \| --- \|\n\| before \| 12 +\| 85 +\|/);
    assert.match(md, /```js\nconst body = Buffer\.allocUnsafe\(length\);/);
    assert.match(md, /~~good enough~~/);
    assert.ok(md.includes(`[our notes on uWebSockets.js](${site}/blog/uws-notes)`), 'absolute link');
    assert.ok(md.includes(`![Latency chart](${site}/img/latency.png)`), 'lazy image source, absolute');
    for (const junk of ['We use cookies', 'Ten tips for Node', 'Privacy', 'tracking', 'Jobs']) assert.ok(!md.includes(junk), `${junk} left out`);
  });

  test('formats: text and html; main_content false keeps the whole page; contentLimit cuts at a block', async () => {
    const text = await observe(server, key, { url: `${site}/article`, format: 'text' });
    assert.ok(!text.body.content.includes('|') && !text.body.content.includes('```'));
    assert.match(text.body.content, /Most of the latency/);
    const html = await observe(server, key, { url: `${site}/article`, format: 'html' });
    assert.match(html.body.content, /<table>/);
    const whole = await observe(server, key, { url: `${site}/article`, options: { main_content: false } });
    assert.match(whole.body.content, /Ten tips for Node/);
    const cut = await observe(server, key, { url: `${site}/article`, options: { contentLimit: 300 } });
    assert.ok(cut.body.content.length <= 300);
    assert.equal(cut.body.truncated, true);
    assert.ok(!/\n$/.test(cut.body.content) && cut.body.warnings.some((w: string) => w.startsWith('content_truncated')));
  });

  test('format html with contentLimit: well-formed HTML within the limit, cut between whole blocks', async () => {
    /** The HTML as a parser reads it back: unchanged when every tag the cut left is whole and closed. */
    const reparsed = (html: string) => parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body.innerHTML;
    const full: string = (await observe(server, key, { url: `${site}/article`, format: 'html' })).body.content;
    for (const limit of [150, 400, 700, 1000]) {
      const r = (await observe(server, key, { url: `${site}/article`, format: 'html', options: { contentLimit: limit } })).body;
      assert.equal(r.truncated, true);
      assert.ok(r.content.length <= limit && r.content.length > limit / 2, `${limit}: ${r.content.length} characters`);
      assert.equal(reparsed(r.content), r.content, `${limit}: well-formed`);
      const blocks = [...parseHTML(`<!doctype html><html><body>${r.content}</body></html>`).document.body.children];
      // Whole blocks of the full content, the last one possibly a container (a table) cut between its rows.
      assert.ok(blocks.length > 0 && blocks.slice(0, -1).every((b) => full.includes(b.outerHTML)), `${limit}: whole blocks of the full content: ${r.content}`);
      assert.ok(full.startsWith(r.content.slice(0, r.content.lastIndexOf(blocks.at(-1)!.outerHTML.slice(0, 20)))), `${limit}: a start of the full content`);
    }
    // One block longer than the limit: cut inside it, at a word, still well-formed.
    const one = (await observe(server, key, { url: `${site}/one-block`, format: 'html', options: { contentLimit: 1000 } })).body;
    assert.ok(one.truncated && one.content.length <= 1000 && one.content.length > 500, `${one.content.length} characters`);
    assert.equal(reparsed(one.content), one.content);
    assert.match(one.content, /^<h1>.*<\/h1>\s*<p>Routes run .* fare<\/p>$/s);
    // Markdown and text too: a block longer than the limit is cut at a word, not inside one.
    for (const format of ['markdown', 'text']) {
      const whole: string = (await observe(server, key, { url: `${site}/one-block`, format })).body.content;
      const cut: string = (await observe(server, key, { url: `${site}/one-block`, format, options: { contentLimit: 1000 } })).body.content;
      assert.ok(cut.length <= 1000 && cut.length > 500 && whole.startsWith(cut), `${format}: ${cut.length} characters, a start of the whole`);
      assert.match(whole.slice(cut.length), /^\s/, `${format}: cut at a word: …${cut.slice(-20)}|${whole.slice(cut.length, cut.length + 20)}…`);
    }
  });

  test('a legacy charset, gzip and brotli bodies, and a redirect chain', async () => {
    const latin = await observe(server, key, { url: `${site}/latin1` });
    assert.match(latin.body.content, /Un café crème coûte 3 € à la terrasse/);
    assert.equal(latin.body.title, 'Café');
    for (const path of ['/gzip', '/br']) assert.match((await observe(server, key, { url: site + path })).body.content, /Most of the latency/);
    const chain = await observe(server, key, { url: `${site}/r1` });
    assert.equal(chain.status, 200);
    assert.equal(chain.body.url, `${site}/article`);
    assert.deepEqual(chain.body.redirects, [`${site}/r1`, `${site}/r2`, `${site}/r3`]);
  });

  test('a text/plain page reads as its text (as the browser shows it); markup without an element, without <html>, or with an absurd colspan reads as a browser has it', async () => {
    const plain = await observe(server, key, { url: `${site}/plain` });
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.match(plain.body.content, /User-agent: \*\nDisallow: \/private/);
    assert.match(plain.body.content, /# a <b>text<\/b> file, not HTML: 1 < 2 && 3 > 2/);
    const bare = await observe(server, key, { url: `${site}/bare` });
    assert.equal(bare.status, 200, JSON.stringify(bare.body));
    assert.equal(bare.body.content, 'Just one sentence, and no tag around it at all.');
    const empty = await observe(server, key, { url: `${site}/empty` });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.equal(empty.body.content, '');
    assert.ok(empty.body.warnings.some((w: string) => w.startsWith('content_short')));
    const omitted = await observe(server, key, { url: `${site}/omitted` });
    assert.equal(omitted.status, 200, JSON.stringify(omitted.body));
    assert.match(omitted.body.content, /# Omitted tags\n\nA page that leaves out/);
    const script = await observe(server, key, { url: `${site}/script-only`, options: { render: 'never' } });
    assert.equal(script.status, 200, JSON.stringify(script.body));
    assert.equal(script.body.content, '');
    // HTML's colspan stops at 1000 columns.
    const wide = await observe(server, key, { url: `${site}/colspan` });
    assert.equal(wide.status, 200, JSON.stringify(wide.body));
    assert.ok(wide.body.content.includes(`| All |${' |'.repeat(999)}\n|${' --- |'.repeat(1000)}\n| 1 |`), wide.body.content.slice(0, 300));
  });

  test('a script shell reads as short content with a warning', async () => {
    const r = await observe(server, key, { url: `${site}/shell` });
    assert.equal(r.status, 200);
    assert.ok(r.body.warnings.some((w: string) => w.startsWith('content_short')));
  });

  const failures: [string, string, number, string, RegExp][] = [
    ['404 page', '/404', 502, 'http_error', /HTTP 404/],
    ['500 page', '/500', 502, 'http_error', /HTTP 500/],
    ['non-HTML', '/png', 422, 'unsupported_content_type', /image\/png: read mode reads HTML, XML, text and PDF/],
    ['a broken PDF (real ones: observe-pdf.test.ts)', '/pdf', 422, 'unsupported_content_type', /PDF cannot be parsed/],
    ['huge page', '/huge', 422, 'too_large', /limit/],
    ['page that never finishes', '/hang', 504, 'timeout', /1500 ms/],
    ['too many redirects', '/loop0', 502, 'unreachable', /More than 5 redirects/],
    ['redirect to cloud metadata', '/to-metadata', 403, 'blocked_url', /169\.254\.169\.254.*link-local/],
    ['redirect to IPv6 loopback (not in the allow list)', '/to-ipv6-loopback', 403, 'blocked_url', /::1 is a loopback address/],
    ['redirect to file:', '/to-file', 403, 'blocked_url', /file: URLs are not allowed/],
    ['redirect to a Location that is not a URL', '/bad-location', 502, 'unreachable', /redirected to an invalid URL/],
    ['connection reset mid-body', '/reset', 502, 'unreachable', /body could not be read/],
    ['a body that is not in its Content-Encoding', '/bad-gzip', 502, 'unreachable', /body could not be read/],
    ['elements nested deeper than the reader goes', '/deep', 422, 'too_large', /nested too deeply/],
  ];
  for (const [name, path, status, code, message] of failures) {
    test(`${name}: ${status} ${code}, no charge`, async () => {
      const before = await balance(server.dataDir, key);
      const r = await observe(server, key, { url: site + path });
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.deepEqual(Object.keys(r.body).sort(), ['credits_remaining', 'error', 'error_code', 'message', 'status']);
      assert.equal(r.body.error, code);
      assert.match(r.body.message, message);
      assert.equal(r.body.credits_remaining, before);
      assert.equal(await balance(server.dataDir, key), before);
    });
  }
});

describe('rendering in Chromium', () => {
  test('a script-rendered page is rendered automatically; never and always are honoured', async () => {
    const auto = await observe(server, key, { url: `${site}/app` });
    assert.equal(auto.status, 200, JSON.stringify(auto.body));
    assert.equal(auto.body.rendered, true);
    assert.match(auto.body.content, /# Rendered by script/);
    assert.match(auto.body.content, /only after the script runs/);
    assert.equal(auto.body.credits_used, 1);
    const never = await observe(server, key, { url: `${site}/app`, options: { render: 'never' } });
    assert.equal(never.body.rendered, false);
    assert.ok(never.body.warnings.some((w: string) => w.startsWith('content_short')));
    const always = await observe(server, key, { url: `${site}/article`, options: { render: 'always' } });
    assert.equal(always.body.rendered, true);
    assert.match(always.body.content, /Most of the latency/);
  });

  test('the browser cannot reach private addresses: image, iframe, fetch and WebSocket are refused', async () => {
    const r = await observe(server, key, { url: `${site}/leaky`, options: { render: 'always' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const blocked = r.body.warnings.filter((w: string) => w.startsWith('blocked:')).join('\n');
    for (const target of ['10.0.0.1/pixel.png', '169.254.169.254/latest/meta-data']) assert.ok(blocked.includes(target), `${target} in ${blocked}`);
    await new Promise((res) => setTimeout(res, 300));
    // Every refusal is logged by the proxy, including requests made by scripts and WebSocket tunnels.
    const refusals = server.logs.filter((l) => l.msg === 'egress refused (browser)').map((l) => String(l.target)).join('\n');
    for (const target of ['10.0.0.1', '169.254.169.254', '192.168.1.1', '10.1.1.1']) assert.ok(refusals.includes(target), `${target} refused: ${refusals}`);
    assert.ok(!r.body.content.includes('ami-id'), 'nothing from the metadata address reached the page');
  });

  test('killing Chromium mid-request fails that request without a charge; the next one succeeds', async () => {
    const before = await balance(server.dataDir, key);
    const pending = observe(server, key, { url: `${site}/slow`, options: { render: 'always' } });
    await new Promise((res) => setTimeout(res, 1500));
    const { execSync } = await import('node:child_process');
    const children = execSync(`ps -o pid=,comm= --ppid ${server.proc.pid}`, { encoding: 'utf8' }).split('\n').filter((l) => /chrom/i.test(l));
    assert.ok(children.length > 0, 'Chromium runs under the server');
    for (const line of children) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    const failed = await pending;
    assert.ok(failed.status >= 500, JSON.stringify(failed.body));
    assert.equal(await balance(server.dataDir, key), before, 'no charge for the failed request');
    const next = await observe(server, key, { url: `${site}/article`, options: { render: 'always' } });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.rendered, true);
  });
});

describe('the browser pool under load', () => {
  test('a page that never finishes in the browser: 504 timeout at the deadline, no charge, its context closed', async () => {
    const before = await balance(server.dataDir, key);
    const t0 = Date.now();
    const r = await observe(server, key, { url: `${site}/hang`, options: { render: 'always' } });
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.equal(r.body.error, 'timeout');
    assert.ok(Date.now() - t0 < 6000, 'answered at the deadline, not later');
    assert.equal(await balance(server.dataDir, key), before);
    const health = await (await fetch(`${server.url}/healthz`)).json();
    assert.deepEqual({ open: health.browser.open, contexts: health.browser.contexts }, { open: 0, contexts: 0 });
  });

  test('one page and a queue of one: extra requests get 503 busy with Retry-After and no charge; no context is left open', async () => {
    const small = await startServer(['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--browser-pages', '1', '--browser-queue', '1']);
    try {
      // Five keys (one key alone would meet its share of the pages first: 429).
      const keys = await Promise.all(Array.from({ length: 5 }, () => createKey(small.dataDir, 10)));
      const answers = await Promise.all(keys.map((k) => observe(small, k, { url: `${site}/wait`, options: { render: 'always' } })));
      const ok = answers.filter((a) => a.status === 200);
      const busy = answers.filter((a) => a.status === 503);
      assert.equal(ok.length, 2, JSON.stringify(answers.map((a) => a.status)));
      assert.equal(busy.length, 3);
      for (const b of busy) {
        assert.equal(b.body.error, 'busy');
        assert.equal(b.retryAfter, '1');
      }
      const balances = await Promise.all(keys.map((k) => balance(small.dataDir, k)));
      assert.equal(balances.reduce((a, b) => a + b, 0), 48, 'only the served requests were charged');
      const health = await (await fetch(`${small.url}/healthz`)).json();
      assert.deepEqual({ open: health.browser.open, queued: health.browser.queued, contexts: health.browser.contexts }, { open: 0, queued: 0, contexts: 0 });
      assert.equal(health.browser.launches, 1);
    } finally {
      await small.stop();
      removeDataDir(small.dataDir);
    }
  });
});

describe('the egress guard (no loopback allowed on this server)', () => {
  for (const c of GUARD_CASES) {
    test(`refuses ${c.url} (${c.status} ${c.error}), rendered or not`, async () => {
      const k = await createKey(closed.dataDir, 5);
      for (const render of ['auto', 'always']) {
        const r = await observe(closed, k, { url: c.url, options: { render } });
        assert.equal(r.status, c.status, JSON.stringify(r.body));
        assert.equal(r.body.error, c.error);
      }
      assert.equal(await balance(closed.dataDir, k), 5, 'not charged');
    });
  }
  test('the loopback server itself is refused without --egress-allow, and the refusal is logged', async () => {
    const r = await observe(closed, await createKey(closed.dataDir, 5), { url: `${site}/article` });
    assert.equal(r.body.error, 'blocked_url');
    await new Promise((res) => setTimeout(res, 100));
    assert.ok(closed.logs.some((l) => l.path === '/v1/observe' && l.status === 403));
  });
});

describe('request errors', () => {
  test('optional fields sent as null take their defaults (as on /v1/snapshot): read, markdown, no limit given', async () => {
    const r = await observe(server, key, { url: `${site}/article`, mode: null, format: null, options: { contentLimit: null, main_content: null, include_links: null, render: null, goal: null } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.format, 'markdown');
    assert.equal(r.body.truncated, false);
    assert.equal(r.body.links, undefined);
    assert.match(r.body.content, /^# Tuning Node\.js servers/m);
    assert.equal((await observe(server, key, { url: `${site}/article`, options: null })).status, 200);
  });

  test('bad bodies, modes and URLs', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 400, 'bad_request'], [{ url: 5 }, 400, 'invalid_url'], [{ url: 'not a url' }, 400, 'invalid_url'],
      [{ url: `${site}/article`, mode: 'dream' }, 400, 'invalid_mode'], [{ url: `${site}/article`, format: 'pdf' }, 400, 'bad_request'],
      [{ url: `${site}/article`, options: { contentLimit: 600_000 } }, 400, 'bad_request'],
    ];
    for (const [body, status, code] of cases) {
      const r = await observe(server, key, body);
      assert.equal(r.status, status, JSON.stringify([body, r.body]));
      assert.equal(r.body.error, code);
    }
    const res = await fetch(`${server.url}/v1/observe`, { method: 'POST', body: '{"url":' , headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error, 'bad_request');
    const latin1 = await fetch(`${server.url}/v1/observe`, { method: 'POST', body: Buffer.from(`{"url":"${site}/caf\xe9"}`, 'latin1'), headers: { authorization: `Bearer ${key}` } });
    assert.equal(latin1.status, 400);
    assert.match((await latin1.json()).message, /not valid UTF-8/);
    const unauth = await fetch(`${server.url}/v1/observe`, { method: 'POST', body: '{}' });
    assert.equal(unauth.status, 401);
    assert.equal((await unauth.json()).error, 'unauthorized');
  });
});
