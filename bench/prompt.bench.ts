// Tokens per element of the compact text form (toPrompt) against our JSON, counted with a real BPE
// tokenizer (gpt-tokenizer's o200k_base and cl100k_base tables, shipped in the package), on the real
// client payloads (ranked by the Wasm core) and on every fixture page collected in Debian's Chromium.
// Also the grammar candidates docs/prompt-format.md compares, on the same elements.
// Run: npm run bench:prompt. Writes bench/results/prompt.{json,md,svg}.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { createRanker, toPrompt, PROMPT_NO_VALUE_ROLES } from '../src/index.ts';
import type { RankResult, SnapshotElement, SnapshotRequest } from '../src/schema/snapshot.ts';
import { shapeElements } from '../src/observe/browser/map-shape.ts';
import type { PageMap } from '../src/observe/browser/map.ts';
import type { CollectedElement } from '../src/collect/types.ts';
import { launch } from '../test/helpers/browser.ts';
import { serveFixtures } from '../test/helpers/fixtures.ts';
import { collectPage, waitForStable } from '../src/playwright/collect-page.ts';
import { SHARED_DATA } from './payloads.ts';
import { barChart } from './chart.ts';

const PAGES = ['search', 'login', 'shop', 'shadow', 'frames', 'long', 'captcha', 'article', 'consent', 'cookie-bar', 'kontakt', 'lazy', 'big'];
const VIEWS = [{ name: 'top 50', limit: 50 }, { name: 'all', limit: 100_000 }] as const;

interface Source { set: 'real payloads' | 'fixtures'; name: string; request: SnapshotRequest; title?: string }

const ranker = await createRanker({ limitCap: 100_000 });
const sources: Source[] = [];
const dir = join(SHARED_DATA, 'real-client-payloads');
for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
  sources.push({ set: 'real payloads', name: f.slice(0, 8), request: JSON.parse(readFileSync(join(dir, f), 'utf8')) });
}
const fx = await serveFixtures();
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
for (const name of PAGES) {
  await page.goto(`${fx.url}/${name}.html`);
  await waitForStable(page, { quietMs: 100 });
  const c = await collectPage(page);
  sources.push({ set: 'fixtures', name, title: await page.title(), request: {
    url: page.url(), viewport: c.viewport, raw_elements: c.raw_elements as unknown as SnapshotRequest['raw_elements'],
    client_metrics: c.client_metrics, client_diagnostics: c.client_diagnostics,
  } });
}
const chromium = browser.version();
await browser.close();
await fx.close();

// The candidates measured before the grammar was chosen (docs/prompt-format.md). Each writes the same
// facts: id, role, text cut at 60 characters, and the flags; only the spelling differs.
const cut = (s: string, max = 60) => { s = s.replace(/\s+/g, ' ').trim(); return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s; };
const label = (e: SnapshotElement) => (/[\p{L}\p{N}]/u.test(e.text) ? e.text : e.name || e.text);
type Words = Record<'value' | 'redacted' | 'checked' | 'disabled' | 'expanded' | 'collapsed' | 'covered' | 'above' | 'below' | 'list' | 'ADDED' | 'REMOVED' | 'MODIFIED' | 'MOVED', string>;
const WORDS: Words = { value: 'value=', redacted: 'redacted', checked: 'checked', disabled: 'disabled', expanded: 'expanded', collapsed: 'collapsed', covered: 'covered', above: 'above', below: 'below', list: 'list', ADDED: 'new', REMOVED: 'gone', MODIFIED: 'changed', MOVED: 'moved' };
const SYMBOLS: Words = { value: '=', redacted: '=***', checked: '✓', disabled: '!dis', expanded: '+exp', collapsed: '-exp', covered: '!cov', above: '↑', below: '↓', list: '*', ADDED: '+', REMOVED: '-', MODIFIED: '~', MOVED: '>' };
const ABBR: Record<string, string> = { button: 'btn', textbox: 'input', searchbox: 'search', combobox: 'select', checkbox: 'check', menuitem: 'menu', listbox: 'list' };
function flags(e: SnapshotElement, vh: number, w: Words): string[] {
  const f: string[] = [];
  if (e.value_redacted) f.push(w.redacted); else if (e.value && !PROMPT_NO_VALUE_ROLES.has(e.role)) f.push(`${w.value}${JSON.stringify(cut(e.value, 40))}`);
  if (e.checked) f.push(w.checked);
  if (e.disabled) f.push(w.disabled);
  if (e.expanded != null) f.push(e.expanded ? w.expanded : w.collapsed);
  if (e.is_occluded) f.push(w.covered);
  if (!e.in_viewport) f.push(e.bbox.y < 0 ? w.above : w.below);
  if (e.in_dominant_group) f.push(w.list);
  if (e.diff_status) f.push(w[e.diff_status]);
  return f;
}
const sp = (f: string[]) => f.map((x) => ` ${x}`).join('');
const CANDIDATES: { name: string; line: (e: SnapshotElement, vh: number) => string }[] = [
  { name: 'A. Playwright-like: `- button "Sign in" [ref=12] [disabled]`', line: (e, vh) => `- ${e.role} ${JSON.stringify(cut(label(e)))} [ref=${e.id}]${flags(e, vh, WORDS).map((f) => ` [${f}]`).join('')}` },
  { name: 'B. brackets: `[12] button "Sign in" disabled`', line: (e, vh) => `[${e.id}] ${e.role} ${JSON.stringify(cut(label(e)))}${sp(flags(e, vh, WORDS))}` },
  { name: 'C. quoted: `12 button "Sign in" disabled`', line: (e, vh) => `${e.id} ${e.role} ${JSON.stringify(cut(label(e)))}${sp(flags(e, vh, WORDS))}` },
  { name: 'D. pipes: `12|button|Sign in|disabled`', line: (e, vh) => `${e.id}|${e.role}|${cut(label(e)).replaceAll('|', '¦')}|${flags(e, vh, WORDS).join(' ')}` },
  { name: 'E. parenthesised flags: `12 button (disabled): Sign in`', line: (e, vh) => { const f = flags(e, vh, WORDS); return `${e.id} ${e.role}${f.length ? ` (${f.join(' ')})` : ''}: ${cut(label(e))}`; } },
  { name: 'F. head and colon, abbreviations and symbols: `12 btn !dis: Sign in`', line: (e, vh) => `${e.id} ${ABBR[e.role] ?? e.role}${sp(flags(e, vh, SYMBOLS))}: ${cut(label(e))}` },
  { name: 'G. head and colon, words (chosen): `12 button disabled: Sign in`', line: (e, vh) => `${e.id} ${e.role}${sp(flags(e, vh, WORDS))}: ${cut(label(e))}` },
];

/** Observe map's common shape for the same elements (what map mode answers in JSON). */
function mapJson(result: RankResult, request: SnapshotRequest): string {
  const raw = new Map(request.raw_elements.map((e) => [e.id, e as unknown as CollectedElement]));
  return JSON.stringify(shapeElements({ ranked: result, raw } as unknown as PageMap, { shape: 'common', visualCues: true, attributes: false }));
}

interface Row { set: string; name: string; view: string; elements: number; text: number; textCl: number; header: number; snapshotJson: number; mapJson: number; maxText: number[]; candidates: number[] }
const MAX_TEXTS = [30, 40, 60, 80, 120];
const rows: Row[] = [];
for (const s of sources) {
  for (const v of VIEWS) {
    const result = ranker.rank({ ...s.request, options: { limit: v.limit } });
    const n = result.elements.length;
    if (n === 0) continue;
    const text = toPrompt(result, { title: s.title });
    const header = toPrompt({ ...result, elements: [] }, { title: s.title });
    rows.push({
      set: s.set, name: s.name, view: v.name, elements: n,
      text: o200k(text).length, textCl: cl100k(text).length, header: o200k(header).length,
      snapshotJson: o200k(JSON.stringify(result.elements)).length, mapJson: o200k(mapJson(result, s.request)).length,
      maxText: MAX_TEXTS.map((m) => o200k(toPrompt(result, { title: s.title, maxText: m })).length),
      candidates: CANDIDATES.map((c) => o200k(result.elements.map((e) => c.line(e, result.viewport.height)).join('\n')).length),
    });
  }
}

// Milliseconds to format, against JSON.stringify of the same elements, interleaved in this process.
const big = ranker.rank({ ...sources.find((s) => s.name === 'big')!.request, options: { limit: 100_000 } });
const times = { prompt: [] as number[], json: [] as number[] };
for (let i = 0; i < 60; i++) {
  let t = performance.now(); toPrompt(big); times.prompt.push(performance.now() - t);
  t = performance.now(); JSON.stringify(big.elements); times.json.push(performance.now() - t);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const formatMs = { elements: big.elements.length, toPrompt: median(times.prompt), jsonStringify: median(times.json) };

const sum = (rs: Row[], f: (r: Row) => number) => rs.reduce((a, r) => a + f(r), 0);
const per = (rs: Row[], f: (r: Row) => number) => sum(rs, f) / sum(rs, (r) => r.elements);
const f2 = (x: number) => x.toFixed(2);
const groups = (['real payloads', 'fixtures'] as const).flatMap((set) => VIEWS.map((v) => ({ set, view: v.name, rs: rows.filter((r) => r.set === set && r.view === v.name) })));

const md = [
  `o200k_base tokens (gpt-tokenizer) unless marked cl100k. ${sources.filter((s) => s.set === 'real payloads').length} real-client payloads ranked by the Wasm core; ${PAGES.length} fixture pages collected in Chromium ${chromium}. Per element = all tokens of the form (header line included) / elements.`,
  '',
  '| elements from | view | pages | elements | text, tokens/element | text (cl100k) | header line, tokens | snapshot JSON, tokens/element | map JSON, tokens/element | snapshot JSON / text |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...groups.map((g) => `| ${g.set} | ${g.view} | ${g.rs.length} | ${sum(g.rs, (r) => r.elements)} | **${f2(per(g.rs, (r) => r.text))}** | ${f2(per(g.rs, (r) => r.textCl))} | ${f2(sum(g.rs, (r) => r.header) / g.rs.length)} | ${f2(per(g.rs, (r) => r.snapshotJson))} | ${f2(per(g.rs, (r) => r.mapJson))} | ${(sum(g.rs, (r) => r.snapshotJson) / sum(g.rs, (r) => r.text)).toFixed(1)}× |`),
  '',
  'Grammar candidates (element lines only, no header; tokens per element):',
  '',
  `| grammar | ${groups.map((g) => `${g.set}, ${g.view}`).join(' | ')} |`,
  `|---|${groups.map(() => '---').join('|')}|`,
  ...CANDIDATES.map((c, i) => `| ${c.name.replaceAll('|', '\\|')} | ${groups.map((g) => f2(per(g.rs, (r) => r.candidates[i]))).join(' | ')} |`),
  '',
  'The chosen form (header included) by maxText, characters of text per element; tokens per element:',
  '',
  `| maxText | ${groups.map((g) => `${g.set}, ${g.view}`).join(' | ')} |`,
  `|---|${groups.map(() => '---').join('|')}|`,
  ...MAX_TEXTS.map((m, i) => `| ${m} | ${groups.map((g) => f2(per(g.rs, (r) => r.maxText[i]))).join(' | ')} |`),
  '',
  `Formatting the ${formatMs.elements} elements of \`big\`: toPrompt ${formatMs.toPrompt.toFixed(2)} ms, JSON.stringify of the elements ${formatMs.jsonStringify.toFixed(2)} ms (medians of 60, interleaved).`,
  '',
  'Per page:',
  '',
  '| elements from | page | view | elements | text, tokens/element | snapshot JSON, tokens/element |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.set} | ${r.name} | ${r.view} | ${r.elements} | ${f2(r.text / r.elements)} | ${f2(r.snapshotJson / r.elements)} |`),
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/prompt.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), chromium, candidates: CANDIDATES.map((c) => c.name), formatMs, rows }, null, 2) + '\n');
writeFileSync(new URL('./results/prompt.md', import.meta.url), md.join('\n') + '\n');
writeFileSync(new URL('./results/prompt.svg', import.meta.url), barChart('Tokens per element (o200k): text form vs our JSON', groups.flatMap((g) => [
  { label: `${g.set}, ${g.view}: text`, value: per(g.rs, (r) => r.text), group: 'text' },
  { label: `${g.set}, ${g.view}: map JSON`, value: per(g.rs, (r) => r.mapJson), group: 'map JSON' },
  { label: `${g.set}, ${g.view}: snapshot JSON`, value: per(g.rs, (r) => r.snapshotJson), group: 'snapshot JSON' },
]), ''));
console.log(md.join('\n'));
