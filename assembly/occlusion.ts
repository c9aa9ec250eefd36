// Occlusion from geometry and z-order, and modal detection, with a uniform grid over the occluders.
//
// j occludes i when j paints above i (z_j > z_i), is visible, covers i's centre, and is not i's likely
// ancestor (j earlier in document order with a rect containing i's: raw elements carry no tree, and a
// container is painted under its own content). The client's `is_occluded` wins when it was sent.
// A modal is an occluder with z > 0 covering at least MODAL_COVERAGE of the viewport.
import { F64In, I32In, I32Out, Flag, OutFlag, Param, Band, ModalField, MAX_MODALS } from "./layout";
import { count, f64In, i32In, i32Out, setI32Out, param, setParam, modals } from "./state";
import { sortByKey } from "./sort";

export const MODAL_COVERAGE: f64 = 0.3;
const MAX_GRID_SIDE = 32;
const MAX_GRID_ENTRIES = 1 << 21;

function visible(i: i32): bool {
  return (i32In(I32In.FLAGS, i) & Flag.HIDDEN) == 0 && f64In(F64In.W, i) > 0 && f64In(F64In.H, i) > 0;
}

function containsPoint(j: i32, px: f64, py: f64): bool {
  const x = f64In(F64In.X, j), y = f64In(F64In.Y, j);
  return px >= x && py >= y && px < x + f64In(F64In.W, j) && py < y + f64In(F64In.H, j);
}

function likelyAncestor(j: i32, i: i32): bool {
  if (j >= i) return false;
  const jx = f64In(F64In.X, j), jy = f64In(F64In.Y, j);
  const ix = f64In(F64In.X, i), iy = f64In(F64In.Y, i);
  return ix >= jx && iy >= jy
    && ix + f64In(F64In.W, i) <= jx + f64In(F64In.W, j)
    && iy + f64In(F64In.H, i) <= jy + f64In(F64In.H, j);
}

function clampCell(v: f64, side: i32): i32 {
  const c = i32(Math.floor(v));
  return c < 0 ? 0 : (c >= side ? side - 1 : c);
}

export function computeOcclusion(): void {
  setParam(Param.OUT_MODALS, 0);
  if (count == 0) return;
  const n = count;
  let minZ = i32In(I32In.Z, 0);
  for (let i = 1; i < n; i++) minZ = min(minZ, i32In(I32In.Z, i));

  // Occluders: visible elements above the lowest layer, highest z first (ties in document order).
  const occ = new Int32Array(n);
  const key = new Float64Array(n);
  let m = 0;
  let gx0: f64 = Infinity, gy0: f64 = Infinity, gx1: f64 = -Infinity, gy1: f64 = -Infinity;
  for (let i = 0; i < n; i++) {
    const z = i32In(I32In.Z, i);
    if (z <= minZ || !visible(i)) continue;
    unchecked(occ[m] = i);
    unchecked(key[i] = -f64(z));
    m++;
    const x = f64In(F64In.X, i), y = f64In(F64In.Y, i);
    gx0 = min(gx0, x); gy0 = min(gy0, y);
    gx1 = max(gx1, x + f64In(F64In.W, i)); gy1 = max(gy1, y + f64In(F64In.H, i));
  }
  if (m == 0) return;
  sortByKey(occ, m, key, new Int32Array(m));

  // Modals, and a slot per occluder that is one (for blocks_interaction).
  const vw = param(Param.OUT_VIEWPORT_W), vh = param(Param.OUT_VIEWPORT_H);
  const modalSlot = new Int32Array(n);
  modalSlot.fill(-1);
  let modalCount = 0;
  for (let k = 0; k < m && modalCount < MAX_MODALS; k++) {
    const j = unchecked(occ[k]);
    const z = i32In(I32In.Z, j);
    if (z <= 0) continue;
    const x = f64In(F64In.X, j), y = f64In(F64In.Y, j), w = f64In(F64In.W, j), h = f64In(F64In.H, j);
    const iw = min(x + w, vw) - max(x, 0), ih = min(y + h, vh) - max(y, 0);
    const coverage = iw > 0 && ih > 0 ? (iw * ih) / (vw * vh) : 0;
    if (coverage < MODAL_COVERAGE) continue;
    const base = modalCount * ModalField.COUNT;
    unchecked(modals[base + ModalField.X] = x);
    unchecked(modals[base + ModalField.Y] = y);
    unchecked(modals[base + ModalField.W] = w);
    unchecked(modals[base + ModalField.H] = h);
    unchecked(modals[base + ModalField.Z] = f64(z));
    unchecked(modals[base + ModalField.COVERAGE] = coverage);
    unchecked(modals[base + ModalField.BLOCKS] = 0);
    unchecked(modalSlot[j] = modalCount);
    modalCount++;
  }
  setParam(Param.OUT_MODALS, f64(modalCount));

  // Grid over the occluders' bounds; each cell lists the occluders touching it, highest z first.
  // The side shrinks until the entry count fits, so memory stays bounded for any input.
  let side = min(MAX_GRID_SIDE, max(1, i32(Math.ceil(Math.sqrt(f64(m))))));
  let cellW: f64 = 1, cellH: f64 = 1, total = 0;
  while (true) {
    cellW = max((gx1 - gx0) / f64(side), 1e-9);
    cellH = max((gy1 - gy0) / f64(side), 1e-9);
    total = 0;
    for (let k = 0; k < m; k++) {
      const j = unchecked(occ[k]);
      const x = f64In(F64In.X, j), y = f64In(F64In.Y, j);
      const cx0 = clampCell((x - gx0) / cellW, side), cx1 = clampCell((x + f64In(F64In.W, j) - gx0) / cellW, side);
      const cy0 = clampCell((y - gy0) / cellH, side), cy1 = clampCell((y + f64In(F64In.H, j) - gy0) / cellH, side);
      total += (cx1 - cx0 + 1) * (cy1 - cy0 + 1);
    }
    if (total <= MAX_GRID_ENTRIES || side == 1) break;
    side = side >> 1;
  }
  const cells = side * side;
  const start = new Int32Array(cells + 1);
  const fill = new Int32Array(cells + 1);
  const entries = new Int32Array(total);
  for (let pass = 0; pass < 2; pass++) {
    for (let k = 0; k < m; k++) {
      const j = unchecked(occ[k]);
      const x = f64In(F64In.X, j), y = f64In(F64In.Y, j);
      const cx0 = clampCell((x - gx0) / cellW, side), cx1 = clampCell((x + f64In(F64In.W, j) - gx0) / cellW, side);
      const cy0 = clampCell((y - gy0) / cellH, side), cy1 = clampCell((y + f64In(F64In.H, j) - gy0) / cellH, side);
      for (let cy = cy0; cy <= cy1; cy++) {
        for (let cx = cx0; cx <= cx1; cx++) {
          const c = cy * side + cx;
          if (pass == 0) unchecked(start[c + 1] = unchecked(start[c + 1]) + 1);
          else { unchecked(entries[unchecked(fill[c])] = j); unchecked(fill[c] = unchecked(fill[c]) + 1); }
        }
      }
    }
    if (pass == 0) {
      for (let c = 0; c < cells; c++) unchecked(start[c + 1] = unchecked(start[c + 1]) + unchecked(start[c]));
      for (let c = 0; c < cells; c++) unchecked(fill[c] = unchecked(start[c]));
    }
  }

  // Each element asks the cell of its centre for the highest occluder above it.
  for (let i = 0; i < n; i++) {
    if (!visible(i)) continue;
    const px = f64In(F64In.X, i) + f64In(F64In.W, i) / 2;
    const py = f64In(F64In.Y, i) + f64In(F64In.H, i) / 2;
    if (px < gx0 || py < gy0 || px >= gx1 || py >= gy1) continue;
    const c = clampCell((py - gy0) / cellH, side) * side + clampCell((px - gx0) / cellW, side);
    const zi = i32In(I32In.Z, i);
    let top = -1;
    for (let e = unchecked(start[c]); e < unchecked(start[c + 1]); e++) {
      const j = unchecked(entries[e]);
      if (i32In(I32In.Z, j) <= zi) break;
      if (containsPoint(j, px, py) && !likelyAncestor(j, i)) { top = j; break; }
    }
    const flags = i32In(I32In.FLAGS, i);
    let out = i32Out(I32Out.FLAGS, i);
    if ((flags & Flag.OCCLUDED_SENT) == 0 && top >= 0) { out |= OutFlag.OCCLUDED; setI32Out(I32Out.FLAGS, i, out); }
    if (top >= 0 && (out & OutFlag.OCCLUDED) != 0 && i32In(I32In.BAND, i) >= Band.LINK) {
      const slot = unchecked(modalSlot[top]);
      if (slot >= 0) unchecked(modals[slot * ModalField.COUNT + ModalField.BLOCKS] = 1);
    }
  }
}
