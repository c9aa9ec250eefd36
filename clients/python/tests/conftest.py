"""What the tests share: the repository's fixture pages and WCXB development pages served from
localhost, Debian's Chromium with the project's flags, and the real server started from build/cli.js."""
from __future__ import annotations

import gzip
import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List

import pytest

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "test" / "fixtures"
SHARED = Path(os.environ.get("SIGHTLINE_SHARED_DATA", REPO.parent / "shared" / "data"))
WCXB = SHARED / "wcxb-dev-sample" / "html"
CLI = REPO / "build" / "cli.js"
CHROMIUM = os.environ.get("SIGHTLINE_CHROMIUM", "/usr/bin/chromium")
#: test/helpers/browser.ts's flags (DESIGN.md).
CHROMIUM_ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
#: A page served with a Content-Security-Policy that refuses Wasm (and eval).
CSP_PAGE = "<!doctype html><title>CSP</title><form><input name=q placeholder='Search'><button>Search</button></form><a href='/x'>Help</a>"

#: A page that reloads itself every few milliseconds: a snapshot meets a navigation.
RELOADING_PAGE = ("<!doctype html><title>Reloading</title>" + "".join(f"<button>Button {i}</button>" for i in range(300))
                  + "<script>setTimeout(() => location.reload(), 5)</script>")


def wcxb_ids(n: int) -> List[str]:
    if not WCXB.is_dir():
        return []
    return sorted(f.name[:-8] for f in WCXB.iterdir() if f.name.endswith(".html.gz"))[:n]


@dataclass
class Site:
    url: str
    other_origin: str


class _Handler(http.server.BaseHTTPRequestHandler):
    port = 0

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        headers = {"content-type": "text/html; charset=utf-8"}
        body: bytes
        w = re.fullmatch(r"/wcxb/(\d+)\.html", path)
        if path == "/reloading.html":
            body = RELOADING_PAGE.encode()
        elif path == "/csp.html":
            body = CSP_PAGE.encode()
            headers["content-security-policy"] = "script-src 'self'"
        elif w and (WCXB / f"{w.group(1)}.html.gz").is_file():
            body = gzip.decompress((WCXB / f"{w.group(1)}.html.gz").read_bytes())
        else:
            file = (FIXTURES / path.lstrip("/")).resolve()
            if not str(file).startswith(str(FIXTURES)) or not file.is_file():
                self.send_response(404)
                self.end_headers()
                return
            body = file.read_bytes().replace(b"{{OTHER_ORIGIN}}", f"http://localhost:{self.port}".encode())
            if file.suffix == ".svg":
                headers["content-type"] = "image/svg+xml"
            elif file.suffix != ".html":
                headers["content-type"] = "text/plain"
        self.send_response(200)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser aborted it (an offline route)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    port = server.server_address[1]
    _Handler.port = port
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site(f"http://127.0.0.1:{port}", f"http://localhost:{port}")
    server.shutdown()
    server.server_close()


@dataclass
class Server:
    url: str
    data_dir: str
    proc: "subprocess.Popen[str]"

    def key(self, credits: int) -> str:
        out = subprocess.run(["node", str(CLI), "keys", "create", "--credits", str(credits), "--data-dir", self.data_dir],
                             check=True, capture_output=True, text=True).stdout
        return out.strip().splitlines()[-1]


def start_server(*flags: str) -> Server:
    """`sightline serve --port 0` as test/helpers/server.ts starts it; waits for its listening line."""
    data_dir = tempfile.mkdtemp(prefix="sightline-pytest-")
    proc = subprocess.Popen(["node", str(CLI), "serve", "--port", "0", "--data-dir", data_dir, "--egress-allow", "127.0.0.1/32", *flags],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    seen = ""
    for line in proc.stderr:
        seen += line
        m = re.search(r"sightline: listening on (\S+)", line)
        if m:
            # Keep draining stderr so the server never blocks on a full pipe.
            threading.Thread(target=lambda: [None for _ in proc.stderr or []], daemon=True).start()
            return Server(m.group(1), data_dir, proc)
    raise RuntimeError(f"the server exited before listening: {seen}")


def stop_server(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.proc.kill()
    shutil.rmtree(server.data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    s = start_server("--rate-limit", "1000", "--rate-burst", "1000")
    yield s
    stop_server(s)


def chromium_args_json() -> str:
    return json.dumps(CHROMIUM_ARGS)
