// Accessible names as Chromium's accessibility tree computes them (accname 1.2): a link or button is named by
// its content before its `title` (a tooltip), an image's alt, a child's aria-label and an empty child's title
// are part of that content, blocks are set apart, hidden parts are left out. The text form then prints what Playwright MCP
// and a screen reader say ("Add to cart", not the button's long title). Real Chromium on a localhost
// fixture, our collector, the Wasm core over HTTP; each name is checked against Chromium's own tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useRankRig, type RankRig } from './helpers/rank-rig.ts';
import { collectPage, snapshot, waitForStable, toPrompt } from '../src/client/index.ts';

let rig: RankRig;
useRankRig((r) => { rig = r; });

/** Chromium's accessible name of the element with this id. */
async function chromiumName(id: string): Promise<string> {
  const cdp = await rig.page.context().newCDPSession(rig.page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `#${id}` });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return String(nodes[0]?.name?.value ?? '').replace(/\s+/g, ' ').trim();
  } finally { await cdp.detach(); }
}

test('a control is named by its content before its title, with alts, child labels and blocks, as Chromium names it', async () => {
  await rig.page.goto(`${rig.fx.url}/content-names.html`);
  await waitForStable(rig.page, { quietMs: 100 });
  const c = await collectPage(rig.page);
  const ids = await rig.page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id));
  // The collector's element for each fixture id: links by their address, the buttons and the field by tag.
  const paths: Record<string, string> = { logo: '/', orders: '/orders', account: '/account', menu: '/menu', card: '/item/3', plain: '/plain', review: '/item/4' };
  const buttons = c.raw_elements.filter((r) => r.tag === 'button');
  const inputs = ['q', 'email', 'login', 'go', 'send', 'find'];
  const el = (id: string) => {
    const e = id in paths ? c.raw_elements.find((r) => r.tag === 'a' && new URL(String(r.attributes.href)).pathname === paths[id])
      : inputs.includes(id) ? c.raw_elements.filter((r) => r.tag === 'input')[inputs.indexOf(id)] : buttons[['cart', 'colours', 'photos', 'zoom'].indexOf(id)];
    assert.ok(e, `#${id} collected`);
    return e;
  };
  const label = (id: string) => { const e = el(id); return (e.attributes.name || e.text).replace(/\s+/g, ' ').trim(); };
  const expected: Record<string, string> = {
    logo: 'Greenleaf Garden - Homepage', // the image's alt, not the title
    orders: 'Returns & Orders', // the block child set apart; not the title "Orders"
    account: 'account-plus Create account', // the icon's aria-label is part of the content
    cart: 'Add to cart', // the content, not the long title
    colours: 'Available in 7 colours', // a child's aria-label stands for its text
    menu: 'Menu', // the display:none part is left out
    card: 'Rose Climbing rose',
    q: 'Search the shop', // no content: the title names it
    email: 'Enter a valid email address.', // a field's title before its placeholder
    plain: 'Plain link',
    photos: 'See all 11', // a line break parts the words
    review: 'Mouse X Review', // an image-like child (role img: a badge drawn by CSS) gives its title; a generic span's title is not read
    zoom: 'Zoom in', // an image without alt is named by its title
    login: 'Log in', // an input drawn as a button: its value, not its title
    go: 'Search', // an image button: its alt before its title
    send: 'Submit', // a submit button without a value: the browser's label
    find: 'Search films', // a field filling its combobox wrapper is still listed, with its name
  };
  assert.ok(Object.keys(expected).every((id) => ids.includes(id)));
  for (const [id, name] of Object.entries(expected)) {
    assert.equal(await chromiumName(id), name, `Chromium names #${id} so`);
    assert.equal(label(id), name, `our name or text of #${id}`);
  }
  // A name that is the visible text is not sent twice.
  assert.equal(el('cart').attributes.name, undefined);
  assert.equal(el('plain').attributes.name, undefined);
  // The text form prints those names.
  const prompt = toPrompt(await snapshot(rig.page, { limit: 50, api: rig.api }));
  for (const name of ['Add to cart', 'Returns & Orders', 'Greenleaf Garden - Homepage', 'Available in 7 colours', 'Log in', 'Mouse X Review']) {
    assert.ok(prompt.includes(name), `"${name}" in the text form:\n${prompt}`);
  }
  assert.ok(!prompt.includes('to the cart'), 'the title is not printed for the cart button');
  assert.ok(!prompt.includes('boxes provided'), 'nor the title of the Log in button');
});
