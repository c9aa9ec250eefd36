// Is it a PDF? Its own module: the fetcher asks without loading pdfjs. Strict: `%PDF-` at the start
// (after a few bytes of whitespace), for a body labelled HTML or text, which may well mention "%PDF-".
// Loose: anywhere in the first kilobyte (the PDF readers' own tolerance), for a body of a generic type.
export function isPdf(bytes: Uint8Array, loose = false): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  return loose ? head.includes('%PDF-') : /^\s{0,8}%PDF-/.test(head);
}
