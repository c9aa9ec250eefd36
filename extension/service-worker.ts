// The extension's service worker: injects the collector into every frame of a tab, merges
// cross-origin frames the way the client library does, and ranks with the Wasm core, all locally.
// MV3 rules: no top-level await, no dynamic import; the Wasm comes from chrome.runtime.getURL.
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCoreFrom } from '../src/rank/load-browser.ts';
import type { CollectOptions, CollectResult } from '../src/collect/types.ts';
import type { SightlineGlobal } from '../src/collect/index.ts';
import type { RankResult, SnapshotRequest } from '../src/schema/snapshot.ts';
import type { Reply, Request } from './messages.ts';

/** Same id ranges per cross-origin frame as the client library. */
const FRAME_ID_SPAN = 1_000_000;

let ranker: Promise<Ranker> | undefined;
const getRanker = () => (ranker ??= loadWasmCoreFrom(chrome.runtime.getURL('rank.wasm')).then((core) => new Ranker(core, { limitCap: 500 })));

type Win = Window & { __sightline?: SightlineGlobal };

async function collectFrame(tabId: number, frameId: number, options: CollectOptions): Promise<CollectResult> {
  const [done] = await chrome.scripting.executeScript({
    target: { tabId, frameIds: [frameId] },
    func: (o: CollectOptions) => (window as Win).__sightline!.collect(o),
    args: [options],
  });
  return done.result as CollectResult;
}

async function snapshot(tabId: number, limit: number, goal?: string): Promise<RankResult> {
  await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['collector.js'] });
  const urls = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: () => location.href });
  const top = await collectFrame(tabId, 0, {});
  const viewport = { ...top.viewport, scrollY: top.raw_elements[0]?.scroll_y ?? 0 };
  const used = new Set<number>([0]);
  let ordinal = 1;
  for (const opaque of top.frames) {
    // A cross-origin frame is matched to its frame id by URL (the top document cannot see inside it).
    const frame = urls.find((u) => !used.has(u.frameId) && u.result === opaque.src);
    if (!frame) continue;
    used.add(frame.frameId);
    const inner = await collectFrame(tabId, frame.frameId, { idBase: ordinal++ * FRAME_ID_SPAN, offset: opaque.offset, topViewport: viewport });
    top.raw_elements.push(...inner.raw_elements);
  }
  const tab = await chrome.tabs.get(tabId);
  const request: SnapshotRequest = {
    url: tab.url ?? top.url, viewport: top.viewport, raw_elements: top.raw_elements as SnapshotRequest['raw_elements'],
    goal, options: { limit }, client_metrics: top.client_metrics, client_diagnostics: top.client_diagnostics,
  };
  return (await getRanker()).rank(request);
}

/** Runs in the page: boxes and ids over each element (document coordinates). */
function drawBoxes(items: { id: number; x: number; y: number; w: number; h: number; occluded: boolean }[]): void {
  document.getElementById('__sightline_highlight')?.remove();
  const layer = document.createElement('div');
  layer.id = '__sightline_highlight';
  layer.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none';
  for (const b of items) {
    const box = document.createElement('div');
    const colour = b.occluded ? '#d33' : '#1a73e8';
    box.style.cssText = `position:absolute;left:${b.x + scrollX}px;top:${b.y}px;width:${b.w}px;height:${b.h}px;outline:2px solid ${colour};box-sizing:border-box`;
    const label = document.createElement('span');
    label.textContent = String(b.id);
    label.style.cssText = `position:absolute;left:0;top:-16px;font:11px/14px monospace;background:${colour};color:#fff;padding:0 3px`;
    box.append(label);
    layer.append(box);
  }
  document.documentElement.append(layer);
}

async function handle(msg: Request): Promise<Reply> {
  switch (msg.type) {
    case 'snapshot':
      return { ok: true, result: await snapshot(msg.tabId, msg.limit ?? 25, msg.goal) };
    case 'highlight': {
      const items = msg.result.elements.map((e) => ({ id: e.id, x: e.bbox.x, y: (e.doc_y ?? e.bbox.y + e.bbox.height / 2) - e.bbox.height / 2, w: e.bbox.width, h: e.bbox.height, occluded: e.is_occluded }));
      await chrome.scripting.executeScript({ target: { tabId: msg.tabId }, func: drawBoxes, args: [items] });
      return { ok: true };
    }
    case 'clear':
      await chrome.scripting.executeScript({ target: { tabId: msg.tabId }, func: () => document.getElementById('__sightline_highlight')?.remove() });
      return { ok: true };
  }
}

chrome.runtime.onMessage.addListener((msg: Request, _sender, respond: (reply: Reply) => void) => {
  handle(msg).then(respond, (err: Error) => respond({ ok: false, error: err.message }));
  return true; // answered asynchronously
});
