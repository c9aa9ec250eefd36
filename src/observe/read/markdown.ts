// Markdown from extracted HTML: turndown with GFM tables and strike-through, fenced code with its
// language, ATX headings. Turndown gets an HTML string (it parses it itself). Tables are our own rules:
// the GFM plugin's table rule counts columns by re-reading `table.rows` for every row (quadratic: a
// 714-row table took 3.8 s); ours is linear. Every table becomes a Markdown table: its first row is the
// header, cells are one line (`<br>` for breaks, `|` escaped).
import TurndownService from 'turndown';
import { strikethrough } from '@joplin/turndown-plugin-gfm';

const CELLS = new Set(['TH', 'TD']);
/** HTML's largest colspan: a browser reads a larger one as this (a page's colspan="99999999" would
 *  otherwise be a string too long to build). */
const MAX_COLSPAN = 1000;

/** Columns a cell spans. */
const spanOf = (cell: Element) => Math.min(MAX_COLSPAN, Math.max(1, Number(cell.getAttribute('colspan')) || 1));

/** Columns a row spans (colspan counted). */
function columns(row: HTMLElement): number {
  let n = 0;
  for (const c of Array.from(row.children)) if (CELLS.has(c.nodeName)) n += spanOf(c);
  return n;
}

/** The first row of its table, in document order (the header of the Markdown table). */
function isFirstRow(row: HTMLElement): boolean {
  return row.closest('table')?.querySelector('tr') === row;
}

function addTables(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const text = content.trim().replace(/\s*\n+\s*/g, '<br>').replace(/\|/g, '\\|') || ' ';
      return ` ${text} |${' |'.repeat(spanOf(node as HTMLElement) - 1)}`;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = node as HTMLElement;
      return `\n|${content}${isFirstRow(row) ? `\n|${' --- |'.repeat(Math.max(1, columns(row)))}` : ''}`;
    },
  });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('tableCaption', { filter: ['caption', 'colgroup', 'col'], replacement: () => '' });
  service.addRule('table', { filter: 'table', replacement: (content) => `\n\n${content.replace(/\n+/g, '\n').trim()}\n\n` });
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  service.use(strikethrough);
  addTables(service);
  // Fenced code keeps its language from class="language-x" / "lang-x" on <pre> or <code>.
  service.addRule('fencedWithLanguage', {
    filter: (node) => node.nodeName === 'PRE' && !!node.textContent?.trim(),
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const code = el.querySelector('code');
      const cls = `${el.getAttribute('class') ?? ''} ${code?.getAttribute('class') ?? ''}`;
      const lang = /(?:language|lang)-([\w+#-]+)/.exec(cls)?.[1] ?? '';
      const text = (code ?? el).textContent ?? '';
      const fence = text.includes('```') ? '````' : '```';
      return `\n\n${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}\n\n`;
    },
  });
  return service;
}

/** Plain text made safe to stand in Markdown as text, by turndown's own rules (what an HTML read escapes):
 *  a leading "* ", "2024. ", "# ", "> " or an inline * _ ` [ ] would otherwise become syntax. */
export function escapeMarkdown(text: string): string {
  return turndown().escape(text);
}

export function toMarkdown(html: string): string {
  return turndown().turndown(html).replace(/\n{3,}/g, '\n\n').trim();
}

/** A fence line of Markdown code (``` or ~~~). */
const FENCE = /^ {0,3}(?:```|~~~)/;

/**
 * Cuts at the last block boundary (blank line) before `limit` characters; when that keeps under half the
 * limit (one block longer than that: a table, a long code block), at the last line break (a whole table
 * row, a whole line of code), else at the last word boundary, never inside a link's brackets nor between
 * the two halves of a character outside the Basic Multilingual Plane. In Markdown, a code fence left open by
 * the cut is closed, so what follows in the caller's renderer is not read as code. The result is at most `limit`
 * characters (a closing fence takes its room from the content).
 */
export function cutAtBlock(content: string, limit: number, markdown = true): { content: string; truncated: boolean } {
  if (content.length <= limit) return { content, truncated: false };
  const room = limit - 4; // for a closing "\n```"
  let end = content.lastIndexOf('\n\n', room);
  if (end <= room * 0.5) end = content.lastIndexOf('\n', room);
  if (end <= room * 0.5) {
    // The last whitespace at or before the limit, so the character after the cut is a space.
    end = Math.max(content.lastIndexOf(' ', room), content.lastIndexOf('\t', room));
    if (end <= room * 0.5) end = room;
    const line = content.slice(content.lastIndexOf('\n', end - 1) + 1, end);
    const open = line.lastIndexOf('[');
    if (open >= 0 && line.indexOf(']', open) < 0) {
      const before = end - line.length + open;
      if (before > room * 0.5) end = before;
    }
  }
  if (/[\ud800-\udbff]/.test(content[end - 1] ?? '')) end--;
  let cut = content.slice(0, end).trimEnd();
  if (markdown && cut.split('\n').filter((l) => FENCE.test(l)).length % 2 === 1) cut += '\n```';
  return { content: cut, truncated: true };
}
