// The read's whole-page scans (extract-dom.ts: elementsWhere, hasDescendant, tags) stand in for linkedom's
// querySelectorAll / querySelector with a list of tags, which compile the selector on every call: they must
// find the same elements, in the same order, template contents skipped alike. Real pages from the shared
// WCXB sample, and a hand-written page with a template and nested blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { elementsWhere, firstDescendant, hasDescendant, isHrefLink, linkedText, tags, textOf } from '../src/observe/read/extract-dom.ts';
import { WCXB, WCXB_DIR, wcxbIds } from './helpers/large-pages.ts';

const LISTS = [
  'script, style, noscript, template, svg, canvas, iframe, object, embed, link, meta, input, button, select, textarea, dialog',
  'p, pre, td, blockquote, li, dd, h2, h3, div, section',
  'nav, footer, aside',
];
const HOLDS_BLOCKS = 'p, div, section, pre, table, ul, ol, blockquote';

function check(html: string) {
  const { document } = parseHTML(html);
  for (const list of LISTS) {
    assert.deepEqual(elementsWhere(document, tags(list)), [...document.querySelectorAll(list)], list);
  }
  let holding = 0;
  for (const div of document.querySelectorAll('div, section')) {
    const has = hasDescendant(div, tags(HOLDS_BLOCKS));
    assert.equal(has, div.querySelector(HOLDS_BLOCKS) !== null);
    if (has) holding++;
    // The per-block walks: the first heading (a panel's name), whether it holds a link, its linked text.
    assert.equal(firstDescendant(div, tags('h2, h3, h4, h5, h6, summary')), div.querySelector('h2, h3, h4, h5, h6, summary'));
    assert.equal(hasDescendant(div, isHrefLink), div.querySelector('a[href]') !== null);
    assert.equal(linkedText(div), [...div.querySelectorAll('a')].reduce((n, a) => n + textOf(a).length, 0));
  }
  return holding;
}

test('a template\'s contents are skipped as querySelectorAll skips them; nested blocks are found at any depth', () => {
  const html = '<!doctype html><html><body><div id="a"><template><p>in a template</p></template></div>'
    + '<div id="b"><span><em><p>deep</p></em></span></div><section><span>text only</span></section><svg><title>x</title></svg>'
    + '<div id="c"><template><a href="/t">hidden</a><h2>t</h2></template><a name="x">anchor</a><span><a href="/y">linked <a href="/z">in</a></a></span><summary>s</summary><h3>h</h3></div></body></html>';
  check(html);
  const { document } = parseHTML(html);
  assert.equal(hasDescendant(document.getElementById('a')!, tags('p')), false);
  assert.equal(hasDescendant(document.getElementById('b')!, tags('p')), true);
  assert.deepEqual(elementsWhere(document, tags('p')).map((p) => p.textContent), ['deep']);
});

test('on real pages the scans find what the selectors find, in order', { skip: WCXB.missing }, () => {
  const ids = wcxbIds().filter((_, i) => i % 40 === 0);
  assert.ok(ids.length >= 5);
  let holding = 0;
  for (const id of ids) holding += check(gunzipSync(readFileSync(join(WCXB_DIR, 'html', `${id}.html.gz`))).toString('utf8'));
  assert.ok(holding > 0, 'some divs hold blocks');
});
