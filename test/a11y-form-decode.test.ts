// The dev5 pages' decoding (train/a11y/collect-forms.ts decodeHtml): Formasaurus saved pages as UTF-8 of their
// bytes read as Latin-1, so their windows-1252 quotes arrive as C1 controls; decodeHtml reads them back with the
// egress room's page decoding, never leaving a C1 control in a page's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHtml } from '../train/a11y/collect-forms.ts';

/** A page as Formasaurus saved it: the original bytes read as Latin-1, written as UTF-8. */
const saved = (original: Buffer) => Buffer.from(original.toString('latin1'), 'utf8');

test('a windows-1252 page saved through Latin-1 gets its curly quotes and its accents back', () => {
  const original = Buffer.concat([Buffer.from('<meta charset="iso-8859-1"><a>Derfor sagde l\xe6rerne op: ', 'latin1'), Buffer.from([0x93]), Buffer.from('Folk', 'latin1'), Buffer.from([0x94]), Buffer.from(' \x80 5</a>', 'latin1')]);
  const { html } = decodeHtml(saved(original));
  assert.match(html, /lærerne op: “Folk” € 5/);
  assert.doesNotMatch(html, /[\u0080-\u009f]/);
});

test('a UTF-8 page saved through Latin-1 (UTF-8 twice) is read once', () => {
  const { html } = decodeHtml(saved(Buffer.from('<meta charset="utf-8"><a>Assassin’s Creed – récupérer</a>', 'utf8')));
  assert.match(html, /Assassin’s Creed – récupérer/);
});

test('a UTF-8 page that also holds C1 controls keeps its characters and reads the C1 bytes as windows-1252', () => {
  const { html } = decodeHtml(Buffer.from('<a>şehir: \u0091BEYŞEHİR\u0092</a>', 'utf8'));
  assert.equal(html, '<a>şehir: ‘BEYŞEHİR’</a>');
});

test('clean UTF-8 stays as it is, and bytes that are not UTF-8 are read by their meta', () => {
  assert.deepEqual(decodeHtml(Buffer.from('<a>Ünïcödé ©</a>', 'utf8')), { html: '<a>Ünïcödé ©</a>', charset: 'utf-8' });
  const { html } = decodeHtml(Buffer.concat([Buffer.from('<meta charset="windows-1252"><a>', 'latin1'), Buffer.from([0x92, 0xe9]), Buffer.from('</a>', 'latin1')]));
  assert.match(html, /<a>’é<\/a>/);
});
