// Anchors without an href: a control when something makes it one (a widget role, a tabindex, a click
// handler, a pointer cursor), as Chromium's accessibility tree has it; a bare named anchor stays out. Real
// Chromium on a localhost fixture, collected by our collector and ranked by the Wasm core over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useRankRig, type RankRig } from './helpers/rank-rig.ts';
import { collectPage, snapshot, waitForStable } from '../src/client/index.ts';

let rig: RankRig;
useRankRig((r) => { rig = r; });

test('an <a> without an href is collected when a role, tabindex, click handler or pointer makes it a control', async () => {
  await rig.page.goto(`${rig.fx.url}/anchors.html`);
  await waitForStable(rig.page, { quietMs: 100 });
  const c = await collectPage(rig.page);
  const anchors = c.raw_elements.filter((e) => e.tag === 'a');
  const name = (e: (typeof anchors)[number]) => e.attributes.aria_label || e.text;
  assert.deepEqual(anchors.map(name), ['The Daily Ledger', 'Open Login Modal', 'Toggle Search', 'Sections', 'Back to top']);
  assert.equal(anchors.find((e) => name(e) === 'Open Login Modal')?.attributes.role, 'button');
  assert.ok(!c.raw_elements.some((e) => e.text === 'details'), 'a bare named anchor is not a control');

  const top = await snapshot(rig.page, { limit: 10, api: rig.api });
  const ranked = top.elements.map((e) => e.name || e.text);
  for (const n of ['Open Login Modal', 'Toggle Search']) assert.ok(ranked.includes(n), `${n} in the top 10 (${ranked.join(' | ')})`);
  assert.equal(ranked[0], 'Open Login Modal', 'the sign in, promoted as a primary action, comes first');
  // Chromium's tree calls an anchor a click handler or tabindex makes a control a link; so does the collector's hint,
  // or the ranker reads it as text, under every link and control (issue 38).
  assert.deepEqual(anchors.filter((e) => e.attributes.inferred_role === 'link').map(name), ['Toggle Search', 'Sections', 'Back to top']);
  for (const n of ['Toggle Search', 'Back to top']) assert.equal(top.elements.find((e) => (e.name || e.text) === n)?.role, 'link', `${n} ranked as a link`);
});
