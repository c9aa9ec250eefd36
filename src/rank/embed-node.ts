// Loads the package's goal-embedding table in Node (resolved through the package's exports, so the
// same code works from src/, from the bundle, and from node_modules). Read once per process.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { embedTable, parseEmbedTable, useEmbedTable } from './embed-table.ts';

export const EMBED_PATH = fileURLToPath(import.meta.resolve('sightline/goal-embed.bin'));

export function loadEmbedTable(): void {
  if (!embedTable()) useEmbedTable(parseEmbedTable(readFileSync(EMBED_PATH)));
}
