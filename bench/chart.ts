// Horizontal bar charts as standalone SVG, one per suite, for people to open next to the tables.
// No dependency: a few rectangles and labels.

export interface Bar { label: string; value: number; /** A reference drawn as a line across the bar (a floor). */ mark?: number; group?: string }

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const COLOURS = ['#1a73e8', '#e37400', '#188038', '#a142f4', '#d93025', '#12b5cb'];

export function barChart(title: string, bars: Bar[], unit = 'x'): string {
  const labelW = 260, barW = 420, rowH = 22, top = 36, width = labelW + barW + 90;
  const height = top + bars.length * rowH + 16;
  const max = Math.max(...bars.map((b) => Math.max(b.value, b.mark ?? 0)), 1e-9);
  const groups = [...new Set(bars.map((b) => b.group ?? ''))];
  const rows = bars.map((b, i) => {
    const y = top + i * rowH;
    const w = Math.max(1, (b.value / max) * barW);
    const colour = COLOURS[groups.indexOf(b.group ?? '') % COLOURS.length];
    const mark = b.mark === undefined ? '' : `<line x1="${labelW + (b.mark / max) * barW}" x2="${labelW + (b.mark / max) * barW}" y1="${y}" y2="${y + rowH - 6}" stroke="#d93025" stroke-width="2"/>`;
    return `<text x="${labelW - 8}" y="${y + 12}" text-anchor="end">${esc(b.label)}</text>`
      + `<rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 6}" fill="${colour}"/>${mark}`
      + `<text x="${labelW + w + 6}" y="${y + 12}">${b.value < 10 ? b.value.toFixed(2) : b.value.toFixed(0)}${esc(unit)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`
    + `<rect width="100%" height="100%" fill="#fff"/><text x="10" y="20" font-size="14" font-weight="bold">${esc(title)}</text>${rows.join('')}</svg>\n`;
}
