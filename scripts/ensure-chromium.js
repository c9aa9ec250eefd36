// Part of `npm start`: read mode renders script-only pages in Debian's Chromium. Install it when it is
// missing and we can (root with apt); otherwise say what to do. Nothing is downloaded from elsewhere.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const path = process.env.SIGHTLINE_CHROMIUM || '/usr/bin/chromium';
if (!existsSync(path)) {
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.error('sightline: Chromium is missing: installing it (apt-get install -y chromium) for pages that need a browser…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit' });
  } else {
    console.error(`sightline: Chromium not found at ${path}. The service starts; pages that need a browser will fail until you run ` +
      '`sudo apt-get install -y chromium` (or set SIGHTLINE_CHROMIUM to another Chromium).');
  }
}
