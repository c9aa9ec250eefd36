// The TypeScript side of the shared test vectors, with the built client library (build/client.js).
// Usage: node ts_snapshots.mjs JOB.json OUT.json. JOB:
//   {"pages": [{"url", "runs": [{"goal", "limit"}]}], "origins": [...], "chromiumArgs": "[...]"}: load each page
//     in Debian's Chromium as tests/test_vectors.py does from Python, and snapshot it once per run;
//   {"collections": [{"url", "goal", "limit", "collected"}]}: rank collections Python made (rankCollected).
import { readFileSync, writeFileSync } from 'node:fs';

const [jobPath, outPath] = process.argv.slice(2);
const job = JSON.parse(readFileSync(jobPath, 'utf8'));
const { snapshot, rankCollected, toPrompt } = await import(new URL('../../../build/client.js', import.meta.url).href);
const summary = (r) => ({ elements: r.elements, prompt: toPrompt(r, { title: 'T' }), ml_rerank: r.ml_rerank, modal_detected: r.modal_detected, dominant_group_key: r.dominant_group_key });
const out = [];

if (job.collections) {
  for (const c of job.collections) {
    out.push(summary(await rankCollected({ url: () => c.url }, c.collected, { goal: c.goal ?? undefined, limit: c.limit ?? undefined })));
  }
} else {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium', headless: true, chromiumSandbox: false,
    args: JSON.parse(job.chromiumArgs),
  });
  try {
    for (const p of job.pages) {
      const page = await browser.newPage();
      // Offline: the test site's two origins only (WCXB pages' scripts, fonts and images are aborted).
      await page.route('**/*', (route) => (job.origins.some((o) => route.request().url().startsWith(o + '/')) ? route.continue() : route.abort()));
      await page.goto(p.url, { waitUntil: 'load' });
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(undefined)))));
      for (const run of p.runs) out.push(summary(await snapshot(page, { goal: run.goal ?? undefined, limit: run.limit ?? undefined })));
      await page.close();
    }
  } finally {
    await browser.close();
  }
}
writeFileSync(outPath, JSON.stringify(out));
