#!/usr/bin/env bash
# A refined goal-embedding table to measure (issue 37 item 2: train/embed/README.md, "Refining the table's
# rows"; the shipped one is made by train-table.sh). 1. table.py distils all-MiniLM-L6-v2
# (train/embed/.cache/distilled; the same bytes as the committed train/embed/distilled, which `npm run train`
# refines into src/rank: train-table.sh); 2. dump-tokens.ts writes the
# train goals' token rows as the core reads them (needs build/: after `node scripts/build.js`);
# 3. refine.py refines the distilled rows on them into OUT (default train/embed/.cache/refined), never
# src/rank. Extra arguments go to refine.py (e.g. --no-templates). Measure with measure-table.sh.
# One thread each, so a rerun on this machine writes the same bytes.
#   bash train/embed/refine.sh [OUT] [refine.py options...]
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-train/embed/.cache/refined}"; shift || true
bash train/python-env.sh
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 HF_HUB_OFFLINE=1
train/.venv/bin/python train/embed/table.py --out train/embed/.cache/distilled
node --import tsx train/embed/dump-tokens.ts train/embed/.cache/distilled/goal-embed.bin
train/.venv/bin/python train/embed/refine.py --table train/embed/.cache/distilled/goal-embed.bin --out "$out" --log "$out/refine-log.json" "$@"
