"""Helpers for Playwright for Python (async API): snapshot a page and act on its elements by id, with no
server. ``snapshot`` injects the shipped collector into every frame and the rank core (the Wasm build
the extension runs) into the page, and ranks there: the result is what the TypeScript library's
``snapshot`` returns for the same page. The same functions as ``sightline.page``, awaited:

    from sightline.page_async import snapshot, click
    from sightline import to_prompt

    result = await snapshot(page, goal="sign in", limit=20)
    print(to_prompt(result))
    await click(page, result["elements"][0]["id"])
"""
from __future__ import annotations

import json
import random
import weakref
from typing import Any, Dict, List, Optional, Sequence, Union, cast

from playwright.async_api import BrowserContext, ElementHandle, Error as PlaywrightError, Frame, Page

from . import _page_common as c
from .errors import ActionError, PageError
from .types import ElementFilter, PreviousElement, RankResult

_states: "weakref.WeakKeyDictionary[Page, c.PageState]" = weakref.WeakKeyDictionary()
_rank_pages: "weakref.WeakKeyDictionary[BrowserContext, Page]" = weakref.WeakKeyDictionary()


def _state(page: Page) -> c.PageState:
    if page not in _states:
        _states[page] = c.PageState()
    return _states[page]


async def _inject(frame: Frame, check: str = c.HAS_COLLECTOR, source: str = "collector.js") -> None:
    try:
        present = bool(await frame.evaluate(check))
    except PlaywrightError:
        present = False
    if not present:
        await frame.evaluate(c.asset(source))


async def _inject_ranker(frame: Frame, goal: Optional[str]) -> None:
    """The rank core, and with a goal its embedding table (once per window), so a goal ranks as in Node."""
    await _inject(frame, c.HAS_RANKER, "rank-page.js")
    if goal and goal.strip() and not await frame.evaluate(c.HAS_TABLE):
        await frame.evaluate(c.USE_TABLE, c.table_base64())


async def _collect_in(frame: Frame, options: Dict[str, Any]) -> Dict[str, Any]:
    return cast(Dict[str, Any], json.loads(await frame.evaluate(c.COLLECT, c.collect_options(options))))


def _descendants(frame: Frame) -> List[Frame]:
    origin = c.origin_of(frame.url)
    out: List[Frame] = []
    level = frame.child_frames
    for _ in range(c.MAX_FRAME_DEPTH):
        if not level:
            break
        out.extend(level)
        level = [g for f in level if c.origin_of(f.url) in (origin, "null") for g in f.child_frames]
    return out


async def collect_page(page: Page) -> Dict[str, Any]:
    """The collection of every frame (cross-origin frames too, their ids offset by FRAME_ID_SPAN), as
    src/playwright/collect-page.ts makes it. Raises PageError when the page is closed or navigates."""
    try:
        return await _collect_page(page)
    except PlaywrightError as err:
        raise c.page_error(err, "collect the page") from None


async def _collect_page(page: Page) -> Dict[str, Any]:
    main = page.main_frame
    await _inject(main)
    state = _state(page)
    top = await _collect_in(main, {"idsFrom": state.top_next if state.top_next < c.TOP_IDS_MAX else None})
    for e in top["raw_elements"] + top["frames"]:
        if state.top_next <= e["id"] < c.FRAME_ID_SPAN:
            state.top_next = e["id"] + 1
    top_viewport = {**top["viewport"], "scrollY": top["scroll_y"]}
    queue = [(main, top, 0)]
    while queue:
        frame, result, depth = queue.pop(0)
        if not result["frames"] or depth >= c.MAX_FRAME_DEPTH:
            continue
        mark = f"f{depth}-{len(queue)}-{random.random()}"
        try:
            if not await frame.evaluate(c.SET_WALKER, mark):
                continue
        except PlaywrightError:
            continue
        for child in _descendants(frame):
            try:
                element = await child.frame_element()
                fid = await element.evaluate(c.ID_IN_WALKER, mark)
            except PlaywrightError:
                continue
            opaque = next((f for f in result["frames"] if f["id"] % c.FRAME_ID_SPAN == fid), None)
            if opaque is None:
                continue
            # A frame that navigates or goes away while collected (an ad rotating) is left out, not the snapshot.
            try:
                await _inject(child)
                inner = await _collect_in(child, {"idBase": state.ordinal_of(child) * c.FRAME_ID_SPAN, "offset": opaque["offset"], "topViewport": top_viewport})
            except PlaywrightError:
                continue
            top["raw_elements"].extend(inner["raw_elements"])
            top["truncated"] += inner["truncated"]
            queue.append((child, inner, depth + 1))
    return top


async def _rank_page(page: Page) -> Page:
    """A blank page for pages whose Content-Security-Policy refuses Wasm: in a context of its own (the
    page's own context may refuse a second page, and the agent's context keeps only its pages), or in
    the page's context when the browser makes no other (a persistent context)."""
    context = page.context
    spare = _rank_pages.get(context)
    if spare is None or spare.is_closed():
        spare = await (context.browser.new_page() if context.browser else context.new_page())
        _rank_pages[context] = spare
    return spare


async def rank_collected(page: Page, collected: Dict[str, Any], *, goal: Optional[str] = None, limit: Optional[int] = None,
                   filter: Optional[ElementFilter] = None, previous: Optional[Sequence[PreviousElement]] = None) -> RankResult:
    """Ranks an earlier collection of ``page`` with the injected rank core."""
    args = [page.url, json.dumps(collected), c.rank_options(goal, limit, cast(Optional[Dict[str, Any]], filter), previous)]
    try:
        if "document" in collected and not await page.evaluate(c.SAME_DOCUMENT, collected["document"]):
            raise PageError(f"cannot rank the page: {c.NAVIGATED}")
        try:
            await _inject_ranker(page.main_frame, goal)
            text = await page.evaluate(c.RANK, args)
        except PlaywrightError as err:
            if not c.is_csp_refusal(err):
                raise
            spare = await _rank_page(page)
            await _inject_ranker(spare.main_frame, goal)
            text = await spare.evaluate(c.RANK, args)
    except PlaywrightError as err:
        raise c.page_error(err, "rank the page") from None
    return cast(RankResult, json.loads(text))


async def snapshot(page: Page, *, goal: Optional[str] = None, limit: Optional[int] = None, filter: Optional[ElementFilter] = None,
             previous: Optional[Sequence[PreviousElement]] = None) -> RankResult:
    """Collects every frame and ranks in the page: the elements most worth acting on first (``limit``,
    default 50), put in the goal's order when a ``goal`` is given; ``previous`` (an earlier result's
    elements) sets ``diff_status``. Raises PageError when the page is closed or navigates meanwhile."""
    return await rank_collected(page, await collect_page(page), goal=goal, limit=limit, filter=filter, previous=previous)


async def resolve(page: Page, id: float) -> ElementHandle:
    """The live element behind an id of the latest snapshot, in the frame that owns it."""
    id = int(id)
    if id >= c.FRAME_ID_SPAN:
        frame: Optional[Frame] = _state(page).by_ordinal.get(id // c.FRAME_ID_SPAN)
        handle = (await frame.evaluate_handle(c.RESOLVE_LOCAL, id % c.FRAME_ID_SPAN)).as_element() if frame and not frame.is_detached() else None
        if handle is None:
            raise ActionError(f"unknown or stale id {id}: element {id} is gone (its frame was detached or the node removed); take a new snapshot", id)
        return handle
    for frame in page.frames:
        try:
            owns = await frame.evaluate(c.OWNS, id)
        except PlaywrightError:
            owns = False
        if owns:
            found = (await frame.evaluate_handle(c.RESOLVE_TOP, id)).as_element()
            if found is not None:
                return found
    raise ActionError(f"unknown or stale id {id}: element {id} is gone (removed from the page since the snapshot); take a new snapshot", id)


async def _act(page: Page, id: float, verb: str, timeout: Optional[float], fn: Any) -> Any:
    try:
        return await fn(await resolve(page, id), timeout if timeout is not None else c.DEFAULT_ACTION_TIMEOUT_MS)
    except (PlaywrightError, ActionError) as err:
        raise c.explain(int(id), verb, err) from None


async def click(page: Page, id: float, *, timeout: Optional[float] = None) -> None:
    """Clicks the element (waits up to ``timeout`` ms, default 5000, for it to be actionable)."""
    await _act(page, id, "click", timeout, lambda el, t: el.click(timeout=t))


async def type(page: Page, id: float, text: str, *, submit: bool = False, timeout: Optional[float] = None) -> None:
    """Replaces the value of a text field (or contenteditable) with ``text``; ``submit`` presses Enter after."""
    async def fill(el: ElementHandle, t: float) -> None:
        await el.fill(text, timeout=t)
        if submit:
            await el.press("Enter", timeout=t)
    await _act(page, id, "type into", timeout, fill)


async def select(page: Page, id: float, values: Union[str, List[str]], *, timeout: Optional[float] = None) -> List[str]:
    """Chooses options of a <select> by value or label; answers the values now selected."""
    return cast(List[str], await _act(page, id, "select in", timeout, lambda el, t: el.select_option(values, timeout=t)))


async def check(page: Page, id: float, *, checked: bool = True, timeout: Optional[float] = None) -> None:
    """Checks (or with ``checked=False`` unchecks) a checkbox or radio button."""
    await _act(page, id, "check", timeout, lambda el, t: el.set_checked(checked, timeout=t))


async def hover(page: Page, id: float, *, timeout: Optional[float] = None) -> None:
    await _act(page, id, "hover", timeout, lambda el, t: el.hover(timeout=t))


async def press(page: Page, key: str, id: Optional[float] = None, *, timeout: Optional[float] = None) -> None:
    """Presses a key or chord ("Enter", "Control+A") on an element, or on the page without ``id``."""
    if id is None:
        try:
            await page.keyboard.press(key)
        except PlaywrightError as err:
            raise ActionError(f"could not press {key}: {str(err).splitlines()[0]}") from None
        return
    await _act(page, id, f"press {key} on", timeout, lambda el, t: el.press(key, timeout=t))


async def scroll_to(page: Page, id: float, *, timeout: Optional[float] = None) -> None:
    await _act(page, id, "scroll to", timeout, lambda el, t: el.scroll_into_view_if_needed(timeout=t))


__all__ = ["snapshot", "collect_page", "rank_collected", "resolve", "click", "type", "select", "check", "hover", "press",
           "scroll_to", "PageError", "ActionError"]
