// CSS colour strings to packed RGBA (r | g << 8 | b << 16 | a << 24, alpha 0..255), the form the
// core reads. Handles what computed styles produce (rgb()/rgba(), both comma and space syntax) plus
// hex and a few keywords; anything else counts as transparent.

const KEYWORDS = new Map<string, number>([
  ['transparent', 0], ['white', pack(255, 255, 255, 255)], ['black', pack(0, 0, 0, 255)],
  ['red', pack(255, 0, 0, 255)], ['green', pack(0, 128, 0, 255)], ['blue', pack(0, 0, 255, 255)],
  ['gray', pack(128, 128, 128, 255)], ['grey', pack(128, 128, 128, 255)],
]);

export function pack(r: number, g: number, b: number, a: number): number {
  return (r & 0xff) | ((g & 0xff) << 8) | ((b & 0xff) << 16) | ((a & 0xff) << 24);
}

/** A colour channel (0..255) or, with isAlpha, an alpha value (0..1 or a percentage) scaled to 0..255. */
function channel(v: string, isAlpha: boolean): number {
  const f = parseFloat(v);
  const n = v.endsWith('%') ? (f / 100) * 255 : isAlpha ? f * 255 : f;
  return Number.isFinite(n) ? Math.max(0, Math.min(255, Math.round(n))) : 0;
}

export function parseColor(css: string): number {
  const s = css.trim().toLowerCase();
  const keyword = KEYWORDS.get(s);
  if (keyword !== undefined) return keyword;
  if (s.startsWith('#')) {
    const hex = s.slice(1);
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    if (!/^[0-9a-f]{6}([0-9a-f]{2})?$/.test(full)) return 0;
    const v = (i: number) => parseInt(full.slice(i, i + 2), 16);
    return pack(v(0), v(2), v(4), full.length === 8 ? v(6) : 255);
  }
  const m = /^rgba?\(([^)]*)\)$/.exec(s);
  if (!m) return 0;
  const parts = m[1].split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3) return 0;
  const a = parts.length > 3 ? channel(parts[3], true) : 255;
  return pack(channel(parts[0], false), channel(parts[1], false), channel(parts[2], false), a);
}
