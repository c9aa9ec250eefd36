"""browser-use's DOM state for an LLM, for bench/peers.bench.ts, driven over stdin/stdout.

Argument: the CDP URL of a Chromium the benchmark started (Debian's, headless, 1280x800, every request but
the benchmark's own loopback server refused by that Chromium's flags). browser-use connects to it as to any
browser it did not launch. Each input line is JSON {"url": ...}: the page is loaded by browser-use's own
navigation (not timed), then timed: its browser state summary (DOM tree, accessibility and layout snapshot
through CDP, its serializer) and the text it puts in the agent's prompt for the page's elements
(`dom_state.llm_representation()`). Output line: {"text", "ms", "error"}. Telemetry and cloud sync off.
"""
import asyncio
import json
import os
import sys
import time

os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")
os.environ.setdefault("BROWSER_USE_CLOUD_SYNC", "false")
os.environ.setdefault("BROWSER_USE_LOGGING_LEVEL", "error")

from browser_use import BrowserSession  # noqa: E402
from browser_use.browser.profile import BrowserProfile  # noqa: E402


async def main(cdp_url):
    session = BrowserSession(browser_profile=BrowserProfile(cdp_url=cdp_url, is_local=False, keep_alive=True,
                                                            highlight_elements=False, dom_highlight_elements=False,
                                                            minimum_wait_page_load_time=0.05,
                                                            wait_for_network_idle_page_load_time=0.05))
    await session.start()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            break
        job = json.loads(line)
        out = {"text": "", "ms": 0.0, "error": None}
        try:
            await session.navigate_to(job["url"])
            t0 = time.perf_counter()
            state = await session.get_browser_state_summary(include_screenshot=False)
            out["text"] = state.dom_state.llm_representation()
            out["ms"] = (time.perf_counter() - t0) * 1000
        except Exception as err:
            out["error"] = f"{type(err).__name__}: {err}"[:300]
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    await session.kill()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
