// Draws the code's layout from its imports: one box per folder (files under src/, assembly/ and
// extension/), one arrow per folder that imports another, importers above what they import (rows by
// longest import path). Reads the working tree, or with --commit a commit's tree through git, so the
// layout before a change can be drawn beside the one after.
// Run: node --import tsx scripts/layout-picture.ts [--commit REV] [--title T] OUT.svg
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(name); return i < 0 ? undefined : args.splice(i, 2)[1]; };
const commit = flag('--commit');
const title = flag('--title') ?? `Folders and their imports${commit ? ` at ${commit}` : ''}`;
const out = args[0];
if (!out) { console.error('usage: layout-picture.ts [--commit REV] [--title T] OUT.svg'); process.exit(2); }

const ROOTS = ['src/', 'assembly/', 'extension/'];
const git = (...a: string[]) => execFileSync('git', a, { encoding: 'utf8', maxBuffer: 1 << 28 });
const files = (commit ? git('ls-tree', '-r', '--name-only', commit) : git('ls-files')).split('\n')
  .filter((f) => ROOTS.some((r) => f.startsWith(r)) && /\.ts$/.test(f) && !f.endsWith('.d.ts'));
const text = (f: string) => (commit ? git('show', `${commit}:${f}`) : readFileSync(f, 'utf8'));
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

// A folder's box: its first two levels (src/server holds src/server/routes), three under src/observe
// (its rooms); files at the top of src/ are the package's entries.
const boxOf = (dir: string) => dir.split('/').slice(0, dir.startsWith('src/observe/') ? 3 : 2).join('/');
// Folder graph: files counted per folder, imports between folders.
const size = new Map<string, number>();
const edges = new Map<string, Set<string>>();
for (const f of files) {
  const from = boxOf(dirname(f));
  size.set(from, (size.get(from) ?? 0) + 1);
  for (const m of text(f).matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('.')) continue;
    const to = boxOf(dirname(normalize(join(dirname(f), spec))));
    if (to === from || !ROOTS.some((r) => `${to}/`.startsWith(r))) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
}
const nodes = [...size.keys()].sort();
for (const set of edges.values()) for (const to of set) if (!size.has(to)) { size.set(to, 0); nodes.push(to); }

// Rows: a folder sits one row above the deepest folder it imports (a circle is cut where found).
const row = new Map<string, number>();
const visiting = new Set<string>();
const circles: string[] = [];
function depth(n: string): number {
  if (row.has(n)) return row.get(n)!;
  if (visiting.has(n)) { circles.push(n); return 0; }
  visiting.add(n);
  let d = 0;
  for (const to of edges.get(n) ?? []) d = Math.max(d, depth(to) + 1);
  visiting.delete(n);
  row.set(n, d);
  return d;
}
nodes.forEach(depth);
const rows = Math.max(...row.values()) + 1;
const byRow: string[][] = Array.from({ length: rows }, () => []);
for (const n of nodes) byRow[rows - 1 - row.get(n)!].push(n);

const CHAR = 7.2, PAD = 14, BOX_H = 38, ROW_GAP = 70, COL_GAP = 18, TOP = 50;
const widthOf = (n: string) => Math.max(90, n.length * CHAR + 2 * PAD);
const rowWidth = (r: string[]) => r.reduce((w, n) => w + widthOf(n), 0) + COL_GAP * (r.length - 1);
const W = Math.max(...byRow.map(rowWidth)) + 40;
const at = new Map<string, { x: number; y: number; w: number }>();
byRow.forEach((r, i) => {
  let x = (W - rowWidth(r)) / 2;
  for (const n of r) { at.set(n, { x, y: TOP + i * (BOX_H + ROW_GAP), w: widthOf(n) }); x += widthOf(n) + COL_GAP; }
});
const H = TOP + rows * (BOX_H + ROW_GAP);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const colour = (n: string) => (n.startsWith('src/observe') ? '#e8f1fb' : n.startsWith('assembly') ? '#fdf1e1' : n.startsWith('extension') ? '#eef7ea' : '#f4f4f4');

const parts: string[] = [];
parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="ui-monospace, monospace" font-size="12">`);
parts.push('<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="#8a8a8a"/></marker></defs>');
parts.push(`<rect width="${W}" height="${H}" fill="#fff"/><text x="20" y="28" font-size="15" font-family="sans-serif">${esc(title)}: ${nodes.length} folders, ${files.length} files${circles.length ? `, circles through ${esc(circles.join(', '))}` : ', no folder circles'}</text>`);
for (const [from, set] of edges) for (const to of set) {
  const a = at.get(from)!, b = at.get(to)!;
  parts.push(`<line x1="${(a.x + a.w / 2).toFixed(1)}" y1="${a.y + BOX_H}" x2="${(b.x + b.w / 2).toFixed(1)}" y2="${b.y}" stroke="#b5b5b5" stroke-width="1" marker-end="url(#a)"/>`);
}
for (const n of nodes) {
  const { x, y, w } = at.get(n)!;
  parts.push(`<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${BOX_H}" rx="5" fill="${colour(n)}" stroke="#666"/>`);
  parts.push(`<text x="${(x + w / 2).toFixed(1)}" y="${y + 16}" text-anchor="middle">${esc(n)}</text>`);
  parts.push(`<text x="${(x + w / 2).toFixed(1)}" y="${y + 30}" text-anchor="middle" fill="#777" font-size="10">${size.get(n)} file${size.get(n) === 1 ? "" : "s"}</text>`);
}
parts.push('</svg>');
writeFileSync(out, parts.join('\n') + '\n');
console.log(`${out}: ${nodes.length} folders in ${rows} rows, ${[...edges.values()].reduce((s, e) => s + e.size, 0)} folder imports${circles.length ? `; folder circles at ${circles.join(', ')}` : ''}`);
