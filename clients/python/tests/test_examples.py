"""The two examples the README names run as written: locally, and through the real server."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import Server

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_local_agent_loop_signs_in() -> None:
    out = subprocess.run([sys.executable, str(EXAMPLES / "agent_local.py")], capture_output=True, text=True, timeout=120, check=True).stdout
    assert "step 0: the model reads" in out and out.strip().endswith("Welcome, ada@example.com")


def test_the_api_agent_loop_signs_in_and_is_charged(server: Server) -> None:
    env = {**os.environ, "SIGHTLINE_API_KEY": server.key(5), "SIGHTLINE_BASE_URL": server.url}
    out = subprocess.run([sys.executable, str(EXAMPLES / "agent_api.py")], capture_output=True, text=True, timeout=120, check=True, env=env).stdout
    assert "(credits left: 4)" in out and "Welcome, ada@example.com" in out
    assert "'available': 4" in out
