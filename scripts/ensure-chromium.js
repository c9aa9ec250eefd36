// Part of `npm start`: read mode renders script-only pages in Debian's Chromium, and the page pool (map, visual,
// rendered read) runs Debian's headless shell of it when installed (--render-chromium auto; about a third less
// of Chromium's CPU per map). Install what is missing when we can (root with apt); otherwise say what to do.
// Nothing is downloaded from elsewhere.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const path = process.env.SIGHTLINE_CHROMIUM || '/usr/bin/chromium';
// Only the packages for the default paths: a Chromium of one's own is one's own to install.
const missing = [
  ...(existsSync(path) ? [] : ['chromium']),
  ...(process.env.SIGHTLINE_RENDER_CHROMIUM || path !== '/usr/bin/chromium' || existsSync('/usr/lib/chromium/chromium-headless-shell') ? [] : ['chromium-headless-shell']),
];
if (missing.length) {
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.error(`sightline: installing ${missing.join(' and ')} (apt-get install -y ${missing.join(' ')}) for pages that need a browser…`);
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit' });
  } else if (missing.includes('chromium')) {
    console.error(`sightline: Chromium not found at ${path}. The service starts; pages that need a browser will fail until you run ` +
      `\`sudo apt-get install -y ${missing.join(' ')}\` (or set SIGHTLINE_CHROMIUM to another Chromium).`);
  } else {
    console.error('sightline: no headless shell: map and visual run in the full Chromium (more CPU per page) until you run ' +
      '`sudo apt-get install -y chromium-headless-shell`.');
  }
}
