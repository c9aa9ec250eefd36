"""The same agent loop through the API: the page stays in your Playwright browser, the ranking runs on
the Sightline server (POST /v1/snapshot, 1 credit each). The page's elements are collected with the
shipped collector (``collect_page``) and sent as the snapshot request.

    SIGHTLINE_API_KEY=... SIGHTLINE_BASE_URL=http://127.0.0.1:8787 python examples/agent_api.py
"""
from __future__ import annotations

from typing import Any, Dict, cast

from playwright.sync_api import sync_playwright

from sightline import Sightline, find, to_prompt
from sightline.page import click, collect_page, type
from sightline.types import SnapshotRequest, SnapshotResponse

from agent_local import PAGE


def snapshot_via_api(api: Sightline, url: str, collected: Dict[str, Any], goal: str) -> SnapshotResponse:
    request = {"url": url, "viewport": collected["viewport"], "raw_elements": collected["raw_elements"], "goal": goal,
               "options": {"limit": 20}, "client_metrics": collected["client_metrics"],
               "client_diagnostics": collected["client_diagnostics"]}
    return api.snapshot(cast(SnapshotRequest, request))


def main() -> None:
    api = Sightline()  # SIGHTLINE_API_KEY, SIGHTLINE_BASE_URL
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, chromium_sandbox=False,
                                    args=["--disable-gpu", "--no-first-run", "--disable-background-networking"])
        page = browser.new_page()
        page.set_content(PAGE)
        goal = "sign in as ada@example.com"
        result = snapshot_via_api(api, "https://example.test/signin", collect_page(page), goal)
        print(to_prompt(result), f"\n(credits left: {result['credits_remaining']})\n")
        email, button = find(result, role="textbox", text="email"), find(result, role="button", text="sign in")
        assert email and button
        type(page, email["id"], "ada@example.com")
        click(page, button["id"])
        print(page.inner_text("body"))
        print("usage:", api.usage(limit=3)["balance"])
        browser.close()


if __name__ == "__main__":
    main()
