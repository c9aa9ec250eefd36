// Loads the package's goal-embedding table in Node (resolved through the package's exports, so the
// same code works from src/, from the bundle, and from node_modules). Read once per process.
import { readFileSync } from 'node:fs';
import { packageAsset } from './package-asset.ts';
import { embedTable, parseEmbedTable, useEmbedTable } from './embed-table.ts';

export const EMBED_PATH = packageAsset('goal-embed.bin');

export function loadEmbedTable(): void {
  if (!embedTable()) useEmbedTable(parseEmbedTable(readFileSync(EMBED_PATH)));
}
