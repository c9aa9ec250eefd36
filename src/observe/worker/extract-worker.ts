// The body of an extraction child process (extract-pool.ts): takes one page at a time, refuses a page
// with more elements than the limit before parsing it, and answers readPage's result (or readPdf's, for
// a PDF) or an error code.
// Bundled on its own to build/extract-worker.js; run from source under tsx.
import { setPriority } from 'node:os';
import { readPage, type ReadOptions, type ReadResult } from '../read/read.ts';
import { SightlineError, type ErrorCode } from '../../schema/errors.ts';

/** A page to read: HTML, or (with `pdf`) a PDF's bytes. */
export interface ExtractJob { id: number; html: string; url: string; options: ReadOptions; pdf?: Uint8Array }
export type ExtractAnswer =
  | { id: number; ok: true; result: ReadResult }
  | { id: number; ok: false; code: ErrorCode; message: string };
export interface ExtractWorkerData { maxNodes: number; maxDecodedBytes: number }

/** Start tags in an HTML string (`<` then a letter): an upper bound of the elements a parser makes,
 *  counted in a few milliseconds for a 10 MB page, before any parsing. */
export function countTags(html: string): number {
  let n = 0;
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) {
    const c = html.charCodeAt(i + 1) | 32;
    if (c >= 97 && c <= 122) n++;
  }
  return n;
}

async function answer(job: ExtractJob, limits: ExtractWorkerData): Promise<ExtractAnswer> {
  try {
    if (job.pdf) {
      // pdf.ts (and pdfjs) load with the first PDF: HTML-only children never pay for them.
      const { readPdf } = await import('../pdf/pdf.ts');
      return { id: job.id, ok: true, result: await readPdf(job.pdf, job.url, job.options, limits.maxDecodedBytes) };
    }
    const tags = countTags(job.html);
    if (tags > limits.maxNodes) {
      throw new SightlineError('too_large', `The page has ${tags} elements, more than the ${limits.maxNodes} this service reads (--extract-max-nodes)`);
    }
    return { id: job.id, ok: true, result: readPage(job.html, job.url, job.options) };
  } catch (err) {
    if (err instanceof SightlineError) return { id: job.id, ok: false, code: err.code, message: err.message };
    // Elements nested thousands deep run the recursive DOM walks (turndown's parser) out of stack: a
    // page over the extraction limits, like too many elements.
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      return { id: job.id, ok: false, code: 'too_large', message: 'The page\'s elements are nested too deeply to read' };
    }
    return { id: job.id, ok: false, code: 'internal_error', message: `extraction failed: ${(err as Error)?.message ?? String(err)}` };
  }
}

if (process.send) {
  const send = process.send.bind(process);
  // Extraction yields the CPU to the processes that serve requests: with every core busy extracting,
  // /healthz and snapshot requests still get it at once.
  try { setPriority(10); } catch { /* not allowed: run at normal priority */ }
  const limits = JSON.parse(process.argv[2] ?? '{}') as ExtractWorkerData;
  // The parent died: nothing will read our answers.
  process.on('disconnect', () => process.exit(0));
  // Warm up before the first request: the modules are loaded, turndown built, the hot paths compiled.
  readPage('<html><head><title>warm</title></head><body><article><h1>Warm</h1><p>A first page, <a href="/a">linked</a>.</p><table><tr><td>1</td></tr></table></article></body></html>', 'http://localhost/');
  process.on('message', (job: ExtractJob) => { void answer(job, limits).then((a) => send(a)); });
  send({ ready: true });
}
