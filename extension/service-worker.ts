// The extension's service worker: injects the collector into every frame of a tab, merges
// cross-origin frames the way the client library does, and ranks with the Wasm core, all locally.
// MV3 rules: no top-level await, no dynamic import; the Wasm comes from chrome.runtime.getURL.
import { Ranker } from '../src/rank/ranker.ts';
import { loadWasmCoreFrom, loadEmbedTableFrom } from '../src/rank/load-browser.ts';
import { FRAME_ID_SPAN, type CollectOptions, type CollectResult } from '../src/collect/types.ts';
import type { SightlineGlobal } from '../src/collect/index.ts';
import { boxesOf, type Box } from '../src/collect/highlight.ts';
import type { RankResult, SnapshotRequest } from '../src/schema/snapshot.ts';
import type { Reply, Request } from './messages.ts';


let ranker: Promise<Ranker> | undefined;
// The goal-embedding table rides along (4.3 MB), so a goal ranks here as in the library.
const getRanker = () => (ranker ??= Promise.all([loadWasmCoreFrom(chrome.runtime.getURL('rank.wasm')), loadEmbedTableFrom(chrome.runtime.getURL('goal-embed.bin'))])
  .then(([core]) => new Ranker(core, { limitCap: 500 })));

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
  const viewport = { ...top.viewport, scrollY: top.scroll_y };
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

async function handle(msg: Request): Promise<Reply> {
  switch (msg.type) {
    case 'snapshot':
      return { ok: true, result: await snapshot(msg.tabId, msg.limit ?? 25, msg.goal) };
    case 'highlight':
      // The collector injected for the snapshot lives in this tab's isolated world and draws the boxes.
      await chrome.scripting.executeScript({ target: { tabId: msg.tabId }, files: ['collector.js'] });
      await chrome.scripting.executeScript({ target: { tabId: msg.tabId }, func: (items: Box[]) => (window as Win).__sightline!.highlight(items), args: [boxesOf(msg.result.elements)] });
      return { ok: true };
    case 'clear':
      await chrome.scripting.executeScript({ target: { tabId: msg.tabId }, func: () => (window as Win).__sightline?.clearHighlight() });
      return { ok: true };
  }
}

chrome.runtime.onMessage.addListener((msg: Request, _sender, respond: (reply: Reply) => void) => {
  handle(msg).then(respond, (err: Error) => respond({ ok: false, error: err.message }));
  return true; // answered asynchronously
});
