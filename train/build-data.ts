// Builds the goal-rerank data set: every template drawn with PAGES_PER_TEMPLATE seeds, each page loaded
// in Chromium (1280x800) and collected by the real collector, each goal's target resolved to its
// collector id. Writes train/data/pages.json.gz. Run: npm run train:data (needs Chromium; a minute).
import { writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { launch } from '../test/helpers/browser.ts';
import { collectPage, inject } from '../src/playwright/collect-page.ts';
import { TEMPLATES, rng, type TemplateName } from './templates.ts';

export const PAGES_PER_TEMPLATE = Number(process.env.TRAIN_PAGES_PER_TEMPLATE ?? 16);
const SEED = 20261121;

export interface DataPage {
  id: string;
  template: string;
  request: { url: string; viewport: { width: number; height: number }; raw_elements: unknown[] };
  examples: { goal: string; target: number }[];
}

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const pages: DataPage[] = [];
let examples = 0;
for (const name of Object.keys(TEMPLATES) as TemplateName[]) {
  for (let k = 0; k < PAGES_PER_TEMPLATE; k++) {
    const id = `${name}-${k}`;
    const generated = TEMPLATES[name](rng(SEED + k * 7919 + name.length * 104729 + name.charCodeAt(0)));
    await page.setContent(generated.html, { waitUntil: 'load' });
    await inject(page.mainFrame());
    const collected = await collectPage(page);
    const resolved: DataPage['examples'] = [];
    for (const g of generated.goals) {
      const target = await page.evaluate((key) => {
        const el = document.querySelector(`[data-goal="${key}"]`);
        return el ? window.__sightline!.idOf(el) : null;
      }, g.target);
      // The target must be among the collected elements (a label-wrapped input is listed as itself).
      if (target !== null && collected.raw_elements.some((e) => e.id === target)) resolved.push({ goal: g.goal, target });
      else console.error(`${id}: "${g.goal}" target not collected`);
    }
    const raw = collected.raw_elements.map((e) => ({ ...e, attributes: Object.fromEntries(Object.entries(e.attributes).filter(([key]) => key !== 'class')) }));
    pages.push({ id, template: name, request: { url: `https://${name}.example/${k}`, viewport: collected.viewport, raw_elements: raw }, examples: resolved });
    examples += resolved.length;
  }
  process.stderr.write(`${name}: ${PAGES_PER_TEMPLATE} pages\n`);
}
await browser.close();
mkdirSync(new URL('./data/', import.meta.url), { recursive: true });
const out = gzipSync(JSON.stringify({ seed: SEED, pagesPerTemplate: PAGES_PER_TEMPLATE, pages }));
writeFileSync(new URL('./data/pages.json.gz', import.meta.url), out);
console.log(`${pages.length} pages, ${examples} goals, ${(out.length / 1024).toFixed(0)} KiB`);
