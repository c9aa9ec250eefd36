// Controls inside web components named through a <slot>: the accessibility tree reads the flat tree (a slot's
// assigned nodes, or its fallback content when none are), so must our names and text. Real Chromium on a
// localhost fixture, our collector, the Wasm core over HTTP; each name is checked against Chromium's own tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useRankRig, type RankRig } from './helpers/rank-rig.ts';
import { collectPage, snapshot, waitForStable, toPrompt } from '../src/client/index.ts';

let rig: RankRig;
useRankRig((r) => { rig = r; });

test('a control in a shadow tree is named by the nodes slotted into it, as Chromium names it', async () => {
  await rig.page.goto(`${rig.fx.url}/slot-names.html`);
  await waitForStable(rig.page, { quietMs: 100 });
  // Chromium's named buttons and links, in document order.
  const cdp = await rig.page.context().newCDPSession(rig.page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree') as { nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[] };
  await cdp.detach();
  const chromium = nodes.filter((n) => !n.ignored && ['button', 'link'].includes(n.role?.value ?? '')).map((n) => String(n.name?.value ?? '').replace(/\s+/g, ' ').trim());
  const expected = ['Toggle sidebar', 'Add to basket', 'Default action', 'Pricing monthly', 'Sign in'];
  assert.deepEqual(chromium, expected, 'Chromium names the controls so');

  const c = await collectPage(rig.page);
  const ours = c.raw_elements.filter((e) => e.tag === 'button' || e.tag === 'a').map((e) => (e.attributes.name || e.text).replace(/\s+/g, ' ').trim());
  assert.deepEqual(ours, expected, 'our name, else text, of each control');
  // The text a button shows is what is slotted into it, not the slot's unused fallback.
  assert.equal(c.raw_elements.find((e) => e.tag === 'button' && e.text.includes('basket'))?.text, 'Add to basket');

  const prompt = toPrompt(await snapshot(rig.page, { limit: 50, api: rig.api }));
  for (const name of expected) assert.ok(prompt.includes(name), `"${name}" in the text form:\n${prompt}`);
});
