// contentLimit's HTML cut (src/observe/read/cut.ts) on pages the read test cannot shape: it parses only a start
// of a long page, and must not keep an element that start cut short as if it were whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutHtmlAtBlock } from '../src/observe/read/cut.ts';

const intro = `<p>${'Night buses run every thirty minutes. '.repeat(5)}</p>`;

test('an element whose tag the parsed start cuts in half is not kept as if it were empty and whole', () => {
  // The attribute runs past the part that is parsed first: parsed alone, the <div> would look empty.
  const html = `${intro}<div class="rail"><span title="${'x'.repeat(6000)}">Sponsored</span><p>Routes and fares</p></div><p>${'More. '.repeat(2000)}</p>`;
  const { content, truncated } = cutHtmlAtBlock(html, 300);
  assert.equal(truncated, true);
  assert.equal(content, intro);
});

test('a long page is cut the same whether or not its start alone is parsed', () => {
  const blocks = Array.from({ length: 3000 }, (_, i) => `<h2>Part ${i}</h2><p>${'Routes run between midnight and five, with a flat fare. '.repeat(3)}</p>`).join('\n');
  const { content } = cutHtmlAtBlock(blocks, 5000);
  assert.ok(content.length <= 5000 && content.length > 4500, `${content.length} characters`);
  assert.ok(blocks.startsWith(content), 'whole blocks from the start of the page');
  assert.match(content, /<\/(p|h2)>$/, 'ends on a whole block');
});
