// A PDF's compressed streams, measured before pdfjs materialises them: a 1 MB `/FlateDecode` stream can
// inflate to 1 GiB (a decompression bomb), and pdfjs decodes a content stream whole into one buffer.
// Each Flate stream that is not an image (text extraction never decodes images) is inflated here with
// zlib's output cap set to what is left of the document's budget, so at most that many bytes are ever
// allocated; a document over its budget is refused before pdfjs sees it.
import { inflateSync, inflateRawSync } from 'node:zlib';
import { SightlineError } from '../../schema/errors.ts';

const STREAM = /stream\r?\n/g;

/** The dictionary just before `at` (the `<<…>>` that ends there), as Latin-1 text; '' when none. */
function dictionaryBefore(text: string, at: number): string {
  let end = at - 1;
  while (end >= 0 && /\s/.test(text[end])) end--;
  if (text[end] !== '>' || text[end - 1] !== '>') return '';
  let depth = 0;
  for (let i = end; i > 0 && end - i < 65_536; i--) {
    if (text[i] === '>' && text[i - 1] === '>') { depth++; i--; } else if (text[i] === '<' && text[i - 1] === '<') {
      depth--; i--;
      if (depth === 0) return text.slice(i, end + 1);
    }
  }
  return '';
}

/** Bytes a capped inflate produced, or `over` when the cap was reached; corrupt data counts what
 *  inflated before the error (pdfjs will say the rest). */
function inflatedSize(data: Uint8Array, cap: number): number | 'over' {
  for (const inflate of [inflateSync, inflateRawSync]) {
    try {
      return inflate(data, { maxOutputLength: Math.max(1, cap), finishFlush: 2 /* Z_SYNC_FLUSH: a truncated stream is not an error */ }).length;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return 'over';
    }
  }
  return 0;
}

/**
 * Throws 422 too_large when the document's non-image Flate streams decode to more than `maxBytes`
 * all together. Linear in the file's size; nothing larger than `maxBytes` is allocated.
 */
export function checkDecodedSize(bytes: Uint8Array, maxBytes: number): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let total = 0;
  for (const m of text.matchAll(STREAM)) {
    const keyword = m.index;
    if (text.slice(keyword - 3, keyword) === 'end') continue; // "endstream"
    const dict = dictionaryBefore(text, keyword);
    if (!/\/FlateDecode|\/Fl\b/.test(dict) || /\/Subtype\s*\/Image/.test(dict)) continue;
    const start = keyword + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end === -1) break;
    const size = inflatedSize(bytes.subarray(start, end), maxBytes - total);
    if (size === 'over' || (total += size) > maxBytes) {
      throw new SightlineError('too_large', `The PDF's content decompresses to more than ${Math.round(maxBytes / 1e6)} MB (8 × --max-page-mb): it is not read`);
    }
  }
}
