// The bundled collector's source text, for injection into pages (Node side only).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let source: string | undefined;

export function collectorSource(): string {
  source ??= readFileSync(fileURLToPath(import.meta.resolve('sightline/collector.js')), 'utf8');
  return source;
}
