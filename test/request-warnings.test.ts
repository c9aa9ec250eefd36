// Never a silent drop: a field the server does not read where it was sent (unknown, misplaced, or for
// another observe mode) is named in the answer's `warnings` with where it belongs, through the real
// server; the answer is otherwise what SPEC says. The warnings come from the typebox schemas, so a field
// added to a schema is covered without a list: the last test walks the schemas to show it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, createKey, removeDataDir, snapshot, observe, type ServerProcess } from './helpers/server.ts';
import { serveFixtures, type FixtureServer } from './helpers/fixtures.ts';
import { fieldWarnings, MODES_KEY } from '../src/schema/fields.ts';
import { SightlineApi } from '../src/client/api.ts';
import { ObserveOptions, ObserveRequest } from '../src/schema/observe.ts';
import { SnapshotOptions, SnapshotRequest } from '../src/schema/snapshot.ts';

let server: ServerProcess;
let fx: FixtureServer;
let key: string;

before(async () => {
  [server, fx] = await Promise.all([startServer(['--egress-allow', '127.0.0.1/32']), serveFixtures()]);
  key = await createKey(server.dataDir, 1000);
});
after(async () => {
  await Promise.all([server.stop(), fx.close()]);
  removeDataDir(server.dataDir);
});

const raw = [
  { id: 1, tag: 'input', text: '', rect: { x: 200, y: 20, width: 400, height: 36 }, attributes: { type_: 'search', aria_label: 'Search' } },
  { id: 2, tag: 'a', text: 'Deals', rect: { x: 20, y: 20, width: 60, height: 20 }, attributes: { href: 'https://shop.example/deals' }, collector_extra: 7 },
];

test('snapshot: a well-placed request has no warnings; extra raw element fields are accepted silently (SPEC)', async () => {
  const r = await snapshot(server.url, key, { url: 'https://shop.example/', goal: 'search', raw_elements: raw, options: { limit: 5 } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal('warnings' in r.body, false);
  assert.equal(r.body.ml_rerank.applied, true);
});

test('snapshot: options.goal is named with where it belongs; an unknown field gets the nearest name', async () => {
  const r = await snapshot(server.url, key, { url: 'https://shop.example/', raw_elements: raw, optoins: { limit: 1 }, options: { goal: 'search', limit: 5 } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(r.body.warnings, [
    'ignored_field: `optoins` is not a known field (did you mean `options`?)',
    'ignored_field: `options.goal` belongs at `goal` (top level)',
  ]);
  assert.equal(r.body.ml_rerank.applied, false, 'the goal was not guessed from the wrong place');
  assert.equal(r.body.credits_used, 1);
  // The same through the client library, which sends the columnar body.
  const viaClient = await new SightlineApi({ baseUrl: server.url, apiKey: key }).snapshot({ url: 'https://shop.example/', raw_elements: raw, options: { goal: 'search' } } as never);
  assert.deepEqual(viaClient.warnings, ['ignored_field: `options.goal` belongs at `goal` (top level)']);
});

test('observe map: a top-level goal, limit and format are named with where they belong', async () => {
  const r = await observe(server, key, { url: `${fx.url}/search.html`, mode: 'map', goal: 'open the second result', limit: 3, format: 'text', options: { contentLimit: 100 } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(r.body.warnings.slice(0, 4), [
    'ignored_field: `goal` belongs at `options.goal`',
    'ignored_field: `limit` belongs at `options.limit`',
    'ignored_field: `format` does not apply to mode map (only read); for map it belongs at `options.format`',
    'ignored_field: `options.contentLimit` does not apply to mode map (only read)',
  ]);
  assert.equal(r.body.text, undefined);
  assert.equal(r.body.ml_rerank, undefined);
});

test('observe read: map options and unknown fields are named; the read itself is as before', async () => {
  const r = await observe(server, key, { url: `${fx.url}/article.html`, options: { limit: 3, format: 'text', maxChars: 10 } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.ok(r.body.content.length > 100);
  assert.deepEqual(r.body.warnings.slice(0, 3), [
    'ignored_field: `options.limit` does not apply to mode read (only map and visual)',
    'ignored_field: `options.format` does not apply to mode read (only map and visual); for read it belongs at `format` (top level)',
    'ignored_field: `options.maxChars` is not a known field',
  ]);
});

test('every field of the schemas, sent one level off, is named with its place: derived, not listed', () => {
  const top = { url: 'https://example.test/', raw_elements: [] };
  for (const name of Object.keys(SnapshotOptions.properties)) {
    const warnings = fieldWarnings(SnapshotRequest, { ...top, [name]: 1 });
    assert.deepEqual(warnings, [`ignored_field: \`${name}\` belongs at \`options.${name}\``], name);
  }
  for (const [name, field] of Object.entries(ObserveOptions.properties)) {
    // A field without x-modes applies to every mode (forModes marks the ones that do not).
    const modes = (field as unknown as Record<string, unknown>)[MODES_KEY] as string[] | undefined;
    if (name in ObserveRequest.properties) continue; // format: its own field at the top (read mode)
    const mode = modes?.[0] ?? 'read';
    const warnings = fieldWarnings(ObserveRequest, { url: 'https://example.test/', mode, [name]: 1 }, mode);
    assert.deepEqual(warnings, [`ignored_field: \`${name}\` belongs at \`options.${name}\``], name);
  }
});

test('MCP: a tool argument the tool does not read is named after its answer', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { CLI } = await import('./helpers/server.ts');
  const client = new Client({ name: 'warnings-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], stderr: 'pipe' }));
  try {
    const r = await client.callTool({ name: 'close', arguments: { forse: true } }) as { content: { type: string; text: string }[]; isError?: boolean };
    assert.ok(!r.isError, JSON.stringify(r));
    assert.equal(r.content.at(-1)!.text, 'ignored_field: `forse` is not a known field');
    const clean = await client.callTool({ name: 'close', arguments: {} }) as { content: { text: string }[] };
    assert.ok(!clean.content.some((c) => c.text.startsWith('ignored_field')));
  } finally {
    await client.close();
  }
});
