"""The exceptions the client and the page helpers raise: each says what went wrong in a line."""
from __future__ import annotations

from typing import Optional


class SightlineError(Exception):
    """Base of every Sightline exception."""


class ConfigurationError(SightlineError):
    """A local setup problem (no API key): raised before anything is sent."""


class APIError(SightlineError):
    """An answer other than success, or no answer.

    ``status`` is the HTTP status (0 when no answer came), ``code`` the SPEC ``error_code`` (snapshot)
    or ``error`` (observe), or ``network_error`` / ``timeout`` on our side; ``retry_after`` the
    seconds the server asked to wait (429, 503), ``credits_remaining`` the key's balance when known.
    """

    def __init__(self, status: int, code: str, message: str, *, retry_after: Optional[float] = None,
                 credits_remaining: Optional[float] = None, request_id: Optional[str] = None) -> None:
        super().__init__(f"{code} ({status}): {message}" if status else f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.credits_remaining = credits_remaining
        self.request_id = request_id


class PageError(SightlineError):
    """The page could not be read: it was closed, or it navigated while it was being collected."""


class ActionError(SightlineError):
    """An action on an element that could not be done, with what an agent can do about it."""

    def __init__(self, message: str, id: Optional[int] = None) -> None:
        super().__init__(message)
        self.id = id
