"""Sightline for Python: the API client (``Sightline``, ``AsyncSightline``), the compact prompt text
(``to_prompt``), ``find`` over a result, and, in ``sightline.page`` / ``sightline.page_async``, helpers
for Playwright for Python that rank a page you have open, offline, with the shipped rank core."""
from .client import AsyncSightline, Sightline, DEFAULT_BASE_URL
from .errors import ActionError, APIError, ConfigurationError, PageError, SightlineError
from .find import find, find_all
from .prompt import PROMPT_MAX_TEXT, prompt_line, to_prompt

__version__ = "0.1.0"

__all__ = ["Sightline", "AsyncSightline", "DEFAULT_BASE_URL", "SightlineError", "APIError", "ConfigurationError",
           "PageError", "ActionError", "find", "find_all", "to_prompt", "prompt_line", "PROMPT_MAX_TEXT"]
