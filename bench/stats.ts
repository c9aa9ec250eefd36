// Small statistics the benchmarks share.

/** The q-quantile of `xs` (0.5: the median), nearest rank from below, without interpolation. */
export const quantile = (xs: number[], q: number): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
