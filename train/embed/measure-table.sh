#!/usr/bin/env bash
# Measures a candidate goal-embedding table on the DEV split as the shipped one was (issue 37): the table
# copied over build/goal-embed.bin only, the rerank weights retrained on it (train/train.ts writes
# src/rank/rerank-model.ts), dev R@1/5/10/50, MRR and worse-than-no-goal by style and language
# (dev-recall.ts: the test split is never ranked); then the shipped table and model are put back.
# Run: bash train/embed/measure-table.sh DIR/goal-embed.bin OUT.json   (OUT gets the retrained model beside it)
set -euo pipefail
cd "$(dirname "$0")/../.."
table="$1"; out="$2"
restore() { cp src/rank/goal-embed.bin build/goal-embed.bin; git checkout -q -- src/rank/rerank-model.ts; }
trap restore EXIT
cp "$table" build/goal-embed.bin
start=$(date +%s)
# its report ends with the frozen test split: not looked at here
TRAIN_TABLE="$table" node --import tsx train/train.ts > /dev/null
cp src/rank/rerank-model.ts "${out%.json}.rerank-model.ts"
trained=$(date +%s)
node --import tsx train/embed/dev-recall.ts "$table" > "$out"
echo "$table: train.ts $((trained - start)) s, dev-recall $(($(date +%s) - trained)) s -> $out"
