"""Finding elements in a rank result by what an agent knows of them: a role, some text, and where they
are (near another element). No ranking here: matches keep the core's order, or come nearest first with
``near`` (as src/client/find.ts)."""
from __future__ import annotations

import math
from typing import Any, Iterable, List, Mapping, Optional, Pattern, Union

Element = Mapping[str, Any]


def _matches_text(e: Element, text: Union[str, Pattern[str]]) -> bool:
    fields = [f for f in (e.get("text"), e.get("name"), e.get("value")) if isinstance(f, str) and f]
    if isinstance(text, str):
        needle = text.lower()
        return any(needle in f.lower() for f in fields)
    return any(text.search(f) for f in fields)


def _center(e: Element) -> tuple[float, float]:
    b = e["bbox"]
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def find_all(result: Mapping[str, Any], *, role: Union[str, Iterable[str], None] = None,
             text: Union[str, Pattern[str], None] = None, near: Union[int, Element, None] = None) -> List[Element]:
    """Every element of ``result`` that fits: ``role`` (one or several), ``text`` (contained,
    case-insensitive, in its text, name or value; or a compiled regular expression), ``near`` (an id in
    the same result, or an element: matches come nearest first). Elements reported gone are left out."""
    elements: List[Element] = list(result.get("elements") or [])
    roles = None if role is None else ({role} if isinstance(role, str) else set(role))
    anchor: Optional[Element] = next((e for e in elements if e["id"] == near), None) if isinstance(near, int) else near
    if near is not None and anchor is None:
        raise ValueError(f"find: element {near} (near) is not in the result")
    found = [e for e in elements if e.get("diff_status") != "REMOVED"
             and (roles is None or e.get("role") in roles)
             and (text is None or _matches_text(e, text))
             and (anchor is None or e["id"] != anchor["id"])]
    if anchor is None:
        return found
    ax, ay = _center(anchor)
    return sorted(found, key=lambda e: math.hypot(_center(e)[0] - ax, _center(e)[1] - ay))


def find(result: Mapping[str, Any], *, role: Union[str, Iterable[str], None] = None,
         text: Union[str, Pattern[str], None] = None, near: Union[int, Element, None] = None) -> Optional[Element]:
    """The first element that fits (the nearest with ``near``), or None."""
    found = find_all(result, role=role, text=text, near=near)
    return found[0] if found else None
