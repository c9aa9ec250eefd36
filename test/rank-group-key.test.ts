// The encoder reads the collector's group keys by hand (encode.ts readGroupKey); this is the pattern it
// stands for, checked on every key built from four pieces of the format and its near misses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readGroupKey } from '../src/rank/encode.ts';

const GROUP_KEY = /^x(-?\d{1,9})-h(-?\d{1,9})$/;
const PIECES = ['', 'x', 'h', '-', '0', '7', '00', '123456789', '1234567890', '-0', '-12', '--1', 'a', ' ', '٣', '-h', 'x-', '9999999999', '1-h2'];

test('readGroupKey reads a key exactly when the pattern matches it, to the same numbers', () => {
  let matched = 0;
  for (const a of PIECES) for (const b of PIECES) for (const c of PIECES) for (const d of PIECES) {
    const key = a + b + c + d;
    const out = new Int32Array(2).fill(-7), want = new Int32Array(2).fill(-7);
    const m = GROUP_KEY.exec(key);
    if (m) { want[0] = Number(m[1]); want[1] = Number(m[2]); matched++; }
    assert.equal(readGroupKey(key, out, 0, 1), m !== null, JSON.stringify(key));
    assert.deepEqual(out, want, JSON.stringify(key));
  }
  assert.ok(matched > 100, `${matched} keys match`);
});
