"""The numbers clients/python/README.md gives, in one run (docs/decisions.md cites them too):

- the wheel into a fresh venv: install time and installed size (alone, and with the playwright extra's
  package already there), and the same for httpx, the HTTP client it does not use;
- import time of ``sightline``, ``sightline.page``, urllib.request and httpx (median of fresh processes);
- round trips to one server started here from build/cli.js: POST /v1/snapshot (40 elements) from the
  Python client and from the TypeScript client (build/client.js), alternating, median of each.

    clients/python/.venv/bin/python clients/python/bench/measure.py   (after scripts/python-env.sh wheel)
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List

HERE = Path(__file__).resolve().parent
PKG = HERE.parent
REPO = PKG.parents[1]
sys.path[:0] = [str(PKG / "tests"), str(PKG / "src")]
from conftest import start_server, stop_server  # noqa: E402
from test_client import request  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "300"))


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def site_packages(venv: Path) -> Path:
    return next(venv.glob("lib/python*/site-packages"))


def pip(venv: Path, *args: str) -> float:
    t0 = time.perf_counter()
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", *args], check=True)
    return time.perf_counter() - t0


def import_ms(python: Path, module: str, n: int = 7) -> float:
    runs: List[float] = []
    for _ in range(n):
        out = subprocess.run([str(python), "-X", "importtime", "-c", f"import {module}"], capture_output=True, text=True).stderr
        # The module's own line (its cumulative time), not `site` and the rest of start-up.
        total = next(int(line.split("|")[1]) for line in out.splitlines() if line.startswith("import time:") and line.split("|")[2].strip() == module)
        runs.append(total / 1000)
    return statistics.median(runs)


def main() -> None:
    wheel = next((PKG / "dist").glob("sightline-*.whl"))
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "v"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        before = du(site_packages(venv))
        report["install_s"] = round(pip(venv, "--no-deps", str(wheel)), 2)
        report["installed_kb"] = round((du(site_packages(venv)) - before) / 1024)
        before = du(site_packages(venv))
        report["playwright_install_s"] = round(pip(venv, "-r", str(PKG / "requirements-test.txt")), 2)
        report["playwright_and_test_deps_installed_mb"] = round((du(site_packages(venv)) - before) / 2**20, 1)
        python = venv / "bin" / "python"
        report["import_sightline_ms"] = round(import_ms(python, "sightline"), 1)
        report["import_sightline_page_ms"] = round(import_ms(python, "sightline.page"), 1)
        report["import_urllib_request_ms"] = round(import_ms(python, "urllib.request"), 1)
        hx = Path(tmp) / "hx"
        subprocess.run([sys.executable, "-m", "venv", str(hx)], check=True)
        before = du(site_packages(hx))
        report["httpx_install_s"] = round(pip(hx, "httpx==0.28.1"), 2)
        report["httpx_installed_kb"] = round((du(site_packages(hx)) - before) / 1024)
        report["import_httpx_ms"] = round(import_ms(hx / "bin" / "python", "httpx"), 1)

        server = start_server("--rate-limit", "100000", "--rate-burst", "100000")
        try:
            key = server.key(10 * ROUNDS)
            body = json.dumps(request(40))
            py_script = f"""
import json, time, statistics, sys
from sightline import Sightline
api = Sightline(api_key={key!r}, base_url={server.url!r})
req = json.loads({body!r})
for _ in range(20): api.snapshot(req)
t = []
for _ in range({ROUNDS}):
    t0 = time.perf_counter(); api.snapshot(req); t.append((time.perf_counter() - t0) * 1000)
print(statistics.median(t))
"""
            ts_script = f"""
const {{ SightlineApi }} = await import({json.dumps((REPO / 'build' / 'client.js').as_uri())});
const api = new SightlineApi({{ apiKey: {json.dumps(key)}, baseUrl: {json.dumps(server.url)} }});
const req = {body};
for (let i = 0; i < 20; i++) await api.snapshot(req);
const t = [];
for (let i = 0; i < {ROUNDS}; i++) {{ const t0 = performance.now(); await api.snapshot(req); t.push(performance.now() - t0); }}
t.sort((a, b) => a - b); console.log(t[t.length >> 1]);
"""
            py_ms: List[float] = []
            ts_ms: List[float] = []
            for _ in range(3):  # alternating, so both see the same machine load
                py_ms.append(float(subprocess.run([str(python), "-c", py_script], capture_output=True, text=True, check=True).stdout))
                ts_ms.append(float(subprocess.run(["node", "--input-type=module", "-e", ts_script], capture_output=True, text=True, check=True).stdout))
            report["snapshot_round_trip_py_ms"] = round(statistics.median(py_ms), 2)
            report["snapshot_round_trip_ts_ms"] = round(statistics.median(ts_ms), 2)
            report["round_trip_ratio_py_over_ts"] = round(statistics.median(py_ms) / statistics.median(ts_ms), 2)
        finally:
            stop_server(server)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
