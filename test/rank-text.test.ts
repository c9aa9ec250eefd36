// The encoder's white-space test (text.ts hasNonSpace) against the regex it stands for, /\S/: on every
// UTF-16 unit alone (both read a text unit by unit, so this decides every text) and on a few texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasNonSpace } from '../src/rank/text.ts';

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
