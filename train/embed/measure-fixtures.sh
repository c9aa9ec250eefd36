#!/usr/bin/env bash
# measure-table.sh plus the behaviour goals: a candidate goal-embedding table measured on the DEV split
# (weights retrained on it, dev-recall.ts), then put in place of the shipped one (src/rank and build/,
# with its retrained weights, `node scripts/build.js`) for test/rerank.test.ts's fixture-page tests (the
# pinned goals, the section field, observe map: the tests a table can move) and the Wasm/JS parity
# tests; then the shipped table, model and build are put back.
# Run: bash train/embed/measure-fixtures.sh DIR/goal-embed.bin OUT.json   (OUT.tests.txt: the test report)
set -euo pipefail
cd "$(dirname "$0")/../.."
table="$1"; out="$2"
restore() { git checkout -q -- src/rank/goal-embed.bin src/rank/rerank-model.ts; node scripts/build.js > /dev/null; }
trap restore EXIT
bash train/embed/measure-table.sh "$table" "$out"
cp "$table" src/rank/goal-embed.bin
cp "${out%.json}.rerank-model.ts" src/rank/rerank-model.ts
node scripts/build.js > /dev/null
node --import tsx --test --test-name-pattern "goal behaviour|section field|observe map|identical scores" test/rerank.test.ts > "${out%.json}.tests.txt" 2>&1 || true
grep -E "^# (pass|fail)" "${out%.json}.tests.txt"
grep -E "^not ok|^    not ok|^        not ok" "${out%.json}.tests.txt" || true
