// The `text` format of a read: the content as a browser's innerText gives it (what a person copies from the
// page), not the block text the extraction scores: table cells apart by tabs and rows on lines of their own,
// preformatted text and line breaks kept, list items on lines of their own, blocks apart by a blank line. Numbers in adjacent cells never join.
import { parseHTML } from 'linkedom';

const BLOCK = /^(P|DIV|SECTION|ARTICLE|ASIDE|NAV|HEADER|FOOTER|MAIN|H[1-6]|UL|OL|DL|BLOCKQUOTE|TABLE|THEAD|TBODY|TFOOT|CAPTION|FIGURE|FIGCAPTION|HR|ADDRESS|DETAILS|SUMMARY|FORM|FIELDSET)$/;

/** The extracted HTML as plain text. */
export function plainText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const blocks: string[] = [];
  let line = '';
  const lines: string[] = [];
  const endLine = () => { const t = line.replace(/[ \t\n\r\f]+/g, ' ').trim(); if (t) lines.push(t); line = ''; };
  const endBlock = () => { endLine(); if (lines.length) blocks.push(lines.join('\n')); lines.length = 0; };
  const cellText = (cell: Element) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
  const walk = (node: Node): void => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) { line += n.textContent ?? ''; continue; }
      if (n.nodeType !== 1) continue;
      const el = n as Element;
      const tag = el.tagName.toUpperCase();
      if (tag === 'BR') { endLine(); continue; }
      if (tag === 'PRE') {
        endBlock();
        const text = (el.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
        if (text) blocks.push(text);
        continue;
      }
      if (tag === 'TR') {
        endLine();
        const cells = [...el.children].filter((c) => /^(TD|TH)$/i.test(c.tagName)).map(cellText);
        if (cells.some(Boolean)) lines.push(cells.join('\t'));
        continue;
      }
      if (/^(LI|DT|DD)$/.test(tag)) { endLine(); walk(el); endLine(); continue; } // one line each, in their list's block
      const block = BLOCK.test(tag);
      if (block) endBlock();
      walk(el);
      if (block) endBlock();
    }
  };
  walk(document.body);
  endBlock();
  return blocks.join('\n\n');
}
