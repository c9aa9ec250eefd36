#!/usr/bin/env bash
# Creates train/.venv-stage (git-ignored) from train/embed/requirements-stage.txt: the pinned Python step
# of the second-stage measurement (issue 37 item 3: train/embed/second_stage.py). Separate from
# train/.venv so neither CI nor `npm run train` installs onnxruntime. CPython 3.12, --no-deps.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${PYTHON:-}"
if [ -z "$py" ]; then
  for c in python3.12 "$(pyenv root 2>/dev/null)"/versions/3.12*/bin/python3.12 /usr/bin/python3.12; do
    if "$c" --version >/dev/null 2>&1; then py="$c"; break; fi
  done
fi
[ -n "$py" ] || { echo "stage-env: no runnable python3.12 (set PYTHON)" >&2; exit 1; }
"$py" -c 'import sys; assert sys.version_info[:2] == (3, 12), sys.version'
[ -x "$here/.venv-stage/bin/python" ] || "$py" -m venv "$here/.venv-stage"
"$here/.venv-stage/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$here/embed/requirements-stage.txt"
echo "train/.venv-stage ready: $("$here/.venv-stage/bin/python" --version)"
