// bench:peers' observation pages of the tune part (its `pick('tune', n, 'peers-observe')`), served offline, in one
// Chromium page whose context refuses every request off that origin: the setup the observation profiles share
// (observe-phases.ts, observe-counts.ts, collect-native.ts).
import type { Browser, Page } from 'playwright-core';
import { launch } from '../test/helpers/browser.ts';
import { serveWcxbPages, pickWcxb } from './wcxb-pages.ts';

export interface ObservePages { ids: string[]; origin: string; browser: Browser; page: Page; close(): Promise<void> }

export async function openObservePages(n = 15): Promise<ObservePages> {
  const ids = pickWcxb('tune', n, 'peers-observe');
  const site = await serveWcxbPages(ids);
  const browser = await launch();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.route((url) => !url.href.startsWith(site.origin), (route) => route.abort());
  const page = await ctx.newPage();
  return { ids, origin: site.origin, browser, page, close: async () => { await browser.close(); await site.close(); } };
}
