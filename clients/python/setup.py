"""Refuses to build a package without what the repository's build makes (pyproject.toml has the rest)."""
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
MADE_BY_BUILD = ["src/sightline/_assets/collector.js", "src/sightline/_assets/rank-page.js", "src/sightline/types.py"]
missing = [f for f in MADE_BY_BUILD if not (HERE / f).is_file()]
if missing:
    raise SystemExit(f"sightline: {', '.join(missing)} missing: run `npm ci` (or `node scripts/build.js`) at the repository root first")

setup()
