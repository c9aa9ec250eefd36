// Named colours for `visual_cues.background_color_name`. Names come from hue and lightness rather
// than the nearest RGB point, so rgb(37, 99, 235) is "blue" as a person would say, not "teal".
// The palette is code, not a data table: AssemblyScript's static arrays have no portable (JS)
// counterpart, and a switch keeps both builds allocation-free.
const COLOR_COUNT = 21;

/** Name of palette entry i (0 is "transparent"). */
export function colorName(i: i32): string {
  switch (i) {
    case 0: return "transparent";
    case 1: return "black";
    case 2: return "white";
    case 3: return "gray";
    case 4: return "silver";
    case 5: return "red";
    case 6: return "maroon";
    case 7: return "orange";
    case 8: return "yellow";
    case 9: return "olive";
    case 10: return "lime";
    case 11: return "green";
    case 12: return "teal";
    case 13: return "cyan";
    case 14: return "blue";
    case 15: return "navy";
    case 16: return "purple";
    case 17: return "magenta";
    case 18: return "pink";
    case 19: return "brown";
    case 20: return "beige";
    default: return "transparent";
  }
}

export const TRANSPARENT = 0;
/** Below this alpha (of 255) a background counts as transparent. */
export const MIN_ALPHA = 26;

export function colorCount(): i32 { return COLOR_COUNT; }

export function red(c: i32): i32 { return c & 0xff; }
export function green(c: i32): i32 { return (c >>> 8) & 0xff; }
export function blue(c: i32): i32 { return (c >>> 16) & 0xff; }
export function alpha(c: i32): i32 { return (c >>> 24) & 0xff; }

/** Palette index of the colour name a person would use: greys by lightness, colours by hue band,
 *  with dark/light variants (navy, maroon, brown, olive, teal, pink, beige). */
export function nearestColor(c: i32): i32 {
  if (alpha(c) < MIN_ALPHA) return TRANSPARENT;
  const r = red(c), g = green(c), b = blue(c);
  const hi = max(r, max(g, b)), lo = min(r, min(g, b));
  const ch = hi - lo;
  const light = (hi + lo) >> 1;
  if (ch < 24) {
    if (light < 48) return 1;   // black
    if (light < 160) return 3;  // gray
    if (light < 224) return 4;  // silver
    return 2;                   // white
  }
  let hue: f64;
  if (hi == r) hue = 60.0 * f64(g - b) / f64(ch);
  else if (hi == g) hue = 60.0 * f64(b - r) / f64(ch) + 120.0;
  else hue = 60.0 * f64(r - g) / f64(ch) + 240.0;
  if (hue < 0) hue += 360.0;
  const dark = light < 80;
  const pale = light > 200;
  if (hue < 15 || hue >= 345) return dark ? 6 : (pale ? 18 : 5);        // maroon, pink, red
  if (hue < 45) return dark ? 19 : (pale ? 20 : 7);                       // brown, beige, orange
  if (hue < 70) return dark ? 9 : (pale ? 20 : 8);                        // olive, beige, yellow
  if (hue < 165) return dark ? 11 : (ch >= 200 && light >= 100 ? 10 : 11); // green, lime
  if (hue < 195) return dark ? 12 : 13;                                   // teal, cyan
  if (hue < 255) return dark ? 15 : 14;                                   // navy, blue
  if (hue < 290) return 16;                                               // purple
  return pale ? 18 : 17;                                                  // pink, magenta
}

/** Chroma (max - min channel), 0..255: how colourful, as opposed to grey, a background is. */
export function chroma(c: i32): i32 {
  const r = red(c), g = green(c), b = blue(c);
  return max(r, max(g, b)) - min(r, min(g, b));
}
