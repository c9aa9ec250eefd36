// The docs stay true to the code: the role table in docs/ranking.md lists exactly the roles of
// src/rank/roles.ts in their bands, the commands the README and docs/ name exist, docs/server.md's tables
// match the settings and the error catalogue, and docs/layout.svg is the picture today's imports draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test('the README is read in ten minutes: at most 250 lines', () => {
  const lines = read('README.md').split('\n').length;
  assert.ok(lines <= 250, `README.md has ${lines} lines`);
});

test('the README and docs/ name npm scripts that exist', () => {
  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
  const pages = ['README.md', 'bench/README.md', ...readdirSync(new URL('../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  for (const [, name] of pages.map(read).join('\n').matchAll(/(?:^|`|&& )npm (?:run )?([a-z][a-z:-]*[a-z])/gm)) {
    if (['ci', 'install', 'i', 'link', 'pack', 'run', 'ls', 'view', 'exec', 'publish'].includes(name)) continue; // npm's own commands
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

test('docs/server.md settings table matches the server settings', async () => {
  const { SETTINGS } = await import('../src/server/config.ts');
  const rows = [...read('docs/server.md').matchAll(/^\| `--([a-z0-9-]+)` \| `(SIGHTLINE_[A-Z0-9_]+)` \| ([^|]*) \|/gm)]
    .map((m) => [m[1], m[2], m[3].trim()]);
  assert.deepEqual(rows, SETTINGS.map((s) => [s.flag, s.env, s.default]));
});

test('docs/server.md browser-host table matches the browser host settings', async () => {
  const { HOST_SETTINGS } = await import('../src/server/config.ts');
  const rows = [...read('docs/server.md').matchAll(/^\| `--([a-z-]+)` \| ([^|`]*) \| `(SIGHTLINE_[A-Z_]+)` \|/gm)]
    .map((m) => [m[1], m[3], m[2].trim()]);
  assert.deepEqual(rows, HOST_SETTINGS.map((s) => [s.flag, s.env, s.default]));
});

test('docs/server.md error table lists every error code with its status', async () => {
  const { ERRORS } = await import('../src/schema/errors.ts');
  const readme = read('docs/server.md');
  for (const [code, { status }] of Object.entries(ERRORS)) {
    const row = new RegExp(`^\\| ([0-9 /]+) \\| ([^|]+) \\|`, 'gm');
    const found = [...readme.matchAll(row)].some((m) => {
      const codes = [...m[2].matchAll(/`([a-z_]+)`/g)].map((c) => c[1]);
      const statuses = m[1].split('/').map((x) => Number(x.trim()));
      return statuses[codes.indexOf(code)] === status;
    });
    assert.ok(found, `${status} ${code} is in docs/server.md's error table`);
  }
});

test('docs/layout.svg is the picture of today\'s imports (scripts/layout-picture.ts)', async () => {
  const { execFileSync } = await import('node:child_process');
  const dir = mkdtempSync(join(tmpdir(), 'sightline-layout-'));
  try {
    const out = join(dir, 'layout.svg');
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/layout-picture.ts', '--title', 'Now', out], { cwd: new URL('..', import.meta.url), stdio: 'pipe' });
    assert.equal(readFileSync(out, 'utf8'), read('docs/layout.svg'), 'docs/layout.svg is stale: node --import tsx scripts/layout-picture.ts --title Now docs/layout.svg');
    assert.match(read('docs/layout.svg'), /no folder circles/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every relative link in the README, docs/ and bench/README.md leads to a file', () => {
  const pages = ['README.md', 'bench/README.md', ...readdirSync(new URL('../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const broken: string[] = [];
  for (const page of pages) {
    for (const [, target] of read(page).replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) { // code spans are text
      if (/^[a-z]+:/.test(target)) continue;
      if (!existsSync(new URL(target, new URL(`../${page}`, import.meta.url)))) broken.push(`${page}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});
