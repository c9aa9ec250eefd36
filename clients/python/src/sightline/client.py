"""The Sightline API client: ``Sightline`` (blocking) and ``AsyncSightline`` (asyncio).

Every POST carries an Idempotency-Key, the same on every attempt of one call, so a retry after a network
error, a 429 or a 503 returns the first outcome instead of running (and charging) twice. Bodies of 1 KiB
or more go gzip-compressed; a server that answers 415 gets them plain from then on.
"""
from __future__ import annotations

import os
import time
import urllib.parse
import uuid
from typing import Any, Dict, Optional, Union, cast

from . import _http
from .errors import APIError, ConfigurationError
from .types import (ObserveOptions, ObserveRequest, ReadResult, MapResult, VisualResult, MapTextResult,
                    VisualTextResult, SnapshotRequest, SnapshotResponse, SnapshotTextResponse, UsageResponse)

DEFAULT_BASE_URL = "http://127.0.0.1:8787"
ObserveResult = Union[ReadResult, MapResult, VisualResult, MapTextResult, VisualTextResult]


class _Config:
    """What both clients share: where, who, and how patiently."""

    def __init__(self, api_key: Optional[str], base_url: Optional[str], timeout: float, retries: int,
                 max_retry_wait: float, compress: bool) -> None:
        key = api_key if api_key is not None else os.environ.get("SIGHTLINE_API_KEY")
        if not key:
            raise ConfigurationError("no API key: pass api_key=... or set SIGHTLINE_API_KEY "
                                     "(a key is made with `sightline keys create --credits N`)")
        self.api_key = key
        self.base_url = (base_url or os.environ.get("SIGHTLINE_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.max_retry_wait = max_retry_wait
        self.compress = compress

    def headers(self, idempotency_key: Optional[str], coding: Optional[str], has_body: bool) -> Dict[str, str]:
        headers = {"Authorization": f"Bearer {self.api_key}", "Accept-Encoding": "gzip",
                   "User-Agent": "sightline-python"}
        if has_body:
            headers["Content-Type"] = "application/json"
        if coding:
            headers["Content-Encoding"] = coding
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        return headers

    def attempt(self, method: str, path: str, body: Optional[bytes], headers: Dict[str, str], n: int) -> _http.Attempt:
        return _http.attempt(method, self.base_url + path, headers, body, self.timeout, n, self.retries, self.max_retry_wait)


def _usage_path(limit: Optional[int], cursor: Optional[str]) -> str:
    query = {k: str(v) for k, v in (("limit", limit), ("cursor", cursor)) if v is not None}
    return "/v1/usage" + (f"?{urllib.parse.urlencode(query)}" if query else "")


def _observe_request(url: str, mode: str, format: Optional[str], options: Optional[ObserveOptions]) -> ObserveRequest:
    request: Dict[str, Any] = {"url": url, "mode": mode}
    if format is not None:
        request["format"] = format
    if options:
        request["options"] = options
    return cast(ObserveRequest, request)


class _Client:
    """What both clients hold: the settings, and whether the server refused a compressed body."""

    def __init__(self, api_key: Optional[str] = None, base_url: Optional[str] = None, *, timeout: float = 30.0,
                 retries: int = 2, max_retry_wait: float = 30.0, compress: bool = True) -> None:
        self._config = _Config(api_key, base_url, timeout, retries, max_retry_wait, compress)
        self._plain_only = False

    @property
    def base_url(self) -> str:
        return self._config.base_url


class Sightline(_Client):
    """Blocking client. ``api_key`` defaults to $SIGHTLINE_API_KEY, ``base_url`` to $SIGHTLINE_BASE_URL
    or http://127.0.0.1:8787. ``timeout`` is per attempt (seconds); ``retries`` the extra attempts after
    a network error, a 429, a 503 or a 409 idempotency_in_progress; a Retry-After longer than
    ``max_retry_wait`` is not waited for (the APIError carries it)."""

    def _call(self, method: str, path: str, payload: Any = None, idempotency_key: Optional[str] = None) -> Any:
        if method == "GET":
            return self._attempts(method, path, None, self._config.headers(None, None, False))
        key = idempotency_key or str(uuid.uuid4())
        body, coding = _http.encode_body(payload, self._config.compress and not self._plain_only)
        try:
            return self._attempts(method, path, body, self._config.headers(key, coding, True))
        except APIError as err:
            # A server (or a proxy) that does not read this coding: plain from now on. The server
            # decodes before the key is claimed, so the same key runs the call once.
            if coding is None or err.status != 415:
                raise
            self._plain_only = True
        body, _ = _http.encode_body(payload, False)
        return self._attempts(method, path, body, self._config.headers(key, None, True))

    def _attempts(self, method: str, path: str, body: Optional[bytes], headers: Dict[str, str]) -> Any:
        n = 0
        while True:
            outcome = self._config.attempt(method, path, body, headers, n)
            if outcome.error is None:
                return outcome.value
            if outcome.wait is None:
                raise outcome.error
            time.sleep(outcome.wait)
            n += 1

    def snapshot(self, request: SnapshotRequest, *, idempotency_key: Optional[str] = None) -> SnapshotResponse:
        """POST /v1/snapshot: rank raw elements collected in a browser (1 credit). With
        ``options.format = "text"`` the result also carries ``text``."""
        return cast(SnapshotResponse, self._call("POST", "/v1/snapshot", request, idempotency_key))

    def snapshot_text(self, request: SnapshotRequest, *, idempotency_key: Optional[str] = None) -> SnapshotTextResponse:
        """POST /v1/snapshot with ``options.format = "text"`` and ``options.elements = False``: the text only."""
        options = {**(request.get("options") or {}), "format": "text", "elements": False}
        return cast(SnapshotTextResponse, self._call("POST", "/v1/snapshot", {**request, "options": options}, idempotency_key))

    def observe(self, request: ObserveRequest, *, idempotency_key: Optional[str] = None) -> ObserveResult:
        """POST /v1/observe as given; the result's shape follows the mode (read by default)."""
        return cast(ObserveResult, self._call("POST", "/v1/observe", request, idempotency_key))

    def read(self, url: str, *, format: Optional[str] = None, options: Optional[ObserveOptions] = None,
             idempotency_key: Optional[str] = None) -> ReadResult:
        """observe read: the page as Markdown (or ``format="text"`` / ``"html"``)."""
        return cast(ReadResult, self.observe(_observe_request(url, "read", format, options), idempotency_key=idempotency_key))

    def map(self, url: str, *, options: Optional[ObserveOptions] = None, idempotency_key: Optional[str] = None) -> MapResult:
        """observe map: the page's interactive elements with their boxes, ranked (``options.goal``)."""
        return cast(MapResult, self.observe(_observe_request(url, "map", None, options), idempotency_key=idempotency_key))

    def visual(self, url: str, *, options: Optional[ObserveOptions] = None, idempotency_key: Optional[str] = None) -> VisualResult:
        """observe visual: a screenshot and the elements."""
        return cast(VisualResult, self.observe(_observe_request(url, "visual", None, options), idempotency_key=idempotency_key))

    def usage(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> UsageResponse:
        """GET /v1/usage: the key's balance and latest charges and refunds, newest first (free)."""
        return cast(UsageResponse, self._call("GET", _usage_path(limit, cursor)))


class AsyncSightline(_Client):
    """The same client for asyncio: each attempt runs in a worker thread; waits between attempts are
    ``asyncio.sleep``, so a retrying call never blocks the loop."""

    async def _call(self, method: str, path: str, payload: Any = None, idempotency_key: Optional[str] = None) -> Any:
        if method == "GET":
            return await self._attempts(method, path, None, self._config.headers(None, None, False))
        key = idempotency_key or str(uuid.uuid4())
        body, coding = _http.encode_body(payload, self._config.compress and not self._plain_only)
        try:
            return await self._attempts(method, path, body, self._config.headers(key, coding, True))
        except APIError as err:
            if coding is None or err.status != 415:
                raise
            self._plain_only = True
        body, _ = _http.encode_body(payload, False)
        return await self._attempts(method, path, body, self._config.headers(key, None, True))

    async def _attempts(self, method: str, path: str, body: Optional[bytes], headers: Dict[str, str]) -> Any:
        import asyncio  # here, not at the top: it doubles `import sightline` for the blocking client's users
        n = 0
        while True:
            outcome = await asyncio.to_thread(self._config.attempt, method, path, body, headers, n)
            if outcome.error is None:
                return outcome.value
            if outcome.wait is None:
                raise outcome.error
            await asyncio.sleep(outcome.wait)
            n += 1

    async def snapshot(self, request: SnapshotRequest, *, idempotency_key: Optional[str] = None) -> SnapshotResponse:
        return cast(SnapshotResponse, await self._call("POST", "/v1/snapshot", request, idempotency_key))

    async def snapshot_text(self, request: SnapshotRequest, *, idempotency_key: Optional[str] = None) -> SnapshotTextResponse:
        options = {**(request.get("options") or {}), "format": "text", "elements": False}
        return cast(SnapshotTextResponse, await self._call("POST", "/v1/snapshot", {**request, "options": options}, idempotency_key))

    async def observe(self, request: ObserveRequest, *, idempotency_key: Optional[str] = None) -> ObserveResult:
        return cast(ObserveResult, await self._call("POST", "/v1/observe", request, idempotency_key))

    async def read(self, url: str, *, format: Optional[str] = None, options: Optional[ObserveOptions] = None,
                   idempotency_key: Optional[str] = None) -> ReadResult:
        return cast(ReadResult, await self.observe(_observe_request(url, "read", format, options), idempotency_key=idempotency_key))

    async def map(self, url: str, *, options: Optional[ObserveOptions] = None, idempotency_key: Optional[str] = None) -> MapResult:
        return cast(MapResult, await self.observe(_observe_request(url, "map", None, options), idempotency_key=idempotency_key))

    async def visual(self, url: str, *, options: Optional[ObserveOptions] = None, idempotency_key: Optional[str] = None) -> VisualResult:
        return cast(VisualResult, await self.observe(_observe_request(url, "visual", None, options), idempotency_key=idempotency_key))

    async def usage(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> UsageResponse:
        return cast(UsageResponse, await self._call("GET", _usage_path(limit, cursor)))


__all__ = ["Sightline", "AsyncSightline", "ObserveResult", "DEFAULT_BASE_URL"]
