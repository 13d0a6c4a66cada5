"""The lab boots in Chromium, shows its boot stages in order, answers from Python, and keeps a record in
IndexedDB across a reload - once behind ``build.py serve`` and once behind ``wrangler pages dev``."""

import re

import pytest
from browser_harness import wait_until_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.first_visit  # the staged boot of a first visit (no snapshot, no cache)

# Installed before the page's own scripts: records every change of a boot stage as the page shows it.
RECORD_STAGES = """
window.__shownStages = [];
new MutationObserver((records) => {
  for (const { target } of records) {
    if (target.dataset?.stage) window.__shownStages.push(`${target.dataset.stage}:${target.dataset.state}`);
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
"""

EXPECTED_STAGES = [
    "runtime:active", "runtime:done",
    "packages:active", "packages:done",
    "lab:active", "lab:done",
    "restore:active", "restore:done",
    "ready:done",
]  # fmt: skip

# Reads the lab's IndexedDB with plain JavaScript in the page, not through the worker or Python.
READ_META_FROM_JS = """
async (key) => {
  const settle = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await settle(indexedDB.open("checkpoint-lab"));
  try {
    return await settle(db.transaction("meta").objectStore("meta").get(key));
  } finally {
    db.close();
  }
}
"""


def test_boots_with_staged_progress_and_keeps_records_across_reload(page, served):
    requested = []
    page.context.on("request", lambda request: requested.append(request.url))
    page.add_init_script(RECORD_STAGES)

    response = page.goto(served + "/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp
    assert "'unsafe-eval'" not in csp and "'unsafe-inline'" not in csp
    wait_until_ready(page)

    # What the page showed, in order, and what it shows now.
    assert page.evaluate("() => window.__shownStages") == EXPECTED_STAGES
    labels = page.locator("#boot-stages .label").all_inner_texts()
    assert labels == ["Python runtime", "Packages", "Lab runtime", "Saved threads", "Ready"]
    times = page.locator("#boot-stages .time").all_inner_texts()
    assert len(times) == 5 and all(re.fullmatch(r"\d+\.\d\d s", time) for time in times), times
    assert page.locator("#boot-progress").evaluate("(p) => p.value === p.max")
    expect(page.locator("#session-facts")).to_contain_text("storage: IndexedDB")  # filled in after ready
    assert page.locator("#storage-notice").is_hidden()

    # A round trip through Python in the worker, and its error path.
    pong = page.evaluate("() => lab.request('ping')")
    assert pong["python"].startswith("3.14.")
    failure = page.evaluate("() => lab.request('no_such_command').catch((e) => [e.type, e.message])")
    assert failure[0] == "UnknownCommand" and "ping" in failure[1]

    # Python writes a record to IndexedDB; JavaScript reads it back from the database itself.
    record = {"lesson": "boot", "steps": [1, 2, 3], "note": "written by Python"}
    assert page.evaluate("(value) => lab.request('meta_set', {key: 'probe', value})", record) == {
        "key": "probe",
        "durable": True,
    }
    assert page.evaluate(READ_META_FROM_JS, "probe") == record

    page.reload()
    wait_until_ready(page)
    assert page.evaluate(READ_META_FROM_JS, "probe") == record
    assert page.evaluate("() => lab.request('meta_get', {key: 'probe'})")["value"] == record

    # Every request the page and its worker made went to the site itself.
    assert requested and all(url.startswith(served + "/") for url in requested), requested


# The running boot stage and its time, and how many animations run for ever (each one draws every frame).
BOOT_MOTION = """
() => {
  const active = document.querySelector('#boot-stages [data-state="active"]');
  const forever = document.getAnimations()
    .filter((animation) => animation.effect?.getComputedTiming().iterations === Infinity);
  const time = active?.querySelector(".time").textContent;
  return active && {stage: active.dataset.stage, time, forever: forever.length};
}
"""


def test_while_python_boots_the_running_stage_counts_its_seconds_and_nothing_animates_for_ever(page, site):
    """A spinner would draw 60 frames a second on the cores that boot Python (about 0.7 s of CPU in a 5 s
    boot, measured); the running stage's time counting up a few times a second says "still working"."""
    page.goto(site + "/")
    samples = []
    while page.evaluate("() => document.body.dataset.bootState") != "ready":
        if (sample := page.evaluate(BOOT_MOTION)) is not None:
            samples.append(sample)
        page.wait_for_timeout(100)
    assert samples, "no boot stage was ever seen running"
    assert all(sample["forever"] == 0 for sample in samples), samples
    runtime = [sample["time"] for sample in samples if sample["stage"] == "runtime"]
    assert all(re.fullmatch(r"(\d+\.\d\d s)?", time) for time in runtime), runtime
    shown = {time for time in runtime if time}
    assert len(shown) >= 3, f"the Python runtime stage's time did not count up: {runtime}"
