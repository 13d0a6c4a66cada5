"""Where the CPU goes during a cold visit: the lab next to a bare ``loadPyodide()`` page, thread by thread.

    python bench/boot_cpu.py [--runs 3]

Not a test: run it by hand, next to ``bench/boot.py``. Wall-clock ratios on a shared two-core machine move
by 10-30 % between runs of one build; CPU time per thread moves far less, and it says *what* the lab
adds to a bare boot. Each run opens a fresh browser context (a first visit) for the bare page and for the
lab, records a Chromium trace from navigation until the page is ready (the lab: Start is shown), and
sums, for each thread, the time covered by its top-level tasks (nested events counted once).

A bare Pyodide boot already keeps both cores of this machine busy: the main thread runs Python's start,
while V8 compiles hot WebAssembly functions with its optimizing tier on background threads. So whatever
else the lab runs during its boot (the page's modules and layout, the service worker passing Pyodide's
files into its cache, anything that animates) lengthens the boot by about its CPU time, not by its
latency.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from boot import BARE_HTML, BARE_MODULE, ready_ms

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_harness import SiteServer, launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402  (browser_harness put the repository on sys.path)

CATEGORIES = [  # with fewer, the worker's long tasks (Pyodide's boot) are missing from the trace
    *("toplevel", "blink", "loading", "v8", "v8.wasm", "ServiceWorker", "devtools.timeline"),
    *("disabled-by-default-devtools.timeline", "disabled-by-default-v8.compile"),
]
# Chromium's thread names, grouped by who makes the work.
GROUPS = {
    "CrRendererMain": "page: main thread",
    "DedicatedWorker thread": "Python's worker (lab only)",
    "ServiceWorker thread": "service worker",
    "ThreadPoolForegroundWorker": "background (V8: WebAssembly tier-up, parsing)",
    "Compositor": "compositing (page + GPU process)",
    "VizCompositorThread": "compositing (page + GPU process)",
    "CrBrowserMain": "browser process",
    "Chrome_IOThread": "browser process",
}


def busy_ms(trace: Path) -> dict[str, float]:
    """Milliseconds each thread group spent in tasks: the union of each thread's complete events."""
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    spans = defaultdict(list)
    for event in events:
        if event.get("ph") == "X" and event.get("dur"):
            spans[(event["pid"], event["tid"])].append((event["ts"], event["ts"] + event["dur"]))
    totals: dict[str, float] = defaultdict(float)
    for thread, intervals in spans.items():
        group = GROUPS.get(names.get(thread, ""), "other")
        end = float("-inf")
        for start, stop in sorted(intervals):
            if stop > end:  # the part of this event no earlier event covered
                totals[group] += (stop - max(start, end)) / 1000
                end = stop
    return dict(totals)


def traced_visit(browser, url: str, trace: Path) -> tuple[int, dict[str, float]]:
    context = browser.new_context()
    page = context.new_page()
    browser.start_tracing(page=page, path=str(trace), categories=CATEGORIES)
    page.goto(url)
    ms = ready_ms(page)
    browser.stop_tracing()
    context.close()
    return ms, busy_ms(trace)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    results: dict[str, list[tuple[int, dict[str, float]]]] = {"bare": [], "lab": []}
    with tempfile.TemporaryDirectory() as tmp:
        dist = build.build(Path(tmp) / "dist").dist
        (dist / "__bare").mkdir()
        (dist / "__bare" / "index.html").write_text(BARE_HTML)
        (dist / "__bare" / "bare.mjs").write_text(BARE_MODULE)
        with SiteServer(dist) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            trace = Path(tmp) / "trace.json"
            for _ in range(runs):
                results["bare"].append(traced_visit(browser, server.url + "/__bare/", trace))
                results["lab"].append(traced_visit(browser, server.url + "/?delay=0.05", trace))
            browser.close()

    def median(kind: str, group: str) -> float:
        return statistics.median(cpu.get(group, 0.0) for _, cpu in results[kind])

    groups = sorted({group for _, cpu in results["lab"] for group in cpu}, key=lambda g: -median("lab", g))
    print(f"cold visit, median of {runs} runs: navigation -> ready, and CPU ms per thread group")
    row = "{:<48} {:8.0f} {:8.0f} {:11.0f}"
    print(f"{'':<48} {'bare':>8} {'lab':>8} {'lab - bare':>11}")
    wall = [statistics.median(ms for ms, _ in results[kind]) for kind in ("bare", "lab")]
    print(row.format("wall clock (ms)", *wall, wall[1] - wall[0]))
    for group in groups:
        bare, lab = median("bare", group), median("lab", group)
        print(row.format(group, bare, lab, lab - bare))
    total = [statistics.median(sum(cpu.values()) for _, cpu in results[kind]) for kind in ("bare", "lab")]
    print(row.format("all threads", *total, total[1] - total[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
