// Importance 0..1000 and visual cues.
//
// importance = round((TIER[band] + bonus) * penalties), clamped to 0..1000, where
//   TIER: form input 750, interactive control 500, content link 250, static content 0 (SPEC bands)
//   bonus (0..245, so tiers never overlap before penalties):
//     in viewport 80, above the fold (doc_y within the first screen) 30,
//     area up to 50 (sqrt(area) / 100, capped), primary styling 40,
//     opaque non-white/grey background 15, cursor:pointer 15, visible text or accessible name 15
//   penalties (multiplied): hidden x0.05, disabled x0.6, occluded x0.5, tiny x0.6,
//     off-screen x0.85 within one screen of the viewport, x0.7 further away
import { F64In, I32In, F64Out, I32Out, Flag, OutFlag, Param, Band } from "./layout";
import { count, f64In, i32In, f64Out, i32Out, setI32Out, param } from "./state";
import { nearestColor, alpha, chroma, MIN_ALPHA, red, green, blue } from "./palette";

const TIER_INPUT: f64 = 750;
const TIER_CONTROL: f64 = 500;
const TIER_LINK: f64 = 250;

const BONUS_IN_VIEWPORT: f64 = 80;
const BONUS_ABOVE_FOLD: f64 = 30;
const BONUS_AREA_MAX: f64 = 50;
const AREA_SCALE: f64 = 100;       // sqrt(area) in px that earns the full area bonus
const BONUS_PRIMARY: f64 = 40;
const BONUS_BACKGROUND: f64 = 15;
const BONUS_POINTER: f64 = 15;
const BONUS_TEXT: f64 = 15;

const PENALTY_HIDDEN: f64 = 0.05;
const PENALTY_DISABLED: f64 = 0.6;
const PENALTY_OCCLUDED: f64 = 0.5;
const PENALTY_TINY: f64 = 0.6;
const PENALTY_NEAR_OFFSCREEN: f64 = 0.85;
const PENALTY_FAR_OFFSCREEN: f64 = 0.7;

const TINY_SIDE: f64 = 4;          // px: thinner than this in either direction is tiny
const TINY_AREA: f64 = 100;        // px²
const PRIMARY_MIN_CHROMA = 64;     // saturated background: a coloured call-to-action
const PRIMARY_MIN_AREA: f64 = 400; // px²
const PRIMARY_MAX_VIEWPORT_SHARE: f64 = 0.25;

function tier(band: i32): f64 {
  if (band == Band.INPUT) return TIER_INPUT;
  if (band == Band.CONTROL) return TIER_CONTROL;
  if (band == Band.LINK) return TIER_LINK;
  return 0;
}

/** An opaque background that is neither white nor a light grey: it sets the element apart. */
function distinctBackground(bg: i32): bool {
  if (alpha(bg) < MIN_ALPHA) return false;
  return chroma(bg) >= 24 || (red(bg) + green(bg) + blue(bg)) < 600;
}

export function computeScores(): void {
  const vw = param(Param.OUT_VIEWPORT_W), vh = param(Param.OUT_VIEWPORT_H);
  for (let i = 0; i < count; i++) {
    const flags = i32In(I32In.FLAGS, i);
    const band = i32In(I32In.BAND, i);
    const w = f64In(F64In.W, i), h = f64In(F64In.H, i);
    const area = w * h;
    const bg = i32In(I32In.BG, i);
    let out = i32Out(I32Out.FLAGS, i);
    const inView = (out & OutFlag.IN_VIEWPORT) != 0;

    const pointer = (flags & Flag.CURSOR_POINTER) != 0;
    const clickable = band >= Band.LINK || pointer;
    const styledPrimary = alpha(bg) >= 128 && chroma(bg) >= PRIMARY_MIN_CHROMA
      && area >= PRIMARY_MIN_AREA && area <= PRIMARY_MAX_VIEWPORT_SHARE * vw * vh;
    const primary = clickable && ((flags & Flag.PRIMARY_HINT) != 0 || styledPrimary);
    if (clickable) out |= OutFlag.CLICKABLE;
    if (primary) out |= OutFlag.PRIMARY;
    setI32Out(I32Out.FLAGS, i, out);
    setI32Out(I32Out.COLOR, i, nearestColor(bg));

    let score = tier(band);
    if (inView) score += BONUS_IN_VIEWPORT;
    const docY = f64Out(F64Out.DOC_Y, i);
    if (docY >= 0 && docY < vh) score += BONUS_ABOVE_FOLD;
    score += min(BONUS_AREA_MAX, Math.sqrt(area) / AREA_SCALE * BONUS_AREA_MAX);
    if (primary) score += BONUS_PRIMARY;
    if (distinctBackground(bg)) score += BONUS_BACKGROUND;
    if (pointer) score += BONUS_POINTER;
    if ((flags & Flag.HAS_TEXT) != 0) score += BONUS_TEXT;

    if ((flags & Flag.HIDDEN) != 0 || w <= 0 || h <= 0) score *= PENALTY_HIDDEN;
    else if (w < TINY_SIDE || h < TINY_SIDE || area < TINY_AREA) score *= PENALTY_TINY;
    if ((flags & Flag.DISABLED) != 0) score *= PENALTY_DISABLED;
    if ((out & OutFlag.OCCLUDED) != 0) score *= PENALTY_OCCLUDED;
    if (!inView) {
      const cy = f64Out(F64Out.CENTER_Y, i);
      const cx = f64Out(F64Out.CENTER_X, i);
      const near = cy > -vh && cy < 2 * vh && cx > -vw && cx < 2 * vw;
      score *= near ? PENALTY_NEAR_OFFSCREEN : PENALTY_FAR_OFFSCREEN;
    }
    const rounded = i32(Math.floor(score + 0.5));
    setI32Out(I32Out.IMPORTANCE, i, rounded < 0 ? 0 : (rounded > 1000 ? 1000 : rounded));
  }
}
