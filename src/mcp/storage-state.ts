// Saved browser state for MCP sessions: Playwright's storage-state format (what context.storageState()
// writes), from a file (`sightline mcp --storage-state FILE`) or sent in an HTTP session's initialize
// (`params._meta["sightline/storage_state"]`). Checked against the same typebox schema as observe's
// `storage_state`, and completed with Playwright's defaults; it lives in the session's browser only.
import { readFileSync } from 'node:fs';
import { Compile } from 'typebox/compile';
import { StorageState } from '../schema/observe.ts';

/** Where an HTTP client puts its storage state in the initialize request. */
export const STORAGE_STATE_META = 'sightline/storage_state';

/** Playwright's newContext({ storageState }) shape: every cookie field present. */
export interface PlaywrightStorageState {
  cookies: { name: string; value: string; domain: string; path: string; expires: number; httpOnly: boolean; secure: boolean; sameSite: 'Strict' | 'Lax' | 'None' }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

const check = Compile(StorageState);

/** The state, checked and completed; an Error saying what is wrong otherwise. */
export function toStorageState(value: unknown, where: string): PlaywrightStorageState {
  const [first] = check.Errors(value);
  if (first) throw new Error(`${where}: ${first.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'the storage state'} ${first.message}`);
  const state = value as StorageState;
  return {
    cookies: (state.cookies ?? []).map((c) => {
      if (!c.domain) throw new Error(`${where}: cookie ${c.name} has no domain (a saved state names each cookie's domain)`);
      return { name: c.name, value: c.value, domain: c.domain, path: c.path ?? '/', expires: c.expires ?? -1, httpOnly: c.httpOnly ?? false, secure: c.secure ?? false, sameSite: c.sameSite ?? 'Lax' };
    }),
    origins: state.origins ?? [],
  };
}

export function readStorageStateFile(path: string): PlaywrightStorageState {
  let parsed: unknown;
  try { parsed = JSON.parse(readFileSync(path, 'utf8')); } catch (err) { throw new Error(`--storage-state ${path}: ${(err as Error).message}`); }
  return toStorageState(parsed, `--storage-state ${path}`);
}

/** The storage state an initialize message (or a batch holding one) carries, or undefined. */
export function storageStateOfInitialize(body: unknown): PlaywrightStorageState | undefined {
  const init = (Array.isArray(body) ? body : [body]).find((m) => (m as { method?: unknown })?.method === 'initialize') as { params?: { _meta?: Record<string, unknown> } } | undefined;
  const state = init?.params?._meta?.[STORAGE_STATE_META];
  return state === undefined ? undefined : toStorageState(state, `params._meta["${STORAGE_STATE_META}"]`);
}
