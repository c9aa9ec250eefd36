// Size of the "words run together" cause (issue 18): output words that are not in the page's truth but
// whose split at an element boundary gives words that are, per page type, on one fold of the WCXB tune
// part (aggregates only; --examples N lists joined words of fold a only). Element boundaries are marked
// in the extracted HTML with private-use characters (block-like tag or inline) before Markdown.
// Run: node --import tsx bench/read/joined-words.ts --fold a|b [--base <commit>: that commit's read] [--examples 14]
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { extract as ownExtract } from '../../src/observe/read/extract.ts';
import { toMarkdown } from '../../src/observe/read/markdown.ts';
import { unpackOldReader } from './old-reader.ts';
import { wcxbSplit, foldOf } from './wcxb-eval.ts';
import { markdownText } from './metrics.ts';

const { values } = parseArgs({ options: { fold: { type: 'string' }, base: { type: 'string' }, examples: { type: 'string', default: '0' } } });
if (values.fold !== 'a' && values.fold !== 'b') throw new Error('--fold a|b (the tune part only)');
if (values.fold === 'b' && Number(values.examples)) throw new Error('no examples from fold b');
const BLOCKY = new Set(['DIV', 'LI', 'P', 'TD', 'TH', 'TR', 'DT', 'DD', 'DL', 'UL', 'OL', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'NAV', 'FIGURE', 'FIGCAPTION', 'ASIDE', 'MAIN', 'TABLE', 'BLOCKQUOTE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
// Opening and closing marks of block-like and inline elements.
const OPEN = { block: '\uE001', inline: '\uE003' }, CLOSE = { block: '\uE002', inline: '\uE004' };
const MARK = /[\uE001-\uE004]/;

/** Kind of a junction between two parts of one output word. */
function kind(left: string, right: string, marks: string): string {
  const tag = /[\uE001\uE002]/.test(marks) ? 'block' : 'inline';
  // element|element: one element ends where another starts; element|text or text|element: a word styled across.
  const where = /[\uE002\uE004]/.test(marks) && /[\uE001\uE003]/.test(marks) ? 'el|el' : /[\uE002\uE004]/.test(marks) ? 'el|text' : 'text|el';
  let shape = 'other';
  if (/\p{Ll}$/u.test(left) && /^\p{Lu}/u.test(right)) shape = 'lower|Upper';
  else if (/\p{Lu}$/u.test(left) && /^\p{Lu}\p{Ll}/u.test(right)) shape = 'UPPER|Upper';
  else if (/\p{N}$/u.test(left) && /^\p{L}/u.test(right)) shape = 'digit|letter';
  else if (/\p{L}$/u.test(left) && /^\p{N}/u.test(right)) shape = 'letter|digit';
  else if (/\p{L}$/u.test(left) && /^\p{Ll}/u.test(right)) shape = 'x|lower';
  const size = /^\p{L}$/u.test(left) ? ' (1 letter left)' : '';
  return `${tag} ${where} ${shape}${size}`;
}

const old = values.base ? unpackOldReader(values.base) : undefined;
if (values.base && !old) throw new Error(`commit ${values.base} is not in this clone`);
const extract = old ? (await import(pathToFileURL(join(old.dir, 'src/observe/read/extract.ts')).href) as { extract: typeof ownExtract }).extract : ownExtract;
const pages = (wcxbSplit('tune') ?? []).filter((p) => foldOf(p.url) === values.fold);
// per type: output words, joined words (cause), junctions inside words that are in the truth (a split would cost)
const byType = new Map<string, { words: number; cause: number; good: Map<string, number>; bad: Map<string, number>; junk: Map<string, number> }>();
const examples: string[] = [];
const shown = new Map<string, number>();
for (const p of pages) {
  const { document } = parseHTML(`<!doctype html><html><body>${extract(p.html, p.url).html}</body></html>`);
  for (const el of [...document.body.querySelectorAll('*')]) {
    if (['BR', 'IMG', 'HR', 'PRE', 'CODE', 'SCRIPT', 'STYLE'].includes(el.tagName) || el.closest('pre, code')) continue;
    const b = BLOCKY.has(el.tagName) ? 'block' : 'inline';
    el.prepend(document.createTextNode(OPEN[b])); el.append(document.createTextNode(CLOSE[b]));
  }
  const text = markdownText(toMarkdown(document.body.innerHTML));
  const truth = new Set(p.truth.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
  const t = byType.get(p.type) ?? { words: 0, cause: 0, good: new Map(), bad: new Map(), junk: new Map() };
  byType.set(p.type, t);
  for (const run of text.match(/[\p{L}\p{N}_\uE001-\uE004]+/gu) ?? []) {
    const word = run.replace(/[\uE001-\uE004]/g, '');
    if (!word) continue;
    t.words++;
    const parts = run.split(/([\uE001-\uE004]+)/).filter(Boolean);
    if (parts.length < 3) continue;
    const inTruth = truth.has(word.toLowerCase());
    // each junction between two letter parts
    const pieces = parts.filter((_, i) => i % 2 === (MARK.test(parts[0]) ? 1 : 0));
    const marks = parts.filter((x) => MARK.test(x));
    const starts = MARK.test(parts[0]) ? 1 : 0;
    const split = pieces.every((x) => truth.has(x.toLowerCase()));
    if (!inTruth && split) t.cause++;
    for (let i = 0; i + 1 < pieces.length; i++) {
      const k = kind(pieces[i], pieces[i + 1], marks[i + starts] ?? '');
      // junk: neither the joined word nor all its parts are in the truth (a split adds a wrong word)
      const into = inTruth ? t.bad : split ? t.good : t.junk;
      if (into) into.set(k, (into.get(k) ?? 0) + 1);
      if ((shown.get(p.type) ?? 0) < Number(values.examples) && (!process.env.KIND || k.includes(process.env.KIND))) shown.set(p.type, (shown.get(p.type) ?? 0) + 1), examples.push(`${p.type} ${p.id} ${inTruth ? 'in truth' : split ? 'helps' : 'neither'} ${k}: ${pieces.join('|')}`);
      if (0) examples.push(`${p.type} ${p.id} ${k}: ${pieces.join('|')}`);
    }
  }
}
console.log(`fold ${values.fold}: ${pages.length} pages, read of ${values.base ?? 'this checkout'}`);
for (const [type, t] of [...byType].sort()) {
  console.log(`  ${type.padEnd(12)} words ${t.words}  joined (split words in truth, joined not) ${t.cause} (${(100 * t.cause / t.words).toFixed(2)}%)`);
  const kinds = new Set([...t.good.keys(), ...t.bad.keys(), ...t.junk.keys()]);
  for (const k of [...kinds].sort()) console.log(`    ${k.padEnd(36)} split helps ${String(t.good.get(k) ?? 0).padStart(5)}  word in truth ${String(t.bad.get(k) ?? 0).padStart(5)}  neither ${String(t.junk.get(k) ?? 0).padStart(5)}`);
}
for (const e of examples) console.log(e);
old?.remove();
