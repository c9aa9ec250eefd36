// Deterministic exp and sigmoid: built from + - * / and floor only, which Wasm and V8 compute
// identically (Math.exp differs between them in the last bits, and the JS build is the parity oracle).

const LN2: f64 = 0.6931471805599453;

/** e^x for |x| <= 700: x = k ln2 + r with |r| <= ln2 / 2, e^r by its Taylor series (error < 1e-15),
 *  then times 2^k by repeated doubling or halving. */
export function expDet(x: f64): f64 {
  if (x > 700) x = 700;
  if (x < -700) x = -700;
  const k = Math.floor(x / LN2 + 0.5);
  const r = x - k * LN2;
  let term: f64 = 1, sum: f64 = 1;
  for (let n = 1; n <= 17; n++) {
    term = term * r / f64(n);
    sum += term;
  }
  let scale: f64 = 1;
  const steps = i32(k < 0 ? -k : k);
  const factor: f64 = k < 0 ? 0.5 : 2;
  for (let s = 0; s < steps; s++) scale *= factor;
  return sum * scale;
}

export function sigmoid(x: f64): f64 {
  if (x >= 0) return 1 / (1 + expDet(-x));
  const e = expDet(x);
  return e / (1 + e);
}
