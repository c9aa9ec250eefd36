// Loads the Wasm core in Node from the package's own `rank.wasm` (resolved through the package's
// exports, so the same code works from src/, from the bundle, and from node_modules).
import { readFile } from 'node:fs/promises';
import { packageAsset } from './package-asset.ts';
import { instantiateCore, type CoreBackend } from './backend.ts';
import { loadEmbedTable } from './embed-node.ts';

export const WASM_PATH = packageAsset('rank.wasm');

let compiled: Promise<WebAssembly.Module> | undefined;

export async function loadWasmCore(): Promise<CoreBackend> {
  compiled ??= readFile(WASM_PATH).then((bytes) => WebAssembly.compile(bytes));
  loadEmbedTable();
  return instantiateCore(await compiled);
}
