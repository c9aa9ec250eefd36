// Records where model v1 (the model before issue 14's work) puts each goal's best target, so `npm run
// train` can print v1 beside the current model on the same goals. It ranks with the code of the
// checkout it runs in, so run it from a checkout of commit 20fbed5 (copy this file there):
//   git worktree add --detach /tmp/v1 20fbed5 && cp train/real/record-v1.ts /tmp/v1/train/real/ && cd /tmp/v1 &&
//   npm ci && npm run build && node --import tsx train/real/record-v1.ts <repo>/train/real/client-goals.json <repo>/train/real/v1-positions.json
// Keys: "<page id>\t<goal>" (real goal set) and "client:<payload file>\t<goal>"; null = not ranked.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRanker } from '../../src/index.ts';
import { loadGoals } from './evaluate.ts';
const ranker = await createRanker({ limitCap: 100_000 });
const pos = (ids: number[], t: number[]) => { const i = ids.findIndex((id) => t.includes(id)); return i < 0 ? null : i; };
const out: Record<string, number | null> = {};
for (const g of loadGoals()) {
  const req = { ...g.page.request, options: { limit: 100_000 } };
  out[`${g.page.id}\t${g.goal}`] = pos(ranker.rank({ ...req, goal: g.goal }).elements.map((e: any) => e.id), g.targets);
}
const client = process.argv[2];
if (client && existsSync(client)) {
  const file = JSON.parse(readFileSync(client, 'utf8'));
  for (const [name, goals] of Object.entries(file.pages) as [string, any[]][]) {
    const body = JSON.parse(readFileSync(`/work/shared/data/real-client-payloads/${name}`, 'utf8'));
    const req = { ...body, options: { ...(body.options ?? {}), limit: 100_000 } };
    for (const g of goals) out[`client:${name}\t${g.goal}`] = pos(ranker.rank({ ...req, goal: g.goal }).elements.map((e: any) => e.id), g.targets);
  }
}
writeFileSync(process.argv[3], JSON.stringify(out, null, 0).replace(/,"/g, ',\n"'));
console.log(Object.keys(out).length, 'goals recorded');
