"""How long a deep link to a late lesson step takes to open: from its seed against replaying every move.

    python bench/lesson_deep_link.py [--runs 3]

Not a test: run it by hand after ``python build.py``. For each step below, a fresh Chromium context
first opens the lesson's first step (Python boots and its caches fill, as for a returning learner),
then opens the late step twice: the first time the page imports the step's seed (the threads the
earlier steps made, recorded at build time: ``site_build/seed_recorder.py``); the second time this browser
already holds those threads, so the page replays every earlier move, as every deep link did before
the seeds. Each time is navigation -> the step ready to predict or act (``section[data-ready]``), at
the lessons' own pace (each node works 0.3 s). The figures are medians over the runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_harness import SiteServer, launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

DIST = Path(__file__).resolve().parents[1] / "dist"
LATE_STEPS = (
    ("idempotency", "fixed-crash", "business-key-crash"),
    ("durability", "sync-crash", "exit-crash"),
    ("replay-fork", "finished", "fork-run"),
    ("threads", "first-thread", "empty-id"),
)
"""(lesson, its first step, a late step that has a seed)."""
TIMEOUT_MS = 180_000


def open_step(page, url: str, step: str) -> tuple[float, str]:
    """Seconds from navigation to the step ready, and whether it came from its seed."""
    started = time.monotonic()
    page.goto(url)
    section = page.locator(f'section[data-step="{step}"][data-ready="true"]')
    section.wait_for(state="attached", timeout=TIMEOUT_MS)
    return time.monotonic() - started, section.get_attribute("data-seeded") or "?"


def measure(browser, site: str, lesson: str, first: str, late: str) -> tuple[float, float]:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.on("console", lambda message: message.type == "warning" and print("  page:", message.text))
        open_step(page, f"{site}/learn/en/{lesson}/{first}/", first)
        seeded, how = open_step(page, f"{site}/learn/en/{lesson}/{late}/", late)
        assert how == "true", f"{lesson}/{late} did not open from its seed"
        replayed, how = open_step(page, f"{site}/learn/en/{lesson}/{late}/", late)
        assert how == "false", f"{lesson}/{late} did not replay on the second visit"
        return seeded, replayed
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with SiteServer(DIST) as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        print(f"{'step':<36} {'seed (s)':>9} {'replay (s)':>11} {'speed-up':>9}")
        for lesson, first, late in LATE_STEPS:
            times = [measure(browser, server.url, lesson, first, late) for _ in range(runs)]
            seeded = statistics.median(t[0] for t in times)
            replayed = statistics.median(t[1] for t in times)
            print(f"{lesson + '/' + late:<36} {seeded:>9.1f} {replayed:>11.1f} {replayed / seeded:>8.1f}x")
        browser.close()


if __name__ == "__main__":
    main()
