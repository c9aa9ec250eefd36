// The core alone, for benchmarks: encode a request once, then per call `prepare` + copy the encoded
// columns back in + `run` (a core call always starts with `prepare`, which releases the previous call's
// memory). Used by the rank benchmark and the regression gate.
import { encode } from '../src/rank/encode.ts';
import { ROLES } from '../src/rank/roles.ts';
import type { CoreBackend } from '../src/rank/backend.ts';
import { Buf } from '../assembly/layout.ts';

/** The core alone: encode once, then per call `prepare` + copy the encoded columns back + `run`
 *  (a core call always starts with `prepare`, which releases the previous call's memory). */
export function coreOnly(core: CoreBackend, body: unknown): () => number {
  const enc = encode(body, core);
  const n = enc.elements.length, nPrev = enc.previous.length;
  const tagCount = core.i32(Buf.TAG_ALLOW).length;
  const f64Bufs = [Buf.IN_F64, Buf.PARAMS, Buf.PREV_F64].map((b) => [b, core.f64(b).slice()] as const);
  const i32Bufs = [Buf.IN_I32, Buf.ROLE_ALLOW, Buf.TAG_ALLOW, Buf.PREV_I32].map((b) => [b, core.i32(b).slice()] as const);
  return () => {
    core.prepare(n, nPrev, ROLES.length, tagCount, 0, 0, 0);
    for (const [b, data] of f64Bufs) core.f64(b).set(data);
    for (const [b, data] of i32Bufs) core.i32(b).set(data);
    return core.run();
  };
}

