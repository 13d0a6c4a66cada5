"""/play's boot to ready, before -> after a change: two built sites side by side, in headless Chromium.

    python bench/play_boot.py BEFORE_DIST [AFTER_DIST] [--runs 5]

Not a test: run it by hand. AFTER_DIST defaults to a build of this tree. A site of another commit:

    git archive <ref> | tar -x -C /tmp/before && ln -s "$(readlink -f .cache)" /tmp/before/.cache
    (cd /tmp/before && PYTHONPATH=$PWD python build.py)   # then: python bench/play_boot.py /tmp/before/dist

Each run visits each page of each site (interleaved, the order turned round every other run, so that
machine load hits both alike) as one learner: a first visit in a fresh browser context on a slow link
(navigator.connection says 2 Mbit/s, so no shipped memory snapshot: Pyodide's full boot, the lab's
modules imported), waited on until its background work is done (the spare, the offline copy, the stored
snapshot), then a reload: the returning visit, which restores Python from the stored snapshot.
Measured on each: navigation start until the page first shows its Python process ready
(``body[data-process=ready]``, noted by a ``MutationObserver`` installed before the page's scripts), and
the worker's Python work as the worker times it: its "lab" boot stage (the worker's modules
imported) and "restore" stage (the lab opened: storage, and the page's graph if it names one). The lab
page (/) is measured the same way: it names the AML graph, which the snapshot no longer holds (issue
35). Printed: the medians before -> after, and each run's figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from boot import FIRST_VISIT_DONE, built_site, new_page, poll  # noqa: E402
from browser_harness import SiteServer, launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from site_build.offline import precache_list  # noqa: E402

READY_AT = """
(() => {
  window.__stages = {};  // the first worker's boot stages, as long as the worker says each took
  const PageWorker = window.Worker;
  window.Worker = class extends PageWorker {
    constructor(...args) {
      super(...args);
      if (window.__watched) return;
      window.__watched = true;
      this.addEventListener("message", ({ data }) => {
        if (data?.type === "boot" && data.state === "done") window.__stages[data.stage] = data.ms;
      });
    }
  };
  const note = () => {
    if (window.__readyAt === undefined && document.body?.dataset.process === "ready") {
      window.__readyAt = performance.now();
    }
  };
  new MutationObserver(note).observe(document, { attributes: true, subtree: true, childList: true });
})();
"""
"""Installed before the page's scripts: the moment (ms since navigation start) it first shows "ready", and
the first worker's boot stages as it times them (its "done" events' ``ms``, protocol.mjs: the worker's
own clock, not the page's, which /play's editor bundle keeps busy meanwhile)."""
STAGES_MS = "() => window.__stages.ready && { lab: window.__stages.lab, restore: window.__stages.restore }"
PAGES = {"/play": "/play", "lab": "/"}
VISITS = ("first", "returning")
FIGURES = ("ready", "python", "lab", "restore")


def measured(page) -> dict[str, float | str]:
    """The visit's figures, once the page shows its process ready."""
    ready = poll(page, "() => window.__readyAt", "the page to show its Python process ready")
    stages = poll(page, STAGES_MS, "the boot stages' marks")
    snapshot = poll(page, "() => lab.status.ready && lab.status.ready.snapshot", "the ready event")
    return {"ready": ready, **stages, "python": stages["lab"] + stages["restore"], "snapshot": snapshot}


def visit(browser, url: str, files: int) -> dict[str, dict[str, float | str]]:
    """A first visit on a slow link, its background work done, then a reload: each one's figures."""
    page = new_page(browser, "slow")
    page.context.add_init_script(READY_AT)
    page.goto(url)
    first = measured(page)
    poll(page, FIRST_VISIT_DONE.replace("FILES", str(files)), "the first visit's background work")
    page.reload()
    returning = measured(page)
    page.context.close()
    return {"first": first, "returning": returning}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the built site (dist/) before the change")
    parser.add_argument("after", type=Path, nargs="?", help="the site after (default: this tree, built)")
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        after = options.after or built_site(tmp)[0]
        sites = {"before": options.before, "after": after}
        runs: dict[tuple[str, str], list[dict]] = {(s, p): [] for s in sites for p in PAGES}
        load_before = os.getloadavg()
        with ExitStack() as stack, sync_playwright() as playwright:
            servers = {name: stack.enter_context(SiteServer(dist)) for name, dist in sites.items()}
            browser = launch_chromium(playwright)
            for run in range(options.runs):
                order = [(s, p) for s in sites for p in PAGES]
                for site, page in order[:: -1 if run % 2 else 1]:
                    files = len(precache_list(sites[site]))
                    runs[site, page].append(visit(browser, servers[site].url + PAGES[page], files))
            browser.close()
        load_after = os.getloadavg()

    print(f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} CPUs, load average "
          f"{load_before[0]:.1f} before / {load_after[0]:.1f} after, {options.runs} runs")  # fmt: skip
    print("median ms, before -> after: navigation -> ready shown; the worker's lab stage (import lab's")
    print("worker modules) + restore stage (open the lab: storage, and the page's graph if it names one)")
    for page in PAGES:
        for kind in VISITS:
            cells = []
            for figure in FIGURES:
                before, after = (statistics.median(r[kind][figure] for r in runs[s, page]) for s in sites)
                cells.append(f"{figure} {before:.0f} -> {after:.0f} ({after / before - 1:+.0%})")
            snapshots = {r[kind]["snapshot"] for s in sites for r in runs[s, page]}
            print(f"   {page:<5} {kind:<9}  {';  '.join(cells)}   snapshot: {', '.join(sorted(snapshots))}")
    for (site, page), visits in runs.items():
        for kind in VISITS:
            each = "  ".join(f"{figure} {[round(v[kind][figure]) for v in visits]}" for figure in FIGURES)
            print(f"   {site:<6} {page:<5} {kind:<9} {each}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
