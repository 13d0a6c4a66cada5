"""The worker's event loop (``lab/browser/event_loop.py``) in Chromium: Python resumes right after the
JavaScript that woke it; callbacks ready together run in one browser task, in order, a cancelled one
never; Python that keeps scheduling itself still lets the worker hear its messages. That the lab's
worker runs on it: ``test_embed.py``.

A test worker, served beside the built site, boots Pyodide with the lab's wheels the way the lab's
worker does (``pyodide-boot.mjs``), installs the loop, and runs the Python each test sends."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser_harness import SiteServer
from playwright.sync_api import Browser, Page

# Served at <site>/event-loop-test.mjs, so that "./pyodide-boot.mjs" is the build's own module.
TEST_WORKER = """
import { fetchWheels, startPyodide, unpackWheels } from "./pyodide-boot.mjs";

// A promise settled by a browser task (a MessageChannel message), which at once queues another task,
// the marker: Python that resumes before the marker ran resumed in the task that woke it.
self.wakeThenMark = () => new Promise((resolve) => {
  const seen = { marker: false };
  const wake = new MessageChannel();
  wake.port1.onmessage = () => {
    resolve(seen);
    const marker = new MessageChannel();
    marker.port1.onmessage = () => { seen.marker = true; };
    marker.port2.postMessage(0);
  };
  wake.port2.postMessage(0);
});

const { pyodide } = await startPyodide();
unpackWheels(pyodide, await fetchWheels());
const install = new URL(location.href).searchParams.get("install") === "1";
if (install) pyodide.pyimport("lab.browser.event_loop").install();
self.onmessage = async ({ data }) => {
  try {
    postMessage({ result: await pyodide.runPythonAsync(data) });
  } catch (error) {
    postMessage({ error: String(error) });
  }
};
postMessage({ ready: true });
"""

# Runs in the page: the Python `code` in the test worker with the loop installed (or Pyodide's own); one
# worker of each kind, started on first use.
RUN_PYTHON = """
async ([install, code]) => {
  window.__loopWorkers ??= {};
  if (!window.__loopWorkers[install]) {
    const worker = new Worker(`./event-loop-test.mjs?install=${install ? 1 : 0}`, { type: "module" });
    await new Promise((resolve, reject) => {
      worker.onmessage = ({ data }) => (data.ready ? resolve() : reject(new Error(JSON.stringify(data))));
      worker.onerror = (event) => reject(new Error(event.message));
    });
    window.__loopWorkers[install] = worker;
  }
  const worker = window.__loopWorkers[install];
  return await new Promise((resolve) => {
    worker.onmessage = ({ data }) => resolve(data);
    worker.postMessage(code);
  });
}
"""

WOKEN_BY_JAVASCRIPT = """
import asyncio, json
from js import wakeThenMark
markers_first = 0
for _ in range(20):
    seen = await wakeThenMark()
    markers_first += seen.marker
json.dumps({"markers_first": markers_first, "loop": type(asyncio.get_running_loop()).__name__})
"""

# Two callbacks made ready together: the first queues a browser task (a message to itself), the second
# looks whether that task has run. asyncio runs both in one turn of its loop, with nothing in between.
READY_TOGETHER = """
import asyncio, json
from js import MessageChannel
from pyodide.ffi import create_proxy
loop = asyncio.get_running_loop()
between = 0
for _ in range(20):
    marker, seen = MessageChannel.new(), []
    marker.port1.onmessage = create_proxy(lambda event: seen.append(1))
    done = loop.create_future()
    loop.call_soon(marker.port2.postMessage, 0)
    loop.call_soon(lambda: done.set_result(bool(seen)))
    between += await done
json.dumps(between)
"""

SPINS_UNTIL_A_MESSAGE = """
import asyncio, json
from js import MessageChannel
from pyodide.ffi import create_proxy
heard = []
channel = MessageChannel.new()
channel.port1.onmessage = create_proxy(lambda event: heard.append(event.data))
channel.port2.postMessage("from JavaScript")
spins = 0
while not heard and spins < 100_000:
    await asyncio.sleep(0)
    spins += 1
json.dumps({"heard": list(heard), "spins": spins})
"""

IN_ORDER = """
import asyncio, json
loop = asyncio.get_running_loop()
ran = []
handles = [loop.call_soon(ran.append, n) for n in range(10)]
handles[3].cancel()
async def then_more():
    ran.append("task")
    loop.call_soon(ran.append, "from a callback")
loop.create_task(then_more())
for _ in range(3):
    await asyncio.sleep(0)
json.dumps(ran)
"""


@contextmanager
def loop_test_page(browser: Browser, dist: Path, worker: str = TEST_WORKER) -> Iterator[Page]:
    """A page on the built site (no service worker) whose test workers run ``worker`` (also used by
    ``bench/event_loop.py``)."""
    with SiteServer(dist) as server:
        context = browser.new_context(service_workers="block")
        context.route(
            f"{server.url}/event-loop-test.mjs*",
            lambda route: route.fulfill(body=worker, content_type="text/javascript"),
        )
        page = context.new_page()
        page.goto(f"{server.url}/404.html")
        yield page
        context.close()


@pytest.fixture(scope="module")
def loop_page(browser, dist) -> Iterator[Page]:
    with loop_test_page(browser, dist) as page:
        yield page


def run(page: Page, code: str, *, install: bool = True) -> Any:
    """What the Python ``code`` (its last line, JSON text) gives in a test worker."""
    outcome = page.evaluate(RUN_PYTHON, [install, code])
    assert "error" not in outcome, outcome["error"]
    return json.loads(outcome["result"])


def test_python_resumes_in_the_browser_task_that_woke_it(loop_page):
    assert run(loop_page, WOKEN_BY_JAVASCRIPT) == {"markers_first": 0, "loop": "BatchingWebLoop"}
    # Pyodide's own loop resumes it two browser tasks later: after the marker (20 of 20 here).
    stock = run(loop_page, WOKEN_BY_JAVASCRIPT, install=False)
    assert stock["loop"] == "WebLoop" and stock["markers_first"] > 0


def test_callbacks_ready_together_run_in_one_browser_task(loop_page):
    assert run(loop_page, READY_TOGETHER) == 0


def test_python_that_keeps_scheduling_itself_still_hears_the_worker_s_messages(loop_page):
    spun = run(loop_page, SPINS_UNTIL_A_MESSAGE)
    assert spun["heard"] == ["from JavaScript"]
    assert spun["spins"] < 100


def test_callbacks_run_in_the_order_they_were_queued_and_a_cancelled_one_never(loop_page):
    assert run(loop_page, IN_ORDER) == [0, 1, 2, 4, 5, 6, 7, 8, 9, "task", "from a callback"]
