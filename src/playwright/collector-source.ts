// The bundled collector's source text, for injection into pages (Node side only).
import { readFileSync } from 'node:fs';
import { packageAsset } from '../rank/package-asset.ts';

let source: string | undefined;

export function collectorSource(): string {
  source ??= readFileSync(packageAsset('collector.js'), 'utf8');
  return source;
}
