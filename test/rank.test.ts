// Behaviour of the rank core through the real path (encode -> Wasm -> decode), on hand-made pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wasm, js, el, request, byId, ids } from './helpers/elements.ts';

const textbox = (p = {}) => el({ tag: 'input', attributes: { input_type: 'text', name: 'q' }, ...p });
const button = (p = {}) => el({ tag: 'button', text: 'Go', ...p });
const link = (p = {}) => el({ tag: 'a', text: 'More', attributes: { href: 'https://example.test/more' }, ...p });
const para = (p = {}) => el({ tag: 'p', text: 'Some words', ...p });

test('role bands order importance: form input > control > link > static', () => {
  const [i, b, l, s] = [textbox({ rect: [10, 10, 200, 30] }), button({ rect: [10, 50, 200, 30] }), link({ rect: [10, 90, 200, 30] }), para({ rect: [10, 130, 200, 30] })];
  const r = wasm.rank(request([s, l, b, i]));
  assert.deepEqual(ids(r), [i.id, b.id, l.id, s.id]);
  assert.deepEqual(r.elements.map((e) => e.role), ['textbox', 'button', 'link', 'paragraph']);
  for (const e of r.elements) assert.ok(Number.isInteger(e.importance) && e.importance >= 0 && e.importance <= 1000);
});

test('penalties: occluded, disabled, off-screen, tiny and hidden elements lose to the same visible button', () => {
  const base = button({ rect: [10, 10, 120, 40] });
  const occluded = button({ rect: [10, 60, 120, 40], is_occluded: true });
  const disabled = button({ rect: [10, 110, 120, 40], attributes: { disabled: 'true' } });
  const offscreen = button({ rect: [10, 3000, 120, 40], in_viewport: false });
  const tiny = button({ rect: [10, 160, 3, 3] });
  const hidden = button({ rect: [10, 170, 120, 40], styles: { display: 'none' } });
  const r = wasm.rank(request([occluded, disabled, offscreen, tiny, hidden, base]));
  const top = byId(r, base.id).importance;
  for (const e of [occluded, disabled, offscreen, tiny, hidden]) {
    assert.ok(byId(r, e.id).importance < top, `element ${e.id} should rank below the plain button`);
  }
  assert.equal(r.elements[0].id, base.id);
  assert.ok(byId(r, hidden.id).importance < byId(r, occluded.id).importance, 'hidden is the strongest penalty');
  assert.equal(byId(r, occluded.id).is_occluded, true);
  assert.equal(byId(r, disabled.id).disabled, true);
});

test('visual prominence moves an element within its tier, never across tiers', () => {
  const plain = button({ rect: [10, 10, 60, 24] });
  const primary = button({ rect: [10, 50, 220, 48], styles: { bg_color: 'rgb(37, 99, 235)', cursor: 'pointer' } });
  const bigLink = link({ rect: [10, 120, 600, 80], styles: { bg_color: 'rgb(220, 38, 38)', cursor: 'pointer' } });
  const r = wasm.rank(request([plain, bigLink, primary]));
  assert.deepEqual(ids(r), [primary.id, plain.id, bigLink.id]);
  const p = byId(r, primary.id);
  assert.equal(p.visual_cues.is_primary, true);
  assert.equal(p.visual_cues.is_clickable, true);
  assert.equal(p.visual_cues.background_color_name, 'blue');
  assert.equal(byId(r, plain.id).visual_cues.is_primary, false);
  assert.equal(byId(r, plain.id).visual_cues.background_color_name, 'transparent');
  assert.equal(byId(r, bigLink.id).visual_cues.background_color_name, 'red');
});

test('a submit button and a "btn-primary" class are primary', () => {
  const submit = el({ tag: 'input', attributes: { input_type: 'submit', value: 'Sign in' }, rect: [0, 0, 80, 30] });
  const cls = button({ attributes: { class: 'btn btn-primary' }, rect: [0, 40, 80, 30] });
  const r = wasm.rank(request([submit, cls]));
  assert.equal(byId(r, submit.id).role, 'button');
  assert.equal(byId(r, submit.id).visual_cues.is_primary, true);
  assert.equal(byId(r, cls.id).visual_cues.is_primary, true);
});

test('search results: group keys, the dominant group, membership and group_index by doc_y', () => {
  const nav = [link({ rect: [20, 10, 60, 20] }), link({ rect: [100, 10, 60, 20] })];
  // ten results in a column at x=160 (x bucket 4), 50px tall (h bucket 3: 2.5 rounds away from zero)
  const results = Array.from({ length: 10 }, (_, k) => link({ text: `Result ${k + 1}`, rect: [160, 100 + k * 60, 600, 50], scroll_y: 0 }));
  const shifted = link({ text: 'Sponsored', rect: [190, 700, 600, 50] }); // x bucket 5: within ±1
  const otherHeight = link({ text: 'Tall', rect: [160, 760, 600, 90] });  // h bucket 5: not a member
  const r = wasm.rank(request([...nav, ...results.slice().reverse(), shifted, otherHeight], { options: { limit: 100 } }));
  assert.equal(r.dominant_group_key, 'x4-h3');
  results.forEach((res, k) => {
    const e = byId(r, res.id);
    assert.equal(e.group_key, 'x4-h3');
    assert.equal(e.group_index, k, 'group_index follows doc_y, not input order');
    assert.equal(e.in_dominant_group, true);
  });
  assert.equal(byId(r, shifted.id).group_key, 'x5-h3');
  assert.equal(byId(r, shifted.id).in_dominant_group, true);
  assert.equal(byId(r, otherHeight.id).in_dominant_group, false);
  assert.equal(byId(r, nav[0].id).group_key, 'x1-h1');
  assert.equal(byId(r, nav[0].id).in_dominant_group, false);
});

test('group keys round halves away from zero, including negative x', () => {
  const a = el({ rect: [-60, 0, 10, 30] }); // -1.5 -> -2, 30/20 = 1.5 -> 2
  const b = el({ rect: [20, 0, 10, 10] });  // 0.5 -> 1, 0.5 -> 1
  const r = wasm.rank(request([a, b]));
  assert.equal(byId(r, a.id).group_key, 'x-2-h2');
  assert.equal(byId(r, b.id).group_key, 'x1-h1');
});

test('a client group_key is echoed and used for the dominant group', () => {
  const items = [el({ group_key: 'card' }), el({ group_key: 'card' }), el({ group_key: 'x3-h2' })];
  const r = wasm.rank(request(items));
  assert.equal(r.dominant_group_key, 'card');
  assert.equal(byId(r, items[0].id).in_dominant_group, true);
  assert.equal(byId(r, items[2].id).in_dominant_group, false);
  assert.equal(byId(r, items[2].id).group_key, 'x3-h2');
});

test('modal overlay: what it covers is occluded, the dialog is not, and modal_grids describes it', () => {
  const search = textbox({ rect: [100, 100, 300, 40] });
  const buy = button({ text: 'Buy', rect: [500, 300, 120, 40] });
  const backdrop = el({ rect: [0, 0, 1280, 800], styles: { z_index: '1000' } });
  const dialog = el({ tag: 'div', rect: [390, 250, 500, 300], styles: { z_index: '1001' } });
  const accept = button({ text: 'Accept', rect: [540, 480, 200, 40] }); // inside the dialog, after it
  const toast = button({ text: 'Undo', rect: [1000, 740, 200, 40], styles: { z_index: '2000' } });
  const r = wasm.rank(request([search, buy, backdrop, dialog, accept, toast]));
  assert.equal(byId(r, search.id).is_occluded, true);
  assert.equal(byId(r, buy.id).is_occluded, true);
  assert.equal(byId(r, accept.id).is_occluded, false);
  assert.equal(byId(r, toast.id).is_occluded, false);
  assert.equal(r.modal_detected, true);
  assert.ok(r.modal_grids);
  const grid = r.modal_grids![0];
  assert.deepEqual(grid.bounds, { x: 0, y: 0, width: 1280, height: 800 });
  assert.equal(grid.z_index, 1000);
  assert.equal(grid.viewport_coverage, 1);
  assert.equal(grid.blocks_interaction, true);
  assert.equal(r.elements[0].id, accept.id, 'the reachable control ranks first');
  assert.ok(r.diagnostics!.reasons.includes('modal_blocking'));
});

test('no modal on a plain page; the client\'s is_occluded is trusted over geometry', () => {
  const under = button({ rect: [10, 10, 100, 30], is_occluded: false });
  const cover = el({ rect: [0, 0, 400, 400], styles: { z_index: 5 } });
  const r = wasm.rank(request([under, cover]));
  assert.equal(byId(r, under.id).is_occluded, false);
  assert.equal(r.modal_detected, false);
  assert.equal(r.modal_grids, null);
});

test('filters: min_area, allowed_roles and allowed_tags', () => {
  const small = button({ rect: [0, 0, 10, 10] });
  const big = button({ rect: [0, 20, 200, 50] });
  const a = link({ rect: [0, 80, 200, 50] });
  const input = textbox({ rect: [0, 140, 200, 50] });
  const page = [small, big, a, input];
  assert.deepEqual(ids(wasm.rank(request(page, { options: { filter: { min_area: 500 } } }))).sort(), [big.id, a.id, input.id].sort());
  assert.deepEqual(ids(wasm.rank(request(page, { options: { filter: { allowed_roles: ['link', 'textbox'] } } }))), [input.id, a.id]);
  assert.deepEqual(ids(wasm.rank(request(page, { options: { filter: { allowed_tags: ['BUTTON'] } } }))), [big.id, small.id]);
  assert.deepEqual(ids(wasm.rank(request(page, { options: { filter: { allowed_roles: ['nonsense'] } } }))), []);
});

test('limit: default 50, capped at 100, and a lower server cap applies', async () => {
  const page = Array.from({ length: 300 }, (_, k) => link({ rect: [0, k * 20, 100, 18] }));
  assert.equal(wasm.rank(request(page)).elements.length, 50);
  assert.equal(wasm.rank(request(page, { options: { limit: 7 } })).elements.length, 7);
  assert.equal(wasm.rank(request(page, { options: { limit: 5000 } })).elements.length, 100);
  const { Ranker } = await import('../src/rank/ranker.ts');
  const capped = new Ranker(wasm.core, { limitCap: 20 });
  assert.equal(capped.rank(request(page, { options: { limit: 50 } })).elements.length, 20);
  const r = wasm.rank(request(page, { options: { limit: 100 } }));
  for (let k = 1; k < r.elements.length; k++) assert.ok(r.elements[k - 1].importance >= r.elements[k].importance);
});

test('diff: ADDED, REMOVED, MODIFIED, MOVED against the previous snapshot, by id', () => {
  const same = button({ text: 'Same', rect: [0, 0, 100, 30] });
  const moved = button({ text: 'Moves', rect: [0, 40, 100, 30] });
  const changed = textbox({ rect: [0, 80, 100, 30], attributes: { input_type: 'text', value: 'old' } });
  const gone = button({ text: 'Gone', rect: [0, 120, 100, 30] });
  const previous = [same, moved, changed, gone];
  const added = button({ text: 'New', rect: [0, 160, 100, 30] });
  const now = [same, { ...moved, rect: { ...moved.rect, y: 300 } }, { ...changed, attributes: { input_type: 'text', value: 'new' } }, added];
  const r = wasm.rank(request(now, { options: { previous } }));
  assert.equal(byId(r, same.id).diff_status, undefined);
  assert.equal(byId(r, moved.id).diff_status, 'MOVED');
  assert.equal(byId(r, changed.id).diff_status, 'MODIFIED');
  assert.equal(byId(r, added.id).diff_status, 'ADDED');
  const removed = r.elements.at(-1)!;
  assert.equal(removed.id, gone.id);
  assert.equal(removed.diff_status, 'REMOVED');
  assert.equal(removed.role, 'button');
});

test('diff: renumbered ids match by content, and a previous *result* works as input', () => {
  const page = [button({ text: 'Alpha', rect: [0, 0, 100, 30] }), button({ text: 'Beta', rect: [0, 40, 100, 30] })];
  const first = wasm.rank(request(page));
  const renumbered = page.map((e, k) => ({ ...e, id: 1000 + k }));
  const r = wasm.rank(request(renumbered, { options: { previous: first.elements } }));
  assert.deepEqual(r.elements.map((e) => e.diff_status), [undefined, undefined]);
  assert.equal(r.elements.length, 2, 'nothing reported REMOVED');
});

test('diff: a scroll alone moves nothing (on the page or on the screen), from raw or result elements; a real move is MOVED', () => {
  for (const core of [wasm, js]) {
    const story = button({ text: 'Story', rect: [0, 1000, 100, 30], scroll_y: 0 } as never);
    const bar = button({ text: 'Menu', rect: [0, 0, 100, 30], scroll_y: 0 } as never); // in a fixed bar: same on the screen
    const shifted = button({ text: 'Shifted', rect: [0, 1100, 100, 30], scroll_y: 0 } as never);
    const previous = [story, bar, shifted];
    const now = [{ ...story, rect: { ...story.rect, y: 400 }, scroll_y: 600 }, { ...bar, scroll_y: 600 }, { ...shifted, rect: { ...shifted.rect, y: 800 }, scroll_y: 600 }];
    const r = core.rank(request(now as never, { options: { previous } }));
    assert.deepEqual([story, bar, shifted].map((e) => byId(r, e.id).diff_status), [undefined, undefined, 'MOVED']);
    // The earlier result as previous: its scroll is doc_y less center_y.
    const first = core.rank(request(previous as never));
    const again = core.rank(request(now as never, { options: { previous: first.elements } }));
    assert.deepEqual([story, bar, shifted].map((e) => byId(again, e.id).diff_status), [undefined, undefined, 'MOVED']);
  }
});

test('empty input gives an empty, successful result with a derived default viewport', () => {
  const r = wasm.rank({ url: 'https://example.test/', raw_elements: [] });
  assert.equal(r.status, 'success');
  assert.deepEqual(r.elements, []);
  assert.deepEqual(r.viewport, { width: 1280, height: 800 });
  assert.equal(r.dominant_group_key, null);
  assert.ok(r.diagnostics!.reasons.includes('no_elements'));
});

test('viewport is derived from element bounds when absent', () => {
  const r = wasm.rank({ url: 'u', raw_elements: [el({ rect: [0, 0, 1000, 50], in_viewport: true }), el({ rect: [200, 600, 300, 100.5], in_viewport: true }), el({ rect: [0, 2000, 1200, 50], in_viewport: false })] });
  assert.deepEqual(r.viewport, { width: 1200, height: 701 });
});

test('iframe_content is flattened into the ranked list', () => {
  const inner = textbox({ rect: [300, 300, 200, 30] });
  const frame = el({ tag: 'iframe', rect: [250, 250, 400, 300], iframe_content: [inner] });
  const r = wasm.rank(request([frame, button()]));
  assert.equal(r.elements[0].id, inner.id);
  assert.equal(r.elements.length, 3);
});

test('20,000 elements rank, sorted and limited', () => {
  const page = Array.from({ length: 20_000 }, (_, k) => el({
    tag: ['a', 'button', 'div', 'input'][k % 4],
    attributes: k % 4 === 0 ? { href: `/p/${k}` } : {},
    text: `item ${k}`,
    rect: [(k % 7) * 150, Math.floor(k / 7) * 30, 140, 28],
    styles: { z_index: k % 97 === 0 ? '10' : 'auto' },
  }));
  const r = wasm.rank(request(page, { options: { limit: 100 } }));
  assert.equal(r.elements.length, 100);
  assert.equal(r.diagnostics!.metrics.raw_elements_count, 20_000);
  assert.equal(r.elements[0].role, 'textbox');
  for (let k = 1; k < r.elements.length; k++) assert.ok(r.elements[k - 1].importance >= r.elements[k].importance);
});

test('repeated calls reuse the same Wasm memory (request-scoped heap, nothing leaks)', async () => {
  const { loadWasmCore } = await import('../src/rank/load-node.ts');
  const { Ranker } = await import('../src/rank/ranker.ts');
  const core = await loadWasmCore();
  const ranker = new Ranker(core);
  const page = request(Array.from({ length: 5000 }, (_, k) => el({ tag: k % 2 ? 'a' : 'button', attributes: { href: '/x' }, rect: [k % 900, k * 3, 80, 20], styles: { z_index: String(k % 5) } })));
  const bytes = () => core.f64(0).buffer.byteLength;
  ranker.rank(page);
  const after1 = bytes();
  for (let k = 0; k < 200; k++) ranker.rank(page);
  assert.equal(bytes(), after1);
});

test('diagnostics: reasons lower confidence; canvas-heavy pages and captchas require vision', () => {
  const calm = wasm.rank(request([button()], { client_metrics: { ready_state: 'complete', quiet_ms: 2000, node_count: 40 } }));
  assert.equal(calm.diagnostics!.confidence, 1);
  assert.deepEqual(calm.diagnostics!.reasons, []);
  assert.equal(calm.diagnostics!.requires_vision, false);

  const busy = wasm.rank(request([button()], { client_metrics: { ready_state: 'loading', quiet_ms: 50, node_count: 40 } }));
  assert.deepEqual(busy.diagnostics!.reasons, ['page_not_ready', 'dom_unstable']);
  assert.equal(busy.diagnostics!.confidence, 0.6);
  assert.equal(busy.diagnostics!.metrics.ready_state, 'loading');

  const canvas = wasm.rank(request([el({ tag: 'canvas', rect: [0, 0, 1280, 700] }), button()]));
  assert.equal(canvas.diagnostics!.requires_vision, true);
  assert.equal(canvas.diagnostics!.requires_vision_reason, 'canvas_heavy');

  const captcha = { detected: true, confidence: 0.9, evidence: { text_hits: ['verify you are human'], selector_hits: [], iframe_src_hits: [], url_hits: [] } };
  const blocked = wasm.rank(request([button()], { client_diagnostics: { captcha } }));
  assert.ok(blocked.diagnostics!.reasons.includes('captcha_detected'));
  assert.deepEqual(blocked.diagnostics!.captcha, captcha);
  assert.equal(blocked.diagnostics!.requires_vision, true);
  assert.equal(blocked.diagnostics!.requires_vision_reason, 'captcha_detected');
});

// Issue 20: position decides across role bands; bands break ties among comparable elements.
const below = (screens: number) => 800 * screens + 100; // a y that many screens below the viewport's top

test('position decides across bands: a field screens below the fold ranks under the visible links', () => {
  const farField = textbox({ rect: [10, below(3), 300, 30], in_viewport: false });
  const visibleLink = link({ rect: [10, 300, 200, 20] });
  const visibleField = textbox({ rect: [10, 200, 300, 30] });
  const r = wasm.rank(request([farField, visibleLink, visibleField]));
  assert.deepEqual(ids(r), [visibleField.id, visibleLink.id, farField.id]);
  // Further away is lower, band for band.
  const nearField = textbox({ rect: [10, below(1), 300, 30], in_viewport: false });
  const r2 = wasm.rank(request([farField, nearField]));
  assert.ok(byId(r2, nearField.id).importance > byId(r2, farField.id).importance);
});

// A clickable element's score from its importance below the knee (score.ts importanceOf: content under 50, a
// link, control or field at 50 + 0.9 x its score), for the tests of the formula's factors.
const scoreOf = (importance: number) => (importance - 50) / 0.9;

test('a primary action ranks near the top wherever it is, off screen under the visible fields; a listing promotes only its first three off screen', () => {
  const visible = [textbox({ rect: [10, 100, 300, 30] }), button({ rect: [10, 150, 80, 30] }), link({ rect: [10, 200, 120, 20] })];
  const cart = button({ text: 'Add to cart', rect: [10, below(4), 120, 40], in_viewport: false });
  const signIn = link({ text: 'Sign in', rect: [1100, 10, 60, 20] });
  const r = wasm.rank(request([...visible, cart, signIn]));
  // Issue 38: position weighs against the words: the off-screen purchase keeps 0.6, below the visible field.
  assert.deepEqual(ids(r).slice(0, 3), [signIn.id, visible[0].id, cart.id], 'the visible sign in, the visible field, the purchase');
  // The same button repeated under 10 products: the first three off screen are promoted, the rest not.
  const repeated = Array.from({ length: 10 }, (_, k) => button({ text: 'Add to cart', rect: [10, below(2 + k), 120, 40], in_viewport: false }));
  const r2 = wasm.rank(request([...visible, ...repeated]));
  const imp = repeated.map((e) => byId(r2, e.id).importance);
  for (const k of [0, 1, 2]) assert.ok(imp[k] > byId(r2, visible[1].id).importance, `repeat ${k} is promoted`);
  for (const k of [3, 4, 9]) assert.ok(imp[k] < byId(r2, visible[2].id).importance, `repeat ${k} is not`);
});

test('comment-section and footer fields sink below the same field elsewhere at the same distance', () => {
  const plain = textbox({ rect: [10, below(2), 300, 30], in_viewport: false });
  const comment = textbox({ rect: [400, below(2), 300, 30], in_viewport: false, attributes: { input_type: 'text', section: 'Leave a Reply' } });
  const r = wasm.rank(request([plain, comment]));
  assert.ok(byId(r, comment.id).importance < byId(r, plain.id).importance);
  // A long page (6 screens): a field in its last screen loses to the same field two screens up.
  const bottom = para({ rect: [10, below(6), 300, 30], in_viewport: false });
  const mid = textbox({ rect: [10, below(4), 300, 30], in_viewport: false });
  const footer = textbox({ rect: [10, below(5) + 500, 300, 30], in_viewport: false });
  const r2 = wasm.rank(request([bottom, mid, footer]));
  const ratio = scoreOf(byId(r2, footer.id).importance) / scoreOf(byId(r2, mid.id).importance);
  const distanceOnly = (1 + 0.5 * ((below(4) + 15 - 800) / 800)) / (1 + 0.5 * ((below(5) + 515 - 800) / 800));
  assert.ok(ratio < distanceOnly * 0.8, `the footer zone costs more than its distance (${ratio} vs ${distanceOnly})`);
});

test('repeated actions: only the first three of each kind are promoted, in the viewport too, so the next kind still ranks near the top', () => {
  // A page that renders its search form four times in the viewport (header, menu, sidebar, footer
  // copies shown at once), then its sign in, then an "Add to cart" far below.
  const forms = Array.from({ length: 4 }, (_, k) => [
    textbox({ rect: [10, 60 + 150 * k, 300, 30], attributes: { input_type: 'text', name: 'Search' } }),
    button({ text: 'Search', rect: [320, 60 + 150 * k, 80, 30] }),
  ]).flat();
  const signIn = link({ text: 'Log in', rect: [1100, 700, 60, 20] });
  const cart = button({ text: 'Add to cart', rect: [10, below(6), 120, 40], in_viewport: false });
  const r = wasm.rank(request([...forms, signIn, cart]));
  const top = ids(r);
  // Promoted: the first three search controls by doc_y (the first two rows: a row's field and button
  // share a doc_y and count together), the sign in and the add to cart; the copies after them are not.
  // The add to cart, six screens down, comes after the visible fields (issue 38) and before the visible buttons.
  assert.deepEqual(top.slice(0, 5).sort(), [...forms.slice(0, 4).map((e) => e.id), signIn.id].sort());
  const copies = forms.slice(4);
  assert.ok(top.indexOf(cart.id) < 10 && copies.filter((e) => e.tag === 'button').every((e) => top.indexOf(e.id) > top.indexOf(cart.id)), `add to cart at ${top.indexOf(cart.id) + 1}`);
  for (const e of forms.slice(4)) assert.ok(byId(r, e.id).importance < byId(r, signIn.id).importance - 50, `copy ${e.id} is not promoted`);
  // The same through the JS build of the core.
  assert.deepEqual(ids(js.rank(request([...forms, signIn, cart]))), top);
});

test('an action word inside a sentence or on a tiny control is not the action; a field asking for a query is the search', () => {
  const visible = [link({ rect: [10, 100, 120, 20] }), link({ rect: [10, 130, 120, 20] })];
  const sentence = link({ text: 'You must log in or register to reply here.', rect: [10, below(3), 300, 20], in_viewport: false });
  const short = link({ text: 'Log in', rect: [10, below(3) + 40, 60, 20], in_viewport: false });
  const query = textbox({ rect: [10, below(4), 300, 30], in_viewport: false, attributes: { input_type: 'text', placeholder: 'What are you looking for?' } });
  const other = textbox({ rect: [10, below(4) + 50, 300, 30], in_viewport: false, attributes: { input_type: 'text', placeholder: 'Your e-mail' } });
  const tiny = button({ text: 'Log in', rect: [10, below(2), 16, 6], in_viewport: false }); // a collapsed toggle
  const r = wasm.rank(request([...visible, sentence, short, query, other, tiny]));
  assert.deepEqual(ids(r).slice(0, 2).sort(), [short.id, query.id].sort(), 'the short "Log in" and the query field are promoted');
  assert.ok(byId(r, sentence.id).importance < byId(r, visible[1].id).importance, 'the sentence is a link three screens down');
  assert.ok(byId(r, other.id).importance < byId(r, visible[1].id).importance, 'an e-mail field three screens down is not an action');
  assert.ok(byId(r, tiny.id).importance < byId(r, visible[1].id).importance, 'a tiny "Log in" is not promoted');
});

test('a control with no text and no accessible name keeps 0.6 of the same named control, still above static text in view', () => {
  const named = link({ text: 'Red', rect: [10, 300, 24, 24] });
  const unnamed = link({ text: '', rect: [40, 300, 24, 24] });
  const r = wasm.rank(request([named, unnamed]));
  const ratio = scoreOf(byId(r, unnamed.id).importance) / scoreOf(byId(r, named.id).importance);
  // 0.6 of the score without the +15 for a name.
  const base = 250 + 80 + 30 + 50 * 24 / 100;
  assert.ok(Math.abs(ratio - 0.6 * base / (base + 15)) < 0.01, `ratio ${ratio}`);
});

test('a small named control (an icon button drawn without its icon, 16×6) is not tiny; a thin or unnamed one still is', () => {
  const visibleLink = link({ text: 'Products', rect: [10, 300, 120, 20] });
  const named = button({ text: '', rect: [10, 60, 16, 6], attributes: { aria_label: 'Menu' } });
  const unnamed = button({ text: '', rect: [40, 60, 16, 6] });
  const thin = button({ text: 'Menu', rect: [70, 60, 40, 3] });
  const r = wasm.rank(request([visibleLink, named, unnamed, thin]));
  assert.ok(byId(r, named.id).importance > byId(r, visibleLink.id).importance, 'a named 16×6 button in view keeps its band above a visible link');
  assert.ok(byId(r, unnamed.id).importance < byId(r, visibleLink.id).importance, 'an unnamed 16×6 button is tiny and unnamed');
  assert.ok(byId(r, thin.id).importance < byId(r, named.id).importance, 'thinner than 4 px is tiny, named or not');
  assert.deepEqual(ids(js.rank(request([visibleLink, named, unnamed, thin]))), ids(r));
});

test('"Sign-In", "Log-in" and a label that is only "My account" / "Account" name the sign in; "Create an account" does not', () => {
  const visible = [link({ rect: [10, 100, 120, 20] }), link({ rect: [10, 130, 120, 20] })];
  const far = (text: string, k: number) => link({ text, rect: [10, below(3) + 40 * k, 90, 20], in_viewport: false });
  const [hyphen, account, create] = [far('Sign-In', 0), far('My Account', 1), far('Create an account', 2)];
  const r = wasm.rank(request([...visible, hyphen, account, create]));
  assert.deepEqual(ids(r).slice(0, 2).sort(), [hyphen.id, account.id].sort(), 'both are promoted sign ins');
  assert.ok(byId(r, create.id).importance < byId(r, visible[1].id).importance, '"Create an account" is a link three screens down');
});

test('a link whose text names no action but whose accessible name says sign in is the sign in; a "Cancel Search" name is not a search', () => {
  const visible = [link({ rect: [10, 100, 120, 20] }), link({ rect: [10, 130, 120, 20] })];
  const far = (text: string, name: string, k: number) => link({ text, rect: [10, below(3) + 40 * k, 90, 20], in_viewport: false, attributes: { href: 'https://example.test/x', name } });
  const portal = far('myPortal', 'myPortal Login.', 0);
  const plain = far('myPortal', '', 1);
  const cancel = button({ text: 'Cancel', rect: [10, below(3) + 80, 90, 20], in_viewport: false, attributes: { aria_label: 'Cancel Search' } });
  const page = [...visible, portal, plain, cancel];
  const r = wasm.rank(request(page));
  assert.equal(ids(r)[0], portal.id, 'the sign in named only by its accessible name is promoted');
  assert.ok(byId(r, plain.id).importance < byId(r, visible[1].id).importance, 'the same link without that name is a link three screens down');
  assert.ok(byId(r, cancel.id).importance < byId(r, visible[1].id).importance, 'a "Cancel Search" toggle is not promoted as the search');
  assert.deepEqual(ids(js.rank(request(page))), ids(r));
});

test('a named 16×6 sign-in button in the viewport is the sign in; the same button below the fold, or unnamed, is not promoted', () => {
  const visible = [link({ rect: [10, 100, 120, 20] }), link({ rect: [10, 130, 120, 20] }), textbox({ rect: [10, 160, 200, 24] })];
  const inView = button({ text: '', rect: [300, 20, 16, 6], attributes: { aria_label: 'Sign in' } });
  const offScreen = button({ text: '', rect: [300, below(2), 16, 6], in_viewport: false, attributes: { aria_label: 'Log in' } });
  const unnamed = button({ text: '', rect: [330, 20, 16, 6] });
  const page = [...visible, inView, offScreen, unnamed];
  const r = wasm.rank(request(page));
  assert.equal(ids(r)[0], inView.id, 'the small named sign in in view is promoted above the visible field');
  assert.ok(byId(r, offScreen.id).importance < byId(r, visible[1].id).importance, 'off screen a 16×6 control is a collapsed toggle');
  assert.ok(byId(r, unnamed.id).importance < byId(r, visible[1].id).importance, 'unnamed it is tiny');
  assert.deepEqual(ids(js.rank(request(page))), ids(r));
});

test('centres carry no binary float noise: 0.7 + 0.2 / 2 answers 0.8, not 0.7999999999999999', () => {
  for (const core of [wasm, js]) {
    const a = el({ tag: 'button', text: 'Go', rect: [10.1, 0.7, 20.2, 0.2] });
    const e = core.rank(request([a], { scroll_y: 0.1 } as never)).elements[0];
    assert.equal(e.center_x, 20.2);
    assert.equal(e.center_y, 0.8);
    assert.equal(String(e.center_x).length <= 12 && String(e.center_y).length <= 12 && String(e.doc_y).length <= 12, true, JSON.stringify(e));
  }
});
