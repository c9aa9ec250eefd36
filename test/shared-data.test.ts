// A clone without the shared data folder (../shared/data, or SIGHTLINE_SHARED_DATA): the tests that need
// it skip with one line naming what is missing and how to get it, and the file passes; under CI=true
// (.ci/run sets it) the same file fails. Every test file that reads the shared data goes through
// helpers/shared-data.ts, so none of them can fail with ENOENT instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NOWHERE = '/nonexistent/sightline-shared-data';

function runWithout(ci: boolean) {
  // NODE_TEST_CONTEXT would make the child report to this runner instead of printing.
  const { CI: _ci, NODE_TEST_CONTEXT: _ctx, ...env } = process.env;
  return spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', 'test/real-payloads.test.ts'], {
    cwd: ROOT, encoding: 'utf8', timeout: 120_000,
    env: { ...env, SIGHTLINE_SHARED_DATA: NOWHERE, ...(ci ? { CI: 'true' } : {}) },
  });
}

test('without the shared data, a test that needs it skips with one line saying what is missing and how to get it', () => {
  const r = runWithout(false);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const skips = r.stdout.split('\n').filter((l) => l.includes('# SKIP'));
  assert.equal(skips.length, 1, r.stdout);
  assert.match(skips[0], new RegExp(`needs the shared data folder ${NOWHERE}/real-client-payloads: put it at \\.\\./shared/data beside the clone or set SIGHTLINE_SHARED_DATA`));
  assert.doesNotMatch(r.stdout + r.stderr, /ENOENT/);
});

test('under CI=true the same missing folder fails the run, naming it', () => {
  const r = runWithout(true);
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, new RegExp(`CI=true: needs the shared data folder ${NOWHERE}/real-client-payloads`));
});

test('every test that reads the shared data gets it through helpers/shared-data.ts', () => {
  const users = readdirSync(`${ROOT}/test`).filter((f) => f.endsWith('.test.ts') && f !== 'shared-data.test.ts')
    .filter((f) => /real-client-payloads|wcxb-dev-sample|article-extraction-benchmark|SHARED_DATA|wcxbIds\(/.test(readFileSync(`${ROOT}/test/${f}`, 'utf8')));
  assert.ok(users.length >= 5, users.join(', '));
  for (const f of users) {
    const text = readFileSync(`${ROOT}/test/${f}`, 'utf8');
    assert.ok(/sharedDir\(|WCXB\.missing/.test(text) && !/SHARED_DATA/.test(text), `${f} reads the shared data through sharedDir (its skip on a clone without it)`);
  }
});

test('.ci/run sets CI=true, so CI fails when the data is absent', () => {
  assert.match(readFileSync(`${ROOT}/.ci/run`, 'utf8'), /^export CI=true$/m);
});
