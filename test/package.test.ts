// The published entry: `import { rank } from 'sightline'` resolves to the built bundle
// (build/index.js) and ranks with the Wasm core, with no server and no TypeScript loader involved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('the package main entry ranks a request in plain Node', () => {
  const script = `
    import { rank, createRanker, SightlineError } from 'sightline';
    const r = await rank({ url: 'https://example.test/', raw_elements: [
      { id: 1, tag: 'p', text: 'Hello', rect: { x: 0, y: 0, width: 200, height: 20 } },
      { id: 2, tag: 'button', text: 'Sign in', rect: { x: 0, y: 40, width: 90, height: 32 } },
    ] });
    const ranker = await createRanker({ limitCap: 1 });
    let error = null;
    try { ranker.rank({ url: 'u', raw_elements: [{ id: 'x', rect: { x: 0, y: 0, width: 1, height: 1 } }] }); } catch (e) { error = e instanceof SightlineError ? e.message : String(e); }
    console.log(JSON.stringify({ ids: r.elements.map((e) => e.id), role: r.elements[0].role, error }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  const parsed = JSON.parse(out.trim().split('\n').at(-1)!);
  assert.deepEqual(parsed.ids, [2, 1]);
  assert.equal(parsed.role, 'button');
  assert.match(parsed.error, /^Invalid element format: raw_elements\[0\]\.id must be number/);
});

test('sightline/client loads in plain Node and carries the bundled collector', () => {
  const script = `
    import * as client from 'sightline/client';
    const source = client.collectorSource();
    console.log(JSON.stringify({
      functions: ['snapshot', 'click', 'type', 'scrollTo', 'highlight', 'waitForStable', 'collectPage'].filter((f) => typeof client[f] === 'function'),
      api: typeof client.SightlineApi, selfContained: !/\\bimport\\s*[({'"]/.test(source) && !/\\brequire\\(/.test(source),
      installs: source.includes('__sightline'),
    }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  const parsed = JSON.parse(out.trim().split('\n').at(-1)!);
  assert.deepEqual(parsed, {
    functions: ['snapshot', 'click', 'type', 'scrollTo', 'highlight', 'waitForStable', 'collectPage'],
    api: 'function', selfContained: true, installs: true,
  });
});
