// The playground: runs observe and snapshot against this server and draws what comes back. Every
// string from a page or the API is set with textContent or built as SVG text nodes; the only HTML
// inserted is marked's rendering of read-mode Markdown, with raw HTML escaped and links limited to
// http(s) (see safeMarkdown). The API key lives in localStorage and travels only in the header.
import { Marked } from '/playground/vendor/marked.esm.js';

const KEY_STORAGE = 'sightline.apiKey';
const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const origin = location.origin;

// ---------- small helpers ----------

/** An element with text and attributes; never parses HTML. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'class') el.className = value;
    else if (name === 'text') el.textContent = value;
    else el.setAttribute(name, value);
  }
  for (const child of children) if (child != null) el.append(child);
  return el;
}

function s(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const shellQuote = (text) => `'${String(text).replaceAll("'", `'\\''`)}'`;
const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en') : '–');

/** Markdown to HTML with nothing of the page's own HTML let through (CSP is the second fence). */
const safeMarkdown = new Marked({
  gfm: true,
  renderer: {
    // The page's own HTML shows as the text it is (with Markdown's backslash escapes undone).
    html: ({ text }) => escapeHtml(text.replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1')),
    link({ href, title, tokens }) {
      const label = this.parser.parseInline(tokens);
      if (!/^https?:\/\//i.test(href ?? '')) return label;
      return `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow" target="_blank"${title ? ` title="${escapeHtml(title)}"` : ''}>${label}</a>`;
    },
    // Images are not fetched from pages (the CSP would refuse them anyway): their alt text stands in.
    image: ({ text }) => `<span class="img-alt">[image${text ? `: ${escapeHtml(text)}` : ''}]</span>`,
  },
});

// ---------- state and the key ----------

const keyInputs = [$('api-key'), $('payload-key'), $('usage-key')];
const savedKey = localStorage.getItem(KEY_STORAGE) ?? '';
for (const input of keyInputs) {
  input.value = savedKey;
  input.addEventListener('input', () => {
    localStorage.setItem(KEY_STORAGE, input.value.trim());
    for (const other of keyInputs) if (other !== input) other.value = input.value;
  });
}

function setCredits(remaining) {
  if (typeof remaining !== 'number') return;
  $('credits-left').textContent = fmt(remaining);
  $('credits-pill').hidden = false;
}

// ---------- tabs ----------

function tabs(list, onChange) {
  const buttons = [...list.querySelectorAll('[role=tab]')];
  const select = (button) => {
    for (const b of buttons) {
      const on = b === button;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      $(b.getAttribute('aria-controls')).hidden = !on;
    }
    onChange?.(button);
  };
  for (const b of buttons) {
    b.addEventListener('click', () => select(b));
    b.addEventListener('keydown', (e) => {
      const at = buttons.indexOf(b);
      const forward = e.key === 'ArrowRight' || e.key === 'ArrowDown';
      const back = e.key === 'ArrowLeft' || e.key === 'ArrowUp';
      const next = forward ? buttons[(at + 1) % buttons.length] : back ? buttons[(at - 1 + buttons.length) % buttons.length] : null;
      if (next) { e.preventDefault(); next.focus(); select(next); }
    });
  }
  return select;
}

tabs(document.querySelector('.controls .tabs'));
const selectCodeTab = tabs(document.querySelector('.code .tabs'));
$('copy').addEventListener('click', async () => {
  const shown = [...document.querySelectorAll('.code pre')].find((p) => !p.hidden);
  try { await navigator.clipboard.writeText(shown.textContent); $('copy').textContent = 'Copied'; } catch { $('copy').textContent = 'Select and copy'; }
  setTimeout(() => { $('copy').textContent = 'Copy'; }, 1500);
});

// ---------- the observe form ----------

const mode = $('mode');
const engine = $('engine');
function syncMode() {
  const m = mode.value;
  for (const el of document.querySelectorAll('.map-only')) el.hidden = m === 'read';
  engine.disabled = m !== 'map';
  if (m === 'visual') engine.value = 'precision';
  $('engine-hint').textContent = m === 'read' ? 'Read fetches the page without a browser, and renders it in Chromium only when it needs to.'
    : m === 'visual' ? 'Visual always loads with the precision engine.' : '';
}
mode.addEventListener('change', syncMode);
syncMode();

function observeRequest() {
  const body = { url: $('url').value.trim(), mode: mode.value };
  if (mode.value === 'read') return body;
  const options = {};
  if (mode.value === 'map' && engine.value === 'precision') options.render_quality = 'precision';
  const goal = $('goal').value.trim();
  if (goal) options.goal = goal;
  const limit = Number($('limit').value);
  if ($('limit').value && Number.isInteger(limit)) options.limit = limit;
  const filter = {};
  const roles = $('roles').value.split(',').map((r) => r.trim()).filter(Boolean);
  if (roles.length) filter.allowed_roles = roles;
  if ($('min-area').value !== '') filter.min_area = Number($('min-area').value);
  if (Object.keys(filter).length) options.filter = filter;
  if (Object.keys(options).length) body.options = options;
  return body;
}

$('observe-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const body = observeRequest();
  run('/v1/observe', body, $('api-key').value.trim(), $('run'));
});

// ---------- the payload tab ----------

const EXAMPLE = {
  url: 'https://shop.example/',
  viewport: { width: 1280, height: 800 },
  goal: 'search for headphones',
  raw_elements: [
    { id: 1, tag: 'a', text: 'Shop', rect: { x: 32, y: 20, width: 80, height: 32 }, attributes: { href: 'https://shop.example/' } },
    { id: 2, tag: 'input', rect: { x: 300, y: 18, width: 520, height: 38 }, attributes: { input_type: 'search', aria_label: 'Search products' } },
    { id: 3, tag: 'button', text: 'Search', rect: { x: 832, y: 18, width: 96, height: 38 } },
    { id: 4, tag: 'a', text: 'Sign in', rect: { x: 1120, y: 24, width: 80, height: 28 }, attributes: { href: 'https://shop.example/account' } },
    { id: 5, tag: 'a', text: 'Deals of the day', rect: { x: 32, y: 120, width: 380, height: 220 }, attributes: { href: 'https://shop.example/deals' } },
    { id: 6, tag: 'a', text: 'Headphones', rect: { x: 448, y: 120, width: 380, height: 220 }, attributes: { href: 'https://shop.example/headphones' } },
    { id: 7, tag: 'button', text: 'Add to cart', rect: { x: 864, y: 290, width: 150, height: 40 } },
    { id: 8, tag: 'a', text: 'Help', rect: { x: 32, y: 960, width: 60, height: 24 }, attributes: { href: 'https://shop.example/help' } },
  ],
};
$('payload-example').addEventListener('click', () => { $('payload').value = JSON.stringify(EXAMPLE, null, 2); });
$('payload-form').addEventListener('submit', (e) => {
  e.preventDefault();
  let body;
  try { body = JSON.parse($('payload').value); } catch (err) {
    showError({ status: 'JSON', code: 'invalid_json', message: `The payload is not valid JSON: ${err.message}` });
    return;
  }
  run('/v1/snapshot', body, $('payload-key').value.trim(), $('payload-run'));
});

// ---------- running a request ----------

let running = false;
/** One request at a time: the button is off and the busy line shows (when `busyText` is given) until
 *  `work` ends; a request that never reaches the server is shown as a network error. */
async function exclusive(button, busyText, work) {
  if (running) return;
  running = true;
  button.disabled = true;
  if (busyText) {
    resetResults();
    $('busy').hidden = false;
    $('busy-text').textContent = busyText;
  }
  try {
    await work();
  } catch (err) {
    showError({ status: 'network', code: 'network_error', message: `No answer from ${origin}: ${err.message}` });
  } finally {
    $('busy').hidden = true;
    button.disabled = false;
    running = false;
  }
}

/** fetch, with the body read as text and as JSON when it is JSON. */
async function call(path, init) {
  const res = await fetch(path, init);
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { res, text, json, ok: res.ok && json?.status === 'success' };
}

function run(path, body, key, button) {
  const busyText = path === '/v1/snapshot' ? 'Ranking…' : body.mode === 'read' ? `Reading ${body.url}…` : `Loading ${body.url} in Chromium…`;
  return exclusive(button, busyText, async () => {
    showCode(path, body, null);
    const started = performance.now();
    const headers = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const { res, text, json, ok } = await call(path, { method: 'POST', headers, body: JSON.stringify(body) });
    const ms = Math.round(performance.now() - started);
    showCode(path, body, json ?? text);
    if (!ok) return showApiError(res, json, text);
    setCredits(json.credits_remaining);
    if (path === '/v1/snapshot') showElements(json, { kind: 'snapshot', ms, goal: body.goal });
    else if (body.mode === 'read') showRead(json, ms);
    else showElements(json, { kind: body.mode, ms, goal: body.options?.goal });
  });
}

/** An API error in place: every error body carries `error_code` and `message` beside SPEC's `error`. */
function showApiError(res, json, text) {
  const code = json?.error_code ?? json?.error ?? 'http_error';
  const message = json?.message ?? text.slice(0, 300);
  const retry = res.headers.get('retry-after');
  showError({ status: res.status, code, message: retry ? `${message} (Retry-After: ${retry} s)` : message });
  setCredits(json?.credits_remaining);
}

function resetResults() {
  for (const id of ['empty', 'error', 'summary', 'map-view', 'read-view', 'usage-view']) $(id).hidden = true;
}

function showError({ status, code, message }) {
  resetResults();
  $('error-status').textContent = String(status);
  $('error-code').textContent = code;
  $('error-message').textContent = message;
  $('error').hidden = false;
}

// ---------- reproduce: curl, the client library, the response ----------

function showCode(path, body, response, query) {
  if (query) {
    // GET /v1/usage: the query string is the whole request.
    $('code-curl').textContent = [`curl -sS ${shellQuote(origin + path)} \\`, `  -H "Authorization: Bearer $SIGHTLINE_KEY"`].join('\n');
    $('code-client').textContent = [
      `import { SightlineApi } from 'sightline/client';`,
      ``,
      `const api = new SightlineApi({ baseUrl: ${JSON.stringify(origin)}, apiKey: process.env.SIGHTLINE_KEY });`,
      `const usage = await api.usage(${Object.keys(query).length ? JSON.stringify(query) : ''});`,
    ].join('\n');
    showResponse(response);
    return;
  }
  const json = JSON.stringify(body, null, 2);
  $('code-curl').textContent = [
    `curl -sS ${origin}${path} \\`,
    `  -H "Authorization: Bearer $SIGHTLINE_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');
  const call = path === '/v1/snapshot' ? 'snapshot' : 'observe';
  $('code-client').textContent = [
    `import { SightlineApi } from 'sightline/client';`,
    ``,
    `const api = new SightlineApi({ baseUrl: ${JSON.stringify(origin)}, apiKey: process.env.SIGHTLINE_KEY });`,
    `const result = await api.${call}(${json.replaceAll('\n', '\n')});`,
  ].join('\n');
  showResponse(response);
}

function showResponse(response) {
  let shown = response === null ? '(waiting for the answer)' : typeof response === 'string' ? response : JSON.stringify(response, null, 2);
  if (shown.length > 300_000) shown = `${shown.slice(0, 300_000)}\n… (${fmt(shown.length)} characters; the rest is cut here)`;
  $('code-json').textContent = shown;
  $('code').hidden = false;
  if (response === null) selectCodeTab($('code-tab-curl'));
}

// ---------- usage ----------

let usageCursor = null;
$('usage-form').addEventListener('submit', (e) => { e.preventDefault(); loadUsage(false); });
$('usage-more').addEventListener('click', () => loadUsage(true));

function loadUsage(older) {
  const button = older ? $('usage-more') : $('usage-run');
  return exclusive(button, older ? null : 'Reading usage…', async () => {
    const query = {};
    const entries = $('usage-entries').value.trim();
    if (entries) query.limit = /^\d+$/.test(entries) ? Number(entries) : entries;
    if (older && usageCursor) query.cursor = usageCursor;
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    const path = `/v1/usage${search ? `?${search}` : ''}`;
    showCode(path, null, null, query);
    const key = $('usage-key').value.trim();
    const { res, text, json, ok } = await call(path, { headers: key ? { authorization: `Bearer ${key}` } : {}, cache: 'no-store' });
    showCode(path, null, json ?? text, query);
    if (!ok) return showApiError(res, json, text);
    setCredits(json.balance.available);
    showUsage(json, older);
  });
}

function showUsage(page, older) {
  summary([
    ['Key', `${page.key}…`],
    ['Credits left', fmt(page.balance.available)],
    ['Held now', fmt(page.balance.held)],
  ]);
  const rows = page.entries.map((e) => h('tr', {},
    h('td', { text: new Date(e.time).toLocaleString('en-GB'), title: e.time }),
    h('td', {}, h('span', { class: `badge ${e.type}`, text: e.type })),
    h('td', { class: 'num', text: e.type === 'refund' ? `+${fmt(e.credits)}` : `−${fmt(e.credits)}` }),
    h('td', { class: 'rid', text: e.request_id ?? '–' }),
    h('td', { text: e.reason ?? '' })));
  const body = $('usage-table').tBodies[0];
  if (older) body.append(...rows);
  else body.replaceChildren(...rows);
  const shown = body.rows.length;
  $('usage-caption').textContent = shown
    ? `${fmt(shown)} most recent ${shown === 1 ? 'entry' : 'entries'}, newest first: a charge spent a request's credits; a refund gave them back (the request failed, timed out or its client left).`
    : 'No charges or refunds yet.';
  usageCursor = page.next_cursor;
  $('usage-more').hidden = !usageCursor;
  $('usage-view').hidden = false;
}

// ---------- summary ----------

function summary(items) {
  const box = $('summary');
  box.replaceChildren(...items.filter(Boolean).map(([label, value]) => h('div', { class: 'stat' }, h('span', { text: label }), h('strong', { text: value }))));
  box.hidden = false;
}

// ---------- map, visual, snapshot ----------

function showElements(result, { kind, ms, goal }) {
  const elements = kind === 'snapshot' ? result.elements : result.interactable_elements;
  const viewport = result.viewport ?? { width: 1280, height: 800 };
  const withGoal = Boolean(goal && goal.trim());
  const rerank = result.ml_rerank;
  summary([
    ['Mode', kind === 'snapshot' ? 'snapshot' : `${kind} · ${result.engine}`],
    ['Elements', `${fmt(elements.length)}${result.elements_total !== undefined ? ` of ${fmt(result.elements_total)}` : ''}`],
    ['Credits used', fmt(result.credits_used)],
    ['Credits left', fmt(result.credits_remaining)],
    ['Time', `${fmt(ms)} ms`],
    withGoal ? ['Goal rerank', rerank?.applied ? `applied (top ${Math.round((rerank.top_probability ?? 0) * 100)}%)` : `not applied${rerank?.reason ? `: ${rerank.reason}` : ''}`] : null,
  ]);

  const rows = elements.map((e) => ({
    id: e.id, role: e.role, text: e.text, importance: e.importance, probability: e.ml_probability,
    box: e.bbox, inView: e.in_viewport, occluded: e.is_occluded,
  }));
  const screenshot = result.screenshot;
  const src = screenshot ? (screenshot.type === 'base64' ? `data:image/png;base64,${screenshot.data}` : screenshot.url) : null;
  lastStage = [rows, viewport, src, result.modal_grids ?? []];
  drawStage(...lastStage);
  $('stage-caption').textContent = src
    ? `Screenshot of the viewport (${viewport.width}×${viewport.height}) with each returned element boxed; below the dashed line, what lies under the fold.`
    : `${kind === 'snapshot' ? 'The payload' : 'Map mode returns no screenshot'}: each element boxed on a blank ${viewport.width}×${viewport.height} viewport.`;
  fillTable(rows, withGoal);
  $('elements-caption').textContent = withGoal
    ? `Ranked for the goal “${goal.trim()}”: P(goal) is how likely each element is the one the goal needs.`
    : 'Ranked by importance (0–1000). Hover a row or a box to find its pair.';
  showFacts(result, kind);
  $('map-view').hidden = false;
}

/** The last drawing's arguments: "Full size" draws it again at the page's own pixels, or fitted. */
let lastStage = null;
$('stage-size').addEventListener('click', () => {
  const full = !$('stage-wrap').classList.contains('full');
  $('stage-wrap').classList.toggle('full', full);
  $('stage-size').setAttribute('aria-pressed', String(full));
  $('stage-size').textContent = full ? 'Fit to width' : 'Full size';
  if (lastStage) drawStage(...lastStage);
});

function drawStage(rows, viewport, src, grids) {
  const stage = $('stage');
  const full = $('stage-wrap').classList.contains('full');
  const top = Math.min(0, ...rows.map((r) => r.box.y));
  const bottom = Math.max(viewport.height, ...rows.map((r) => r.box.y + r.box.height));
  const width = viewport.width;
  const height = bottom - top;
  // The page's coordinates at the scale of the stage: a canvas with the page's aspect ratio, the
  // screenshot (the viewport) at its top, the boxes over both.
  const canvas = h('div', { class: 'canvas' });
  canvas.style.aspectRatio = `${width} / ${height}`;
  // Full size: one page pixel per CSS pixel (the stage scrolls); otherwise fitted to the stage's width.
  canvas.style.setProperty('--page-width', `${width}px`);
  stage.replaceChildren(canvas);
  // Labels keep about 11 screen pixels whatever the scale the page is drawn at.
  const unit = full ? 1 : width / Math.max(200, stage.clientWidth || 600);
  const font = 11 * unit;
  const svg = s('svg', { viewBox: `0 ${top} ${width} ${height}`, preserveAspectRatio: 'xMinYMin meet', role: 'img', 'aria-label': `${rows.length} element boxes` });
  if (src) {
    const img = h('img', { src, alt: 'Screenshot of the page', width: String(width), height: String(viewport.height) });
    img.style.top = `${(-top / height) * 100}%`;
    img.style.height = `${(viewport.height / height) * 100}%`;
    canvas.append(img);
  }
  if (bottom > viewport.height) {
    svg.append(s('rect', { class: 'fold', x: 0, y: viewport.height, width, height: bottom - viewport.height }));
    svg.append(s('line', { class: 'fold-line', x1: 0, x2: width, y1: viewport.height, y2: viewport.height }));
    const label = s('text', { class: 'fold-label', x: width - 6 * unit, y: viewport.height + font * 1.4, 'text-anchor': 'end', 'font-size': font });
    label.textContent = 'below the fold';
    svg.append(label);
  }
  for (const g of grids) svg.append(s('rect', { class: 'modal-grid', x: g.bounds.x, y: g.bounds.y, width: g.bounds.width, height: g.bounds.height }));
  // Least important first, so the most important boxes are drawn on top.
  for (const r of [...rows].reverse()) {
    const b = r.box;
    const group = s('g', { class: `box${r.occluded ? ' occluded' : ''}`, 'data-id': r.id });
    group.append(s('rect', { class: 'frame', x: b.x, y: b.y, width: Math.max(b.width, 2), height: Math.max(b.height, 2), rx: 2 }));
    const label = String(r.id);
    const tagHeight = font * 1.4;
    const tagY = Math.max(top, b.y - tagHeight);
    group.append(s('rect', { class: 'tag', x: b.x, y: tagY, width: font * (0.6 + label.length * 0.62), height: tagHeight, rx: 2 * unit }));
    const text = s('text', { x: b.x + font * 0.3, y: tagY + font * 1.05, 'font-size': font });
    text.textContent = label;
    group.append(text);
    const title = s('title');
    title.textContent = `${r.id} · ${r.role} · ${r.text}`;
    group.append(title);
    group.addEventListener('mouseenter', () => highlight(r.id, true));
    group.addEventListener('mouseleave', () => highlight(r.id, false));
    svg.append(group);
  }
  canvas.append(svg);
}

function fillTable(rows, withGoal) {
  const table = $('elements');
  table.classList.toggle('no-goal', !withGoal);
  const max = Math.max(1, ...rows.map((r) => r.importance));
  table.tBodies[0].replaceChildren(...rows.map((r) => {
    const flags = h('td', { class: 'flags' },
      h('span', { class: `badge ${r.inView ? 'view' : 'below'}`, text: r.inView ? 'in view' : 'off screen' }),
      r.occluded ? h('span', { class: 'badge occl', text: 'occluded' }) : null);
    const bar = h('i');
    bar.style.width = `${Math.round((r.importance / max) * 36)}px`;
    const row = h('tr', { 'data-id': r.id, tabindex: '0' },
      h('td', { class: 'id', text: String(r.id) }),
      h('td', {}, h('span', { class: 'role', text: r.role })),
      h('td', { class: 'text', text: r.text || '—' }),
      h('td', {}, h('span', { class: 'imp' }, bar, h('span', { text: String(r.importance) }))),
      h('td', { class: 'prob prob-col', text: typeof r.probability === 'number' ? `${(r.probability * 100).toFixed(1)}%` : '–' }),
      flags);
    row.addEventListener('mouseenter', () => highlight(r.id, true));
    row.addEventListener('mouseleave', () => highlight(r.id, false));
    row.addEventListener('focus', () => highlight(r.id, true));
    row.addEventListener('blur', () => highlight(r.id, false));
    return row;
  }));
}

function highlight(id, on) {
  const box = $('stage').querySelector(`g.box[data-id="${CSS.escape(String(id))}"]`);
  const row = $('elements').querySelector(`tr[data-id="${CSS.escape(String(id))}"]`);
  box?.classList.toggle('hot', on);
  row?.classList.toggle('hot', on);
  // Bring the highlighted box to the front.
  if (on && box) box.parentNode.append(box);
  if (on && row && !row.matches(':hover')) row.scrollIntoView({ block: 'nearest' });
}

function showFacts(result, kind) {
  const facts = [];
  if (result.timings_ms) {
    const t = result.timings_ms;
    const phases = ['navigation', 'settle', 'collection', 'ranking', 'screenshot'].filter((p) => t[p] > 0 || p !== 'screenshot');
    const total = Math.max(1, t.total ?? phases.reduce((a, p) => a + t[p], 0));
    facts.push(h('section', { class: 'fact' }, h('h3', { text: `Timings · ${fmt(Math.round(t.total))} ms` }),
      ...phases.map((p) => {
        const bar = h('i');
        bar.style.width = `${Math.round((t[p] / total) * 100)}%`;
        return h('div', { class: 'timing' }, h('span', { text: p }), h('span', {}, bar), h('span', { text: `${fmt(Math.round(t[p]))} ms` }));
      })));
  }
  const grids = result.modal_grids ?? [];
  const overlays = result.overlays ?? [];
  facts.push(h('section', { class: 'fact' }, h('h3', { text: `Modals · ${result.modal_detected ? 'detected' : 'none'}` }),
    grids.length || overlays.length
      ? h('ul', {}, ...grids.map((g) => h('li', { text: `grid at ${Math.round(g.bounds.x)},${Math.round(g.bounds.y)} ${Math.round(g.bounds.width)}×${Math.round(g.bounds.height)}, covers ${Math.round(g.viewport_coverage * 100)}%${g.blocks_interaction ? ', blocks the page' : ''}` })),
        ...overlays.map((o) => h('li', { text: `${o.kind} overlay, covers ${Math.round(o.coverage * 100)}%${o.dismissed ? ', dismissed' : ''}` })))
      : h('p', { text: 'Nothing covers the page.' })));
  const warnings = result.warnings ?? [];
  if (warnings.length) facts.push(h('section', { class: 'fact' }, h('h3', { text: 'Warnings' }), h('ul', {}, ...warnings.map((w) => h('li', { text: w })))));
  if (kind === 'snapshot' && result.diagnostics) {
    const d = result.diagnostics;
    facts.push(h('section', { class: 'fact' }, h('h3', { text: `Diagnostics · confidence ${Math.round(d.confidence * 100)}%` }),
      d.reasons?.length ? h('ul', {}, ...d.reasons.map((r) => h('li', { text: r }))) : h('p', { text: 'No concerns.' })));
  }
  $('facts').replaceChildren(...facts);
}

// ---------- read ----------

function showRead(result, ms) {
  summary([
    ['Mode', `read${result.rendered ? ' · rendered in Chromium' : ' · fetched'}`],
    ['Characters', fmt(result.content.length)],
    ['Credits used', fmt(result.credits_used)],
    ['Credits left', fmt(result.credits_remaining)],
    ['Time', `${fmt(ms)} ms`],
    result.truncated ? ['Truncated', 'yes'] : null,
  ]);
  $('read-title').textContent = result.title || '(no title)';
  $('read-description').textContent = result.description || '';
  $('read-url').textContent = result.redirects?.length ? `${result.url} (after ${result.redirects.length} redirect${result.redirects.length > 1 ? 's' : ''})` : result.url;
  const warnings = $('read-warnings');
  warnings.replaceChildren(...(result.warnings ?? []).map((w) => h('li', { text: w })));
  warnings.hidden = !result.warnings?.length;
  $('read-raw').textContent = result.content;
  if (result.format === 'markdown') $('read-rendered').innerHTML = safeMarkdown.parse(result.content);
  else $('read-rendered').replaceChildren(h('pre', { class: 'raw', text: result.content }));
  $('read-view').hidden = false;
}
