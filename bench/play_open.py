"""Opening /play on a returning visit, against opening the lab page (/) the same way, in headless Chromium.

    python bench/play_open.py [--runs 5]

Not a test: run it by hand. Each run is one learner per page, interleaved (lab then playground, then the
other way round in the next run) so that machine load and order hit both alike: a first visit in a
fresh browser context, waited on until its background work is done (the spare process, the service
worker's offline copy, the Python memory snapshot), then a reload: the returning visit, with every
cache warm. Measured on the returning visit: navigation start until the page is usable with Python
ready (the lab: Start shown, ``body[data-ready-ms]``; the playground: the editor shown and the lab's
process ready, ``body[data-process=ready]``: Run answers at once), read from a ``MutationObserver``
installed before the page's own scripts, the same way for both.
Printed: both medians, their ratio (target: at most 1.10), and each run's figures. Also the bytes the
server sent on each page's first visit (a cache hit costs nothing): the offline copy precaches the whole
site from either page, the editor's bundle included, so both first visits cost the same bytes.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from boot import FIRST_VISIT_DONE, built_site, poll, wire_bytes  # noqa: E402
from browser_harness import SiteServer, launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

USABLE_AT = """
(() => {
  const usable = () => document.body && (document.body.dataset.readyMs !== undefined
    || (document.body.dataset.ready === "true" && document.body.dataset.process === "ready"));
  const note = () => {
    if (window.__usableAt === undefined && usable()) window.__usableAt = performance.now();
  };
  new MutationObserver(note).observe(document, { attributes: true, subtree: true, childList: true });
})();
"""
"""Installed before the page's scripts: the moment (ms since navigation start) the page became usable."""
PAGES = {"lab": "/", "playground": "/play"}


def visit(browser, server: SiteServer, url: str, files: int, dist: Path) -> tuple[float, int]:
    """A first visit, its background work done, then a reload: (ms to usable on the reload, bytes of
    the first visit)."""
    context = browser.new_context()
    context.add_init_script(USABLE_AT)
    page = context.new_page()
    server.requests.clear()
    page.goto(url)
    poll(page, "() => window.__usableAt !== undefined", "the first visit to be usable")
    poll(page, FIRST_VISIT_DONE.replace("FILES", str(files)), "the first visit's background work")
    sent = wire_bytes(server, dist)[0]
    page.reload()
    usable = poll(page, "() => window.__usableAt", "the returning visit to be usable")
    context.close()
    return usable, sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    with tempfile.TemporaryDirectory() as tmp:
        dist, files = built_site(tmp)
        load_before = os.getloadavg()
        ms: dict[str, list[float]] = {name: [] for name in PAGES}
        sent: dict[str, list[int]] = {name: [] for name in PAGES}
        with SiteServer(dist) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for run in range(runs):
                pages = list(PAGES.items())
                for name, path in pages[:: -1 if run % 2 else 1]:  # each page goes first every other run
                    usable, first = visit(browser, server, server.url + path, files, dist)
                    ms[name].append(usable)
                    sent[name].append(first)
            browser.close()
        load_after = os.getloadavg()

    print(f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} CPUs, load average "
          f"{load_before[0]:.1f} before / {load_after[0]:.1f} after, {runs} runs")  # fmt: skip
    lab, play = statistics.median(ms["lab"]), statistics.median(ms["playground"])
    per_run = statistics.median(p / q for p, q in zip(ms["playground"], ms["lab"], strict=True))
    print(f"returning visit, to usable: /play {play:.0f} ms / lab {lab:.0f} ms = {play / lab:.2f}")
    print(f"   median of the per-run ratios {per_run:.2f} (target: at most 1.10)")
    for name in PAGES:
        print(f"   {name:<11} per run (ms): {[round(value) for value in ms[name]]}")
    lab_bytes, play_bytes = statistics.median(sent["lab"]), statistics.median(sent["playground"])
    print(
        f"first visit, bytes sent: /play {play_bytes / 2**20:.2f} MiB / lab {lab_bytes / 2**20:.2f} MiB"
        f" = {play_bytes / lab_bytes:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
