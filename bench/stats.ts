// Small statistics the benchmarks share.

/** The q-quantile of `xs` (0.5: the median), nearest rank from below, without interpolation. */
export const quantile = (xs: number[], q: number): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

/** A seeded uniform generator in [0, 1) (mulberry32): resampling gives the same interval on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The 95% percentile-bootstrap interval of the mean of per-page scores: the pages are resampled with
 * replacement `resamples` times. A type of 28 pages scores within a few hundredths of its mean by chance
 * alone; the interval says how far before a number is read as a lead or a miss.
 */
export function bootstrapMean(xs: number[], resamples = 2000, seed = 1): [number, number] {
  if (xs.length === 0) return [0, 0];
  const rand = seeded(seed);
  const means = new Float64Array(resamples);
  for (let k = 0; k < resamples; k++) {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += xs[Math.floor(rand() * xs.length)];
    means[k] = s / xs.length;
  }
  means.sort();
  return [means[Math.floor(0.025 * resamples)], means[Math.min(resamples - 1, Math.ceil(0.975 * resamples) - 1)]];
}

/** The 95% Wilson score interval of a proportion k of n (exact enough at small n, never outside [0, 1]). */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964, p = k / n, z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The median of the values. */
export const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/** Times `fn` in one slice of `ms` milliseconds: the mean time per call, by the process's CPU time (on a shared
 *  machine a slice's wall time also counts waiting for a core) or, with `wall`, by the clock. */
export function timeSlice(fn: () => unknown, ms = 60, wall = false): number {
  const now = wall ? () => performance.now() : () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  let calls = 0;
  const t0 = now();
  let t = t0;
  do { fn(); calls++; t = now(); } while (t - t0 < ms);
  return (t - t0) / calls;
}
