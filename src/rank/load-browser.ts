// Loads the Wasm core in a browser, an extension page or an MV3 service worker from a URL (for an
// extension: chrome.runtime.getURL('rank.wasm')). No top-level await, no dynamic import.
import { instantiateCore, type CoreBackend } from './backend.ts';
import { parseEmbedTable, useEmbedTable } from './embed-table.ts';

export async function loadWasmCoreFrom(url: string | URL): Promise<CoreBackend> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load the rank core from ${url}: HTTP ${response.status}`);
  const module = typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type') === 'application/wasm'
    ? await WebAssembly.compileStreaming(response)
    : await WebAssembly.compile(await response.arrayBuffer());
  return instantiateCore(module);
}

/** Loads the goal-embedding table (goal-embed.bin) from a URL and makes it the one the rerank uses. */
export async function loadEmbedTableFrom(url: string | URL): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load the goal-embedding table from ${url}: HTTP ${response.status}`);
  useEmbedTable(parseEmbedTable(new Uint8Array(await response.arrayBuffer())));
}
