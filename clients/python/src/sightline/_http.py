"""One HTTP attempt over the standard library (urllib), and the retry policy both clients share.

The standard library rather than httpx: measured in docs/decisions.md ("Python client: the standard
library's HTTP"), it installs nothing and imports in a fraction of the time, and the API is a few JSON
POSTs and one GET.
"""
from __future__ import annotations

import gzip
import json
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional

from .errors import APIError

#: Bodies below this are sent plain: compressing saves less than a packet (as the TS client).
COMPRESS_MIN_BYTES = 1024
#: First wait before retrying a network error; doubled on each further attempt.
NETWORK_RETRY_S = 0.2


@dataclass
class Attempt:
    """What one attempt gave: a parsed success, or an error and whether to try again (``wait``)."""

    value: Any = None
    error: Optional[APIError] = None
    #: Seconds to wait before the next attempt when the error may go away; None: do not retry.
    wait: Optional[float] = None


def _retry_after(headers: Mapping[str, str]) -> Optional[float]:
    raw = headers.get("retry-after") or headers.get("Retry-After")
    try:
        value = float(raw) if raw else 0.0
    except ValueError:
        return None
    return value if value > 0 else None


def _error_from(status: int, text: str, headers: Mapping[str, str]) -> APIError:
    parsed: Any
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    body: Dict[str, Any] = parsed if isinstance(parsed, dict) else {}
    code = body.get("error_code") or body.get("error") or "http_error"
    message = body.get("message") or (body["error"] if isinstance(body.get("error"), str) else f"HTTP {status}: {text[:200]}")
    credits = body.get("credits_remaining")
    return APIError(status, str(code), str(message), retry_after=_retry_after(headers),
                    credits_remaining=credits if isinstance(credits, (int, float)) else None,
                    request_id=headers.get("x-request-id"))


def attempt(method: str, url: str, headers: Dict[str, str], body: Optional[bytes], timeout: float,
            attempt_no: int, retries: int, max_retry_wait: float) -> Attempt:
    """One request. Retried (``wait`` set): network errors, 429, 503 and 409 idempotency_in_progress."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status = response.status
            raw = response.read()
            got: Mapping[str, str] = {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as err:
        status = err.code
        raw = err.read()
        got = {k.lower(): v for k, v in err.headers.items()} if err.headers else {}
    except (socket.timeout, TimeoutError):
        return Attempt(error=APIError(0, "timeout", f"no answer from {url} within {timeout:g} s"))
    except (urllib.error.URLError, ConnectionError, OSError) as err:
        reason = getattr(err, "reason", err)
        if isinstance(reason, (socket.timeout, TimeoutError)):
            return Attempt(error=APIError(0, "timeout", f"no answer from {url} within {timeout:g} s"))
        error = APIError(0, "network_error", f"cannot reach {url}: {reason}")
        # The request may have run: the same Idempotency-Key makes the retry return its outcome, charged once.
        return Attempt(error=error, wait=NETWORK_RETRY_S * 2 ** attempt_no if attempt_no < retries else None)
    if got.get("content-encoding") == "gzip":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8", errors="replace")
    if 200 <= status < 300:
        try:
            return Attempt(value=json.loads(text))
        except ValueError:
            pass
    error = _error_from(status, text, got)
    wait = error.retry_after if error.retry_after is not None else 1.0
    retryable = status in (429, 503) or error.code == "idempotency_in_progress"
    return Attempt(error=error, wait=wait if retryable and attempt_no < retries and wait <= max_retry_wait else None)


def encode_body(payload: Any, compress: bool) -> tuple[bytes, Optional[str]]:
    """The JSON body, gzip-compressed (level 4, as the TS client's gzip) when it is large enough."""
    data = json.dumps(payload, separators=(",", ":")).encode("utf-8")
    if compress and len(data) >= COMPRESS_MIN_BYTES:
        return gzip.compress(data, compresslevel=4), "gzip"
    return data, None
