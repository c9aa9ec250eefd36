// The goal-embedding table in the rank core: the shipped file is the one recorded (checksum, size
// budgets), its tokeniser spells texts as the teacher's own tokenizer does, and its cosines reach the
// rerank through the real core (Wasm), meaning what they should and nothing without a table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { Buf, Feature } from '../assembly/layout.ts';
import { EMBED_PATH } from '../src/rank/embed-node.ts';
import { embedTable, parseEmbedTable, useEmbedTable } from '../src/rank/embed-table.ts';
import { encode } from '../src/rank/encode.ts';
import type { Unigram } from '../src/rank/unigram.ts';
import { loadWasmCore } from '../src/rank/load-node.ts';
import { Ranker } from '../src/rank/ranker.ts';
import { el, request, js } from './helpers/elements.ts';
import { memory, MAX_TEXTS, MAX_BYTES } from '../src/rank/text-memory.ts';

const record = JSON.parse(readFileSync(new URL('../src/rank/goal-embed.json', import.meta.url), 'utf8'));
const core = await loadWasmCore();

test('the shipped goal-embedding table is the recorded one, within the package and extension budgets', () => {
  const bytes = readFileSync(EMBED_PATH);
  assert.equal(createHash('sha256').update(bytes).digest('hex'), record.sha256, 'src/rank/goal-embed.bin differs from goal-embed.json: rebuild both with npm run train:table');
  assert.equal(bytes.byteLength, record.bytes);
  assert.ok(statSync(EMBED_PATH).size <= 8_000_000, 'the extension carries it: at most 8 MB (the npm package allows 16)');
  const table = parseEmbedTable(bytes);
  assert.equal(table.size, record.vocab);
  assert.equal(table.dim, record.dim);
  assert.match(record.teacher.licence, /Apache-2\.0/);
  assert.throws(() => parseEmbedTable(bytes.subarray(0, bytes.byteLength - 1)), /truncated/);
  assert.throws(() => parseEmbedTable(new Uint8Array(64)), /not an SLGE v1 or v2 table/);
});

test('the tokeniser gives the teacher tokenizer\'s ids (scripts, accents, CJK, punctuation, controls, long words)', () => {
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/wordpiece-ids.json', import.meta.url), 'utf8')) as { cases: { text: string; ids: number[] }[] };
  const { tokenizer } = embedTable()!;
  assert.ok(fixture.cases.length >= 40);
  for (const c of fixture.cases) {
    const ids: number[] = [];
    tokenizer.tokenize(c.text, 1000, ids);
    assert.deepEqual(ids, c.ids, JSON.stringify(c.text));
    const first: number[] = [];
    assert.equal(tokenizer.tokenize(c.text, 3, first), Math.min(3, c.ids.length));
    assert.deepEqual(first, c.ids.slice(0, 3), 'the first tokens only');
  }
});

/** An SLGE v2 table as table.py --teacher e5 writes it, from a toy unigram vocabulary: rows for the pieces `rowed`. */
function v2Table(pieces: [string, number][], rowed: string[], norm: [number, number[]][], dim = 2): Uint8Array {
  const text = new TextEncoder().encode(pieces.map(([p]) => p).join('\n'));
  const head = 32, pad = (4 - ((head + text.length) % 4)) % 4;
  const normWords = norm.flatMap(([cp, to]) => [cp, to.length, ...to]);
  const size = rowed.length;
  const bytes = new Uint8Array(head + text.length + pad + 4 * normWords.length + 4 * pieces.length + 8 * size + size * dim);
  const view = new DataView(bytes.buffer);
  [0x45474c53, 2, size, dim, pieces.length, text.length, normWords.length, 3].forEach((v, i) => view.setUint32(4 * i, v, true));
  bytes.set(text, head);
  let at = head + text.length + pad;
  for (const w of normWords) { view.setUint32(at, w, true); at += 4; }
  for (const [, score] of pieces) { view.setFloat32(at, score, true); at += 4; }
  for (const p of rowed) { view.setUint32(at, pieces.findIndex(([q]) => q === p), true); at += 4; }
  for (let r = 0; r < size; r++) { view.setFloat32(at, 1, true); at += 4; }
  for (let r = 0; r < size; r++) for (let d = 0; d < dim; d++) view.setInt8(at++, r + 1);
  return bytes;
}

test('a v2 table (multilingual, SentencePiece unigram) spells texts by the best split, and rowless pieces by their rowed parts', () => {
  const pieces: [string, number][] = [['<s>', 0], ['<pad>', 0], ['</s>', 0], ['<unk>', 0], ['▁', -2], ['a', -3], ['b', -1], ['▁a', -1], ['▁ab', -1.5], ['ab', -2], ['c', -3], ['▁c', -1]];
  const rowed = ['▁a', 'b', '▁c', '▁', 'a', 'c'];
  const bytes = v2Table(pieces, rowed, [[0xff21, [0x61]], [0x2581, [0x20]]]);
  const table = parseEmbedTable(bytes);
  assert.equal(table.size, rowed.length);
  assert.equal(table.dim, 2);
  const tok = table.tokenizer as Unigram;
  const id = (p: string) => pieces.findIndex(([q]) => q === p);
  // "▁ab" (-1.5) beats "▁a"+"b" (-2); spaces collapse; a mapped code point (Ａ -> a); z is no piece: <unk>
  assert.deepEqual(tok.pieceIds('ab  c Ａ z'), ['▁ab', '▁c', '▁a', '▁', '<unk>'].map(id));
  assert.deepEqual(tok.pieceIds(' ab'), ['▁ab'].map(id), 'a leading space is the word mark');
  assert.deepEqual(tok.pieceIds(''), ['▁'].map(id));
  const rows: number[] = [];
  assert.equal(tok.tokenize('ab  c Ａ z', 10, rows), 5);
  // ▁ab has no row: spelled by ▁a + b; <unk> has none and adds nothing
  assert.deepEqual(rows, ['▁a', 'b', '▁c', '▁a', '▁'].map((p) => rowed.indexOf(p)));
  const first: number[] = [];
  assert.equal(tok.tokenize('ab  c', 1, first), 1);
  assert.deepEqual(first, [rowed.indexOf('▁a')], 'the first rows only');
  assert.deepEqual(Array.from(table.rows.subarray(0, 4)), [1, 1, 2, 2]);
  assert.throws(() => parseEmbedTable(bytes.subarray(0, bytes.byteLength - 1)), /truncated/);
});

/** EMB_* features of each element for `goal`, from the Wasm core. */
function features(raw: ReturnType<typeof el>[], goal: string) {
  const enc = encode(request(raw, { goal }), core, { emitFeatures: true });
  core.run();
  const f = core.f64(Buf.FEATURES), K = Feature.COUNT;
  return enc.elements.map((e, i) => ({ text: e.text, own: f[i * K + Feature.EMB_OWN], link: f[i * K + Feature.EMB_LINK], section: f[i * K + Feature.EMB_SECTION] }));
}

test('goal-element, goal-link and goal-section cosines come from the core and follow meaning, not shared words', () => {
  const page = [
    el({ tag: 'a', text: 'Buy tickets', attributes: { href: '/box-office', section: 'Concerts' }, rect: [0, 0, 120, 30] }),
    el({ tag: 'a', text: 'Privacy policy', attributes: { href: '/legal/privacy', section: 'Footer' }, rect: [0, 40, 120, 30] }),
    el({ tag: 'a', text: 'Weather forecast', attributes: { href: '/weather', section: 'Footer' }, rect: [0, 80, 120, 30] }),
    el({ tag: 'h2', text: 'Concerts', rect: [0, 120, 300, 30] }),
  ];
  const f = features(page, 'purchase admission to the show');
  const [tickets, privacy, weather] = f;
  assert.ok(tickets.own > privacy.own && tickets.own > weather.own, JSON.stringify(f));
  for (const x of f) for (const v of [x.own, x.link, x.section]) assert.ok(v >= -1 && v <= 1);
  assert.ok(tickets.link !== 0 && tickets.section !== 0, 'the link path and the sent section are compared too');
  assert.ok(tickets.section > privacy.section, 'a concert section is nearer the show than a footer');
  // One text, one value (elements share a span); the same text in another element gets the same cosine.
  const twice = features([...page, el({ tag: 'button', text: 'Buy tickets', rect: [200, 0, 100, 30] })], 'purchase admission to the show');
  assert.equal(twice[4].own, twice[0].own);
});

test('without a table the embedding features are 0 and the goal still ranks', () => {
  const table = embedTable();
  try {
    useEmbedTable(null);
    const page = [el({ tag: 'button', text: 'Sign in', rect: [0, 0, 80, 30] }), el({ tag: 'a', text: 'News', attributes: { href: '/news' }, rect: [0, 40, 80, 30] })];
    assert.ok(features(page, 'sign in').every((x) => x.own === 0 && x.link === 0 && x.section === 0));
    const r = new Ranker(core).rank(request(page, { goal: 'sign in' }));
    assert.equal(r.elements[0].text, 'Sign in');
  } finally {
    useEmbedTable(table);
  }
});

test('what the core and the door keep across requests (the table, token ids, cosines per goal) changes no result', async () => {
  // Two pages sharing texts, two goals, two cores: each result must equal a cold one (a new core, a new
  // copy of the table: nothing kept) computed right after an unrelated goal (the door's per-goal memory
  // starts over).
  const pageA = [
    el({ tag: 'a', text: 'Buy tickets', attributes: { href: '/box-office', section: 'Concerts' }, rect: [0, 0, 120, 30] }),
    el({ tag: 'a', text: 'Weather forecast', attributes: { href: '/weather', section: 'Footer' }, rect: [0, 40, 120, 30] }),
    el({ tag: 'button', text: 'Sign in', rect: [0, 80, 120, 30] }),
  ];
  const pageB = [
    el({ tag: 'a', text: 'Buy tickets', attributes: { href: '/box-office?day=2', section: 'Theatre' }, rect: [0, 0, 120, 30] }),
    el({ tag: 'a', text: 'Privacy policy', attributes: { href: '/legal/privacy', section: 'Footer' }, rect: [0, 40, 120, 30] }),
    el({ tag: 'a', text: 'Weather forecast', attributes: { href: '/weather', section: 'Footer' }, rect: [0, 80, 120, 30] }),
  ];
  const other = await loadWasmCore();
  const steps: [typeof pageA, string, typeof core][] = [
    [pageA, 'purchase admission to the show', core], [pageA, 'purchase admission to the show', core], [pageB, 'purchase admission to the show', core],
    [pageA, 'what will the weather be', core], [pageA, 'purchase admission to the show', other], [pageB, 'purchase admission to the show', core],
  ];
  const warm = steps.map(([page, goal, c]) => stableFeatures(c, page, goal));
  eachColdEquals(steps, warm);
  assert.ok(warm[0].some((f) => f !== 0), 'the embedding features were computed');
});

/** Each step ranked cold (the table loaded afresh, another goal ranked before) gives what it gave warm. */
function eachColdEquals(steps: [ReturnType<typeof el>[], string, ...unknown[]][], warm: number[][]): void {
  const shipped = embedTable()!;
  try {
    steps.forEach(([page, goal], k) => {
      useEmbedTable(parseEmbedTable(readFileSync(EMBED_PATH)));
      features([el({ tag: 'button', text: 'x' })], 'an unrelated goal');
      assert.deepEqual(stableFeatures(core, page, goal), warm[k], `step ${k}`);
    });
  } finally {
    useEmbedTable(shipped);
  }
}

/** Every rerank feature of every element for `goal` on `core`. */
function stableFeatures(c: typeof core, raw: ReturnType<typeof el>[], goal: string): number[] {
  encode(request(raw, { goal }), c, { emitFeatures: true });
  c.run();
  return [...c.f64(Buf.FEATURES)];
}

test('a new goal every call over pages of more texts than the core keeps sums for and the door keeps: each result is a cold one, on both builds', () => {
  // What is kept whatever the goal (each text's hashes and token ids in the door, each numbered text's
  // token sum in the core's ring of 4,096) must never change a result: pages of 5,000 elements with
  // 10,000 numbered texts each wrap the core's ring within one request, and the door's memory (16,384
  // texts) fills in the second page and starts over in the third. A small page's texts come back after
  // the ring moved on; goals change every step and come back too.
  const big = (from: number) => Array.from({ length: 5000 }, (_, k) => el({
    tag: 'a', text: `Story ${from + k} on ${['tickets', 'weather', 'elections', 'football', 'recipes'][k % 5]}`,
    attributes: { href: `/story/${from + k}`, ...(k % 7 === 0 ? { nearby_text: `by author ${k % 13}` } : {}), section: `Section ${k % 11}` }, rect: [0, 30 * k, 300, 24],
  }));
  const small = [
    el({ tag: 'a', text: 'Buy tickets', attributes: { href: '/box-office', section: 'Concerts' }, rect: [0, 0, 120, 30] }),
    el({ tag: 'a', text: 'Share on LinkedIn', attributes: { href: 'https://www.linkedin.com/shareArticle?url=x' }, rect: [0, 40, 120, 30] }),
    el({ tag: 'button', text: 'Sign in', rect: [0, 80, 120, 30] }),
  ];
  const [big1, big2, big3] = [big(0), big(5000), big(10000)];
  const steps: [ReturnType<typeof el>[], string][] = [
    [small, 'purchase admission to the show'], [big1, 'read the story about the elections'], [small, 'share this on linkedin'],
    [big2, 'purchase admission to the show'], [big1, 'what will the weather be'], [big3, 'log in to my account'],
    [small, 'read the story about the elections'], [big2, 'the third story on football'],
  ];
  const warm = steps.map(([page, goal]) => {
    const wasmFeatures = stableFeatures(core, page, goal);
    assert.deepEqual(stableFeatures(js.core, page, goal), wasmFeatures, `the JS build, ${goal}`);
    const kept = memory.kept();
    assert.ok(kept.texts <= MAX_TEXTS && kept.bytes <= MAX_BYTES + 64 * 1024, JSON.stringify(kept));
    return wasmFeatures;
  });
  eachColdEquals(steps, warm);
  assert.ok(warm[1].some((f, i) => i % Feature.COUNT === Feature.EMB_OWN && f !== 0), 'the embedding features were computed');
});
