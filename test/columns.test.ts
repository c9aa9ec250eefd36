// The columnar snapshot body (application/vnd.sightline.columns) through the real server: every shared
// real-client payload ranks exactly as its JSON twin (plain and br, with and without a goal), bad requests
// get the JSON twin's status and message, and a body that is not a valid columnar body is a 400 that
// costs nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { startServer, createKey, balance, snapshot, removeDataDir, elements, type ServerProcess, type Answer } from './helpers/server.ts';
import { sharedDir } from './helpers/shared-data.ts';
import { encodeColumns, decodeColumns, COLUMNS_TYPE } from '../src/rank/columns.ts';

let server: ServerProcess;
let apiKey: string;
before(async () => {
  server = await startServer(['--rate-limit', '1000000', '--rate-burst', '1000000', '--log-level', 'warn']);
  apiKey = await createKey(server.dataDir, 1_000_000);
});
after(async () => {
  assert.equal(await server.stop(), 0);
  removeDataDir(server.dataDir);
});

const { dir, missing } = sharedDir('real-client-payloads');
const files = missing ? [] : readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

const asColumns = (body: unknown, headers: Record<string, string> = {}) => {
  const bytes = encodeColumns(body);
  assert.ok(bytes, 'the request has a columnar form');
  return snapshot(server.url, apiKey, Buffer.from(bytes), { 'content-type': COLUMNS_TYPE, ...headers });
};
/** The answer without what differs between two calls: the time and the balance after each. */
const comparable = (a: Answer) => {
  const { timestamp: _t, credits_remaining: _c, ...rest } = a.body;
  return { status: a.status, body: rest };
};

test('every shared real-client payload ranks the same as columns as as JSON, through the server', { skip: missing }, async () => {
  assert.ok(files.length >= 9, `found ${files.length} payloads in ${dir}`);
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const body = JSON.parse(text);
    const json = await snapshot(server.url, apiKey, text);
    assert.equal(json.status, 200, `${file}: ${JSON.stringify(json.body).slice(0, 300)}`);
    assert.ok(json.body.elements.length > 0);
    assert.deepEqual(comparable(await asColumns(body)), comparable(json), `${file} as columns`);
    const bytes = Buffer.from(encodeColumns(body)!);
    assert.ok(bytes.length < Buffer.byteLength(text) / 2, `${file}: columns ${bytes.length} bytes vs JSON ${Buffer.byteLength(text)}`);
    const br = await snapshot(server.url, apiKey, brotliCompressSync(bytes), { 'content-type': COLUMNS_TYPE, 'content-encoding': 'br' });
    assert.deepEqual(comparable(br), comparable(json), `${file} as br columns`);
    // With a goal (the rerank reads every element's words) and the text form.
    const goal = { ...body, goal: 'open the second article', options: { ...body.options, format: 'text' } };
    const goalJson = await snapshot(server.url, apiKey, goal);
    assert.equal(goalJson.status, 200);
    assert.deepEqual(comparable(await asColumns(goal)), comparable(goalJson), `${file} with a goal as columns`);
  }
});

test('diffs, filters and frames: columns answer as JSON', async () => {
  const raw = elements(30);
  const previous = elements(25).map((e) => ({ ...e, text: e.id % 5 ? e.text : 'changed' }));
  const framed = [...raw.slice(0, 10), { ...raw[10], tag: 'iframe', iframe_content: [{ ...raw[11], id: 900, iframe_content: [{ ...raw[12], id: 901 }] }, { ...raw[13], id: 902 }] }, ...raw.slice(14)];
  const bodies = [
    { url: 'https://example.test/', viewport: { width: 1280, height: 800 }, raw_elements: raw, options: { limit: 20, previous } },
    { url: 'https://example.test/', raw_elements: raw, options: { filter: { allowed_roles: ['link'], allowed_tags: ['a'], min_area: 10 } } },
    { url: 'https://example.test/', raw_elements: framed, goal: 'press action 4' },
    { url: 'https://example.test/', raw_elements: [] },
  ];
  for (const body of bodies) {
    const json = await snapshot(server.url, apiKey, body);
    assert.equal(json.status, 200, JSON.stringify(json.body).slice(0, 300));
    assert.deepEqual(comparable(await asColumns(body)), comparable(json));
  }
});

test('bad requests as columns get the JSON twin\'s status and message', async () => {
  const el = (extra: object = {}) => ({ id: 1, tag: 'button', text: 'Go', rect: { x: 0, y: 0, width: 10, height: 10 }, ...extra });
  const bad: unknown[] = [
    { raw_elements: [] },
    { url: 5, raw_elements: [] },
    { url: 'u', raw_elements: [el(), el({ tag: 7 })] },
    { url: 'u', raw_elements: [el({ in_viewport: 'yes' })] },
    { url: 'u', raw_elements: [el({ attributes: { href: 42 } })] },
    { url: 'u', raw_elements: [el({ styles: { opacity: true } })] },
    { url: 'u', raw_elements: [el({ iframe_content: [{ id: 1, rect: { x: 0, y: 0, width: 1, height: 1 }, text: false }] })] },
    { url: 'u', raw_elements: [el({ rect: { x: NaN, y: 0, width: 1, height: 1 } })] }, // JSON twin: x is null; not columnar
    { url: 'u', raw_elements: [el({ scroll_y: 'x' })] },
    { url: 'u', raw_elements: [], viewport: { width: 0, height: 800 } },
    { url: 'u', raw_elements: [], options: { limit: 0 } },
    { url: 'u', raw_elements: [], options: { elements: false } },
    { url: 'u', raw_elements: [el({ styles: 'red' })] },
  ];
  let columnar = 0;
  for (const body of bad) {
    const json = await snapshot(server.url, apiKey, body);
    assert.equal(json.status, 400, JSON.stringify(body));
    const bytes = encodeColumns(body);
    if (!bytes) continue; // not carried by the format: the client sends such a request as JSON
    columnar++;
    const cols = await snapshot(server.url, apiKey, Buffer.from(bytes), { 'content-type': COLUMNS_TYPE });
    assert.deepEqual(comparable(cols), comparable(json), JSON.stringify(body));
  }
  assert.ok(columnar >= 10, `${columnar} of ${bad.length} bad requests went as columns`);
});

test('broken columnar bodies are 400 bad_request naming the problem, and cost nothing', async () => {
  const start = await balance(server.dataDir, apiKey);
  const good = Buffer.from(encodeColumns({ url: 'https://example.test/', raw_elements: elements(6) })!);
  const header = (h: object) => { const j = Buffer.from(JSON.stringify(h)); const pre = Buffer.alloc(16); pre.write('SLC1'); pre.writeUInt32LE(j.length, 4); return Buffer.concat([pre, j, Buffer.alloc((8 - ((16 + j.length) % 8)) % 8)]); };
  const cases: [Buffer, RegExp][] = [
    [Buffer.alloc(0), /shorter than its 16-byte preamble/],
    [Buffer.from('{"url":"u","raw_elements":[]}'), /does not start with "SLC1"/],
    [good.subarray(0, good.length - 4), /bytes, but its header and 6 elements make/],
    [Buffer.concat([good, Buffer.alloc(8)]), /bytes, but its header and 6 elements make/],
    [header({ request: { url: 'u', raw_elements: [] }, strings: [], numbers: 0, fields: [] }), /must not hold raw_elements/],
    [header({ request: { url: 'u' }, strings: [], numbers: 0, fields: ['nope'] }), /"nope" is not a field of this format/],
    [header({ request: { url: 'u' }, strings: [1], numbers: 0, fields: [] }), /header\.strings must be an array of strings/],
    [header({ request: [], strings: [], numbers: 0, fields: [] }), /header\.request must be an object/],
  ];
  // A string reference past the table, and a parent that is not a frame.
  const decoded = decodeColumns(good) as { raw_elements: unknown[] };
  assert.equal(decoded.raw_elements.length, 6);
  const view = new DataView(good.buffer.slice(good.byteOffset, good.byteOffset + good.length));
  const badRef = Buffer.from(view.buffer.slice(0));
  badRef.writeInt32LE(1_000_000, badRef.length - 4); // the last cell of the last column
  cases.push([badRef, /names no value/]);
  const headerBytes = good.readUInt32LE(4);
  const parentAt = ((16 + headerBytes + 7) & ~7) + 8 * (good.readUInt32LE(8) * 5 + JSON.parse(good.subarray(16, 16 + headerBytes).toString()).numbers);
  const badParent = Buffer.from(good);
  badParent.writeInt32LE(0, parentAt + 4); // element 1 inside element 0, which has no iframe_content
  cases.push([badParent, /parent of element 1 is 0/]);
  for (const [body, message] of cases) {
    const res = await snapshot(server.url, apiKey, body, { 'content-type': COLUMNS_TYPE });
    assert.equal(res.status, 400, `${message}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error_code, 'bad_request');
    assert.match(res.body.error, message);
  }
  assert.equal(await balance(server.dataDir, apiKey), start, 'no charge');
  assert.deepEqual(server.logs.filter((l) => l.msg === 'request failed'), []);
});

test('OpenAPI lists the columnar body beside JSON on /v1/snapshot', async () => {
  const doc = await (await fetch(`${server.url}/openapi.json`)).json();
  const content = doc.paths['/v1/snapshot'].post.requestBody.content;
  assert.deepEqual(Object.keys(content), ['application/json', COLUMNS_TYPE]);
  assert.equal(content[COLUMNS_TYPE].schema.format, 'binary');
  assert.match(content[COLUMNS_TYPE].schema.description, /SLC1/);
});
