// The package ships its declarations: `npm pack` holds a .d.ts for every TypeScript export in
// package.json, and a strict consumer that installs the packed tarball into an empty project (npm
// install, as users do; dependencies from the registry or npm's cache) compiles against `sightline` and
// `sightline/client` with `tsc --strict` (no TS7016 "could not find a declaration file").
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packTarball, strictCompile } from './helpers/consumer-project.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'sightline-consumer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('npm pack holds a .d.ts for every export with types, and a strict consumer of the tarball compiles', async (t) => {
  const { file, files } = packTarball(ROOT, '.', dir); // build/ is built by `npm test` first; prepare is not run again
  const typed = Object.entries(pkg.exports as Record<string, string | { types?: string }>).filter(([, v]) => typeof v === 'object' && v.types);
  assert.deepEqual(typed.map(([k]) => k), ['.', './client']);
  for (const [entry, v] of typed) {
    const types = (v as { types: string }).types.replace(/^\.\//, '');
    assert.ok(files.includes(types), `${entry}: ${types} is in the tarball`);
  }
  assert.ok(files.includes(pkg.types.replace(/^\.\//, '')), 'the top-level types field names a packed file');

  const project = join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // @types/node: playwright-core's own declarations (the client's Page) need it, as in any Node project.
  const typesNode = JSON.parse(readFileSync(join(ROOT, 'node_modules/@types/node/package.json'), 'utf8')).version;
  try {
    execFileSync('npm', ['install', file, `@types/node@${typesNode}`, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: project, stdio: 'pipe', timeout: 300_000 });
  } catch (err) {
    const text = String((err as { stderr?: Buffer }).stderr ?? err);
    if (process.env.CI !== 'true' && /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENOTCACHED|ETIMEDOUT/.test(text)) {
      t.skip(`npm install needs the npm registry (or its packages in npm's cache): ${text.split('\n')[0]}`);
      return;
    }
    throw new Error(`npm install of the tarball failed: ${text}`);
  }
  const tsc = strictCompile(project, `
import { rank, createRanker, SightlineError, toPrompt, type SnapshotRequest, type RankResult, type SnapshotElement } from 'sightline';
import { SightlineApi, SightlineApiError, snapshot, find, expect, type ObserveRequest, type ReadResult } from 'sightline/client';
const request: SnapshotRequest = { url: 'https://example.test/', raw_elements: [] };
const result: RankResult = await rank(request);
const first: SnapshotElement | undefined = result.elements[0];
const ranker = await createRanker({ limitCap: 10 });
const api = new SightlineApi({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'sl_x' });
const observe: ObserveRequest = { url: 'https://example.test/', mode: 'read' };
const read: ReadResult = await api.observe({ ...observe, mode: 'read' });
const err: unknown = null;
if (err instanceof SightlineError || err instanceof SightlineApiError) console.log(err.message);
console.log(first?.role, ranker, read.content, snapshot, find, expect, toPrompt(result));
// @ts-expect-error: a wrong field type is caught, so the declarations are real and not \`any\`
const wrong: SnapshotRequest = { url: 1, raw_elements: [] };
console.log(wrong);
`);
  assert.equal(tsc, '', `tsc --strict on the consumer:\n${tsc}`);
});
