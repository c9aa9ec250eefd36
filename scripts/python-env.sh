#!/usr/bin/env bash
# The Python package's environments, from the pinned requirements in clients/python/ (never a hand
# `pip install`; nothing here downloads a browser: the tests use Debian's /usr/bin/chromium).
#   scripts/python-env.sh dev       clients/python/.venv: build tools, mypy, the tests' packages
#   scripts/python-env.sh wheel     builds clients/python/dist/sightline-*.whl with that venv
#                                   (after `node scripts/build.js`, which puts the page scripts and types in)
#   scripts/python-env.sh fresh DIR a fresh venv at DIR with the tests' packages and the wheel installed
#   scripts/python-env.sh test      all three, then mypy --strict and pytest with the fresh venv (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
PKG=clients/python
DEV=$PKG/.venv
pip_q() { "$1/bin/pip" install -q --disable-pip-version-check "${@:2}"; }

dev() {
  [ -x "$DEV/bin/python" ] || "$PY" -m venv "$DEV"
  pip_q "$DEV" -r $PKG/requirements-dev.txt
}

wheel() {
  [ -f $PKG/src/sightline/_assets/rank-page.js ] || { echo "python-env: run node scripts/build.js first" >&2; exit 1; }
  rm -rf $PKG/dist $PKG/build
  (cd $PKG && .venv/bin/python -m build --wheel --no-isolation --outdir dist . >/dev/null)
  rm -rf $PKG/build
  ls $PKG/dist/*.whl
}

fresh() {
  local dir=$1
  rm -rf "$dir"
  "$PY" -m venv "$dir"
  pip_q "$dir" -r $PKG/requirements-test.txt
  local t0; t0=$(date +%s%N)
  pip_q "$dir" --no-deps $PKG/dist/sightline-*.whl
  echo "python-env: wheel installed into $dir in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}

case "${1:-dev}" in
  dev) dev ;;
  wheel) wheel ;;
  fresh) fresh "${2:?a directory}" ;;
  test)
    dev
    wheel
    fresh "${TMPDIR:-/tmp}/sightline-py-fresh"
    (cd $PKG && .venv/bin/python -m mypy && .venv/bin/python -m mypy --python-version 3.11 tests)
    # From the package folder, not src/: the tests import the installed wheel.
    (cd $PKG && "${TMPDIR:-/tmp}/sightline-py-fresh/bin/python" -m pytest -q -p no:cacheprovider --durations=5 tests)
    ;;
  *) echo "usage: scripts/python-env.sh dev|wheel|fresh DIR|test" >&2; exit 2 ;;
esac
