// Hostile PDFs (and one hostile page) for the extraction limits (issue 36), built at test time: small files that cost a reader
// gigabytes of memory or unbounded time, or that are damaged in ways that crash naive parsers.
import { deflateRawSync, constants } from 'node:zlib';

/** A PDF of the given objects (object 1 is the catalog), with a correct cross-reference table. */
export function pdfOf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0].length;
  objects.forEach((body, i) => {
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    offsets.push(at);
    parts.push(chunk);
    at += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const stream = (dict: string, data: Buffer) => Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/**
 * One page whose content stream is `gib` GiB of zeros deflated to about a megabyte per GiB: the
 * decompression bomb. Made from one deflated 64 MiB block repeated (each ends in a full flush, so the
 * copies are independent), with the zlib header and the Adler-32 of that many zeros.
 */
export function flateBomb(gib = 1): Buffer {
  const block = 64 * 1024 * 1024;
  const segment = deflateRawSync(Buffer.alloc(block), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const copies = gib * 16;
  const total = block * copies;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  const data = Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: copies }, () => segment), Buffer.from([0x03, 0x00]), adler]);
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`,
    stream('/Filter /FlateDecode', data),
    FONT,
  ]);
}

/** Form XObjects that each draw the next one twice, `depth` deep: 2^depth text draws from 5 KB. */
export function xobjectLaughs(depth = 40): Buffer {
  const first = 5; // object number of X0
  const forms = Array.from({ length: depth }, (_, i) => {
    const next = i + 1 < depth ? `/X${i + 1} ${first + i + 1} 0 R` : '';
    const draw = i + 1 < depth ? `/X${i + 1} Do /X${i + 1} Do ` : '';
    return stream(`/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << ${next} >> >>`,
      Buffer.from(`BT /F1 12 Tf 72 720 Td (Level ${i} text) Tj ET ${draw}`, 'latin1'));
  });
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << /X0 ${first} 0 R >> >> /Contents ${first + depth} 0 R >>`,
    FONT,
    ...forms,
    stream('', Buffer.from('/X0 Do', 'latin1')),
  ]);
}

/** A page whose media box is `depth` nested arrays. */
export function nestedArrays(depth = 100_000): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox ${'['.repeat(depth)}0${']'.repeat(depth)} /Contents 4 0 R >>`,
    stream('', Buffer.from('BT /F1 12 Tf 72 720 Td (Nested) Tj ET', 'latin1')),
  ]);
}

/** A page tree whose only kid is itself. */
export function selfContainingTree(): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [2 0 R] /Count 1 >>',
  ]);
}

const LOREM = 'Quarterly figures for the northern warehouse, restated after the audit of stock counts and transfers. ';

/** About 7 MB of table rows with long cells: about 70,000 elements, under the element limit, so it is
 *  really read (seconds of linkedom and turndown per page): the hostile HTML beside the PDFs. */
export const TABLE_ROWS = Buffer.from(`<html><head><title>Rows</title></head><body><main><h1>Inventory</h1><table>\n${
  Array.from({ length: 17_500 }, (_, i) => `<tr><td>Row ${i}</td><td>${LOREM.repeat(3)}</td><td><a href="/item/${i}">item ${i}</a></td></tr>\n`).join('')
}</table></main></body></html>`);
