// The `sightline` command line as users run it: keys, serve's flags and environment, the dev key banner
// with its curl example, and a loud failure when the uWebSockets.js binary is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { cpSync, readFileSync, mkdirSync, readdirSync, symlinkSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CLI, cli, tempDataDir, removeDataDir, startServer, snapshot, balance } from './helpers/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function run(args: string[], env: NodeJS.ProcessEnv = {}, cliPath = CLI) {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 20_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('keys: create prints the key alone on the last line; list, set-credits, deactivate, activate', async () => {
  const dir = tempDataDir();
  try {
    const created = run(['keys', 'create', '--credits', '25', '--data-dir', dir]);
    assert.equal(created.code, 0, created.err);
    const key = created.out.trimEnd().split('\n').at(-1)!;
    assert.match(key, /^sl_[A-Za-z0-9_-]{32}$/);
    const listed = cli(['keys', 'list'], dir);
    assert.match(listed, new RegExp(`${key.slice(0, 11)}\\s+25\\s+active`));
    assert.ok(!listed.includes(key), 'the full key is never shown again');
    assert.match(cli(['keys', 'set-credits', key, '7'], dir), /\s7\s+active/);
    assert.match(cli(['keys', 'deactivate', key.slice(0, 11)], dir), /inactive/);
    assert.equal(await balance(dir, key), 7);
    assert.match(cli(['keys', 'activate', '1'], dir), /\s7\s+active/);
    const inactive = run(['keys', 'create', '--credits', '0', '--inactive', '--data-dir', dir]);
    assert.match(inactive.out, /inactive/);
    const json = JSON.parse(cli(['keys', 'list', '--json'], dir));
    assert.deepEqual(json.map((a: { credits: number; active: boolean }) => [a.credits, a.active]), [[7, true], [0, false]]);
  } finally {
    removeDataDir(dir);
  }
});

test('usage errors exit 2 with a message; the data dir comes from the environment too', () => {
  const dir = tempDataDir();
  try {
    const cases: [string[], RegExp][] = [
      [['keys', 'create'], /credits must be a whole number/],
      [['keys', 'create', '--credits=-3'], /credits must be a whole number/], [['keys', 'create', '--credits', '1.5'], /credits must be a whole number/],
      [['keys', 'set-credits', 'sl_nope', '5'], /no key matches "sl_nope"/],
      [['keys', 'fly'], /unknown keys command "fly"/],
      [['launch'], /unknown command "launch"/],
      [['serve', '--port', 'eighty'], /--port "eighty": must be an integer from 0 to 65535/],
      [['serve', '--workers', '0'], /--workers "0": must be an integer from 1 to 64/],
      [['serve', '--bogus'], /^sightline: unknown flag --bogus\n/],
      [['serve', '--prot', '80'], /^sightline: unknown flag --prot \(did you mean --port\?\)\n/],
      [['keys', 'list', '--jsno'], /unknown flag --jsno \(did you mean --json\?\)/],
      [['serve', '--port'], /^sightline: --port needs a value\n/],
    ];
    for (const [args, message] of cases) {
      const r = run([...args, '--data-dir', dir]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, message);
    }
    const bad = run(['serve'], { SIGHTLINE_PORT: '-1', SIGHTLINE_DATA_DIR: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /SIGHTLINE_PORT "-1"/);
    assert.equal(run(['keys', 'create', '--credits', '1'], { SIGHTLINE_DATA_DIR: dir }).code, 0);
    assert.equal(JSON.parse(cli(['keys', 'list', '--json'], dir)).length, 1, 'SIGHTLINE_DATA_DIR was used');
    const version = run(['--version']);
    assert.equal(version.code, 0);
    assert.equal(version.out, `sightline ${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
    const help = run(['help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /--rate-limit .*SIGHTLINE_RATE_LIMIT/);
  } finally {
    removeDataDir(dir);
  }
});

test('serve --dev-key on a fresh store prints a dev key and a curl example that works', async () => {
  const server = await startServer(['--dev-key']);
  try {
    await new Promise((r) => setTimeout(r, 100));
    const banner = server.stdoutText();
    const key = /Development key \(1000 credits left\): (sl_\S+)/.exec(banner)?.[1];
    assert.ok(key, banner);
    const command = /(curl -s [\s\S]*?'\n)/.exec(banner.replace(/\\\n\s*/g, ''))?.[1];
    assert.ok(command, banner);
    assert.ok(command.includes(server.url));
    // Run the example exactly as printed when curl is here; otherwise send the same request with fetch.
    const hasCurl = spawnSync('sh', ['-c', 'command -v curl']).status === 0;
    const answer = hasCurl
      ? JSON.parse(execFileSync('sh', ['-c', command], { encoding: 'utf8' }))
      : (await snapshot(server.url, key, JSON.parse(/-d '(.*)'/.exec(command)![1]))).body;
    assert.equal(answer.status, 'success');
    assert.equal(answer.credits_remaining, 999);
    assert.deepEqual(answer.elements.map((e: { role: string }) => e.role).sort(), ['button', 'link']);
    await server.stop();
    const again = await startServer(['--dev-key'], { dataDir: server.dataDir });
    assert.match(again.stdoutText(), new RegExp(`Development key \\(999 credits left\\): ${key}`), 'shown again after a restart');
    await again.stop();
  } finally {
    await server.stop();
    removeDataDir(server.dataDir);
  }
});

/** A copy of the installed package whose uWebSockets.js has no native binaries. */
function installWithoutUwsBinary(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-nouws-'));
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  cpSync(join(ROOT, 'build'), join(dir, 'build'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === 'uWebSockets.js' || name.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  }
  const uws = join(ROOT, 'node_modules', 'uWebSockets.js');
  cpSync(uws, join(dir, 'node_modules', 'uWebSockets.js'), { recursive: true, filter: (src) => !src.startsWith(join(uws, 'binaries')) || statSync(src).isDirectory() });
  return dir;
}

test('serve fails loudly when the uWebSockets.js binary does not load, unless the fallback is allowed', async () => {
  const install = installWithoutUwsBinary();
  const data = tempDataDir();
  try {
    const cliCopy = join(install, 'build', 'cli.js');
    const r = run(['serve', '--port', '0', '--data-dir', data], {}, cliCopy);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /uWebSockets\.js native binary did not load/);
    assert.match(r.err, /SIGHTLINE_ALLOW_UWS_FALLBACK/);
    const fallback = await startServer(['--log-level', 'warn'], { dataDir: data, env: { SIGHTLINE_ALLOW_UWS_FALLBACK: 'true' }, cli: cliCopy });
    try {
      const health = await (await fetch(`${fallback.url}/healthz`)).json();
      assert.equal(health.http, 'uws-fallback');
      assert.ok(fallback.logs.some((l) => /slow JavaScript fallback/.test(l.msg)), 'the fallback is logged as a warning');
    } finally {
      await fallback.stop();
    }
  } finally {
    rmSync(install, { recursive: true, force: true });
    removeDataDir(data);
  }
});
