// The README's quick start from a clean folder: the repository's files (as `git ls-files` names them,
// no build/, no data/) in an empty folder, `npm run build` (what `npm ci` runs through `prepare`), then
// `npm start` with its port from SIGHTLINE_PORT: it prints a development key and a curl command, and
// that command, run as printed, ranks. The install step itself is the one part not repeated: the
// folder links this clone's node_modules (a fresh `npm ci` downloads the registry; .ci/run does that).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sightline-quickstart-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the README quick start: npm start in a clean folder prints a key and a curl command that ranks', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /## Start and test[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1];
  assert.match(block, /^npm ci && npm start\b/m, 'the quick start is npm ci && npm start');

  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  assert.ok(!existsSync(join(dir, 'build')) && !existsSync(join(dir, 'data')), 'a clean folder');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'pipe', timeout: 600_000 });

  const start = spawn('npm', ['start'], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SIGHTLINE_PORT: '0' } });
  let out = '';
  let err = '';
  start.stdout.on('data', (d) => { out += d; });
  start.stderr.on('data', (d) => { err += d; });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not listen within 120 s: ${err}`)), 120_000);
      const check = () => { if (/sightline: listening on /.test(err) && /curl -s/.test(out)) { clearTimeout(timer); resolve(); } };
      start.stdout.on('data', check);
      start.stderr.on('data', check);
      start.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${err}`)));
    });
    const key = /^Development key \(1000 credits left\): (sl_\S+)$/m.exec(out)?.[1];
    assert.ok(key, out);
    assert.equal(readFileSync(join(dir, 'data', 'dev-key'), 'utf8').trim(), key, 'kept in ./data of the folder it started in');
    // The printed curl command, run as printed.
    const command = /^ {2}(curl -s .*\\\n\s+-d '.*')$/m.exec(out)?.[1];
    assert.ok(command, out);
    const answer = JSON.parse(execFileSync('sh', ['-c', command], { encoding: 'utf8' }));
    assert.equal(answer.status, 'success', JSON.stringify(answer));
    assert.deepEqual(answer.elements.map((e: { role: string }) => e.role), ['button', 'link']);
    assert.equal(answer.credits_remaining, 999);
  } finally {
    try { process.kill(-start.pid!, 'SIGTERM'); } catch { /* gone */ }
    await new Promise((r) => (start.exitCode === null ? start.once('exit', r) : r(undefined)));
  }
});
