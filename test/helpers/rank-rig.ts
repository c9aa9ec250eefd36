// The ranking tests' rig: the fixture site, a real Chromium page at 1280x800 and the real server with a key,
// started together and stopped together. Pages are collected by our collector and ranked by the Wasm core
// through real HTTP.
import { before, after } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launch } from './browser.ts';
import { serveFixtures, type FixtureServer } from './fixtures.ts';
import { startServer, createKey, removeDataDir, type ServerProcess } from './server.ts';
import { SightlineApi } from '../../src/client/index.ts';

export interface RankRig { fx: FixtureServer; browser: Browser; page: Page; server: ServerProcess; key: string; api: SightlineApi; close(): Promise<void> }

export async function startRankRig(options: { credits?: number; serverArgs?: string[] } = {}): Promise<RankRig> {
  const [fx, browser, server] = await Promise.all([
    serveFixtures(), launch(), startServer(['--rate-limit', '1000', '--rate-burst', '1000', ...(options.serverArgs ?? [])]),
  ]);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const key = await createKey(server.dataDir, options.credits ?? 100);
  return {
    fx, browser, page, server, key, api: new SightlineApi({ baseUrl: server.url, apiKey: key }),
    async close() {
      await Promise.all([browser.close(), fx.close(), server.stop()]);
      removeDataDir(server.dataDir);
    },
  };
}

/** A test file's rig: started before its tests, closed after them; `ready` receives it once started. */
export function useRankRig(ready: (rig: RankRig) => void, options: Parameters<typeof startRankRig>[0] = {}): void {
  let rig: RankRig | undefined;
  before(async () => { rig = await startRankRig(options); ready(rig); });
  after(() => rig?.close());
}
