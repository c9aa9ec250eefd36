// The development key `npm start` prints: created when the store has no key yet, kept in
// <data-dir>/dev-key (mode 0600) so a restart can show it again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/store.ts';

export const DEV_KEY_FILE = 'dev-key';
export const DEV_KEY_CREDITS = 1000;

/** The dev key to show, or undefined when the store holds other keys and no dev key is on file. */
export async function ensureDevKey(store: Store, dataDir: string): Promise<string | undefined> {
  const file = join(dataDir, DEV_KEY_FILE);
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (await store.resolve(key)) return key;
  }
  if ((await store.listAccounts()).length > 0) return undefined;
  const { key } = await store.createKey(DEV_KEY_CREDITS, true);
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}

export function devKeyBanner(key: string, url: string, credits: number): string {
  const body = JSON.stringify({
    url: 'https://example.com/',
    raw_elements: [
      { id: 1, tag: 'a', text: 'More information', rect: { x: 40, y: 200, width: 140, height: 20 }, attributes: { href: 'https://www.iana.org/domains/example' } },
      { id: 2, tag: 'button', text: 'Sign in', rect: { x: 1100, y: 20, width: 90, height: 36 } },
    ],
  });
  return [
    '',
    `Development key (${credits} credits left): ${key}`,
    'Try it:',
    `  curl -s ${url}/v1/snapshot -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\`,
    `    -d '${body}'`,
    `More keys: npx sightline keys create --credits 100`,
    '',
  ].join('\n');
}
