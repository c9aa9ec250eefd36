"""Shared test vectors: the Python helpers (the injected rank core) against the TypeScript library
(build/client.js, run by tests/ts_snapshots.mjs in the same run), with and without a goal.

- On the fixture pages, both load the page in their own Chromium and snapshot it: the same elements
  (ids, order, every field), the same rerank report and the same prompt text.
- On every page, fixtures and WCXB development pages, the TypeScript library ranks the very collection
  the Python helper made (WCXB pages' own CSS transitions move some boxes by a pixel between two loads
  of the page, so two loads are not one page): again the same elements and prompt.
"""
from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest
from playwright.sync_api import Route, sync_playwright

from sightline import to_prompt
from sightline.page import collect_page, rank_collected

from conftest import CHROMIUM, CHROMIUM_ARGS, FIXTURES, Site, chromium_args_json, wcxb_ids

# Pages whose content changes by itself (rerender, lazy, faded) are left out; big.html is only slow.
SKIP = {"rerender.html", "lazy.html", "faded.html", "big.html"}
# An ad frame that navigates every 25 ms: two loads collect it or not by chance (same-collection check only).
NOT_TWICE_THE_SAME = {"nested-frames.html"}
GOALS = ["search for shoes", "sign in", "add to cart", "contact us", "read the latest news", "accept cookies"]
RUNS_PER_PAGE = 2


def pages(site: Site) -> Tuple[List[str], List[str]]:
    fixtures = [f"{site.url}/{p.name}" for p in sorted(FIXTURES.glob("*.html")) if p.name not in SKIP | NOT_TWICE_THE_SAME]
    others = [f"{site.url}/{name}" for name in sorted(NOT_TWICE_THE_SAME)]
    return fixtures, others + [f"{site.url}/wcxb/{i}.html" for i in wcxb_ids(8)]


def runs(n: int) -> List[Dict[str, Any]]:
    """Without a goal (default limit), then with one (limit 15)."""
    return [{"goal": None, "limit": None}, {"goal": GOALS[n % len(GOALS)], "limit": 15}]


def typescript(job: Dict[str, Any], tmp: Path, name: str) -> "subprocess.Popen[bytes]":
    (tmp / f"{name}.job.json").write_text(json.dumps(job))
    return subprocess.Popen(["node", str(Path(__file__).with_name("ts_snapshots.mjs")), str(tmp / f"{name}.job.json"), str(tmp / f"{name}.out.json")])


def python_side(site: Site, urls: List[str]) -> List[Dict[str, Any]]:
    origins = [site.url, site.other_origin]

    def offline(route: Route) -> None:
        if any(route.request.url.startswith(o + "/") for o in origins):
            route.continue_()
        else:
            route.abort()

    out: List[Dict[str, Any]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, chromium_sandbox=False, args=CHROMIUM_ARGS)
        try:
            for n, url in enumerate(urls):
                page = browser.new_page()
                page.route("**/*", offline)
                page.goto(url, wait_until="load")
                page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(undefined))))")
                for run in runs(n):
                    goal: Optional[str] = run["goal"]
                    collected = collect_page(page)
                    # snapshot() is collect_page then rank_collected; kept apart to hand TS the same collection.
                    result = rank_collected(page, collected, goal=goal, limit=run["limit"])
                    out.append({"url": url, **run, "collected": collected, "result": result})
                page.close()
        finally:
            browser.close()
    return out


def same(p: Dict[str, Any], t: Dict[str, Any], where: str) -> None:
    ids = [e["id"] for e in p["result"]["elements"]]
    assert ids, f"{where}: no elements"
    assert ids == [e["id"] for e in t["elements"]], where
    assert p["result"]["elements"] == t["elements"], where
    assert p["result"]["ml_rerank"] == t["ml_rerank"], where
    assert p["result"]["modal_detected"] == t["modal_detected"], where
    assert to_prompt(p["result"], title="T") == t["prompt"], where
    # The formatter alone, on the TypeScript result:
    assert to_prompt({**p["result"], "elements": t["elements"]}, title="T") == t["prompt"], where


@pytest.fixture(scope="module")
def vectors(site: Site) -> Dict[str, Any]:
    fixtures, others = pages(site)
    urls = fixtures + others
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        # The TS side loads the fixture pages meanwhile, in its own Chromium.
        full = typescript({"pages": [{"url": u, "runs": runs(n)} for n, u in enumerate(fixtures)], "origins": [site.url, site.other_origin],
                           "chromiumArgs": chromium_args_json()}, tmp, "full")
        py = python_side(site, urls)
        ranked = typescript({"collections": [{k: c[k] for k in ("url", "goal", "limit", "collected")} for c in py]}, tmp, "ranked")
        assert full.wait(timeout=600) == 0 and ranked.wait(timeout=600) == 0
        return {"urls": urls, "fixtures": fixtures, "py": py,
                "full": json.loads((tmp / "full.out.json").read_text()), "ranked": json.loads((tmp / "ranked.out.json").read_text())}


def test_at_least_twenty_pages_with_and_without_a_goal(vectors: Dict[str, Any]) -> None:
    assert len(vectors["urls"]) >= 20 and any("/wcxb/" in u for u in vectors["urls"])
    goals = [c for c in vectors["py"] if c["goal"]]
    assert len(goals) == len(vectors["urls"])
    # The goal rerank ran on the goal cases, so "with a goal" compared the goal's order.
    assert sum(1 for c in goals if c["result"]["ml_rerank"]["applied"]) >= len(goals) // 2


def test_loaded_by_each_side_fixture_pages_rank_the_same(vectors: Dict[str, Any]) -> None:
    py = [c for c in vectors["py"] if c["url"] in vectors["fixtures"]]
    assert len(py) == len(vectors["full"]) == RUNS_PER_PAGE * len(vectors["fixtures"])
    for p, t in zip(py, vectors["full"]):
        same(p, t, f"{p['url']} goal={p['goal']!r}")


def test_the_same_collection_ranks_the_same_on_every_page(vectors: Dict[str, Any]) -> None:
    assert len(vectors["py"]) == len(vectors["ranked"])
    for p, t in zip(vectors["py"], vectors["ranked"]):
        same(p, t, f"{p['url']} goal={p['goal']!r}")
