"""How low figure 1 (cold time-to-interactive / a bare ``loadPyodide()`` page) can go for this lab at all.

    python bench/boot_floor.py [--runs 9]

Not a test: run it by hand, next to ``bench/boot.py``. Figure 1 divides the lab's first visit by a page
that only awaits ``loadPyodide()`` on its main thread. The lab cannot be that page: Python runs in a Web
Worker (the page stays a view while Python works, and a crash terminates the worker), and Start is usable
only once the lab is imported and the thread restored. This measures, cold (a fresh browser context each
visit) and interleaved so that machine load hits all alike:

1. bare: ``loadPyodide()`` on the main thread, figure 1's denominator;
2. bare in a worker: the same call in a module worker, and nothing else;
3. the lab's worker alone: a page that only starts the lab's own ``worker.mjs`` (Pyodide, the wheels,
   ``import lab``, the restore from IndexedDB) and waits for its ready event: no views, no service
   worker, no page modules. No page built on this worker can be faster than this;
4. the lab: the real page, as figure 1 measures it.

Each line prints the median, the ratio of medians to (1) and the median of the per-run ratios; then the
lab's worker's boot stages as (3) saw them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from boot import BARE_HTML, BARE_MODULE, ready_ms

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_harness import SiteServer, launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402  (browser_harness put the repository on sys.path)

READY = """document.body.dataset.readyMs = String(Math.round(performance.now()));
document.body.dataset.bootState = "ready";"""
BARE_WORKER_PAGE = f"""
const worker = new Worker(new URL("worker.mjs", import.meta.url), {{ type: "module" }});
worker.onmessage = () => {{ {READY} }};
"""
BARE_WORKER = BARE_MODULE.split("document.body")[0] + 'postMessage("ready");\n'
# The lab's worker posts {type: "boot", stage, state, at} events (protocol.mjs); "ready" ends the boot.
# Its name is the graph it opens: the lab page's (lab/aml/lab_page.py), as LabSession names it there.
LAB_WORKER_PAGE = f"""
const worker = new Worker("/worker.mjs", {{ type: "module", name: "lab.aml.lab_page" }});
const stages = {{}};
worker.onmessage = ({{ data }}) => {{
  if (data.type !== "boot") return;
  if (data.state === "error") document.body.dataset.bootState = "error";
  stages[data.stage + " " + data.state] = data.at;
  if (data.stage !== "ready") return;
  document.body.dataset.stages = JSON.stringify(stages);
  {READY}
}};
"""
PAGES = {  # name -> (folder in the throwaway build, its files)
    "bare": ("__bare", {"index.html": BARE_HTML, "bare.mjs": BARE_MODULE}),
    "bare in a worker": (
        "__bare_worker",
        {"index.html": BARE_HTML, "bare.mjs": BARE_WORKER_PAGE, "worker.mjs": BARE_WORKER},
    ),
    "the lab's worker alone": ("__lab_worker", {"index.html": BARE_HTML, "bare.mjs": LAB_WORKER_PAGE}),
}
STAGES = ["runtime", "packages", "lab", "restore"]


def cold_visit(browser, url: str) -> tuple[int, dict[str, int] | None]:
    """Navigation start -> ready (ms) on a fresh context, and the lab worker's stages if it kept them."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    ms = ready_ms(page)
    stages = page.evaluate("() => document.body.dataset.stages && JSON.parse(document.body.dataset.stages)")
    context.close()
    return ms, stages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs
    urls = {name: f"/{folder}/" for name, (folder, _) in PAGES.items()} | {"the lab": "/?delay=0.05"}
    ms: dict[str, list[int]] = {name: [] for name in urls}
    stages: list[dict[str, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        dist = build.build(Path(tmp) / "dist").dist
        for folder, files in PAGES.values():
            (dist / folder).mkdir()
            for name, text in files.items():
                (dist / folder / name).write_text(text)
        load_before = os.getloadavg()[0]
        with SiteServer(dist) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for _ in range(runs):
                for name, url in urls.items():
                    visit_ms, visit_stages = cold_visit(browser, server.url + url)
                    ms[name].append(visit_ms)
                    stages += [visit_stages] if visit_stages else []
            browser.close()
        load_after = os.getloadavg()[0]

    bare = ms["bare"]
    print(f"# {runs} runs, {os.cpu_count()} CPUs, load average {load_before:.1f} -> {load_after:.1f}")
    print(f"{'cold visit, navigation -> ready':<34} {'median ms':>9}  {'/ bare':>6}  {'per run':>7}")
    for name, values in ms.items():
        median = statistics.median(values)
        per_run = statistics.median(mine / theirs for mine, theirs in zip(values, bare, strict=True))
        print(f"{name:<34} {median:9.0f}  {median / statistics.median(bare):6.2f}  {per_run:7.2f}   {values}")
    print("the lab's worker alone, its boot stages (median ms):")
    for stage in STAGES:
        took = statistics.median(run[f"{stage} done"] - run[f"{stage} start"] for run in stages)
        print(f"   {stage:<10} {took:6.0f}")
    ready = statistics.median(run["ready done"] for run in stages)
    print(f"   ready at {ready:.0f} ms after the worker started")
    return 0


if __name__ == "__main__":
    sys.exit(main())
