// Fixes the WCXB development split into a tune part and a test part, by site, before any tuning on it
// (issue 18). Every site of ../shared/data/wcxb-dev-sample goes to tune: earlier extraction work looked
// at those pages, so they cannot be evidence. Every other site goes to tune (30%) or test (70%) by a
// seeded hash of the host, so no site has pages on both sides. The test part is frozen: it is measured,
// never tuned on, and never listed page by page in a report.
// Run once: WCXB_DIR=/path/to/web-content-extraction-benchmark node --import tsx bench/read/make-split.ts
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { SHARED_DATA } from '../payloads.ts';

const SEED = 'wcxb-read-split';
const TUNE_PERCENT = 30;
const dir = join(process.env.WCXB_DIR ?? '/work/wcxb', 'dev', 'ground-truth');
const sampleDir = join(SHARED_DATA, 'wcxb-dev-sample', 'ground-truth');

const siteOf = (url: string) => { try { return new URL(url).hostname.replace(/^www\./, ''); } catch { return `no-url:${url}`; } };
const urlOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { url?: string }).url ?? '';
const sampleSites = new Set(readdirSync(sampleDir).map((f) => siteOf(urlOf(join(sampleDir, f)))));
const bucket = (site: string) => createHash('sha256').update(`${SEED}:${site}`).digest().readUInt32BE(0) % 100;

const split: { seed: string; rule: string; tune: string[]; test: string[] } = {
  seed: SEED,
  rule: `by site: wcxb-dev-sample sites -> tune; others sha256(seed:site) % 100 < ${TUNE_PERCENT} -> tune, else test`,
  tune: [], test: [],
};
for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
  const site = siteOf(urlOf(join(dir, f)));
  split[sampleSites.has(site) || bucket(site) < TUNE_PERCENT ? 'tune' : 'test'].push(f.replace('.json', ''));
}
writeFileSync(new URL('./wcxb-split.json', import.meta.url), JSON.stringify(split, null, 1) + '\n');
console.log(`tune ${split.tune.length}, test ${split.test.length}`);
