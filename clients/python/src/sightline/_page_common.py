"""What the sync and async page helpers share: the two scripts they inject, the page-side calls, the
id bookkeeping per tab, and the one-line explanations of failed actions (as src/client/page.ts)."""
from __future__ import annotations

import base64
import json
import re
from importlib import resources
from typing import Any, Dict, Optional

from .errors import ActionError, PageError

#: Ids of elements in cross-origin frames start at ordinal * FRAME_ID_SPAN (src/collect/types.ts).
FRAME_ID_SPAN = 1_000_000
#: Top-document ids stay below this; past it a new document numbers from 1 again.
TOP_IDS_MAX = FRAME_ID_SPAN // 2
#: Cross-origin frames nested deeper than this are not collected.
MAX_FRAME_DEPTH = 3
DEFAULT_ACTION_TIMEOUT_MS = 5000

_sources: Dict[str, str] = {}


def asset(name: str) -> str:
    """collector.js (the shipped collector) or rank-page.js (the rank core with its Wasm inlined), both
    built from the repository by scripts/build.js and shipped inside this package."""
    if name not in _sources:
        try:
            _sources[name] = resources.files("sightline").joinpath("_assets").joinpath(name).read_text(encoding="utf-8")
        except FileNotFoundError as err:
            raise RuntimeError(f"sightline: {name} is missing from the package; build it with `node scripts/build.js` "
                               "in the Sightline repository before building the wheel") from err
    return _sources[name]


def table_base64() -> str:
    """goal-embed.bin (the goal rerank's embedding table, 4.3 MB; docs/rerank.md), base64: too big to inline
    in rank-page.js, it is passed once per window, only when a goal is given."""
    if "goal-embed.bin" not in _sources:
        try:
            raw = resources.files("sightline").joinpath("_assets").joinpath("goal-embed.bin").read_bytes()
        except FileNotFoundError as err:
            raise RuntimeError("sightline: goal-embed.bin is missing from the package; build it with `node scripts/build.js` "
                               "in the Sightline repository before building the wheel") from err
        _sources["goal-embed.bin"] = base64.b64encode(raw).decode("ascii")
    return _sources["goal-embed.bin"]


HAS_COLLECTOR = "() => !!window.__sightline"
HAS_RANKER = "() => !!window.__sightlineRank"
HAS_TABLE = "() => window.__sightlineRank.hasTable()"
USE_TABLE = "(b64) => window.__sightlineRank.useTable(b64)"
# Each document gets a token with its first collection: ranking checks that the page still shows that
# document, so a navigation between collecting and ranking is an error, not a result for the wrong page.
COLLECT = """(o) => {
  window.__sightlineDocument = window.__sightlineDocument || Math.random().toString(36).slice(2);
  const r = window.__sightline.collect(o);
  r.document = window.__sightlineDocument;
  return JSON.stringify(r);
}"""
SAME_DOCUMENT = "(token) => window.__sightlineDocument === token"
RANK = "([url, collected, options]) => window.__sightlineRank.rank(url, collected, options)"
SET_WALKER = "(m) => { window.__sightlineWalker = m; return true; }"
# The frame element's id in the registry of the window whose walk met it (up the element's windows).
ID_IN_WALKER = """(el, m) => {
  for (let w = window; ; w = w.parent) {
    try { if (w.__sightlineWalker === m) return w.__sightline ? w.__sightline.idOf(el) : undefined; } catch { return undefined; }
    if (w === w.parent) return undefined;
  }
}"""
RESOLVE_LOCAL = "(local) => (window.__sightline ? window.__sightline.resolve(local) : null)"
OWNS = """(n) => {
  try { const el = window.top.__sightline && window.top.__sightline.resolve(n); return !!el && el.ownerDocument === document; }
  catch { return false; }
}"""
RESOLVE_TOP = "(n) => window.top.__sightline.resolve(n)"


class PageState:
    """A tab's frames and id counters: ids continue across the tab's documents."""

    def __init__(self) -> None:
        self.ordinals: Dict[int, int] = {}  # id(frame) -> ordinal
        self.by_ordinal: Dict[int, Any] = {}
        self.next = 1
        self.top_next = 1

    def ordinal_of(self, frame: Any) -> int:
        key = id(frame)
        if key not in self.ordinals or self.by_ordinal.get(self.ordinals[key]) is not frame:
            self.ordinals[key] = self.next
            self.by_ordinal[self.next] = frame
            self.next += 1
        return self.ordinals[key]


def origin_of(url: str) -> str:
    """A frame's document origin as JavaScript's `new URL(url).origin` gives it for the URLs a browser
    reports (already normalised): "null" for about:, data:, file: and other opaque ones."""
    if url.lower().startswith("blob:"):
        return origin_of(url[5:])
    m = re.match(r"^((?:https?|wss?|ftp)://)(?:[^/?#@]*@)?([^/?#]*)", url, re.I)
    return (m.group(1) + m.group(2)).lower() if m else "null"


def collect_options(options: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in options.items() if v is not None}


def rank_options(goal: Optional[str], limit: Optional[int], filter: Optional[Dict[str, Any]], previous: Optional[Any]) -> str:
    return json.dumps({k: v for k, v in (("goal", goal), ("limit", limit), ("filter", filter), ("previous", previous)) if v is not None})


def page_error(err: BaseException, doing: str) -> Exception:
    """A Playwright error while collecting or ranking, said plainly (closed page, navigation)."""
    text = str(err)
    if re.search(r"has been closed|Target closed|Browser closed|browser has disconnected", text, re.I):
        return PageError(f"cannot {doing}: the page (or its browser) is closed")
    if re.search(r"Execution context was destroyed|navigat|Frame was detached|context was destroyed", text, re.I):
        return PageError(f"cannot {doing}: {NAVIGATED}")
    return PageError(f"cannot {doing}: {text.splitlines()[0] if text else type(err).__name__}")


NAVIGATED = "the page navigated while it was read; take a new snapshot once it has loaded"


def is_csp_refusal(err: BaseException) -> bool:
    return bool(re.search(r"Content Security Policy|CompileError|wasm-unsafe-eval|unsafe-eval", str(err)))


def explain(id: int, verb: str, err: BaseException) -> ActionError:
    """Playwright's long call logs, said in a line: what was wrong with the element."""
    if isinstance(err, ActionError):
        return err
    text = str(err)
    first = text.split("\n")[0]
    covered = re.search(r"<([a-z0-9-]+)[^>]*>.*?intercepts pointer events", text, re.I | re.S)
    if covered:
        return ActionError(f"element {id} is covered by another element (<{covered.group(1)}>): close the overlay or dialog first", id)
    if re.search(r"has been closed|Target closed", text):
        return ActionError(f"cannot {verb} element {id}: the page is closed", id)
    if "is gone" in text:
        return ActionError(f"unknown or stale id {id}: {text}; take a new snapshot", id)
    if re.search(r"not an? <select>|Element is not a <select>", text, re.I):
        return ActionError(f"element {id} is not a <select>: use click for custom drop-downs", id)
    if re.search(r"not a checkbox or radio|Not a checkbox or radio button", text, re.I):
        return ActionError(f"element {id} is not a checkbox or radio button", id)
    if re.search(r"did not find some options", text, re.I):
        return ActionError(f"element {id} has no such option", id)
    if re.search(r"not an <input>, <textarea>|cannot be filled|not editable", text, re.I):
        return ActionError(f"element {id} cannot be typed into (not a text field)", id)
    if re.search(r"element is not enabled|disabled", text, re.I):
        return ActionError(f"element {id} is disabled", id)
    if re.search(r"element is not visible|not visible", text, re.I):
        return ActionError(f"element {id} is not visible", id)
    if re.search(r"Timeout \d+ms exceeded", text):
        return ActionError(f"could not {verb} element {id} in time: {first}", id)
    return ActionError(f"could not {verb} element {id}: {first}", id)
