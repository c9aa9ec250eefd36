// The in-page collector on every fixture page in Debian's Chromium: time inside the page (what the
// collector itself reports) and the round trip through Playwright, per page and per 1,000 elements.
// Run: npm run bench:collect. Writes bench/results/collect.json and bench/results/collect.md.
import { writeFileSync, mkdirSync } from 'node:fs';
import { launch } from '../test/helpers/browser.ts';
import { serveFixtures } from '../test/helpers/fixtures.ts';
import { collectPage, waitForStable } from '../src/playwright/collect-page.ts';
import { barChart } from './chart.ts';

const PAGES = ['search', 'login', 'shop', 'shadow', 'frames', 'long', 'captcha', 'big'];
const RUNS = Number(process.env.BENCH_COLLECT_RUNS ?? 30);
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const fx = await serveFixtures();
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
interface Row { page: string; elements: number; nodes: number; inPageMs: number; roundTripMs: number }
const rows: Row[] = [];
for (const name of PAGES) {
  await page.goto(`${fx.url}/${name}.html`);
  await waitForStable(page, { quietMs: 100 });
  for (let i = 0; i < 5; i++) await collectPage(page); // warm up the JIT
  const inPage: number[] = [];
  const roundTrip: number[] = [];
  let last = await collectPage(page);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = await collectPage(page);
    roundTrip.push(performance.now() - t0);
    inPage.push(last.collect_ms);
  }
  const row = { page: name, elements: last.raw_elements.length, nodes: last.client_metrics.node_count, inPageMs: median(inPage), roundTripMs: median(roundTrip) };
  rows.push(row);
  console.error(`${name}: ${row.elements} elements of ${row.nodes} nodes, ${row.inPageMs} ms in the page, ${row.roundTripMs.toFixed(1)} ms round trip`);
}
await browser.close();
await fx.close();

const md = [
  `Chromium ${browser.version()}, viewport 1280×800; median of ${RUNS} collections after 5 warm-up runs.`,
  '',
  '| page | DOM nodes | elements listed | in the page, ms | round trip (Playwright), ms | in-page ms per 1,000 nodes |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.page} | ${r.nodes} | ${r.elements} | ${r.inPageMs.toFixed(1)} | ${r.roundTripMs.toFixed(1)} | ${(r.inPageMs / r.nodes * 1000).toFixed(2)} |`),
];
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/collect.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), runs: RUNS, rows }, null, 2) + '\n');
writeFileSync(new URL('./results/collect.md', import.meta.url), md.join('\n') + '\n');
writeFileSync(new URL('./results/collect.svg', import.meta.url), barChart('Collector: ms in the page and round trip, per fixture page', rows.flatMap((r) => [
  { label: `${r.page} (${r.elements} elements): in the page`, value: r.inPageMs, group: 'in page' },
  { label: `${r.page}: round trip`, value: r.roundTripMs, group: 'round trip' },
]), ' ms'));
console.log(md.join('\n'));
