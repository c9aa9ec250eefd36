// The PDF corpus (issue 18): documents with known text, made by real engines, read by the real server.
// 14 printed at test time by the real Chromium from HTML in test/fixtures/pdf/ (letters, a two-column
// paper, tables, a manual, lists, footnotes, a menu, a form, long hyphenated text with running lines,
// French and German, figures with captions, landscape pages, a two-column newsletter) and the real PDFs
// committed in test/fixtures/pdf/real/ (pandoc + pdfTeX, LibreOffice, wkhtmltopdf; sources and licences in its README). Each must
// come back with word F1 ≥ 0.95 against its known text (derived from its source by
// test/fixtures/pdf/corpus.ts), every heading as a Markdown heading, every numbered list item on a line
// of its own, paragraphs in source order, and on
// two-column pages the end of column 1 (found from the PDF's own geometry) before the start of column 2.
// Then the edge cases: a broken cross-reference table pdf.js rebuilds, and a PDF over --max-page-mb sent
// without Content-Length.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { balance, observe, serveSite, type ServedSite, type ServerProcess } from './helpers/server.ts';
import { makeCorpus, realDocs, type CorpusDoc } from './fixtures/pdf/corpus.ts';
import { markdownText, wordF1 } from '../bench/read/metrics.ts';

let docs: CorpusDoc[];
let served: ServedSite | undefined;
let site: string;
let server: ServerProcess;
let key: string;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const words = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A PDF whose cross-reference table points at the wrong offsets: every entry shifted by 7 bytes. */
function brokenXref(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const at = text.lastIndexOf('\nxref');
  assert.ok(at > 0, 'Chromium writes a classic xref table');
  const broken = text.slice(0, at) + text.slice(at).replace(/^(\d{10}) (\d{5}) n/gm, (_m, off: string, gen: string) => `${String(Number(off) + 7).padStart(10, '0')} ${gen} n`);
  assert.notEqual(broken, text);
  return Buffer.from(broken, 'latin1');
}

before(async () => {
  docs = [...await makeCorpus(), ...realDocs()];
  served = await serveSite((req, res) => {
    const path = req.url ?? '/';
    const doc = /^\/doc\/(\d+)\.pdf$/.exec(path);
    if (doc && docs[Number(doc[1])]) { res.writeHead(200, { 'content-type': 'application/pdf' }); res.end(docs[Number(doc[1])].bytes); return; }
    if (path === '/broken-xref.pdf') { res.writeHead(200, { 'content-type': 'application/pdf' }); res.end(brokenXref(docs[0].bytes)); return; }
    if (path === '/streamed-heavy.pdf') {
      // No Content-Length: chunks until 3 MB, over --max-page-mb 2; the reader must stop on its own.
      res.writeHead(200, { 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' });
      res.write(docs[0].bytes);
      let sent = docs[0].bytes.length;
      const more = () => {
        while (sent < 3 * 1024 * 1024) {
          sent += 64 * 1024;
          if (!res.write(Buffer.alloc(64 * 1024, 0x20))) { res.once('drain', more); return; }
        }
        res.end();
      };
      more();
      res.on('error', () => {});
      return;
    }
    res.writeHead(404); res.end();
  }, ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000', '--max-page-mb', '2', '--extract-timeout-ms', '30000'], 1000);
  ({ site, server, key } = served);
});
after(async () => {
  await served?.stop();
});

/** The last words of column 1 and the first words of column 2 on page 1, from the text runs' positions. */
async function columnBreak(bytes: Buffer): Promise<[string, string]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(1);
    const [, , width, height] = page.view;
    const runs = ((await page.getTextContent()).items as { str: string; transform: number[]; width: number }[])
      .filter((i) => i.str.trim().split(/\s+/).length >= 2)
      .map((i) => ({ str: i.str.trim(), x0: i.transform[4], x1: i.transform[4] + i.width, y: i.transform[5] }))
      .filter((i) => i.y > height * 0.12 && i.y < height * 0.88);
    const left = runs.filter((i) => i.x1 < width / 2).sort((a, b) => a.y - b.y);
    const right = runs.filter((i) => i.x0 > width / 2).sort((a, b) => b.y - a.y);
    assert.ok(left.length > 5 && right.length > 5, 'text on both sides of the middle');
    // Whole words only: a run ending in a hyphen is the first half of a word the reader joins.
    const tail = (s: string) => s.split(' ').filter((w, i, all) => !(i === all.length - 1 && /-$/.test(w))).slice(-3).join(' ');
    const head = (s: string) => s.split(' ').filter((w, i, all) => !(i === all.length - 1 && /-$/.test(w))).slice(0, 3).join(' ');
    return [tail(left[0].str), head(right[0].str)];
  } finally {
    await doc.destroy();
  }
}

describe('PDF corpus: known text from real engines', () => {
  test('the corpus: at least 20 documents, at least 12 printed by Chromium and 6 made by other engines', () => {
    const printed = docs.filter((d) => d.engine.startsWith('Chromium'));
    assert.ok(docs.length >= 20 && printed.length >= 12 && docs.length - printed.length >= 6, `${docs.length} documents, ${printed.length} printed`);
    assert.ok(docs.filter((d) => d.twoColumn).length >= 3);
  });

  test('each document: word F1 ≥ 0.95, headings found, numbered items apart, paragraphs in order, column 1 before column 2', async () => {
    const before = await balance(server.dataDir, key);
    const scores: string[] = [];
    // Four at a time (the server's extraction threads take them in parallel), then checked in order.
    const reads: Awaited<ReturnType<typeof observe>>[] = [];
    for (let i = 0; i < docs.length; i += 4) {
      reads.push(...await Promise.all(docs.slice(i, i + 4).map((_d, j) => observe(server, key, { url: `${site}/doc/${i + j}.pdf`, options: { contentLimit: 500_000 } }))));
    }
    for (const [i, doc] of docs.entries()) {
      const r = reads[i];
      assert.equal(r.status, 200, `${doc.name}: ${JSON.stringify(r.body)}`);
      assert.ok(r.body.pages >= 1);
      const md: string = r.body.content;
      const text = words(markdownText(md));
      const f1 = wordF1(text, doc.known);
      scores.push(`${doc.name} ${f1.toFixed(3)}`);
      assert.ok(f1 >= 0.95, `${doc.name}: word F1 ${f1.toFixed(3)}\n${md}`);
      for (const h of doc.headings) assert.match(md, new RegExp(`^#{1,6} ${escape(h)}$`, 'm'), `${doc.name}: heading "${h}"`);
      for (const item of doc.items) assert.match(md, new RegExp(`^${escape(item)}$`, 'm'), `${doc.name}: list item "${item}" on a line of its own`);
      let at = -1;
      for (const passage of doc.order) {
        const next = text.indexOf(passage, at + 1);
        assert.ok(next > at, `${doc.name}: "${passage}" comes after the passage before it\n${md}`);
        at = next;
      }
      if (doc.twoColumn) {
        const [end1, start2] = await columnBreak(doc.bytes);
        const a = text.indexOf(end1), b = text.indexOf(start2);
        assert.ok(a >= 0 && b >= 0 && a < b, `${doc.name}: column 1 ("${end1}") before column 2 ("${start2}")`);
      }
    }
    assert.equal(await balance(server.dataDir, key), before - docs.length, 'one credit each, like an HTML read');
    console.log(scores.join('\n'));
  });
});

describe('PDF edge cases', () => {
  test('a broken cross-reference table: pdf.js rebuilds it and the text comes back whole', async () => {
    const r = await observe(server, key, { url: `${site}/broken-xref.pdf` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(wordF1(markdownText(r.body.content), docs[0].known) >= 0.95);
  });

  test('a PDF over --max-page-mb sent without Content-Length: 422 too_large, free, the server fine', async () => {
    const before = await balance(server.dataDir, key);
    const r = await observe(server, key, { url: `${site}/streamed-heavy.pdf` });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.error, 'too_large');
    assert.match(r.body.message, /over the 2097152-byte limit/);
    assert.equal(await balance(server.dataDir, key), before);
    assert.equal((await observe(server, key, { url: `${site}/doc/0.pdf` })).status, 200);
  });
});
