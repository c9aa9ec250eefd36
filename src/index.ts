// Sightline's library entry: rank raw elements with the Wasm core, no server needed.
import { Ranker, type RankerOptions } from './rank/ranker.ts';
import { loadWasmCore } from './rank/load-node.ts';
import type { RankResult, SnapshotRequest } from './schema/snapshot.ts';

export { Ranker, type RankerOptions } from './rank/ranker.ts';
export type { CoreBackend } from './rank/backend.ts';
export { SightlineError, ERRORS, type ErrorCode } from './schema/errors.ts';
export { ROLES } from './rank/roles.ts';
export { DEFAULT_LIMIT, DEFAULT_LIMIT_CAP, MAX_ELEMENTS } from './rank/encode.ts';
export { toPrompt, promptLine, promptHeader, PROMPT_MAX_TEXT, PROMPT_FLAGS, PROMPT_NO_VALUE_ROLES, type PromptOptions, type PromptSource } from './rank/prompt.ts';
export type * from './schema/snapshot.ts';

/** A ranker on its own Wasm instance; `ranker.rank(request)` is synchronous. */
export async function createRanker(options: RankerOptions = {}): Promise<Ranker> {
  return new Ranker(await loadWasmCore(), options);
}

let shared: Promise<Ranker> | undefined;

/** Ranks a snapshot request (SPEC /v1/snapshot body) into a snapshot result, without credits. */
export async function rank(request: SnapshotRequest): Promise<RankResult> {
  shared ??= createRanker();
  return (await shared).rank(request);
}
