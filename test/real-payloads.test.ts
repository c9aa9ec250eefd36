// Every payload a real client of this API sent (../shared/data/real-client-payloads) is accepted and
// ranked sanely, identically by the Wasm and JS builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wasm, js, stable } from './helpers/elements.ts';
import { sharedDir } from './helpers/shared-data.ts';

const { dir, missing } = sharedDir('real-client-payloads');
const files = missing ? [] : readdirSync(dir).filter((f) => f.endsWith('.json'));

test('the real-client payload folder is present', { skip: missing }, () => assert.ok(files.length >= 9, `found ${files.length} payloads in ${dir}`));

for (const file of files) {
  test(`real payload ${file}`, () => {
    const body = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const r = wasm.rank(body);
    assert.equal(r.status, 'success');
    assert.equal(r.url, body.url);
    assert.deepEqual(r.viewport, body.viewport);
    assert.ok(r.elements.length > 0 && r.elements.length <= body.options.limit);
    for (let k = 1; k < r.elements.length; k++) assert.ok(r.elements[k - 1].importance >= r.elements[k].importance);
    // Interactive elements come before static text, and visible ones before the rest of their role.
    const firstStatic = r.elements.findIndex((e) => !e.visual_cues.is_clickable);
    if (firstStatic >= 0) assert.ok(r.elements.slice(firstStatic).every((e) => !['link', 'button', 'textbox'].includes(e.role) || !e.in_viewport));
    assert.equal(r.diagnostics!.metrics.raw_elements_count, body.raw_elements.length);
    assert.deepEqual(r.diagnostics!.captcha, body.client_diagnostics.captcha);
    assert.ok(r.dominant_group_key);
    assert.deepEqual(stable(r), stable(js.rank(body)));
  });
}
