// The docs stay true to the code: the role table in docs/ranking.md lists exactly the roles of
// src/rank/roles.ts in their bands, and the README's commands exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ROLES } from '../src/rank/roles.ts';
import { Band } from '../assembly/layout.ts';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

test('docs/ranking.md role bands match the role table', () => {
  const doc = read('docs/ranking.md');
  const bands: Record<string, Band> = { 'form input': Band.INPUT, 'interactive control': Band.CONTROL, 'content link': Band.LINK, 'static content': Band.STATIC };
  for (const [label, band] of Object.entries(bands)) {
    const row = new RegExp(`^\\| ${label} \\| ([^|]+) \\|$`, 'm').exec(doc);
    assert.ok(row, `row for ${label}`);
    const documented = row[1].split(',').map((s) => s.trim()).sort();
    assert.deepEqual(documented, ROLES.filter((r) => r.band === band).map((r) => r.role).sort(), `band ${label}`);
  }
});

test('the README names npm scripts that exist', () => {
  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
  for (const [, name] of read('README.md').matchAll(/npm (?:run )?([a-z][a-z:-]*[a-z])/g)) {
    if (['ci', 'install', 'i', 'link', 'pack'].includes(name)) continue; // npm's own commands
    assert.ok(name in scripts || name === 'test' || name === 'start', `npm ${name} is in package.json`);
    if (name === 'test' || name === 'start') assert.ok(name in scripts, `npm ${name} is defined`);
  }
});

test('the README library example runs and prints what its comments say', async () => {
  const { execFileSync } = await import('node:child_process');
  const code = /```js\n([\s\S]*?)```/.exec(read('README.md'))![1];
  const expected = [...code.matchAll(/^\/\/ (\[.*\])$/gm)].map((m) => m[1]);
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: new URL('..', import.meta.url), encoding: 'utf8' });
  const printed = out.trim().split('\n').map((line) => line.trim());
  assert.equal(expected.length, 2);
  assert.deepEqual(printed, expected);
});

test('the README text-form example prints what its comments say, for the library example\'s request', async () => {
  const { execFileSync } = await import('node:child_process');
  const readme = read('README.md');
  const request = /^const request = \{[\s\S]*?^\};$/m.exec(/```js\n([\s\S]*?)```/.exec(readme)![1])![0];
  const example = /```ts\n(import \{ rank, toPrompt \} from 'sightline';[\s\S]*?)```/.exec(readme)![1];
  const [imports, ...body] = example.split('\n');
  const expected = body.filter((l) => l.startsWith('// ')).map((l) => l.slice(3));
  assert.equal(expected.length, 3);
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', [imports, request, ...body].join('\n')], { cwd: new URL('..', import.meta.url), encoding: 'utf8' });
  assert.deepEqual(out.trim().split('\n'), expected);
});

test('the README settings table matches the server settings', async () => {
  const { SETTINGS } = await import('../src/server/config.ts');
  const rows = [...read('README.md').matchAll(/^\| `--([a-z0-9-]+)` \| `(SIGHTLINE_[A-Z0-9_]+)` \| ([^|]*) \|/gm)]
    .map((m) => [m[1], m[2], m[3].trim()]);
  assert.deepEqual(rows, SETTINGS.map((s) => [s.flag, s.env, s.default]));
});

test('the README browser-host table matches the browser host settings', async () => {
  const { HOST_SETTINGS } = await import('../src/server/config.ts');
  const rows = [...read('README.md').matchAll(/^\| `--([a-z-]+)` \| ([^|`]*) \| `(SIGHTLINE_[A-Z_]+)` \|/gm)]
    .map((m) => [m[1], m[3], m[2].trim()]);
  assert.deepEqual(rows, HOST_SETTINGS.map((s) => [s.flag, s.env, s.default]));
});

test('the README error table lists every error code with its status', async () => {
  const { ERRORS } = await import('../src/schema/errors.ts');
  const readme = read('README.md');
  for (const [code, { status }] of Object.entries(ERRORS)) {
    const row = new RegExp(`^\\| ([0-9 /]+) \\| ([^|]+) \\|`, 'gm');
    const found = [...readme.matchAll(row)].some((m) => {
      const codes = [...m[2].matchAll(/`([a-z_]+)`/g)].map((c) => c[1]);
      const statuses = m[1].split('/').map((x) => Number(x.trim()));
      return statuses[codes.indexOf(code)] === status;
    });
    assert.ok(found, `${status} ${code} is in the README's error table`);
  }
});
