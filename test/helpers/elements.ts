// Builders for hand-made pages of raw elements, and the two rankers (Wasm and JS build) under test.
import { Ranker } from '../../src/rank/ranker.ts';
import { loadWasmCore } from '../../src/rank/load-node.ts';
import { jsBackend } from '../../src/rank/core-js.ts';
import type { RawElement, RankResult, SnapshotRequest } from '../../src/schema/snapshot.ts';

export const wasm = new Ranker(await loadWasmCore());
export const js = new Ranker(jsBackend());

export { SHARED_DATA } from './shared-data.ts';

let nextId = 1;
type Partial = Omit<globalThis.Partial<RawElement>, 'rect'> & { rect?: [number, number, number, number] };

/** A raw element; rect as [x, y, width, height]. In the viewport and not occluded unless said. */
export function el(p: Partial = {}): RawElement {
  const [x, y, width, height] = p.rect ?? [0, 0, 100, 30];
  const { rect: _rect, ...rest } = p;
  return { id: nextId++, tag: 'div', text: '', ...rest, rect: { x, y, width, height } };
}

export function request(raw: RawElement[], extra: globalThis.Partial<SnapshotRequest> = {}): SnapshotRequest {
  return { url: 'https://example.test/', viewport: { width: 1280, height: 800 }, raw_elements: raw, ...extra };
}

export const byId = (result: RankResult, id: number) => {
  const found = result.elements.find((e) => e.id === id);
  if (!found) throw new Error(`element ${id} not in the result`);
  return found;
};

export const ids = (result: RankResult) => result.elements.map((e) => e.id);

/** The result without its timestamp, for comparing two runs. */
export const stable = (result: RankResult) => ({ ...result, timestamp: '' });
