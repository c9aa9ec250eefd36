// Read mode on PDFs, end to end: PDFs printed at test time by the real Chromium from the HTML in
// test/fixtures/pdf/ (make.ts; the encrypted one made from it by qpdf), served from a local page
// server, read by the real server process (loopback opened with --egress-allow). The expected text is
// the fixture HTML's own paragraphs. Also options.include_links on HTML and on a PDF.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { balance, observe, serveSite, type ServedSite, type ServerProcess } from './helpers/server.ts';
import { makePdfFixtures, type PdfFixtures } from './fixtures/pdf/make.ts';
import { Compile } from 'typebox/compile';
import { ReadResult } from '../src/schema/observe.ts';

const readShape = Compile(ReadResult);
const assertShape = (body: unknown) => assert.ok(readShape.Check(body), JSON.stringify([...readShape.Errors(body)][0]));

const REPORT_HTML = readFileSync(new URL('./fixtures/pdf/report.html', import.meta.url), 'utf8');
const PAPER_HTML = readFileSync(new URL('./fixtures/pdf/paper.html', import.meta.url), 'utf8');
const ARTICLE = readFileSync(new URL('./fixtures/read/article.html', import.meta.url), 'utf8');
let pdfs: PdfFixtures;
let dir: string;
let served: ServedSite | undefined;
let site: string;
let server: ServerProcess;
let key: string;

/** The fixture's paragraphs as plain text: tags dropped, soft hyphens removed, spaces collapsed. */
function paragraphs(html: string): string[] {
  return [...html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map((m) => m[1].replace(/<[^>]+>/g, '').replace(/&shy;/g, '').replace(/\s+/g, ' ').trim());
}

function route(path: string, res: import('node:http').ServerResponse): void {
  const send = (body: string | Buffer, type: string) => { res.writeHead(200, { 'content-type': type }); res.end(body); };
  switch (path) {
    case '/report.pdf': return send(pdfs.report, 'application/pdf');
    case '/download': return send(pdfs.report, 'application/octet-stream'); // known by its magic bytes
    case '/long.pdf': return send(pdfs.long, 'application/pdf');
    case '/huge.pdf': return send(pdfs.huge, 'application/pdf');
    case '/paper.pdf': return send(pdfs.paper, 'application/pdf');
    case '/scan.pdf': return send(pdfs.scan, 'application/pdf');
    case '/locked.pdf': return send(pdfs.locked, 'application/pdf');
    case '/truncated.pdf': return send(pdfs.report.subarray(0, Math.floor(pdfs.report.length / 2)), 'application/pdf');
    case '/heavy.pdf': return send(Buffer.concat([pdfs.huge, Buffer.alloc(2.5 * 1024 * 1024, 0x20)]), 'application/pdf'); // over --max-page-mb 2
    case '/binary': return send(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]), 'application/octet-stream');
    case '/article': return send(ARTICLE, 'text/html; charset=utf-8');
    case '/dupes': return send(`<html><head><title>Dupes</title></head><body><nav><a href="/home">Home</a></nav><article><h1>Reading list</h1>
      <p>${'Start with the <a href="/guide">setup guide</a>, then read it again: <a href="/guide#top">the guide</a> and <a href="/guide">setup guide</a> once more. '.repeat(3)}</p>
      <p>Write to <a href="mailto:team@example.org">the team</a> or see <a href="https://example.org/x?y=1">the external page</a>; <a href="javascript:void(0)">nothing</a>.</p></article>
      <footer><a href="/privacy">Privacy</a></footer></body></html>`, 'text/html');
    default: res.writeHead(404); res.end();
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sightline-pdf-'));
  pdfs = await makePdfFixtures(dir);
  served = await serveSite((req, res) => route(req.url ?? '/', res), ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--max-page-mb', '2', '--extract-timeout-ms', '30000'], 1000);
  ({ site, server, key } = served);
});
after(async () => {
  await served?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('PDF in read mode', () => {
  test('the fixtures are what the test expects: three pages, a word hyphenated across lines, a header and footer on every page', async () => {
    // pdfjs straight on the file (not through the server): what the reader has to repair is really there.
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(pdfs.report), verbosity: 0 }).promise;
    assert.equal(doc.numPages, 3);
    const text: string[] = [];
    for (let n = 1; n <= 3; n++) text.push(((await (await doc.getPage(n)).getTextContent()).items as { str: string; hasEOL: boolean }[]).map((i) => i.str + (i.hasEOL ? '\n' : '')).join(''));
    await doc.destroy();
    assert.match(text[0], /recover[-\u2010]\n\s*able/, 'the soft hyphen broke the word across two lines');
    for (let n = 0; n < 3; n++) {
      assert.match(text[n], new RegExp(`Page ${n + 1} of 3`));
      assert.match(text[n], /River Restoration Trust/);
    }
  });

  test('a report: headings by size, whole paragraphs, a repaired hyphen, two columns in order, a table, no running lines', async () => {
    const before = await balance(server.dataDir, key);
    const r = await observe(server, key, { url: `${site}/report.pdf` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.credits_used, 1);
    assert.equal(await balance(server.dataDir, key), before - 1, 'same credits as an HTML read');
    assertShape(r.body);
    assert.equal(r.body.title, 'Field Notes on River Restoration', 'from the metadata');
    assert.equal(r.body.pages, 3);
    assert.equal(r.body.rendered, false);
    assert.equal(r.body.truncated, false);
    assert.ok(!('links' in r.body), 'links only when asked');
    const md: string = r.body.content;
    assert.match(md, /^# Field Notes on River Restoration$/m);
    for (const h of ['Why meanders matter', 'Measurements by reach', 'Two seasons of monitoring', 'Acknowledgements']) assert.match(md, new RegExp(`^## ${h}$`, 'm'));
    // Every paragraph of the source comes back whole, as one block: lines joined, ligatures and the hyphen repaired.
    const blocks = md.split('\n\n');
    // Text that reads as Markdown syntax ("* Note", "2024. That") is escaped, as an HTML read escapes it.
    for (const p of paragraphs(REPORT_HTML)) assert.ok(blocks.includes(p.replace(/^\* /, '\\* ').replace(/^(\d+)\. /, '$1\\. ')), `paragraph kept whole: ${p.slice(0, 60)}…\n--- got:\n${md}`);
    assert.ok(blocks.includes('\\* Note: the pool counts are provisional until the autumn survey is checked.') && blocks.includes('2024\\. That was the wettest year on record at the mill gauge, by a wide margin.'), md.slice(-300));
    assert.ok(md.includes('recoverable') && !/recover[-\u2010]/.test(md));
    assert.ok(md.indexOf('LEFTEND') < md.indexOf('RIGHTSTART'), 'the left column is read before the right');
    assert.match(md, /\| Reach \| Length km \| Pools \|\n\| --- \| --- \| --- \|\n\| Upper mill \| 4\.2 \| 17 \|\n\| Willow bend \| 3\.1 \| 22 \|\n\| Lower ford \| 5\.6 \| 9 \|/);
    assert.ok(!/Page \d of 3/.test(md) && !md.includes('River Restoration Trust'), 'page numbers and the running header are dropped');
    assert.equal(r.body.description, paragraphs(REPORT_HTML)[0], 'no Subject in the metadata: the first paragraph');
  });

  test('formats text and html; a PDF under a generic type is known by its magic bytes', async () => {
    const text = await observe(server, key, { url: `${site}/report.pdf`, format: 'text' });
    assert.equal(text.status, 200);
    assert.ok(!text.body.content.includes('#') && !text.body.content.includes('|'));
    assert.match(text.body.content, /^Why meanders matter$/m);
    assert.match(text.body.content, /^Willow bend\t3\.1\t22$/m);
    const html = await observe(server, key, { url: `${site}/report.pdf`, format: 'html' });
    assert.match(html.body.content, /<h2>Why meanders matter<\/h2>/);
    assert.match(html.body.content, /<tr><td>Lower ford<\/td><td>5\.6<\/td><td>9<\/td><\/tr>/);
    const download = await observe(server, key, { url: `${site}/download` });
    assert.equal(download.status, 200);
    assert.equal(download.body.pages, 3);
    assert.match(download.body.content, /^## Measurements by reach$/m);
    const binary = await observe(server, key, { url: `${site}/binary` });
    assert.equal(binary.status, 422);
    assert.equal(binary.body.error, 'unsupported_content_type');
  });

  test('a 120-page PDF: contentLimit honoured, pages counted, running lines dropped on every page', async () => {
    const cut = await observe(server, key, { url: `${site}/long.pdf`, options: { contentLimit: 3000 } });
    assert.equal(cut.status, 200, JSON.stringify(cut.body));
    assert.ok(cut.body.content.length <= 3000 && cut.body.content.length > 1500);
    assert.equal(cut.body.truncated, true);
    assert.equal(cut.body.pages, 120);
    assert.ok(cut.body.warnings.some((w: string) => w.startsWith('content_truncated')));
    const whole = await observe(server, key, { url: `${site}/long.pdf` });
    assert.equal(whole.status, 200);
    assert.ok(whole.body.content.length <= 50_000 && whole.body.content.length > 40_000);
    assert.ok(!/Page \d+ of 120/.test(whole.body.content) && !whole.body.content.includes('River Restoration Trust'));
    assert.ok(whole.body.content.split('## Measurements by reach').length > 10, 'the copies follow one another');
  });

  test('a paper: title and abstract across the page, then two justified columns; paragraphs run on across the column break', async () => {
    const r = await observe(server, key, { url: `${site}/paper.pdf` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.title, 'Quiet Pools and Fast Riffles');
    assert.equal(r.body.pages, 1);
    const md: string = r.body.content;
    const blocks = md.split('\n\n');
    assert.equal(blocks[0], '# Quiet Pools and Fast Riffles');
    for (const p of paragraphs(PAPER_HTML)) assert.ok(blocks.includes(p), `paragraph kept whole: ${p.slice(0, 60)}…\n--- got:\n${md}`);
    const headings = blocks.filter((b) => b.startsWith('## '));
    assert.deepEqual(headings, ['## 1 Introduction', '## 2 Methods', '## 3 Results', '## 4 Discussion'], 'sections in reading order');
    assert.ok(md.indexOf('We compare habitat') < md.indexOf('## 1 Introduction'), 'the abstract (full width) before the columns');
  });

  test('a 1,120-page PDF answers with the pages the limit needs, counting them all', async () => {
    const before = await balance(server.dataDir, key);
    const r = await observe(server, key, { url: `${site}/huge.pdf`, options: { contentLimit: 20_000 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.pages, 1120);
    assert.equal(r.body.truncated, true);
    assert.ok(r.body.content.length <= 20_000 && r.body.content.length > 15_000);
    assert.ok(r.body.warnings.some((w: string) => /pages after \d+ of 1120 were not read/.test(w)), r.body.warnings.join('; '));
    assert.equal(await balance(server.dataDir, key), before - 1);
  });

  test('too large, encrypted, image-only and truncated PDFs: 422 saying why, and free', async () => {
    const cases: [string, RegExp, string?][] = [
      ['/heavy.pdf', /over the 2097152-byte limit/, 'too_large'],
      ['/locked.pdf', /encrypted/],
      ['/scan.pdf', /no text layer.*OCR/],
      ['/truncated.pdf', /cannot be parsed|no text layer/],
    ];
    for (const [path, why, code = 'unsupported_content_type'] of cases) {
      const before = await balance(server.dataDir, key);
      const r = await observe(server, key, { url: site + path });
      assert.equal(r.status, 422, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error, code);
      assert.match(r.body.message, why);
      assert.equal(await balance(server.dataDir, key), before, `${path} costs nothing`);
    }
    // The server is fine afterwards.
    assert.equal((await observe(server, key, { url: `${site}/report.pdf` })).status, 200);
  });

  test('render "always" on a PDF: Chromium will not show it, so it is read as a PDF', async () => {
    const r = await observe(server, key, { url: `${site}/report.pdf`, options: { render: 'always' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.pages, 3);
    assert.equal(r.body.rendered, false);
    assert.match(r.body.content, /^## Measurements by reach$/m);
  });

  test('map on a PDF keeps answering 422, at no cost', async () => {
    const before = await balance(server.dataDir, key);
    const r = await observe(server, key, { url: `${site}/report.pdf`, mode: 'map' });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.error, 'unsupported_content_type');
    assert.equal(await balance(server.dataDir, key), before);
  });
});

describe('options.include_links', () => {
  test('a PDF: its link annotations with the text under them', async () => {
    const r = await observe(server, key, { url: `${site}/report.pdf`, options: { include_links: true } });
    assert.equal(r.status, 200);
    assertShape(r.body);
    assert.deepEqual(r.body.links, [
      { url: 'https://example.org/methods', text: 'survey methods' },
      { url: 'https://example.org/data.csv', text: 'raw measurements' },
    ]);
  });

  test('HTML: the main content\'s links, absolute and each once; navigation and footer links left out', async () => {
    const article = await observe(server, key, { url: `${site}/article`, options: { include_links: true } });
    assert.equal(article.status, 200);
    assertShape(article.body);
    assert.ok(article.body.links.some((l: { url: string; text: string }) => l.url === `${site}/blog/uws-notes` && l.text === 'our notes on uWebSockets.js'));
    for (const junk of ['/jobs', '/privacy', '/a', '/blog']) assert.ok(!article.body.links.some((l: { url: string }) => l.url === site + junk), `${junk} is not main content`);
    const dupes = await observe(server, key, { url: `${site}/dupes`, options: { include_links: true } });
    assert.deepEqual(dupes.body.links, [
      { url: `${site}/guide`, text: 'setup guide' },
      { url: `${site}/guide#top`, text: 'the guide' },
      { url: 'mailto:team@example.org', text: 'the team' },
      { url: 'https://example.org/x?y=1', text: 'the external page' },
    ]);
    const without = await observe(server, key, { url: `${site}/dupes` });
    assert.ok(!('links' in without.body));
  });
});
