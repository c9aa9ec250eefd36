#!/usr/bin/env bash
# `npm run train`: the goal rerank's weights and the shipped goal-embedding table, in three stages
# (issue 37; train/embed/README.md, "npm run train: distil, fit, refine"):
#  1. table.py distils the pinned teacher into train/embed/distilled/goal-embed.bin (+ its record);
#  2. train/train.ts fits the rerank weights with THAT table's cosines -> src/rank/rerank-model.ts;
#  3. dump-tokens.ts + refine.py refine the distilled rows on the real train goals (--no-templates
#     --rare-pull 0.5, K 5: rarely used tokens stay near the teacher) -> src/rank/goal-embed.bin and its
#     record src/rank/goal-embed.json (checksum, provenance, licence); the weights are NOT refitted on the
#     refined rows (refitting over-trusts them: train/embed/results/refine-trust.md);
#  4. record-shipped.ts writes the shipped ranker's dev R@1/5/10 into that record (test/rerank-lists.test.ts).
# One thread each, so a rerun writes the same bytes. Needs train/.venv (train/python-env.sh) and build/.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash train/python-env.sh
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 HF_HUB_OFFLINE=1
py=train/.venv/bin/python
distilled=train/embed/distilled/goal-embed.bin
t=$(date +%s); lap() { echo "$1: $(($(date +%s) - t)) s"; t=$(date +%s); }
$py train/embed/table.py --out train/embed/distilled; lap "1. table.py (distil)"
node scripts/build.js > /dev/null
node --import tsx train/train.ts; lap "2. train.ts (rerank weights on the distilled table)"
mkdir -p train/embed/.cache
node --import tsx train/embed/dump-tokens.ts "$distilled"
$py train/embed/refine.py --table "$distilled" --out src/rank --no-templates --rare-pull 0.5 \
  --log train/embed/.cache/refine-log.json --fitted-sites train/embed/.cache/fitted-sites.json
node scripts/build.js > /dev/null; lap "3. dump-tokens.ts + refine.py (the shipped rows)"
node --import tsx train/embed/record-shipped.ts; lap "4. record-shipped.ts (the shipped ranker's dev R@1 into goal-embed.json)"
