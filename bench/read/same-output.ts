// Checks that this checkout's read mode writes the same Markdown as another commit's, byte for byte,
// page by page: every WCXB tune page (both folds; never the test part) and the article-extraction-
// benchmark set. For changes meant to be speed only (issue 18's cheaper block step). Exits 1 on any
// difference and names the differing pages' types and counts only (no per-page output of any split).
// Run: node --import tsx bench/read/same-output.ts --base <commit> [--type product,…] [--no-articles]
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readPage } from '../../src/observe/read/read.ts';
import { unpackOldReader } from './old-reader.ts';
import { wcxbSplit } from './wcxb-eval.ts';
import { loadPage, pageRefs } from './pages.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, type: { type: 'string' }, 'no-articles': { type: 'boolean' } } });
if (!values.base) throw new Error('--base <commit>');
const old = unpackOldReader(values.base);
if (!old) throw new Error(`commit ${values.base} is not in this clone`);
try {
  const oldRead = (await import(pathToFileURL(join(old.dir, 'src/observe/read/read.ts')).href) as { readPage: typeof readPage }).readPage;
  const OPTIONS = { format: 'markdown', contentLimit: 500_000 } as const;
  const types = values.type?.split(',');
  const pages = [
    ...(wcxbSplit('tune') ?? []).filter((p) => !types || types.includes(p.type)).map((p) => ({ url: p.url, html: p.html, type: p.type })),
    ...(values['no-articles'] ? [] : pageRefs().articles.map((ref) => { const p = loadPage(ref); return { url: p.url, html: p.html, type: 'articles set' }; })),
  ];
  const count = new Map<string, { same: number; all: number }>();
  for (const p of pages) {
    const same = oldRead(p.html, p.url, OPTIONS).content === readPage(p.html, p.url, OPTIONS).content;
    const c = count.get(p.type) ?? { same: 0, all: 0 };
    c.all++; if (same) c.same++;
    count.set(p.type, c);
  }
  let same = 0;
  for (const [t, c] of [...count].sort()) { console.log(`  ${t.padEnd(14)} ${c.same}/${c.all} identical`); same += c.same; }
  console.log(`base ${values.base.slice(0, 7)} against this checkout: ${same}/${pages.length} pages byte-identical Markdown`);
  if (same !== pages.length) process.exitCode = 1;
} finally {
  old.remove();
}
