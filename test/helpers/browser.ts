// Debian's Chromium driven by playwright-core, launched with the flags DESIGN.md names.
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (as root), or set SIGHTLINE_CHROMIUM to its path`);
  }
}

export function launch(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: CHROMIUM_ARGS });
}

/** A persistent context with an unpacked extension loaded (extensions need a user data dir). */
export function launchWithExtension(extensionDir: string): Promise<BrowserContext> {
  requireChromium();
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'sightline-profile-')), {
    executablePath: CHROMIUM, headless: true, chromiumSandbox: false,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
  });
}
