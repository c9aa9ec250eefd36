// Realistic snapshot payloads of any size, built from the real client payloads in ../shared/data:
// their elements are repeated page after page (ids renumbered, y shifted) until n are reached.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RawElement, SnapshotRequest } from '../src/schema/snapshot.ts';

export const SHARED_DATA = process.env.SIGHTLINE_SHARED_DATA ?? fileURLToPath(new URL('../../shared/data/', import.meta.url));

const dir = join(SHARED_DATA, 'real-client-payloads');
const templates: RawElement[] = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
  .flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).raw_elements as RawElement[]);

export function payload(n: number): SnapshotRequest {
  const raw: RawElement[] = [];
  for (let i = 0; i < n; i++) {
    const t = templates[i % templates.length];
    const page = Math.floor(i / templates.length);
    raw.push({ ...t, id: i, rect: { ...t.rect, y: t.rect.y + page * 4000 }, doc_y: (t.doc_y ?? 0) + page * 4000, in_viewport: page === 0 && t.in_viewport });
  }
  return { url: 'https://bench.test/', viewport: { width: 1280, height: 800 }, raw_elements: raw, options: { limit: 50 } };
}
