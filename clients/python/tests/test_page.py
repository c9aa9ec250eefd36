"""The Playwright helpers on real pages: act by id, find, the prompt, async the same as sync, a page
whose CSP refuses Wasm, and a closed page or a navigation as a clear PageError/ActionError."""
from __future__ import annotations

import asyncio
import re
import time
from typing import Iterator

import pytest
from playwright.async_api import async_playwright
from playwright.sync_api import Browser, sync_playwright

from sightline import ActionError, PageError, find, find_all, to_prompt
from sightline import page_async
from sightline.page import click, collect_page, rank_collected, snapshot, type

from conftest import CHROMIUM, CHROMIUM_ARGS, Site


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, chromium_sandbox=False, args=CHROMIUM_ARGS)
        yield b
        b.close()


def test_an_agent_types_and_clicks_by_id(browser: Browser, site: Site) -> None:
    page = browser.new_page()
    page.goto(f"{site.url}/login.html")
    result = snapshot(page, goal="sign in with my email")
    email = find(result, role="textbox", text="email")
    sign_in = find(result, role="button", text=re.compile(r"^Sign in$"))
    assert email and sign_in
    type(page, email["id"], "ada@example.com")
    click(page, sign_in["id"])
    assert page.text_content("#status") == "Submitted as ada@example.com"
    assert [e["id"] for e in find_all(result, near=sign_in["id"])][:1] != [sign_in["id"]]
    prompt = to_prompt(result, title=page.title())
    assert prompt.splitlines()[0] == f'# "Sign in — Acme" {site.url}/login.html scroll=0'
    assert f"{sign_in['id']} button list: Sign in" in prompt.splitlines()
    with pytest.raises(ActionError, match="disabled"):
        click(page, find(result, text="passkey")["id"], timeout=500)  # type: ignore[index]
    with pytest.raises(ActionError, match="stale id"):
        click(page, 999_999)
    page.close()


def test_a_page_whose_csp_refuses_wasm_is_ranked_in_a_blank_page(browser: Browser, site: Site) -> None:
    page = browser.new_page()
    page.goto(f"{site.url}/csp.html")
    result = snapshot(page, goal="search")
    assert result["elements"][0]["role"] in ("textbox", "searchbox", "button")
    assert {e["role"] for e in result["elements"]} >= {"button", "link"}
    assert len(page.context.pages) == 1  # the blank page that ranked is in a context of its own
    assert snapshot(page, goal="search")["elements"] == result["elements"]
    page.close()


def test_a_closed_page_and_a_navigation_are_clear_errors(browser: Browser, site: Site) -> None:
    page = browser.new_page()
    page.goto(f"{site.url}/login.html")
    collected = collect_page(page)
    page.goto(f"{site.url}/shop.html")
    with pytest.raises(PageError, match="navigated"):
        rank_collected(page, collected)
    result = snapshot(page)
    page.close()
    with pytest.raises(PageError, match="closed"):
        snapshot(page)
    with pytest.raises(ActionError, match="closed|gone"):
        click(page, result["elements"][0]["id"], timeout=500)


def test_snapshots_of_a_page_that_keeps_navigating_answer_or_say_so(browser: Browser, site: Site) -> None:
    page = browser.new_page()
    page.goto(f"{site.url}/reloading.html", wait_until="commit")
    outcomes: list[str] = []
    # At least 15 tries, and up to 60 until one lands mid-navigation: on a loaded machine 15 can all fall between
    # reloads (the page reloads every 5 ms, but a snapshot's timing is the machine's).
    while len(outcomes) < 15 or ("navigated" not in outcomes and len(outcomes) < 60):
        t0 = time.monotonic()
        try:
            result = snapshot(page)
            outcomes.append("ok" if result["elements"] else "empty")
        except PageError as err:
            assert re.search(r"navigated", str(err)), err
            outcomes.append("navigated")
        assert time.monotonic() - t0 < 10, "no hang"
    assert set(outcomes) <= {"ok", "empty", "navigated"} and "navigated" in outcomes, outcomes
    page.close()


def test_the_async_helpers_give_what_the_sync_ones_give(browser: Browser, site: Site) -> None:
    sync_page = browser.new_page()
    sync_page.goto(f"{site.url}/login.html")
    expected = [e["id"] for e in snapshot(sync_page, goal="type my email", limit=10)["elements"]]
    sync_page.close()

    async def run() -> None:
        async with async_playwright() as p:
            b = await p.chromium.launch(executable_path=CHROMIUM, headless=True, chromium_sandbox=False, args=CHROMIUM_ARGS)
            page = await b.new_page()
            await page.goto(f"{site.url}/login.html")
            result = await page_async.snapshot(page, goal="type my email", limit=10)
            assert [e["id"] for e in result["elements"]] == expected
            email = find(result, role="textbox", text="email")
            assert email is not None
            await page_async.type(page, email["id"], "ada@example.com", submit=True)
            assert await page.text_content("#status") == "Submitted as ada@example.com"
            await page.close()
            with pytest.raises(PageError, match="closed"):
                await page_async.snapshot(page)
            await b.close()
    # Its own thread: the sync Playwright of this module keeps an event loop of its own on this one.
    import threading
    errors: list[BaseException] = []
    t = threading.Thread(target=lambda: _run(run, errors))
    t.start()
    t.join(120)
    assert not t.is_alive() and not errors, errors


def _run(fn: "object", errors: "list[BaseException]") -> None:
    try:
        asyncio.run(fn())  # type: ignore[operator]
    except BaseException as err:  # noqa: BLE001 (reported to the test's thread)
        errors.append(err)
