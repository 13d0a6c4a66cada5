"""Measure the lab's boot time next to bare Pyodide's, in the same run and the same browser.

    python tests/browser/boot_time.py [--runs 5]

- lab: page load (navigation start) -> the worker's "ready" event, as the lab page itself shows it;
  this includes starting the worker, Pyodide, the wheels, ``import lab`` and opening IndexedDB.
- lab runtime stage: ``loadPyodide`` alone, inside the worker (the "runtime" stage's own timing).
- bare Pyodide: a page that only imports pyodide.mjs and awaits ``loadPyodide()`` on the main thread
  (page load -> resolved). It is added to a throwaway copy of the build, never to the site.

Each run opens a fresh browser context (empty HTTP cache: a first visit), then reloads once (warm
cache: the versioned Pyodide files come from the cache). The medians are printed.
"""

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from browser_harness import SiteServer, build, launch_chromium, wait_until_ready
from playwright.sync_api import sync_playwright

BARE_HTML = '<!doctype html><meta charset="utf-8"><body><script type="module" src="bare.mjs"></script>'
BARE_MODULE = f"""
import {{ loadPyodide }} from "/pyodide/{build.PYODIDE_VERSION}/pyodide.mjs";
await loadPyodide({{ indexURL: new URL("/pyodide/{build.PYODIDE_VERSION}/", location.href).href }});
document.body.dataset.readyMs = String(Math.round(performance.now()));
document.body.dataset.bootState = "ready";
"""


def ready_ms(page) -> int:
    return int(page.evaluate("() => document.body.dataset.readyMs"))


def measure(browser, url: str, runtime_stage: bool) -> tuple[int, int | None, int, int | None]:
    """(fresh, fresh runtime stage, reload, reload runtime stage) in ms for one page."""
    context = browser.new_context()
    page = context.new_page()
    results = []
    for navigate in (lambda: page.goto(url), page.reload):
        navigate()
        wait_until_ready(page)
        runtime = None
        if runtime_stage:
            runtime = round(float(page.inner_text('[data-stage="runtime"] .time').removesuffix(" s")) * 1000)
        results += [ready_ms(page), runtime]
    context.close()
    return tuple(results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    with tempfile.TemporaryDirectory() as tmp:
        dist = build.build(Path(tmp) / "dist").dist
        (dist / "__bare").mkdir()
        (dist / "__bare" / "index.html").write_text(BARE_HTML)
        (dist / "__bare" / "bare.mjs").write_text(BARE_MODULE)
        with SiteServer(dist) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            lab, bare = [], []
            for _ in range(runs):  # interleaved, so both see the same machine load
                lab.append(measure(browser, server.url + "/", runtime_stage=True))
                bare.append(measure(browser, server.url + "/__bare/", runtime_stage=False))
            browser.close()

    def median(rows, column) -> str:
        return f"{statistics.median(row[column] for row in rows) / 1000:.2f} s"

    print(f"boot time, median of {runs} runs (fresh context = first visit; reload = warm cache)")
    print(f"  lab, page load -> ready         fresh {median(lab, 0)}   reload {median(lab, 2)}")
    print(f"  lab, runtime stage (in worker)  fresh {median(lab, 1)}   reload {median(lab, 3)}")
    print(f"  bare Pyodide, main thread       fresh {median(bare, 0)}   reload {median(bare, 2)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
