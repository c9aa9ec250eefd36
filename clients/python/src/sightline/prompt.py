"""``to_prompt``: a rank result as the compact text an agent puts in a model's context.

The same text src/rank/prompt.ts writes, character for character (tests/test_vectors.py compares the two
on every shared page): lengths and cuts count UTF-16 code units and whitespace is JavaScript's, as there.
The grammar is docs/prompt-format.md's::

    # "<title>" <url> scroll=<y>[ modal]
    <id> <role>[ <flag>...]: <text>
"""
from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any, List, Mapping, Optional

#: Default characters of text per element.
PROMPT_MAX_TEXT = 60
_MAX_VALUE = 40
#: JavaScript's \\s (and what String.prototype.trim removes).
_JS_SPACE = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_SPACES = re.compile(_JS_SPACE + "+")
_EDGES = re.compile(f"^{_JS_SPACE}+|{_JS_SPACE}+$")
_DIFF_WORDS = {"ADDED": "new", "REMOVED": "gone", "MODIFIED": "changed", "MOVED": "moved"}
#: Roles whose value is what a form submits, not what the user sees: their state is a flag.
PROMPT_NO_VALUE_ROLES = frozenset(["checkbox", "radio", "switch", "button", "menuitemcheckbox", "menuitemradio", "option", "link", "tab"])
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _trim(s: str) -> str:
    return _EDGES.sub("", s)


def _utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _utf16_slice(s: str, end: int) -> str:
    return s.encode("utf-16-le", "surrogatepass")[: 2 * end].decode("utf-16-le", "surrogatepass")


def _one_line(text: str, limit: int) -> str:
    s = _trim(_SPACES.sub(" ", text))
    if _utf16_len(s) <= limit:
        return s
    return "…" if limit <= 1 else _utf16_slice(s, limit - 1).rstrip("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff") + "…"


def _json_string(s: str) -> str:
    """JSON.stringify of a string: raw non-ASCII, lone surrogates escaped."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(s, ensure_ascii=False))


def _js_round(x: float) -> int:
    return math.floor(x + 0.5)


def _flags(e: Mapping[str, Any], viewport_height: Optional[float]) -> List[str]:
    flags: List[str] = []
    if e.get("value_redacted"):
        flags.append("redacted")
    elif e.get("value") and e.get("role") not in PROMPT_NO_VALUE_ROLES:
        flags.append("value=" + _json_string(_one_line(str(e["value"]), _MAX_VALUE)))
    if e.get("aria_checked") == "mixed":
        flags.append("mixed")
    elif e.get("checked"):
        flags.append("checked")
    if e.get("disabled"):
        flags.append("disabled")
    if e.get("expanded") is True:
        flags.append("expanded")
    elif e.get("expanded") is False:
        flags.append("collapsed")
    if e.get("is_occluded"):
        flags.append("covered")
    if not e.get("in_viewport") and e.get("diff_status") != "REMOVED":
        box = e["bbox"]
        y, height = box["y"], box["height"]
        flags.append("above" if y + height <= 0 else "below" if viewport_height is not None and y >= viewport_height else "offscreen")
    if e.get("in_dominant_group"):
        flags.append("list")
    if e.get("diff_status"):
        flags.append(_DIFF_WORDS[e["diff_status"]])
    return flags


def _wordy(s: str) -> bool:
    return any(unicodedata.category(ch)[0] in "LN" for ch in s)


def _fold(s: str) -> str:
    return _SPACES.sub(" ", s).lower()


def _label(e: Mapping[str, Any]) -> str:
    """The element's accessible name where it differs from its visible text and the text does not hold
    it (an aria-label "Close" on "×", "Next slide" on "Next"); else its text (labelOf in prompt.ts)."""
    text = _trim(e.get("text") or "")
    name = _trim(e.get("name") or "")
    if not _wordy(text):
        return name or text
    if not _wordy(name):
        return text
    return text if _fold(name) in _fold(text) else name


def prompt_line(e: Mapping[str, Any], max_text: float = PROMPT_MAX_TEXT, viewport_height: Optional[float] = None) -> str:
    """One element's line, without the newline."""
    flags = _flags(e, viewport_height)
    text = _one_line(_label(e), max(1, math.floor(max_text)))
    return f"{e['id']} {e['role']}{' ' + ' '.join(flags) if flags else ''}:{' ' + text if text else ''}"


def _scroll_of(elements: List[Mapping[str, Any]]) -> int:
    for e in elements:
        if e.get("doc_y") is not None and e.get("center_y") is not None:
            return max(0, _js_round(e["doc_y"] - e["center_y"]))
    return 0


def prompt_header(result: Mapping[str, Any], title: Optional[str] = None, scroll_y: Optional[float] = None) -> str:
    """The page header: title, URL, scroll position and whether a modal covers the page."""
    head = f"{_json_string(_one_line(title, 120))} " if title else ""
    scroll = _js_round(scroll_y if scroll_y is not None else _scroll_of(result["elements"]))
    return f"# {head}{result['url']} scroll={scroll}{' modal' if result.get('modal_detected') else ''}"


def to_prompt(result: Mapping[str, Any], *, max_text: float = PROMPT_MAX_TEXT, title: Optional[str] = None,
              scroll_y: Optional[float] = None, header: bool = True) -> str:
    """The result as text: a header line, then one line per element in result order. Takes a local
    snapshot's result, a /v1/snapshot answer, or an observe map answer (``interactable_elements``)."""
    elements = result.get("elements")
    if elements is None:
        elements = result.get("interactable_elements") or []
        result = {**result, "elements": elements}
    viewport = result.get("viewport")
    height = viewport.get("height") if isinstance(viewport, Mapping) else None
    lines = [prompt_line(e, max_text, height) for e in elements]
    if header:
        lines.insert(0, prompt_header(result, title, scroll_y))
    return "\n".join(lines)
