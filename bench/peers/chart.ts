// bench:peers' chart: one bar chart per measure (each with its own scale), stacked in one SVG; the frozen
// test part's rows.
import { barChart } from '../chart.ts';

interface ReadRow { reader: string; part: string; f1: number; pagesPerCpuS: number }
interface ObsRow { observer: string; part: string; msP50: number; tokens: number; coverage: number }

export function peersChart(readRows: ReadRow[], obsRows: ObsRow[]): string {
  const read = readRows.filter((r) => r.part === 'test'), obs = obsRows.filter((r) => r.part === 'test');
  const charts = [
    barChart('Read word F1, frozen WCXB test part', read.map((r) => ({ label: r.reader, value: r.f1 })), ''),
    barChart('Read pages per CPU-second (one core)', read.map((r) => ({ label: r.reader, value: r.pagesPerCpuS })), ''),
    barChart('Observation: o200k tokens per page', obs.map((r) => ({ label: r.observer, value: r.tokens })), ''),
    barChart('Observation: ms from loaded page to LLM text (p50)', obs.map((r) => ({ label: r.observer, value: r.msP50 })), ' ms'),
    barChart('Observation: visible named controls covered (%)', obs.map((r) => ({ label: r.observer, value: 100 * r.coverage })), '%'),
  ];
  let y = 0, width = 0;
  const parts = charts.map((svg) => {
    const w = Number(/width="(\d+)"/.exec(svg)![1]), h = Number(/height="(\d+)"/.exec(svg)![1]);
    const placed = svg.replace('<svg ', `<svg x="0" y="${y}" `);
    y += h; width = Math.max(width, w);
    return placed;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}">${parts.join('')}</svg>\n`;
}

// Redraws bench/results/peers.svg from peers.json: node --import tsx bench/peers/chart.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const j = JSON.parse(readFileSync(new URL('../results/peers.json', import.meta.url), 'utf8'));
  writeFileSync(new URL('../results/peers.svg', import.meta.url), peersChart(j.readRows, j.obsRows));
}
