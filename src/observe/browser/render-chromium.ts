// Which Chromium binary the page pool (map, visual, a rendered read) and a browser host launch: by default
// Debian's headless shell (package chromium-headless-shell), the same Blink without the browser application
// around it. A map on a real page cost about 464 ms of Chromium's CPU in the shell against 722 in the full
// browser, its browser process 116 ms against 311 (bench/README.md, "Map on real pages"; docs/decisions.md,
// "Headless shell for the page pool"). MCP sessions keep --chromium (they may be headed, and agents expect
// the browser they know).
import { existsSync } from 'node:fs';

/** Where Debian's chromium-headless-shell puts the binary (its /usr/bin wrapper runs it without exec, which
 *  would leave a shell between Playwright and the browser process). */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** Debian's Chromium, whose package the shell is built beside (the same version): --chromium's default, which
 *  `auto` compares against. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The pool's binary for `--render-chromium`: a path as given; `auto`, the headless shell when installed and
 *  `chromium` (--chromium) is Debian's, else `chromium` (a Chromium of one's own is kept). */
export function renderChromium(setting: string, chromium: string, shell = HEADLESS_SHELL): string {
  if (setting !== 'auto') return setting;
  return chromium === DEBIAN_CHROMIUM && existsSync(shell) ? shell : chromium;
}
