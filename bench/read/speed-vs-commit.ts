// Read speed of this checkout against another commit's, in one process: every WCXB tune page (never the
// test part), the two readers in alternating order page by page, CPU time (process.cpuUsage) around each
// read. Prints pages per CPU-second for both and their ratio, and the load. For speed-only changes (check
// the output with same-output.ts). Run: node --import tsx bench/read/speed-vs-commit.ts --base <commit> [--every 2 --from 0]
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { readPage } from '../../src/observe/read/read.ts';
import { unpackOldReader } from './old-reader.ts';
import { wcxbSplit } from './wcxb-eval.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, every: { type: 'string', default: '1' }, from: { type: 'string', default: '0' } } });
if (!values.base) throw new Error('--base <commit>');
const old = unpackOldReader(values.base);
if (!old) throw new Error(`commit ${values.base} is not in this clone`);
try {
  const oldRead = (await import(pathToFileURL(join(old.dir, 'src/observe/read/read.ts')).href) as { readPage: typeof readPage }).readPage;
  const every = Number(values.every), from = Number(values.from);
  const pages = (wcxbSplit('tune') ?? []).filter((_, i) => i % every === from);
  const OPTIONS = { format: 'markdown', contentLimit: 500_000 } as const;
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
  const spent = { old: 0, new: 0 };
  const load0 = loadavg()[0];
  for (const [k, p] of pages.entries()) {
    for (const side of k % 2 ? ['old', 'new'] as const : ['new', 'old'] as const) {
      const c0 = cpu();
      (side === 'old' ? oldRead : readPage)(p.html, p.url, OPTIONS);
      spent[side] += cpu() - c0;
    }
  }
  const rate = (s: number) => (pages.length / s).toFixed(2);
  console.log(`${pages.length} tune pages, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}: old ${spent.old.toFixed(1)} s (${rate(spent.old)} pages/CPU-s), new ${spent.new.toFixed(1)} s (${rate(spent.new)}), ${(spent.old / spent.new).toFixed(3)}×`);
} finally {
  old.remove();
}
