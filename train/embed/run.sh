#!/usr/bin/env bash
# Reruns issue 37's groundwork end to end (train and dev splits only; see README.md). One thread;
# encodings are cached in train/embed/.cache/ (git-ignored), so a rerun only redoes what changed.
# TEACHERS="minilm e5" and E5_VIEWS (default goal,own; the e5 engine is ~4x slower per text) choose the work.
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 HF_HUB_OFFLINE=1
py=train/.venv/bin/python
bash train/python-env.sh
[ -f build/rank.wasm ] || node scripts/build.js
node --import tsx train/embed/dump.ts
$py train/embed/verify_minilm.py
for t in ${TEACHERS:-minilm e5}; do
  if [ "$t" = e5 ]; then $py train/embed/encode.py e5 --views "${E5_VIEWS:-goal,own}"; else $py train/embed/encode.py "$t"; fi
done
$py train/embed/teachers.py ${TEACHERS:-minilm e5} minilm:own
$py train/embed/distill.py
$py train/embed/report.py > /dev/null
echo "train/embed/results/RESULTS.md written"
