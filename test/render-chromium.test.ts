// The page pool's browser (--render-chromium): `auto` takes Debian's headless shell when it is installed and
// --chromium is Debian's, else --chromium; a path is taken as given. The real server maps in the binary chosen, and the shell's map of a
// page is the full browser's: same elements, names and boxes, and a visual screenshot of the same size. A
// browser host (`sightline browser-host`) chooses the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADLESS_SHELL, renderChromium } from '../src/observe/browser/render-chromium.ts';
import { startServer, createKey, removeDataDir, observe, type ServerProcess } from './helpers/server.ts';
import { serveFixtures } from './helpers/fixtures.ts';
import { CHROMIUM } from './helpers/browser.ts';
import { readPng } from './helpers/png.ts';
import { startHost } from './helpers/browser-host.ts';

test('auto: the headless shell when installed and --chromium is Debian\'s, else --chromium; a path as given', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-shell-'));
  try {
    const shell = join(dir, 'chromium-headless-shell');
    assert.equal(renderChromium('auto', '/usr/bin/chromium', shell), '/usr/bin/chromium', 'no shell: --chromium');
    writeFileSync(shell, '');
    assert.equal(renderChromium('auto', '/usr/bin/chromium', shell), shell, 'installed: the shell');
    assert.equal(renderChromium('auto', '/opt/other/chrome', shell), '/opt/other/chrome', 'a --chromium of one\'s own is kept');
    assert.equal(renderChromium('/opt/other/chrome', '/usr/bin/chromium', shell), '/opt/other/chrome', 'a path wins');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The Chromium binaries a process's descendants run (the pool's browsers and their children; not the
 *  extraction processes, which are Node). */
function binariesUnder(server: { proc: ChildProcess }): Set<string> {
  const rows = execSync('ps -eo pid=,ppid=', { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const tree = new Set([server.proc.pid!]);
  for (let grew = true; grew;) { grew = false; for (const [pid, ppid] of rows) if (tree.has(ppid) && !tree.has(pid)) { tree.add(pid); grew = true; } }
  tree.delete(server.proc.pid!);
  const exes = new Set<string>();
  for (const pid of tree) try { const exe = readlinkSync(`/proc/${pid}/exe`); if (/chrom/.test(exe)) exes.add(exe); } catch { /* gone */ }
  return exes;
}

// CI installs the shell (.ci/run); elsewhere the test needs it.
const skip = !existsSync(HEADLESS_SHELL) && !process.env.CI ? `no headless shell at ${HEADLESS_SHELL} (apt-get install chromium-headless-shell)` : false;

test('the server maps in the headless shell by default, in --chromium when told; the same map and screenshot size from both', { skip }, async () => {
  const site = await serveFixtures();
  const flags = ['--egress-allow', '127.0.0.1/32', '--rate-limit', '1000', '--rate-burst', '1000'];
  const [shell, full] = await Promise.all([startServer(flags), startServer([...flags, '--render-chromium', CHROMIUM])]);
  try {
    const maps = async (server: ServerProcess) => {
      const key = await createKey(server.dataDir, 100);
      const out: unknown[] = [];
      for (const page of ['login.html', 'shop.html', 'article.html', 'frames.html']) {
        const r = await observe(server, key, { url: `${site.url}/${page}`, mode: 'map' });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.ok(r.body.interactable_elements.length > 0, page);
        out.push([page, r.body.title, r.body.interactable_elements]);
      }
      const v = await observe(server, key, { url: `${site.url}/login.html`, mode: 'visual', options: { limit: 5 } });
      assert.equal(v.status, 200, JSON.stringify(v.body));
      const png = readPng(Buffer.from(await (await fetch(v.body.screenshot.url)).arrayBuffer()));
      return { out, size: [png.width, png.height], exes: binariesUnder(server) };
    };
    const a = await maps(shell), b = await maps(full);
    assert.ok(a.exes.has(HEADLESS_SHELL) && ![...a.exes].some((e) => e !== HEADLESS_SHELL), `default: the shell only (${[...a.exes]})`);
    assert.ok(b.exes.size > 0 && !b.exes.has(HEADLESS_SHELL), `--render-chromium ${CHROMIUM}: not the shell (${[...b.exes]})`);
    assert.deepEqual(a.out, b.out, 'the same elements, names and boxes on each page');
    assert.deepEqual(a.size, b.size, 'the same viewport captured');
  } finally {
    await Promise.all([shell.stop(), full.stop()]);
    removeDataDir(shell.dataDir);
    removeDataDir(full.dataDir);
    await site.close();
  }
});

test('a browser host launches the headless shell by default, --chromium when told', { skip }, async () => {
  for (const [flags, shell] of [[[], true], [['--render-chromium', CHROMIUM], false]] as const) {
    const host = await startHost(['--port', '0', ...flags]);
    try {
      const exes = binariesUnder(host);
      assert.ok(exes.size > 0, 'Chromium runs under the host');
      assert.equal(exes.has(HEADLESS_SHELL), shell, [...exes].join(', '));
      if (shell) assert.equal(exes.size, 1, [...exes].join(', '));
    } finally {
      await host.stop();
    }
  }
});
