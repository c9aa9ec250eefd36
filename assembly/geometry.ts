// Viewport, centres, document y and in-viewport state: the geometry every later pass reads.
import { F64In, I32In, F64Out, I32Out, Flag, OutFlag, Param } from "./layout";
import { count, f64In, i32In, param, setParam, setF64Out, setI32Out, i32Out } from "./state";

const DEFAULT_W: f64 = 1280;
const DEFAULT_H: f64 = 800;
const MAX_VIEWPORT: f64 = 16384;

/** Viewport from the request, or derived: right-most edge, and bottom-most edge of what is in view. */
export function resolveViewport(): void {
  let w = param(Param.VIEWPORT_W);
  let h = param(Param.VIEWPORT_H);
  if (w <= 0 || h <= 0) {
    let right: f64 = 0, bottomInView: f64 = 0, bottomAll: f64 = 0;
    for (let i = 0; i < count; i++) {
      const x = f64In(F64In.X, i), y = f64In(F64In.Y, i);
      const ew = f64In(F64In.W, i), eh = f64In(F64In.H, i);
      if (ew <= 0 || eh <= 0) continue;
      right = max(right, x + ew);
      bottomAll = max(bottomAll, y + eh);
      const flags = i32In(I32In.FLAGS, i);
      if ((flags & Flag.VIEWPORT_SENT) != 0 && (flags & Flag.IN_VIEWPORT) != 0) bottomInView = max(bottomInView, y + eh);
    }
    const bottom = bottomInView > 0 ? bottomInView : bottomAll;
    w = right >= 1 ? min(Math.ceil(right), MAX_VIEWPORT) : DEFAULT_W;
    h = bottom >= 1 ? min(Math.ceil(bottom), MAX_VIEWPORT) : DEFAULT_H;
  }
  setParam(Param.OUT_VIEWPORT_W, w);
  setParam(Param.OUT_VIEWPORT_H, h);
}

/** Centre, doc_y and in_viewport for every element: the client's values when sent, else computed. */
export function computeGeometry(): void {
  const vw = param(Param.OUT_VIEWPORT_W), vh = param(Param.OUT_VIEWPORT_H);
  for (let i = 0; i < count; i++) {
    const x = f64In(F64In.X, i), y = f64In(F64In.Y, i);
    const w = f64In(F64In.W, i), h = f64In(F64In.H, i);
    const flags = i32In(I32In.FLAGS, i);
    const centred = (flags & Flag.CENTER_SENT) != 0;
    const cx = centred ? f64In(F64In.CENTER_X, i) : x + w / 2;
    const cy = centred ? f64In(F64In.CENTER_Y, i) : y + h / 2;
    const docY = (flags & Flag.DOC_Y_SENT) != 0 ? f64In(F64In.DOC_Y, i) : cy + f64In(F64In.SCROLL_Y, i);
    setF64Out(F64Out.CENTER_X, i, cx);
    setF64Out(F64Out.CENTER_Y, i, cy);
    setF64Out(F64Out.DOC_Y, i, docY);
    let inView: bool;
    if ((flags & Flag.VIEWPORT_SENT) != 0) inView = (flags & Flag.IN_VIEWPORT) != 0;
    else inView = w > 0 && h > 0 && x < vw && y < vh && x + w > 0 && y + h > 0;
    let out = i32Out(I32Out.FLAGS, i);
    if (inView) out |= OutFlag.IN_VIEWPORT;
    if ((flags & Flag.OCCLUDED_SENT) != 0 && (flags & Flag.OCCLUDED) != 0) out |= OutFlag.OCCLUDED;
    setI32Out(I32Out.FLAGS, i, out);
  }
}
