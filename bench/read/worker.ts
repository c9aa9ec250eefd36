// One worker of bench/read.bench.ts's pool: reads each page it is given from disk, runs each reader on
// it (ours: this checkout's src/observe/read/read.ts; old: the same file as of OLD_READER_COMMIT, unpacked
// from git by the main thread; Mozilla Readability), and posts back only scores and CPU times.
import { workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { readPage } from '../../src/observe/read/read.ts';
import { readabilityMarkdown } from './readability.ts';
import { markdownText, shingleScores, wordF1 } from './metrics.ts';
import { serveParts } from './pool.ts';
import { loadPage, type PageRef, type LoadedPage, type PageScore } from './pages.ts';

export interface ReadWorkerData { readers: string[]; oldDir?: string }

const { readers, oldDir } = workerData as ReadWorkerData;
type Read = typeof readPage;
const oldRead: Read | null = oldDir ? (await import(pathToFileURL(join(oldDir, 'src/observe/read/read.ts')).href) as { readPage: Read }).readPage : null;

const OPTIONS = { format: 'markdown', contentLimit: 500_000 } as const;

function score(page: LoadedPage, markdown: string): PageScore {
  const text = markdownText(markdown);
  return page.ref.set === 'articles' ? shingleScores(text, page.truth) : { f1: wordF1(text, page.truth) };
}

const all: Record<string, (p: LoadedPage) => PageScore> = {
  ours: (p) => score(p, readPage(p.html, p.url, OPTIONS).content),
  ...(oldRead ? { old: (p: LoadedPage) => score(p, oldRead(p.html, p.url, OPTIONS).content) } : {}),
  readability: (p) => score(p, readabilityMarkdown(p.html, p.url)),
};
serveParts<PageRef, LoadedPage, PageScore>(loadPage, Object.fromEntries(readers.filter((r) => all[r]).map((r) => [r, all[r]])));
