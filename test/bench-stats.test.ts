// The intervals the benchmarks print beside their means (bench/stats.ts): the Wilson interval of a share
// (eval:importance's primary actions) and the seeded bootstrap interval of a mean (bench:read's word F1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapMean, wilson, seeded } from '../bench/stats.ts';

const close = (a: number, b: number, eps = 5e-4) => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

test('wilson gives the textbook 95% interval and stays inside [0, 1]', () => {
  // Reference values from the closed form (Wilson 1927; e.g. Newcombe 1998, table I): 81/263 and 15/148.
  const [a, b] = wilson(81, 263);
  close(a, 0.2553); close(b, 0.3662);
  const [c, d] = wilson(15, 148);
  close(c, 0.0624); close(d, 0.1605);
  assert.deepEqual(wilson(0, 0), [0, 1]);
  const [lo0, hi0] = wilson(0, 10);
  assert.equal(lo0, 0); close(hi0, 0.2775);
  const [lo1, hi1] = wilson(10, 10);
  close(lo1, 0.7225); close(hi1, 1, 1e-12); assert.ok(hi1 <= 1);
});

test('bootstrapMean is seeded, brackets the mean and narrows as pages are added', () => {
  const rand = seeded(7);
  const xs = Array.from({ length: 400 }, () => rand());
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const [lo, hi] = bootstrapMean(xs);
  assert.deepEqual(bootstrapMean(xs), [lo, hi], 'same pages, same interval');
  assert.ok(lo < mean && mean < hi);
  // Uniform scores: standard error sqrt(1/12/n); the 95% interval is about ±1.96 standard errors.
  const half = 1.96 * Math.sqrt(1 / 12 / xs.length);
  close((hi - lo) / 2, half, 0.15 * half);
  const [lo30, hi30] = bootstrapMean(xs.slice(0, 30));
  assert.ok(hi30 - lo30 > 2.5 * (hi - lo), 'thirty pages leave a much wider interval than four hundred');
  for (const x of bootstrapMean([0.7, 0.7, 0.7])) close(x, 0.7, 1e-12);
  assert.deepEqual(bootstrapMean([]), [0, 0]);
});
