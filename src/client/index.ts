// `sightline/client`: rank pages an agent's own browser shows, locally or through the API.
export { SightlineApi, SightlineApiError, type ApiOptions, type CallOptions, type ObserveRequest, type ReadResult, type MapResult, type VisualResult, type MapTextResult, type VisualTextResult, type SnapshotTextResponse, type UsageQuery, type UsageEntry, type UsageResponse } from './api.ts';
export { snapshot, rankCollected, collectPage, resolve, click, type, select, check, hover, press, back, scrollTo, highlight, waitForStable, stillFading, ActionError, type SnapshotOptions, type ActionOptions } from './page.ts';
export { find, findAll, type FindQuery } from './find.ts';
export { expect, ExpectError, type Expectation, type ExpectOptions } from './expect.ts';
export { toPrompt, PROMPT_MAX_TEXT, type PromptOptions, type PromptSource } from '../rank/prompt.ts';
export { FRAME_ID_SPAN } from '../collect/types.ts';
export { collectorSource } from '../playwright/collector-source.ts';
export type { CollectOptions, CollectResult, CollectedElement } from '../collect/types.ts';
export type * from '../schema/snapshot.ts';
