"""What one ``await`` of an IndexedDB write costs Python in the worker, on Pyodide's ``WebLoop`` and on the
lab's ``BatchingWebLoop`` (``lab/browser/event_loop.py``), against the same transactions awaited in
JavaScript.

    python bench/event_loop.py [--runs 9] [--awaits 200]

Not a test: run it by hand. Two test workers of ``tests/browser/test_event_loop.py`` (Pyodide's loop,
and the lab's installed) each await ``--awaits`` one-record ``readwrite`` transactions, one after
another, and the first also times the same loop in JavaScript; the three take turns ``--runs`` times.
Printed: the median milliseconds per ``await`` and each loop's overhead over JavaScript, as a ratio.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_harness import launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_event_loop import TEST_WORKER, loop_test_page, run  # noqa: E402

import build  # noqa: E402  (browser_harness put the repository on sys.path)

# Put before the test worker's code (its import is hoisted, so it still comes first): one small write
# transaction, resolved on `complete`, and the same loop of awaits in JavaScript.
WRITES = """
const database = await new Promise((resolve, reject) => {
  const opening = indexedDB.open(`event-loop-bench-${Math.random()}`, 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("rows");
  opening.onsuccess = () => resolve(opening.result);
  opening.onerror = () => reject(opening.error);
});
let key = 0;
self.writeOne = () => new Promise((resolve) => {
  const tx = database.transaction(["rows"], "readwrite", { durability: "relaxed" });
  tx.objectStore("rows").put({ key, text: "x".repeat(200) }, key++);
  tx.oncomplete = () => resolve("complete");
  tx.commit();
});
self.awaitInJavaScript = async (count) => {
  const started = performance.now();
  for (let i = 0; i < count; i++) await writeOne();
  return (performance.now() - started) / count;
};
"""

PER_AWAIT = """
import json
from js import performance, writeOne
started = performance.now()
for _ in range({count}):
    await writeOne()
json.dumps((performance.now() - started) / {count})
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--awaits", type=int, default=200)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        measure(Path(tmp) / "dist", options.runs, options.awaits)


def measure(dist: Path, runs: int, awaits: int) -> None:
    dist = build.build(dist).dist
    code = PER_AWAIT.format(count=awaits)
    times: dict[str, list[float]] = {"JavaScript": [], "WebLoop": [], "BatchingWebLoop": []}
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        with loop_test_page(browser, dist, WRITES + TEST_WORKER) as page:
            for _ in range(runs):
                times["WebLoop"].append(run(page, code, install=False))
                times["BatchingWebLoop"].append(run(page, code, install=True))
                times["JavaScript"].append(
                    run(page, f"import json; from js import awaitInJavaScript\n"
                              f"json.dumps(await awaitInJavaScript({awaits}))", install=False)
                )  # fmt: skip
        browser.close()
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, load average {os.getloadavg()[0]:.1f}; "
        f"{runs} runs x {awaits} awaits of a one-record IndexedDB write"
    )
    javascript = medians["JavaScript"]
    for name, ms in medians.items():
        over = f"{ms - javascript:+.3f} over JavaScript; {ms / javascript:.2f}x"
        print(f"{name:>16}: {ms:.3f} ms per await ({over})")


if __name__ == "__main__":
    main()
