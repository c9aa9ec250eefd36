"""The API client against the real server (build/cli.js serve): every endpoint, sync and async, and
each way a call can go wrong raising an APIError with the status, the SPEC code, the message and
Retry-After, never a hang."""
from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any, Dict, Iterator, List

import pytest

from sightline import APIError, AsyncSightline, ConfigurationError, Sightline

from conftest import Server, Site, start_server, stop_server


def raw(n: int) -> List[Dict[str, Any]]:
    """n raw elements (buttons and links in rows), as test/helpers/server.ts makes them."""
    return [{"id": i + 1, "tag": "button" if i % 3 == 0 else "a", "text": f"{'Action' if i % 3 == 0 else 'Link'} {i + 1}",
             "rect": {"x": 20 + (i % 4) * 300, "y": (i // 4) * 40, "width": 200, "height": 30},
             **({} if i % 3 == 0 else {"attributes": {"href": f"https://example.test/{i + 1}"}})} for i in range(n)]


def request(n: int = 40, **extra: Any) -> Any:
    return {"url": "https://example.test/", "viewport": {"width": 1280, "height": 720}, "raw_elements": raw(n), **extra}


@pytest.fixture()
def key(server: Server) -> str:
    return server.key(100)


def test_snapshot_ranks_and_charges_one_credit(server: Server, key: str) -> None:
    api = Sightline(api_key=key, base_url=server.url)
    result = api.snapshot(request(60, goal="Action 7", options={"limit": 10}))  # 60 elements: a gzip-compressed body
    assert result["status"] == "success" and len(result["elements"]) == 10
    assert result["elements"][0]["text"] == "Action 7"
    assert result["credits_used"] == 1 and result["credits_remaining"] == 99
    text = api.snapshot_text(request(5))
    assert "elements" not in text and text["text"].splitlines()[0].startswith("# https://example.test/")
    usage = api.usage(limit=5)
    assert usage["balance"]["available"] == 98 and [e["type"] for e in usage["entries"]] == ["charge", "charge"]


def test_observe_read_map_visual_and_the_text_format(server: Server, key: str, site: Site) -> None:
    api = Sightline(api_key=key, base_url=server.url, compress=False)
    read = api.read(f"{site.url}/article.html")
    assert read["status"] == "success" and read["title"] and len(read["content"]) > 100
    mapped = api.map(f"{site.url}/login.html", options={"limit": 5, "format": "text"})
    assert [e["role"] for e in mapped["interactable_elements"]] and mapped["text"].startswith("# ")
    visual = api.visual(f"{site.url}/login.html", options={"limit": 3, "screenshot_delivery": "base64"})
    assert visual["screenshot"]["format"] == "png" and visual["screenshot"].get("data")
    assert api.usage()["balance"]["available"] == 100 - 1 - 2 - 10


def test_the_async_client_does_the_same(server: Server, key: str, site: Site) -> None:
    async def run() -> None:
        api = AsyncSightline(api_key=key, base_url=server.url)
        results = await asyncio.gather(*(api.snapshot(request(8)) for _ in range(3)))
        assert all(r["credits_used"] == 1 for r in results)
        read = await api.read(f"{site.url}/article.html", format="text")
        assert read["format"] == "text"
        assert (await api.usage())["balance"]["available"] == 100 - 3 - 1
        with pytest.raises(APIError) as bad:
            await api.snapshot({"url": "https://example.test/", "raw_elements": "nope"})  # type: ignore[typeddict-item]
        assert bad.value.status == 400 and bad.value.code == "bad_request"
    asyncio.run(run())


def test_an_idempotency_key_runs_and_charges_once(server: Server, key: str) -> None:
    api = Sightline(api_key=key, base_url=server.url)
    first = api.snapshot(request(10), idempotency_key="py-idem-1")
    again = api.snapshot(request(10), idempotency_key="py-idem-1")
    assert again["timestamp"] == first["timestamp"]
    assert api.usage()["balance"]["available"] == 99
    with pytest.raises(APIError) as reused:
        api.snapshot(request(11), idempotency_key="py-idem-1")
    assert reused.value.status == 422 and reused.value.code == "idempotency_key_reused"


def test_a_wrong_key_is_401_and_no_key_is_a_local_error(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(APIError) as wrong:
        Sightline(api_key="sk_nope", base_url=server.url).snapshot(request(3))
    assert wrong.value.status == 401 and wrong.value.code == "unauthorized" and wrong.value.message
    monkeypatch.delenv("SIGHTLINE_API_KEY", raising=False)
    with pytest.raises(ConfigurationError, match="SIGHTLINE_API_KEY"):
        Sightline(base_url=server.url)
    monkeypatch.setenv("SIGHTLINE_API_KEY", "sk_from_env")
    assert Sightline(base_url=server.url)._config.api_key == "sk_from_env"


def test_no_credits_is_402_with_the_balance(server: Server) -> None:
    api = Sightline(api_key=server.key(0), base_url=server.url)
    with pytest.raises(APIError) as poor:
        api.snapshot(request(3))
    assert poor.value.status == 402 and poor.value.code == "insufficient_credits" and poor.value.credits_remaining == 0


@pytest.fixture(scope="module")
def slow_server() -> Iterator[Server]:
    """One request per second per key."""
    s = start_server("--rate-limit", "1", "--rate-burst", "1")
    yield s
    stop_server(s)


def test_429_carries_retry_after_and_is_retried_once_charged(slow_server: Server) -> None:
    key = slow_server.key(10)
    impatient = Sightline(api_key=key, base_url=slow_server.url, retries=0)
    impatient.snapshot(request(3))
    with pytest.raises(APIError) as limited:
        impatient.snapshot(request(3))
    assert limited.value.status == 429 and limited.value.code == "rate_limited" and limited.value.retry_after is not None
    assert 0 < limited.value.retry_after <= 2
    time.sleep(limited.value.retry_after)
    patient = Sightline(api_key=key, base_url=slow_server.url, retries=3)
    patient.snapshot(request(3))
    t0 = time.monotonic()
    patient.snapshot(request(3))  # limited, waits Retry-After, then runs
    assert time.monotonic() - t0 >= 0.5
    time.sleep(1.1)
    assert [e["type"] for e in patient.usage()["entries"]] == ["charge"] * 3
    # A Retry-After longer than the client will wait is not waited for.
    with pytest.raises(APIError) as not_waited:
        Sightline(api_key=key, base_url=slow_server.url, retries=3, max_retry_wait=0.01).snapshot(request(3))
    assert not_waited.value.status == 429


def test_no_server_and_a_silent_server_fail_fast() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    t0 = time.monotonic()
    with pytest.raises(APIError) as down:
        Sightline(api_key="k", base_url=f"http://127.0.0.1:{closed_port}", retries=1).usage()
    assert down.value.status == 0 and down.value.code == "network_error" and time.monotonic() - t0 < 5
    # Accepts the connection and never answers.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    held: List[socket.socket] = []

    def hold() -> None:
        for _ in range(4):
            held.append(silent.accept()[0])
    threading.Thread(target=hold, daemon=True).start()
    t0 = time.monotonic()
    with pytest.raises(APIError) as hung:
        Sightline(api_key="k", base_url=f"http://127.0.0.1:{silent.getsockname()[1]}", timeout=0.5).snapshot(request(3))
    assert hung.value.code == "timeout" and time.monotonic() - t0 < 5
    silent.close()


class LosingProxy:
    """A TCP relay to the real server that loses the answer to the first request: the request runs (and is
    charged) on the server, the client sees the connection drop, as when a network fails mid-call."""

    def __init__(self, upstream: str) -> None:
        host, port = upstream.rsplit("//", 1)[1].split(":")
        self.upstream = (host, int(port))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.connections = 0
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self.relay, args=(client, self.connections == 1), daemon=True).start()

    def relay(self, client: socket.socket, lose: bool) -> None:
        with client, socket.create_connection(self.upstream) as up:
            data = b""
            while b"\r\n\r\n" not in data:
                data += client.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
            while len(body) < length:
                body += client.recv(65536)
            up.sendall(head + b"\r\n\r\n" + body)
            answer = b""
            while True:
                chunk = up.recv(65536)
                if not chunk:
                    break
                answer += chunk
                if lose:
                    continue  # read it all, send none of it
            if not lose:
                client.sendall(answer)

    def close(self) -> None:
        self.sock.close()


def test_a_lost_answer_is_retried_with_the_same_key_and_charged_once(server: Server, key: str) -> None:
    proxy = LosingProxy(server.url)
    try:
        api = Sightline(api_key=key, base_url=proxy.url, retries=2, timeout=10)
        result = api.snapshot(request(30, goal="Action 4"))
        assert result["elements"][0]["text"] == "Action 4"
        assert proxy.connections == 2  # the lost one, then the retry
        usage = Sightline(api_key=key, base_url=server.url).usage()
        assert usage["balance"]["available"] == 99 and [e["type"] for e in usage["entries"]] == ["charge"]
    finally:
        proxy.close()
