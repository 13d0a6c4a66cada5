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


# Installed before the page's own scripts: at every change of the boot stages (a stage's state, a stage's
# time redrawn), the running stage and its time, the Python runtime stage's state and time, and how many
# animations run for ever (each one draws every frame), until the lab is ready. Recorded in the page, so
# every redraw is seen, however slowly the test reads the page.
RECORD_BOOT_MOTION = """
window.__bootMotion = [];
new MutationObserver(() => {
  if (document.body?.dataset.bootState === "ready") return;  // the first boot only, not a spare's
  const stages = document.querySelector("#boot-stages");
  const active = stages?.querySelector('[data-state="active"]');
  const runtime = stages?.querySelector('[data-stage="runtime"]');
  if (!runtime) return;
  const forever = document.getAnimations()
    .filter((animation) => animation.effect?.getComputedTiming().iterations === Infinity);
  window.__bootMotion.push({
    stage: active?.dataset.stage ?? null, time: active?.querySelector(".time").textContent ?? null,
    runtime: runtime.dataset.state, runtimeTime: runtime.querySelector(".time").textContent,
    forever: forever.length,
  });
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
                       attributeFilter: ["data-state"] });
"""
TICK_S = 0.25  # static/boot-view.mjs redraws the running stage's time this often (TICK_MS)


def test_while_python_boots_the_running_stage_counts_its_seconds_and_nothing_animates_for_ever(page, site):
    """A spinner would draw 60 frames a second on the cores that boot Python (about 0.7 s of CPU in a 5 s
    boot, measured); the running stage's time counting up a few times a second says "still working".
    What is asked does not depend on the machine's speed: every redraw shows a later time than the one
    before, and a runtime stage that lasted four ticks or more (as it does on a first visit: seconds)
    was redrawn with at least two different times while it ran."""
    page.add_init_script(RECORD_BOOT_MOTION)
    page.goto(site + "/")
    wait_until_ready(page)
    motion = page.evaluate("() => window.__bootMotion")
    assert any(record["stage"] for record in motion), "no boot stage was ever seen running"
    assert all(record["forever"] == 0 for record in motion), motion
    shown = [record["time"] for record in motion if record["stage"] == "runtime" and record["time"]]
    assert all(re.fullmatch(r"\d+\.\d\d s", time) for time in shown), shown
    seconds = [float(time.removesuffix(" s")) for time in dict.fromkeys(shown)]  # each redraw once
    assert seconds == sorted(seconds), f"the runtime stage's time went back: {shown}"
    lasted = next(record["runtimeTime"] for record in motion if record["runtime"] == "done")
    if float(lasted.removesuffix(" s")) >= 4 * TICK_S:
        assert len(seconds) >= 2, f"the runtime stage ran {lasted} and its time did not count up: {shown}"
