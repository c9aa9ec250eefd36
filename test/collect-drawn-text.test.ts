// Names and nearby text leave out what is never drawn: an SVG icon's embedded <style>, a CSS-in-JS sheet
// inside or just before a button, a <noscript> fallback, a script. The accessibility tree does, and an agent
// reading ".st0{fill:#040037;} Mon compte" as a link's name (or a sign-in button named by its CSS) could not
// act on it. Real Chromium on a localhost fixture, our collector, the Wasm core over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useRankRig, type RankRig } from './helpers/rank-rig.ts';
import { collectPage, snapshot, waitForStable } from '../src/client/index.ts';

let rig: RankRig;
useRankRig((r) => { rig = r; });

test('a control\'s text, label and nearby text hold no style sheet, script or noscript markup', async () => {
  await rig.page.goto(`${rig.fx.url}/styled-labels.html`);
  await waitForStable(rig.page, { quietMs: 100 });
  const c = await collectPage(rig.page);
  const byTag = (tag: string) => c.raw_elements.filter((e) => e.tag === tag);
  assert.deepEqual(byTag('a').map((e) => e.text), ['Mon compte', 'Accueil']);
  assert.deepEqual(byTag('button').map((e) => e.text), ['Sign in', 'Ajouter au panier']);
  const search = c.raw_elements.find((e) => e.attributes.input_type === 'search');
  assert.equal(search?.attributes.name, 'Rechercher', 'the label\'s name without its style sheet');
  const css = /\{|\}|__state|<img/;
  for (const e of c.raw_elements) {
    for (const [field, value] of [['text', e.text], ['name', e.attributes.name], ['nearby_text', e.attributes.nearby_text]] as const) {
      assert.ok(!css.test(value ?? ''), `${e.tag} ${field} holds markup: ${value}`);
    }
  }
  // Named by their words, both header actions are recognised and promoted.
  const top = await snapshot(rig.page, { limit: 5, api: rig.api });
  const ranked = top.elements.map((e) => e.name || e.text);
  for (const n of ['Mon compte', 'Sign in', 'Ajouter au panier']) assert.ok(ranked.includes(n), `${n} in the top 5 (${ranked.join(' | ')})`);
});
