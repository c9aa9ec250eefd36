// text.ts's white-space shortcuts against the regexes they stand for: hasNonSpace against /\S/ on every
// UTF-16 unit alone (both read a text unit by unit, so this decides every text) and on a few texts;
// normalizeText against its regex form on every text of up to five pieces of white space and letters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasNonSpace, normalizeText, MAX_TEXT } from '../src/rank/text.ts';

test('hasNonSpace answers as /\\S/ on every UTF-16 unit and on texts', () => {
  let spaces = 0;
  for (let c = 0; c < 65536; c++) {
    const unit = String.fromCharCode(c);
    assert.equal(hasNonSpace(unit), /\S/.test(unit), `U+${c.toString(16)}`);
    if (!/\S/.test(unit)) spaces++;
  }
  assert.equal(spaces, 25); // \t \n \v \f \r, space, U+00A0, U+1680, U+2000-200A, U+2028/9, U+202F, U+205F, U+3000, U+FEFF
  for (const text of ['', ' ', ' \n\t\u00a0\u3000', ' a ', '\u2003x', 'x']) assert.equal(hasNonSpace(text), /\S/.test(text), JSON.stringify(text));
});

test('normalizeText gives what collapsing white space and trimming give', () => {
  const viaRegex = (text: string) => { const clean = text.replace(/\s+/g, ' ').trim(); return clean.length > MAX_TEXT ? clean.slice(0, MAX_TEXT - 1) + '…' : clean; };
  const pieces = [' ', '  ', '\n', '\t', '\u00a0', '\u3000', '\ufeff', '\u2028', 'a', 'é', 'xy', '\u180e', '\u200b'];
  let texts = 0;
  const visit = (text: string, depth: number) => {
    texts++;
    assert.equal(normalizeText(text), viaRegex(text), JSON.stringify(text));
    if (depth < 5) for (const p of pieces) visit(text + p, depth + 1);
  };
  visit('', 0);
  for (const text of ['a '.repeat(400), ` ${'b'.repeat(299)} `, 'c'.repeat(301)]) assert.equal(normalizeText(text), viaRegex(text));
  assert.ok(texts > 400_000);
});

test('normalizeText reads only the start of a long text and gives what the regex form gives on the whole', () => {
  const viaRegex = (text: string) => { const clean = text.replace(/\s+/g, ' ').trim(); return clean.length > MAX_TEXT ? clean.slice(0, MAX_TEXT - 1) + '…' : clean; };
  // Long texts whose white space runs fall anywhere, across the prefix's end too; mostly white space at the
  // start (the prefix then collapses to less than MAX_TEXT and the whole is read); a megabyte text.
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const pieces = [' ', '   ', '\n\n\t ', '\u00a0', 'word', 'é', 'a', '\u3000 '];
  for (let k = 0; k < 3000; k++) {
    let text = rand() < 0.2 ? ' '.repeat(Math.floor(rand() * 3000)) : '';
    const target = 1200 + Math.floor(rand() * 2000);
    while (text.length < target) text += pieces[Math.floor(rand() * pieces.length)];
    assert.equal(normalizeText(text), viaRegex(text), `text ${k} (${text.length} units)`);
  }
  const mega = 'lorem ipsum  dolor\tsit amet '.repeat(40_000);
  assert.equal(normalizeText(mega), viaRegex(mega));
  assert.equal(normalizeText(`${' '.repeat(5000)}x`), 'x');
});
