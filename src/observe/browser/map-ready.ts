// A spare page readied for the performance map ahead of the request (issue 43): the settle watcher's init
// script and the refusal of heavy requests (a CDP session with Fetch enabled) cost two to three round trips
// to Chromium, 30 to 50 ms per map on the shared machine, on the request's path. The pool makes its spares
// between requests (browser-pool.ts, `readySpare`), so they are installed there; a map that gets such a page
// only reads what was readied, one that gets another page readies it itself as before. A request that must
// not have them (the precision engine, the fixed settle, read's rendering) takes them off first: the page is
// then as a fresh one. bench/README.md, "Map on real pages"; docs/decisions.md, "Spares readied for the map".
import type { Page } from 'playwright-core';
import { blockHeavy } from './block-heavy.ts';
import { prepareSettle, type Inflight } from './settle.ts';

interface Ready { inflight: Inflight; undo(): Promise<void> }
const readied = new WeakMap<Page, Promise<Ready | undefined>>();

async function ready(page: Page): Promise<Ready> {
  const [settle, heavy] = await Promise.allSettled([prepareSettle(page), blockHeavy(page)]);
  const undo = async () => {
    await Promise.all([
      settle.status === 'fulfilled' ? settle.value.script.dispose() : undefined,
      heavy.status === 'fulfilled' ? heavy.value.send('Fetch.disable').then(() => heavy.value.detach()) : undefined,
    ]);
  };
  if (settle.status === 'rejected' || heavy.status === 'rejected') {
    await undo().catch(() => undefined);
    throw settle.status === 'rejected' ? settle.reason : (heavy as PromiseRejectedResult).reason;
  }
  return { inflight: settle.value.inflight, undo };
}

/** The pool's hook for a spare just made: readies it for a map; a failure leaves it a plain page. */
export function readyAhead(page: Page): Promise<void> {
  const made = ready(page).catch(() => undefined);
  readied.set(page, made);
  return made.then(() => undefined);
}

/** For the performance map's adaptive path: the page readied ahead, else readied now. */
export async function readyForMap(page: Page): Promise<Inflight> {
  const ahead = readied.get(page);
  readied.delete(page);
  return ((await ahead) ?? await ready(page)).inflight;
}

/** For any other use of a page: what was readied ahead is taken off (nothing when it was not readied). */
export async function plainPage(page: Page): Promise<void> {
  const ahead = readied.get(page);
  if (!ahead) return;
  readied.delete(page);
  await (await ahead)?.undo();
}
