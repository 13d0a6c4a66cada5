"""The storage panel in Chromium (issue 11): its bytes are what IndexedDB holds - summed here by a page
script over the raw records, not by the worker - and Prune keeps exactly the checkpoint it announced.
One booted page for the whole story."""

from __future__ import annotations

import re

from lab_page import THREADS_DB, button, open_lab, press, start, view, wait_until
from playwright.sync_api import expect

# Sums the serialized values (`{type, bytes}` fields) of every record of each thread, in the page.
RECORD_BYTES = """
async (database) => {
  const settle = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await settle(indexedDB.open(database));
  const totals = {};
  try {
    for (const store of ["checkpoints", "blobs", "writes"]) {
      for (const record of await settle(db.transaction(store).objectStore(store).getAll())) {
        for (const value of Object.values(record)) {
          if (value && typeof value === "object" && value.bytes instanceof Uint8Array) {
            totals[record.thread_id] = (totals[record.thread_id] ?? 0) + value.bytes.byteLength;
          }
        }
      }
    }
  } finally {
    db.close();
  }
  return totals;
}
"""


def storage_reads(page) -> int:
    return int(page.evaluate("() => document.body.dataset.storageReads ?? '0'"))


def shown_report(page, frames: int) -> dict:
    """Open the panel (if closed) and wait until it shows a report of ``frames`` checkpoints."""
    if not page.locator("#storage-details").evaluate("d => d.open"):
        page.locator("#storage-summary").click()
    wait_until(
        page,
        lambda: page.locator("#storage-checkpoints tbody tr").count() == frames and not view(page, "m.busy"),
        f"the storage panel to show {frames} checkpoints",
    )
    return view(page, "m.storage")


def test_the_panel_shows_what_indexeddb_holds_and_prune_keeps_what_it_says(page, site):
    open_lab(page, site)
    expect(page.locator("#boot-graph")).to_have_count(0)  # the build-time diagram gave way to the live one
    expect(page.locator("#graph svg .node")).not_to_have_count(0)
    first = start(page, variant="fixed", durability="sync")
    press(page, "Step")  # a small thread: its input checkpoint
    second = start(page, case="S-1002", variant="fixed", durability="sync")
    press(page, "Run")  # to the officer's review
    frames = view(page, "m.frames.length")

    report = shown_report(page, frames)
    held = page.evaluate(RECORD_BYTES, THREADS_DB)
    shown = {row["thread_id"]: row["bytes"] for row in report["threads"]}
    assert shown == held and set(held) == {first, second}
    thread = report["thread"]
    assert thread["thread_id"] == second
    total = page.locator("#storage-total")
    assert (
        int(total.get_attribute("data-bytes"))
        == held[second]
        == sum(c["bytes"] for c in thread["checkpoints"])
    )
    assert total.get_attribute("data-storage") == "full"  # LangGraph's default: the lists whole
    assert int(total.get_attribute("data-full")) == held[second]
    assert int(total.get_attribute("data-delta")) < held[second]  # DeltaChannel would store less
    expect(page.locator(".storage-plot polyline")).to_have_count(2)
    keeps = page.locator("#storage-prune").get_attribute("data-keeps").split()
    assert keeps == [view(page, "m.frames.at(-1).checkpoint_id")]
    promised = int(page.locator("#storage-prune").get_attribute("data-bytes"))
    values = view(page, "m.frames.at(-1).values")

    press(page, "Prune")
    wait_until(page, lambda: page.locator("#storage-checkpoints tbody tr").count() == 1, "the pruned report")
    held = page.evaluate(RECORD_BYTES, THREADS_DB)
    assert held[second] == promised == int(page.locator("#storage-total").get_attribute("data-bytes"))
    assert [f["checkpoint_id"] for f in view(page, "m.frames")] == keeps
    assert view(page, "m.frames.at(-1).values") == values  # the kept checkpoint still reads the whole lists
    assert button(page, "Prune").is_disabled()  # nothing left to prune
    assert storage_reads(page) >= 2


def test_the_start_form_opts_the_lists_in_to_delta_channel(page, site):
    """The form's storage choice starts a thread whose lists are DeltaChannels (the controller's
    ``start(storage="delta")``): the bill says so and holds what DeltaChannel stores; the link keeps
    the choice, and a link naming a storage the graph does not offer falls back to LangGraph's default."""
    open_lab(page, site, "storage=whole")
    choice = page.locator("#storage-choice")
    expect(choice).to_be_visible()
    assert page.get_by_role("radio", name=re.compile(r"^whole lists\b")).is_checked()  # the default
    page.get_by_role("radio", name=re.compile(r"^DeltaChannel\b")).check()
    wait_until(page, lambda: "storage=delta" in page.url, "the link to keep the storage choice")
    thread = start(page, variant="fixed", durability="sync")
    assert view(page, "m.session.storage") == "delta"
    press(page, "Run")  # to the officer's review
    report = shown_report(page, view(page, "m.frames.length"))
    total = page.locator("#storage-total")
    assert report["thread"]["thread_id"] == thread and total.get_attribute("data-storage") == "delta"
    held = page.evaluate(RECORD_BYTES, THREADS_DB)[thread]
    assert int(total.get_attribute("data-bytes")) == held == int(total.get_attribute("data-delta"))
    assert held < int(total.get_attribute("data-full"))  # the lists whole would hold more


def test_the_graph_diagram_is_drawn_before_python_is_ready(page, site):
    """build.py put the diagram's data in the page; graph.mjs draws it as soon as the page's modules run,
    while Python is still booting (the live diagram replaces it once the lab is ready)."""
    page.goto(f"{site}/", wait_until="domcontentloaded")
    shown = page.evaluate(
        """() => ({
          ready: document.body.dataset.process === "ready",
          nodes: [...document.querySelectorAll("#boot-graph svg .node")].map((g) => g.dataset.node),
          fallbackHidden: document.querySelector("#boot-graph .static-graph").hidden,
        })"""
    )
    assert not shown["ready"]
    assert shown["fallbackHidden"]
    assert shown["nodes"][0] == "__start__" and shown["nodes"][-1] == "__end__"
    assert {"intake", "screen_sanctions", "human_review", "file_sar"} <= set(shown["nodes"])


def bill_shown(section) -> dict[str, object]:
    """The storage bill beside a lesson step, as its total line carries it."""
    total = section.locator("[data-lab-storage] #storage-total")
    expect(total).to_be_visible()
    return {key: total.get_attribute(f"data-{key}") for key in ("storage", "bytes", "full", "delta")}


def test_lesson_10_switches_delta_channel_on_and_bills_each_thread_both_ways(page, site):
    """Lesson 10 beside its storage panel: the first thread stores its lists LangGraph's default way
    (whole) and is billed against DeltaChannel; the second switches DeltaChannel on and is billed
    against the default. The step's own Prune is the only Prune on the page."""
    from lesson_walk import FAST, take_step, words

    page.goto(f"{site}/learn/en/storage/to-review/{FAST}")
    take_step(page, "en", "storage", "to-review")
    whole = bill_shown(page.locator('section[data-step="to-review"]'))
    assert whole["storage"] == "full"
    assert int(whole["bytes"]) == int(whole["full"]) > int(whole["delta"])
    expect(page.locator("[data-lab-storage] .storage-plot polyline")).to_have_count(2)

    page.get_by_role("link", name=words("en")["next"], exact=True).click()
    take_step(page, "en", "storage", "deltas")
    deltas = bill_shown(page.locator('section[data-step="deltas"]'))
    assert deltas["storage"] == "delta"
    assert int(deltas["bytes"]) == int(deltas["delta"]) < int(deltas["full"])

    for step in ("back", "prune"):  # the step's Prune button is the one a learner can press
        page.get_by_role("link", name=words("en")["next"], exact=True).click()
        take_step(page, "en", "storage", step)
    pruned = page.locator('section[data-step="prune"] [data-lab-storage] #storage-checkpoints tbody tr')
    expect(pruned).to_have_count(1)
