// The store's cost per charged request, in one run: the pre-holds charge (one conditional UPDATE, the
// code kept in test/fixtures/store-v0/) against a hold and its post (two immediate transactions and a
// ledger row) on the SQLite store. Sequential, one connection: the per-request cost, not throughput.
// npm run bench:store
import { openSqliteStore } from '../src/store/sqlite.ts';
import { openSqliteStore as legacyOpen } from '../test/fixtures/store-v0/sqlite.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const N = 20_000;
for (let round = 0; round < 2; round++) {
  const d1 = mkdtempSync(join(tmpdir(), 'hb-')); const d2 = mkdtempSync(join(tmpdir(), 'hb-'));
  const old = legacyOpen(d1); const a = old.createKey(N * 2, true).account.id;
  let t = performance.now();
  for (let i = 0; i < N; i++) old.reserve(a, 1);
  const oldUs = (performance.now() - t) * 1000 / N;
  const st = openSqliteStore(d2); const b = (await st.createKey(N * 2, true)).account.id;
  t = performance.now();
  for (let i = 0; i < N; i++) { const h = await st.reserve(b, 1, 'r' + i, 60000); await st.post(h!.id); }
  const newUs = (performance.now() - t) * 1000 / N;
  console.log(`round ${round}: old charge ${oldUs.toFixed(1)} us/request, hold+post ${newUs.toFixed(1)} us/request, ratio ${(newUs / oldUs).toFixed(2)}`);
  old.close(); await st.close(); rmSync(d1, { recursive: true }); rmSync(d2, { recursive: true });
}
