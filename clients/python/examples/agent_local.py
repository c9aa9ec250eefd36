"""An agent loop over a local page, no server: snapshot the page in Playwright, show the model the
prompt text, act on the element it picks, and look again. The "model" here is a stand-in that picks by
the goal's words; put your LLM call in ``choose``.

    python examples/agent_local.py [URL]     (default: a small sign-in page written here)
"""
from __future__ import annotations

import sys
from typing import Optional, Tuple

from playwright.sync_api import sync_playwright

from sightline import find, to_prompt
from sightline.page import click, snapshot, type
from sightline.types import RankResult

PAGE = """<!doctype html><title>Sign in</title>
<form onsubmit="event.preventDefault(); document.body.innerHTML = '<h1>Welcome, ' + this.email.value + '</h1>'">
  <label>Email <input name=email type=email></label> <label>Password <input name=pw type=password></label>
  <button>Sign in</button> <a href="#help">Help</a></form>"""


def choose(prompt: str, result: RankResult, step: int) -> Optional[Tuple[str, int]]:
    """The model's turn: reads ``prompt``, answers an action and an element id (None: done)."""
    print(f"--- step {step}: the model reads\n{prompt}\n")
    if step == 0:
        email = find(result, role="textbox", text="email")
        return ("type", email["id"]) if email else None
    if step == 1:
        button = find(result, role="button", text="sign in")
        return ("click", button["id"]) if button else None
    return None


def main(url: Optional[str]) -> None:
    with sync_playwright() as p:
        # Debian's Chromium with the project's flags; never a downloaded browser.
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, chromium_sandbox=False,
                                    args=["--disable-gpu", "--no-first-run", "--disable-background-networking"])
        page = browser.new_page()
        if url:
            page.goto(url)
        else:
            page.set_content(PAGE)
        for step in range(5):
            result = snapshot(page, goal="sign in as ada@example.com", limit=20)
            action = choose(to_prompt(result, title=page.title()), result, step)
            if action is None:
                break
            verb, id = action
            if verb == "type":
                type(page, id, "ada@example.com")
            else:
                click(page, id)
        print(page.inner_text("body"))
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
