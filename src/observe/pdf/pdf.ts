// Read mode for PDFs: pdfjs-dist's text layer (its legacy Node build, parsing in this thread, no
// network: fonts and CMaps come from the package's own files) laid out again as Markdown, text or
// HTML. The layout rules (docs/decisions.md "PDF read mode"):
// - lines: text items on one baseline, joined in x order; a gap wider than CELL_GAP font sizes
//   splits a line into cells;
// - running headers and footers: lines in the top or bottom band of the page whose text (digits
//   masked) repeats at the same height on at least half the pages; page-number lines in those bands;
// - two columns: a vertical gutter near the middle that (almost) no line crosses, with enough long
//   lines on both sides; between full-width rows the left column is read before the right;
// - headings: lines whose font is clearly larger than the body's (the size holding most characters),
//   levels by size, largest first;
// - paragraphs: lines joined while the baseline step stays near the body's line pitch and no short
//   line has ended a sentence; across a column or page break, while the sentence is open; a hyphen
//   at a line's end before a lowercase letter is removed (unless the document writes that word with
//   the hyphen elsewhere), soft hyphens always;
// - tables: two or more consecutive lines with the same number (≥ 2) of cells whose columns line up.
// Title and description from the document's metadata (Title, Subject), else the first heading and the
// first paragraph. Past the first pages, pages are read only while the content limit needs more text. Encrypted, image-only and unreadable PDFs are refused with unsupported_content_type.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { SightlineError } from '../../schema/errors.ts';
import { checkDecodedSize } from './pdf-streams.ts';
import { cutContent } from '../read/cut.ts';
import { escapeMarkdown } from '../read/markdown.ts';
import { DEFAULT_CONTENT_LIMIT, type ReadLink, type ReadOptions, type ReadResult } from '../read/read.ts';

const PACKAGE = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
/** Cells: a horizontal gap wider than this many font sizes. Word spaces are a third of one. */
const CELL_GAP = 1.2;
const SPACE_GAP = 0.15;
/** Top and bottom bands (share of the page height) where running headers, footers and page numbers live. */
const MARGIN_BAND = 0.12;
/** A heading's font is at least this many times the body size. */
const HEADING_RATIO = 1.15;
/** A line set wholly in a bold font is a heading from this many times the body size. */
const BOLD_HEADING_RATIO = 1.05;
const BOLD_FONT = /bold|black|heavy|semibold|demi/i;
/** A new paragraph: a baseline step over this many body line pitches. */
const PARAGRAPH_STEP = 1.35;
/** Pages read beyond what the content limit needs are skipped; but at least this many (running headers). */
const MIN_PAGES = 8;
/** Fewer non-space characters than this on every page: an image-only (scanned) PDF. */
const MIN_TEXT = 20;
/** A list item's start: a bullet character, or a number or letter with a dot or parenthesis, then a space. */
const LIST_ITEM = /^(?:[•◦▪▫‣∙●○■□]|\(?\d{1,3}[.)]|\(?[a-z]\))\s+\S/u;
const BULLET = /^[•◦▪▫‣∙●○■□]\s+/u;
const PAGE_NUMBER = /^(?:page\s*)?[-–—]?\s*\d{1,5}\s*[-–—]?(?:\s*(?:of|\/)\s*\d{1,5})?$/i;


interface Item { str: string; x0: number; x1: number; y: number; size: number; font: string }
/** `col`: 0 for the left column or a full-width row, 1 for the right column; `band`: the page's run of
 *  full-width rows or of two-column rows the line belongs to (a flow is a page, band and column). */
interface Line { cells: Item[][]; text: string; x0: number; x1: number; y: number; size: number; page: number; col: number; band: number }
interface Page { lines: Line[]; height: number; width: number }

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'para'; text: string }
  | { kind: 'table'; rows: string[][] };

function joinItems(items: Item[]): string {
  let out = '';
  let end = -Infinity;
  for (const it of items) {
    if (out && it.x0 - end > SPACE_GAP * it.size && !/\s$/.test(out) && !/^\s/.test(it.str)) out += ' ';
    out += it.str;
    end = Math.max(end, it.x1);
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Items on one baseline, in x order, split into cells at wide gaps. */
function toLine(items: Item[], page: number): Line {
  items.sort((a, b) => a.x0 - b.x0);
  const cells: Item[][] = [];
  let end = -Infinity;
  for (const it of items) {
    if (!cells.length || it.x0 - end > CELL_GAP * it.size) cells.push([]);
    cells[cells.length - 1].push(it);
    end = Math.max(end, it.x1);
  }
  const size = Math.max(...items.map((i) => i.size));
  return { cells, text: cells.map(joinItems).join(' '), x0: items[0].x0, x1: end, y: items[0].y, size, page, col: 0, band: 0 };
}

/** One baseline: within 0.35 font sizes; or a clearly smaller item (a superscript, a footnote mark, a
 *  subscript) raised or lowered inside the larger one's line box. */
function onLine(a: Item, b: Item): boolean {
  if (Math.abs(a.y - b.y) <= 0.35 * Math.min(a.size, b.size)) return true;
  const [big, small] = a.size >= b.size ? [a, b] : [b, a];
  const dy = small.y - big.y;
  return small.size <= 0.8 * big.size && dy >= -0.3 * big.size && dy <= 0.6 * big.size;
}

/** Groups items into rows by baseline (top first). */
function rows(items: Item[]): Item[][] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x0 - b.x0);
  const out: Item[][] = [];
  let ref: Item | undefined; // the row's largest item
  for (const it of sorted) {
    const row = out[out.length - 1];
    if (row && ref && onLine(ref, it)) {
      row.push(it);
      if (it.size > ref.size) ref = it;
    } else {
      out.push([it]);
      ref = it;
    }
  }
  return out;
}

/** The x of a two-column gutter on this page, or undefined. */
function gutter(rowsOf: Item[][], width: number, height: number): number | undefined {
  // Running headers and footers often sit centred across the gutter: they do not count.
  const text = rowsOf.filter((r) => r.length && r[0].y < height * (1 - MARGIN_BAND) && r[0].y > height * MARGIN_BAND);
  if (text.length < 6) return undefined;
  let best: { x: number; crossing: number } | undefined;
  for (let x = Math.round(width * 0.3); x <= width * 0.7; x += 2) {
    const crossing = text.filter((r) => r.some((i) => i.x0 < x && i.x1 > x)).length;
    if (!best || crossing < best.crossing || (crossing === best.crossing && Math.abs(x - width / 2) < Math.abs(best.x - width / 2))) best = { x, crossing };
  }
  if (!best || best.crossing > Math.max(1, text.length * 0.1)) return undefined;
  const g = best.x;
  const left = text.map((r) => r.filter((i) => i.x1 <= g)).filter((r) => r.length);
  const right = text.map((r) => r.filter((i) => i.x0 >= g)).filter((r) => r.length);
  if (left.length < 3 || right.length < 3) return undefined;
  const minX = Math.min(...left.map((r) => r[0].x0));
  const maxX = Math.max(...right.map((r) => Math.max(...r.map((i) => i.x1))));
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const leftFill = median(left.map((r) => (Math.max(...r.map((i) => i.x1)) - Math.min(...r.map((i) => i.x0))) / (g - minX)));
  const rightFill = median(right.map((r) => (Math.max(...r.map((i) => i.x1)) - Math.min(...r.map((i) => i.x0))) / (maxX - g)));
  // Two columns of running text: most lines on each side fill most of their column (table cells do not).
  return leftFill >= 0.6 && rightFill >= 0.6 ? g : undefined;
}

/** The page's lines in reading order: per band between full-width rows, the left column then the right. */
function layout(items: Item[], width: number, height: number, page: number): Line[] {
  const grouped = rows(items);
  const g = gutter(grouped, width, height);
  if (g === undefined) return grouped.map((r) => toLine(r, page));
  const out: Line[] = [];
  let left: Line[] = [], right: Line[] = [];
  let band = 0, full = true;
  const flush = () => { out.push(...left, ...right); left = []; right = []; };
  for (const r of grouped) {
    if (r.some((i) => i.x0 < g && i.x1 > g)) {
      if (!full) { band++; full = true; }
      flush();
      out.push({ ...toLine(r, page), band });
      continue;
    }
    if (full) { band++; full = false; }
    const l = r.filter((i) => i.x1 <= g), rr = r.filter((i) => i.x0 >= g);
    if (l.length) left.push({ ...toLine(l, page), band });
    if (rr.length) right.push({ ...toLine(rr, page), col: 1, band });
  }
  flush();
  return out;
}

/** Masks digits so "Page 3 of 9" repeats on every page. */
const shape = (text: string) => text.replace(/\d+/g, '#').toLowerCase();

/** Running headers and footers, cell by cell: a header often holds the title at one side and the date
 *  or page number at the other, and only some of its cells repeat (digits masked) from page to page. */
function dropRunningLines(pages: Page[]): void {
  const inBand = (l: Line, p: Page) => l.y > p.height * (1 - MARGIN_BAND) || l.y < p.height * MARGIN_BAND;
  const seen = new Map<string, number>();
  const key = (l: Line, c: Item[]) => `${Math.round(l.y / 3)}|${shape(joinItems(c))}`;
  for (const p of pages) for (const k of new Set(p.lines.filter((l) => inBand(l, p)).flatMap((l) => l.cells.map((c) => key(l, c))))) seen.set(k, (seen.get(k) ?? 0) + 1);
  const needed = Math.max(2, Math.ceil(pages.length / 2));
  const running = (l: Line, c: Item[]) => PAGE_NUMBER.test(joinItems(c)) || (pages.length > 1 && (seen.get(key(l, c)) ?? 0) >= needed);
  for (const p of pages) {
    p.lines = p.lines.flatMap((l) => {
      if (!inBand(l, p) || !l.cells.some((c) => running(l, c))) return [l];
      if (PAGE_NUMBER.test(l.text)) return [];
      const cells = l.cells.filter((c) => !running(l, c));
      if (!cells.length) return [];
      return [{ ...l, cells, text: cells.map(joinItems).join(' '), x0: cells[0][0].x0, x1: Math.max(...cells[cells.length - 1].map((i) => i.x1)) }];
    });
  }
}

const flow = (l: Line) => `${l.page}|${l.band}|${l.col}`;

/** The size holding most characters, and the usual baseline step between its lines. */
function bodyMetrics(lines: Line[]): { size: number; pitch: number } {
  const chars = new Map<number, number>();
  for (const l of lines) chars.set(Math.round(l.size * 2) / 2, (chars.get(Math.round(l.size * 2) / 2) ?? 0) + l.text.length);
  const size = [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  const steps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1], b = lines[i];
    const step = a.y - b.y;
    if (flow(a) === flow(b) && Math.abs(a.size - size) < 0.5 && Math.abs(b.size - size) < 0.5 && step > 0) steps.push(step);
  }
  steps.sort((x, y) => x - y);
  return { size, pitch: steps[Math.floor(steps.length / 2)] ?? size * 1.2 };
}

function isTableRow(l: Line): boolean {
  return l.cells.length >= 2;
}

/** Column ranges of consecutive rows that line up: each cell overlaps its column and no two columns overlap. */
function aligned(run: Line[]): boolean {
  const n = run[0].cells.length;
  if (run.some((l) => l.cells.length !== n)) return false;
  const cols = Array.from({ length: n }, (_, c) => ({
    x0: Math.min(...run.map((l) => l.cells[c][0].x0)),
    x1: Math.max(...run.map((l) => Math.max(...l.cells[c].map((i) => i.x1)))),
  }));
  for (let c = 1; c < n; c++) if (cols[c].x0 < cols[c - 1].x1) return false;
  return true;
}

/** A heading: a short line clearly larger than the body, or a little larger and wholly bold. */
function isHeading(l: Line, body: number, bold: Set<string>): boolean {
  if (l.text.length > 200) return false;
  return l.size >= body * HEADING_RATIO || (l.size >= body * BOLD_HEADING_RATIO && l.cells.every((c) => c.every((i) => bold.has(i.font))));
}

/** Lines that may be bold headings (a little larger than the body): their fonts' names decide. */
function boldCandidates(lines: Line[]): Set<string> {
  const { size: body } = bodyMetrics(lines);
  const fonts = new Set<string>();
  for (const l of lines) {
    // Heading-like only: short, not ending as a sentence or clause does.
    if (l.size < body * BOLD_HEADING_RATIO || l.size >= body * HEADING_RATIO || l.text.length > 120 || /[.,;:!?]$/.test(l.text)) continue;
    for (const c of l.cells) for (const i of c) fonts.add(i.font);
  }
  return fonts;
}

function blocks(lines: Line[], hyphenated: Set<string>, bold: Set<string>): Block[] {
  const { size: body, pitch } = bodyMetrics(lines);
  const headingSizes = [...new Set(lines.filter((l) => isHeading(l, body, bold)).map((l) => Math.round(l.size)))].sort((a, b) => b - a);
  // Each flow's (page and column's) left and right edges, from its body lines.
  const edges = new Map<string, { left: number; right: number }>();
  for (const l of lines) {
    if (Math.abs(l.size - body) >= 0.5) continue;
    const k = flow(l);
    const e = edges.get(k);
    if (!e) edges.set(k, { left: l.x0, right: l.x1 });
    else { e.left = Math.min(e.left, l.x0); e.right = Math.max(e.right, l.x1); }
  }
  for (const l of lines) if (!edges.has(flow(l))) edges.set(flow(l), { left: l.x0, right: l.x1 });
  // A line's measure: the right edge of the run of lines set close around it (no paragraph gap between),
  // so that a narrow block is judged by its own width, not the page's. (The run's longest line cannot
  // show a break after it: a list's longest item runs on into the next.)
  const close = (a: Line, b: Line) => flow(a) === flow(b) && a.y - b.y > 0 && a.y - b.y <= pitch * PARAGRAPH_STEP && Math.abs(a.size - b.size) < 0.5;
  const measure = (i: number) => {
    let right = lines[i].x1;
    for (let j = i; j > 0 && close(lines[j - 1], lines[j]); j--) right = Math.max(right, lines[j - 1].x1);
    for (let j = i; j < lines.length - 1 && close(lines[j], lines[j + 1]); j++) right = Math.max(right, lines[j + 1].x1);
    return right;
  };
  const out: Block[] = [];
  let para: Line | undefined;
  let text = '';
  const end = () => { if (para && text.trim()) out.push({ kind: 'para', text: text.trim() }); para = undefined; text = ''; };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    // Tables: a run of aligned multi-cell rows.
    if (isTableRow(l)) {
      let j = i;
      while (j + 1 < lines.length && isTableRow(lines[j + 1]) && lines[j + 1].page === l.page && aligned(lines.slice(i, j + 2))) j++;
      if (j > i) {
        end();
        out.push({ kind: 'table', rows: lines.slice(i, j + 1).map((r) => r.cells.map(joinItems)) });
        i = j;
        continue;
      }
    }
    if (isHeading(l, body, bold)) {
      end();
      const level = Math.min(6, headingSizes.indexOf(Math.round(l.size)) + 1);
      const last = out[out.length - 1];
      // A heading wrapped over two lines: the same size, one pitch below.
      if (last?.kind === 'heading' && last.level === level && lines[i - 1]?.page === l.page && lines[i - 1].y - l.y < l.size * 1.6 && lines[i - 1].size === l.size) last.text += ` ${l.text}`;
      else out.push({ kind: 'heading', level, text: l.text });
      continue;
    }
    if (para) {
      const sameFlow = flow(para) === flow(l);
      const step = para.y - l.y;
      const closed = /[.!?:;]["')\]]?$/.test(text);
      const edge = edges.get(flow(para))!;
      const room = edge.right - para.x1;
      const continues = sameFlow
        ? step > 0 && step <= pitch * PARAGRAPH_STEP && Math.abs(para.size - l.size) < 0.5
          // A short line that ends a sentence ends its paragraph, even without a gap below it.
          && !(closed && room > 0.25 * (edge.right - edge.left))
          // A line broken early, with room left for the next line's first word: a break the author made (with an em and a tenth of the word to spare: the width is estimated)
          // (list items whose bullets are drawn, not written; addresses; lines of a form), not a wrap.
          && !(room > 0.1 * (edge.right - edge.left) && !/[-\u2010\u00ad]$/.test(text) && firstWordWidth(l) * 1.1 + l.size < measure(i - 1) - para.x1)
        // Across a column or page break: while the sentence goes on. (A full line before the break says
        // little: ragged text's last line is often nearly full.)
        : !closed && /^[a-z(]/.test(l.text);
      // A list item starts a block of its own.
      if (!continues || LIST_ITEM.test(l.text)) end();
    }
    if (para) text = joinLines(text, l.text, hyphenated);
    else text = l.text;
    para = l;
  }
  end();
  return out;
}

/** The width of a line's first word, estimated along its first text run. */
function firstWordWidth(l: Line): number {
  const it = l.cells[0][0];
  const word = /^\s*\S+/.exec(it.str)?.[0] ?? it.str;
  return ((it.x1 - it.x0) / Math.max(1, it.str.length)) * word.length;
}

/** Joins a line to the paragraph so far, repairing a word hyphenated across the break. */
function joinLines(text: string, next: string, hyphenated: Set<string>): string {
  if (text.endsWith('\u00ad')) return text.slice(0, -1) + next;
  const m = /(\p{L}+)[-\u2010]$/u.exec(text);
  if (m && /^\p{Ll}/u.test(next)) {
    const rest = /^\p{L}+/u.exec(next)![0];
    return hyphenated.has(`${m[1]}-${rest}`.toLowerCase()) ? text + next : text.slice(0, -1) + next;
  }
  return `${text} ${next}`;
}

/** Words the document writes with a hyphen inside a line ("well-known"): kept when split at a break. */
function inlineHyphenated(lines: Line[]): Set<string> {
  const out = new Set<string>();
  for (const l of lines) for (const m of l.text.matchAll(/\p{L}+-\p{L}+/gu)) out.add(m[0].toLowerCase());
  return out;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cell = (s: string) => escapeMarkdown(s).replace(/\|/g, '\\|') || ' ';
/** A paragraph as Markdown text: a drawn bullet becomes "- ", a numbered item keeps its number (both lists
 *  by LIST_ITEM), the rest is escaped as text ("* Note", "2024. That year" stay text). */
function markdownPara(text: string): string {
  if (BULLET.test(text)) return `- ${escapeMarkdown(text.replace(BULLET, ''))}`;
  const item = LIST_ITEM.test(text) ? /^\S+\s+/.exec(text)![0] : '';
  return item + escapeMarkdown(text.slice(item.length));
}

function render(bs: Block[], format: ReadOptions['format']): string {
  const parts = bs.map((b) => {
    if (format === 'html') {
      if (b.kind === 'heading') return `<h${b.level}>${escapeHtml(b.text)}</h${b.level}>`;
      if (b.kind === 'para') return `<p>${escapeHtml(b.text)}</p>`;
      return `<table>\n${b.rows.map((r, i) => `<tr>${r.map((c) => i ? `<td>${escapeHtml(c)}</td>` : `<th>${escapeHtml(c)}</th>`).join('')}</tr>`).join('\n')}\n</table>`;
    }
    if (format === 'text') return b.kind === 'table' ? b.rows.map((r) => r.join('\t')).join('\n') : b.text;
    if (b.kind === 'heading') return `${'#'.repeat(b.level)} ${escapeMarkdown(b.text)}`;
    if (b.kind === 'para') return markdownPara(b.text);
    return [`| ${b.rows[0].map(cell).join(' | ')} |`, `|${' --- |'.repeat(b.rows[0].length)}`, ...b.rows.slice(1).map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
  });
  return parts.join('\n\n');
}

interface RawItem { str: string; transform: number[]; width: number; fontName: string }

/** Words of the text items inside a link's rectangle (positions estimated along each item). */
function anchorText(items: Item[], rect: number[]): string {
  const [ax0, ay0, ax1, ay1] = [Math.min(rect[0], rect[2]), Math.min(rect[1], rect[3]), Math.max(rect[0], rect[2]), Math.max(rect[1], rect[3])];
  const words: string[] = [];
  for (const it of items) {
    if (it.y < ay0 - 2 || it.y > ay1 + 2) continue;
    const per = (it.x1 - it.x0) / Math.max(1, it.str.length);
    for (const m of it.str.matchAll(/\S+/g)) {
      const mid = it.x0 + per * (m.index! + m[0].length / 2);
      if (mid >= ax0 && mid <= ax1) words.push(m[0]);
    }
  }
  return words.join(' ');
}

/** Which of these fonts are bold, by their names. A font's name is known once a page using it has been
 *  through the (costlier) operator list, so only pages holding candidate lines' fonts go through it. */
async function boldFonts(doc: PDFDocumentProxy, fonts: Set<string>, fontPage: Map<string, number>): Promise<Set<string>> {
  const bold = new Set<string>();
  let lists = 0;
  for (const font of fonts) {
    const n = fontPage.get(font);
    if (n === undefined) continue;
    // An operator list costs tens of milliseconds (the page's fonts are parsed for drawing): two at most.
    if (!(await doc.getPage(n)).commonObjs.has(font) && ++lists > 2) break;
    const page = await doc.getPage(n);
    if (!page.commonObjs.has(font)) await page.getOperatorList();
    const name = page.commonObjs.has(font) ? (page.commonObjs.get(font) as { name?: string })?.name ?? '' : '';
    if (BOLD_FONT.test(name)) bold.add(font);
  }
  return bold;
}

export interface PdfReadResult extends ReadResult { pages: number }

/** pdfjs (about 2 MB of code, plus its parser loaded on first use) only once a PDF arrives. */
let pdfjs: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | undefined;

async function open(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  const task = getDocument({
    data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0,
    stopAtErrors: false, disableAutoFetch: true, disableStream: true,
    standardFontDataUrl: join(PACKAGE, 'standard_fonts') + '/', cMapUrl: join(PACKAGE, 'cmaps') + '/', cMapPacked: true,
  });
  try {
    return await task.promise;
  } catch (err) {
    const name = (err as Error)?.name;
    if (err instanceof RangeError) throw damaged(err);
    if (name === 'PasswordException') throw new SightlineError('unsupported_content_type', 'The PDF is encrypted (it needs a password to open): it cannot be read');
    throw new SightlineError('unsupported_content_type', `The PDF cannot be parsed (${(err as Error)?.message ?? 'damaged or truncated'})`);
  }
}

/** A PDF's text as Markdown, text or HTML, with its title, description, page count and (optionally) links. */
export async function readPdf(bytes: Uint8Array, url: string, options: ReadOptions = {}, maxDecodedBytes = 80e6): Promise<PdfReadResult> {
  checkDecodedSize(bytes, maxDecodedBytes);
  // pdfjs takes a plain Uint8Array (a Node Buffer is refused).
  const doc = await open(Buffer.isBuffer(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes);
  try {
    return await readOpened(doc, url, options);
  } catch (err) {
    throw damaged(err);
  } finally {
    await doc.destroy();
  }
}

/**
 * A damaged document fails inside pdfjs in ways of its own: 100,000 nested arrays run its recursive
 * parser out of stack, a page tree that contains itself loops until pdfjs gives up. Those are the
 * PDF's faults, answered 422 with the reason, never a 500.
 */
function damaged(err: unknown): Error {
  if (err instanceof SightlineError) return err;
  const message = (err as Error)?.message ?? String(err);
  // pdfjs hands its parser's errors across its (fake) worker as errors of its own: the message tells.
  if (/call stack/i.test(message)) return new SightlineError('unsupported_content_type', 'The PDF is damaged: its objects are nested too deeply to read');
  return new SightlineError('unsupported_content_type', `The PDF is damaged: ${message.slice(0, 200)}`);
}

async function readOpened(doc: PDFDocumentProxy, url: string, options: ReadOptions): Promise<PdfReadResult> {
  {
    const format = options.format ?? 'markdown';
    const limit = options.contentLimit ?? DEFAULT_CONTENT_LIMIT;
    const pages: Page[] = [];
    const fontPage = new Map<string, number>(); // the first page using each font
    const links = new Map<string, string>();
    let chars = 0;
    let readAll = true;
    for (let n = 1; n <= doc.numPages; n++) {
      // Enough text for the limit (with room for what layout drops) and enough pages to see running lines.
      if (n > MIN_PAGES && chars > limit * 1.5 + 2000) { readAll = false; break; }
      const page = await doc.getPage(n);
      const [, , width, height] = page.view;
      const content = await page.getTextContent();
      const items: Item[] = [];
      for (const raw of content.items as RawItem[]) {
        if (!('str' in raw) || !raw.str.trim()) continue;
        // The size is the font's height (the vertical scale): justifiers that stretch glyphs sideways
        // (pdfTeX's font expansion) change the horizontal scale from line to line.
        const [, , c, d, e, f] = raw.transform;
        const size = Math.hypot(c, d) || 1;
        items.push({ str: raw.str, x0: e, x1: e + raw.width, y: f, size, font: raw.fontName });
        if (!fontPage.has(raw.fontName)) fontPage.set(raw.fontName, n);
        chars += raw.str.replace(/\s/g, '').length;
      }
      pages.push({ lines: layout(items, width, height, n), height, width });
      if (options.includeLinks) {
        for (const a of await page.getAnnotations({ intent: 'display' })) {
          const href = a.subtype === 'Link' ? (a.url ?? a.unsafeUrl) : undefined;
          if (!href) continue;
          let abs: string;
          try { abs = new URL(href, url).href; } catch { continue; }
          if (!/^https?:|^mailto:/i.test(abs)) continue;
          if (!links.has(abs) || !links.get(abs)) links.set(abs, anchorText(items, a.rect));
        }
      }
      page.cleanup();
    }
    if (chars < MIN_TEXT) {
      throw new SightlineError('unsupported_content_type', `The PDF has no text layer (${doc.numPages} page${doc.numPages === 1 ? '' : 's'} of images only, such as a scan): reading it needs OCR, which this service does not do`);
    }
    dropRunningLines(pages);
    const lines = pages.flatMap((p) => p.lines);
    const bs = blocks(lines, inlineHyphenated(lines), await boldFonts(doc, boldCandidates(lines), fontPage));
    const full = render(bs, format);
    const { content, truncated } = cutContent(full, format, limit);
    const meta = await doc.getMetadata().catch(() => undefined);
    const info = (meta?.info ?? {}) as { Title?: string; Subject?: string };
    const xmpTitle = meta?.metadata?.get('dc:title');
    const firstHeading = bs.find((b) => b.kind === 'heading') as { text: string } | undefined;
    const firstPara = bs.find((b) => b.kind === 'para') as { text: string } | undefined;
    const title = (info.Title?.trim() || (typeof xmpTitle === 'string' ? xmpTitle.trim() : '') || firstHeading?.text || '').slice(0, 500);
    const description = info.Subject?.trim() || shorten(firstPara?.text ?? '', 300);
    const warnings: string[] = [];
    if (truncated || !readAll) warnings.push(`content_truncated: cut at ${content.length} characters (contentLimit)${readAll ? ` of ${full.length}` : `; pages after ${pages.length} of ${doc.numPages} were not read`}`);
    const textLength = bs.reduce((s, b) => s + (b.kind === 'table' ? b.rows.flat().join(' ').length : b.text.length), 0);
    return {
      title, description, content, truncated: truncated || !readAll, warnings, textLength, pages: doc.numPages,
      ...(options.includeLinks ? { links: [...links].map(([href, text]): ReadLink => ({ url: href, text })) } : {}),
    };
  }
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max - 1);
  return `${text.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}
