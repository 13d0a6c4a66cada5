"""``LabSession`` in Chromium: the lab controller in a Web Worker, the ledger in the page, real crashes.

The tests drive ``static/lab-session.mjs`` through ``page.evaluate`` and check what they are told
against what IndexedDB holds, read by plain JavaScript in the page: the checkpoints (database
``checkpoint-lab-threads``) and the ledger (``checkpoint-lab-ledger``). A crash terminates the worker;
a new Python process (a new process id) restores the thread from IndexedDB.

Most tests share one page and one session (one Pyodide boot, plus its warm spare); each starts a
thread of its own. Nodes work 0.05 s instead of 0.3 s, except where a test kills a process inside
one. The measured crash -> ready times are printed (``pytest -s``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from lab_page import CORRUPT_THREAD
from playwright.sync_api import Page

CASE = "S-1001"  # structuring: interrupt at human_review, then a filed SAR
FAST = 0.05  # seconds each node works in these tests
KILL_AT_SCREEN_START = """() => {
  const stop = labSession.onEvent((event) => {
    if (event.type === "seam" && event.seam === "task_start" && event.node === "screen_sanctions") {
      stop();
      window.killedAtSeam = labSession.kill();
    }
  });
}"""

# The page hosting the session: one of the site's pages (so the site's CSP applies) with no lab on it.
HOST_PAGE = "/404"

OPEN_SESSION = """
async (options) => {
  const { LabSession } = await import("/lab-session.mjs");
  window.labEvents = [];
  window.labSession = new LabSession({ graph: "lab.aml.lab_page", ...options });
  labSession.onEvent((event) => labEvents.push(event));
  return await labSession.ready;
}
"""

# One controller command; a failure comes back as data, not as a JS exception.
COMMAND = """
async ([name, args]) => {
  try {
    return { ok: true, result: await labSession.command(name, args) };
  } catch (error) {
    return { ok: false, type: error.type, message: error.message };
  }
}
"""

# Plain JavaScript, not the worker nor Python: what IndexedDB really holds.
READ_DATABASES = """
async (thread) => {
  const settle = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const read = async (name, stores, query) => {
    const db = await settle(indexedDB.open(name));
    try {
      const tx = db.transaction(stores);
      return Object.fromEntries(await Promise.all(
        stores.map(async (store) => [store, await settle(tx.objectStore(store).getAll(query))])));
    } finally {
      db.close();
    }
  };
  const threadKeys = thread === null ? undefined : IDBKeyRange.bound([thread], [thread, []]);
  const saved = await read("checkpoint-lab-threads", ["checkpoints", "writes"], threadKeys);
  const ledger = await read("checkpoint-lab-ledger", ["requests"]);
  return {
    checkpoints: saved.checkpoints.map((c) => ({ id: c.checkpoint_id, parent: c.parent_checkpoint_id })),
    writes: saved.writes.map(({ checkpoint_id, task_id, channel }) => ({ checkpoint_id, task_id, channel })),
    ledger: ledger.requests.filter((row) => thread === null || row.thread_id === thread),
  };
}
"""


class Lab:
    """A page with a LabSession on it (``window.labSession``), driven from the test."""

    def __init__(self, page: Page, site: str) -> None:
        self.page, self.site = page, site

    def open(self, **options: Any) -> dict[str, Any]:
        """Load the host page and start a session on it; its "ready" process event."""
        self.page.goto(self.site + HOST_PAGE)
        return self.page.evaluate(OPEN_SESSION, {"delay": FAST, **options})

    def do(self, name: str, **args: Any) -> Any:
        answer = self.page.evaluate(COMMAND, [name, args])
        assert answer["ok"], answer
        return answer["result"]

    def start(self, variant: str, durability: str = "sync") -> str:
        """A new thread of :data:`CASE`; its id."""
        return self.do("start", case_id=CASE, variant=variant, durability=durability)["session"]["thread_id"]

    def stored(self, thread: str | None) -> dict[str, Any]:
        """The thread's checkpoints and writes, and its ledger rows, as JavaScript reads them."""
        return self.page.evaluate(READ_DATABASES, thread)

    def events(self, *types: str) -> list[dict[str, Any]]:
        return [e for e in self.page.evaluate("labEvents") if not types or e["type"] in types]

    def forget_events(self) -> None:
        self.page.evaluate("labEvents.length = 0")

    def status(self) -> dict[str, Any]:
        return self.page.evaluate("labSession.status")

    def wait_for(self, condition, what: str, timeout_s: float = 30) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout_s} s for {what}")
            self.page.wait_for_timeout(20)

    def ready(self) -> dict[str, Any]:
        """The current process's "ready" event (waiting for a replacement to come up)."""
        return self.page.evaluate("labSession.ready")

    def assert_frames_match_indexeddb(self, thread: str) -> list[dict[str, Any]]:
        """The controller's frames are the checkpoints IndexedDB holds, in order, with their parents."""
        frames = self.do("frames")["frames"]
        stored = self.stored(thread)["checkpoints"]
        reported = [(f["checkpoint_id"], f["parent_id"]) for f in frames]
        assert reported == [(c["id"], c["parent"]) for c in stored]
        return frames


@pytest.fixture(scope="module")
def lab(browser, warm_profile, site) -> Iterator[Lab]:
    """One page and one session (with its warm spare) for the module's tests."""
    with warm_profile.context(browser.browser_type) as context:
        shared = Lab(context.pages[0], site)
        shared.open()
        yield shared


@pytest.fixture
def fresh(lab) -> Lab:
    """The shared session, its event log emptied."""
    lab.forget_events()
    return lab


def charges(rows: list[dict[str, Any]], node: str) -> list[dict[str, Any]]:
    return [row for row in rows if row["kind"] == "charge" and row["node"] == node]


def test_a_case_runs_to_the_interrupt_and_the_page_ledger_has_the_paid_charge(fresh):
    thread = fresh.start("fixed")
    asked = fresh.do("run")
    assert asked["status"] == "interrupted" and asked["next"] == ["human_review"]

    # The paid API call went out of the worker to the page, which wrote it to its own database.
    (query,) = fresh.stored(thread)["ledger"]
    assert query["node"] == "fetch_transactions" and query["amount_cents"] == 250 and not query["replayed"]
    # the fixed variant keys each call by its business operation: thread, case, purpose
    assert query["idempotency_key"] == f"{thread}:S-1001:transaction-graph query"
    assert query["worker"] == fresh.status()["worker"]
    (world,) = [e for e in fresh.events("world") if e["op"] == "record" and e["args"]["kind"] == "charge"]
    assert world["args"]["node"] == "fetch_transactions"
    recorded = [e for e in fresh.events("ledger") if e["change"] == "recorded"]
    assert [e["entry"]["id"] for e in recorded] == [query["id"]]

    # Every checkpoint the controller reports is in IndexedDB, and was announced as it was committed.
    frames = fresh.assert_frames_match_indexeddb(thread)
    assert [f["step"] for f in frames] == [-1, 0, 1, 2, 3, 4]
    committed = [e["frame"]["checkpoint_id"] for e in fresh.events("checkpoint")]
    assert committed == [f["checkpoint_id"] for f in frames]
    # Python reads the page's ledger: the same rows the page holds, with attempts and flags added.
    report = fresh.do("ledger")
    rows = fresh.page.evaluate("labSession.ledger.entries()")
    assert [{k: e[k] for k in rows[0]} for e in report["entries"]] == rows
    assert [(e["attempt"], e["flag"]) for e in report["entries"] if e["thread_id"] == thread] == [(1, None)]


def test_a_crash_terminates_the_worker_and_a_new_one_restores_the_thread(fresh):
    thread = fresh.start("misplaced")
    fresh.wait_for(lambda: fresh.status()["spare"] == "ready", "the warm spare")
    fresh.forget_events()
    before = fresh.status()
    # The siblings run in parallel and, on a busy machine, finish in either order: the crash waits for
    # fetch_transactions' saved writes, which the new process must find (no race; as in test_lab_ui).
    fresh.do(
        "arm_crash", seam="task_finish", node="screen_sanctions", after=["put_writes", "fetch_transactions"]
    )

    crashed = fresh.do("run")  # the run's process dies under it
    assert crashed["status"] == "crashed"
    assert crashed["crash_point"] | {"checkpoint_id": None} == {
        "cause": "seam", "run": 1, "seam": "task_finish", "node": "screen_sanctions", "step": 2,
        "checkpoint_id": None,
    }  # fmt: skip
    ready = fresh.ready()
    old, new = before["worker"], ready["worker"]
    process_events = [
        (e["type"], e.get("state"), e["worker"]) for e in fresh.events("crash_point", "process")
    ]
    assert process_events[:4] == [
        ("crash_point", None, old),
        ("process", "crashed", old),
        ("process", "booting", new),
        ("process", "ready", new),
    ]
    assert new != old and ready["warm"] and ready["reason"] == "seam"  # the warm spare took over
    assert ready["process"]["id"] != before["ready"]["process"]["id"]  # another Python process answers
    assert ready["restored"]["session"]["thread_id"] == thread
    print(f"\ncrash -> ready with a warm spare: {ready['ms']} ms")  # report-only: timings are bench's

    # The new process sees what IndexedDB kept: fetch_transactions' writes were saved before the crash.
    frames = fresh.assert_frames_match_indexeddb(thread)
    parallel = next(f for f in frames if f["next"] == ["fetch_transactions", "screen_sanctions"])
    assert {node for node, _, _ in parallel["pending_writes"]} == {"fetch_transactions"}
    writes = fresh.stored(thread)["writes"]
    saved = [w["channel"] for w in writes if w["checkpoint_id"] == parallel["checkpoint_id"]]
    assert sorted(saved) == sorted(channel for _, channel, _ in parallel["pending_writes"])

    resumed = fresh.do("resume")
    assert resumed["status"] == "interrupted"
    report = fresh.do("executions")
    assert report["last_resume"]["restored"] == ["fetch_transactions"]
    assert report["last_resume"]["rerun"] == ["screen_sanctions"]
    started = {node: counts["started"] for node, counts in report["nodes"].items()}
    assert started["screen_sanctions"] == 2 and started["fetch_transactions"] == 1
    assert len(charges(fresh.stored(thread)["ledger"], "fetch_transactions")) == 1
    fresh.assert_frames_match_indexeddb(thread)


def test_misplaced_variant_charges_twice_on_approval_and_the_ledger_flags_it(fresh):
    thread = fresh.start("misplaced")
    fresh.do("run")
    done = fresh.do("answer", approve=True)
    assert done["status"] == "done" and done["values"]["outcome"].startswith("SAR sar_")

    exports = charges(fresh.stored(thread)["ledger"], "human_review")
    assert len(exports) == 2 and len({row["task_id"] for row in exports}) == 1  # the same task, twice
    assert [row["replayed"] for row in exports] == [False, False] and exports[0]["id"] != exports[1]["id"]
    assert any(e.get("entry", {}).get("id") == exports[1]["id"] for e in fresh.events("ledger"))

    report = fresh.do("ledger")
    (duplicate,) = [d for d in report["duplicates"] if d["thread_id"] == thread]
    assert duplicate["node"] == "human_review" and duplicate["label"] == "charged ×2"
    assert duplicate["ids"] == [row["id"] for row in exports]
    second = next(e for e in report["entries"] if e["id"] == exports[1]["id"])
    assert second["flag"] == "charged ×2" and second["attempt"] == 2


def test_fixed_variant_charges_once_even_when_a_crash_repeats_the_call(fresh):
    thread = fresh.start("fixed")
    fresh.do("run")
    fresh.do("arm_crash", seam="task_finish", node="human_review")  # after its charge, before its writes
    assert fresh.do("answer", approve=True)["status"] == "crashed"
    assert fresh.ready()["restored"]["session"]["thread_id"] == thread
    done = fresh.do("resume")
    assert done["status"] == "done"

    rows = fresh.stored(thread)["ledger"]
    first, again = charges(rows, "human_review")  # the node ran twice and called twice ...
    assert again["replayed"] and again["idempotency_key"] == first["idempotency_key"]
    assert again["id"] == first["id"] and again["amount_cents"] == 0  # ... and paid once
    assert done["values"]["review"]["export"] == first["id"]
    report = fresh.do("ledger")
    assert [d for d in report["duplicates"] if d["thread_id"] == thread] == []
    assert [row["node"] for row in rows if row["kind"] == "sar"] == ["file_sar"]


def test_reload_mid_thread_restores_the_thread_and_the_ledger_from_indexeddb(fresh):
    thread = fresh.start("misplaced")
    fresh.do("step")
    fresh.do("step")  # paused inside the run, after two super-steps
    frames = fresh.assert_frames_match_indexeddb(thread)
    stored = fresh.stored(None)

    ready = fresh.open()  # a reload: a new page, a new session, a new worker
    assert ready["reason"] == "start" and ready["restored"]["session"]["thread_id"] == thread
    (lab,) = [e["detail"]["lab"] for e in fresh.events("boot") if e["stage"] == "restore" and "detail" in e]
    assert lab["session"]["thread_id"] == thread  # the boot's restore stage already knew the thread
    assert thread in [saved["thread_id"] for saved in lab["threads"]]
    assert fresh.assert_frames_match_indexeddb(thread) == frames
    assert fresh.stored(None)["ledger"] == stored["ledger"]
    assert fresh.page.evaluate("labSession.ledger.entries()") == stored["ledger"]

    assert fresh.do("run")["status"] == "interrupted"  # the thread carries on from its head
    assert len(fresh.assert_frames_match_indexeddb(thread)) == 6


def test_reset_clears_threads_journal_and_ledger(fresh):
    fresh.start("fixed")
    fresh.do("run")
    assert fresh.do("reset")["threads_deleted"] >= 1
    assert fresh.stored(None) == {"checkpoints": [], "writes": [], "ledger": []}
    assert fresh.page.evaluate("labSession.ledger.entries()") == []
    assert fresh.page.evaluate("labSession.request('lab_info')")["threads"] == []
    assert fresh.do("restore") == {"session": None}
    assert [e["change"] for e in fresh.events("ledger")][-1] == "cleared"


def test_a_kill_inside_a_node_without_a_spare_boots_a_new_worker(page, site):
    """The page kills the process at a moment of its choosing (no armed seam), and no spare is ready.
    The next worker restores Python from the warm profile's memory snapshot (no spare: not warm)."""
    lab = Lab(page, site)
    first = lab.open(spare=False, delay=0.2)  # time enough to be killed inside a node
    thread = lab.start("misplaced")
    # Kill at the seam itself: the page's own listener kills the process in the moment the
    # task_start of screen_sanctions arrives, not after a poll from the test.
    lab.page.evaluate(KILL_AT_SCREEN_START)
    lab.page.evaluate("() => { window.running = labSession.command('run'); }")

    def screen_started() -> bool:
        return ("task_start", "screen_sanctions") in [(e["seam"], e["node"]) for e in lab.events("seam")]

    lab.wait_for(screen_started, "screen_sanctions to start")
    replacement = lab.page.evaluate("killedAtSeam")
    assert lab.page.evaluate("running") == {
        "status": "crashed",
        "crash_point": {"cause": "kill", "run": None, "seam": None, "node": None, "step": None,
                        "checkpoint_id": None},
    }  # fmt: skip
    assert not replacement["warm"] and replacement["reason"] == "kill" and replacement["worker"] == 2
    assert replacement["process"]["id"] != first["process"]["id"]
    assert lab.status()["spare"] == "none"
    print(f"\ncrash -> ready without a spare (a new worker): {replacement['ms']} ms")

    # Both parallel nodes were killed mid-work (before the paid call): both run again, one charge.
    assert lab.do("resume")["status"] == "interrupted"
    report = lab.do("executions")
    assert report["last_resume"]["rerun"] == ["fetch_transactions", "screen_sanctions"]
    assert report["nodes"]["fetch_transactions"]["started"] == 2
    assert len(charges(lab.stored(thread)["ledger"], "fetch_transactions")) == 1
    lab.assert_frames_match_indexeddb(thread)


# Open a session over `options.graph` and say how its first process ended: ready, or refused and why.
OPEN_REFUSED = """
async (options) => {
  const { LabSession } = await import("/lab-session.mjs");
  const session = new LabSession(options);
  try {
    await session.ready;
    return { ok: true };
  } catch (error) {
    return { ok: false, type: error.type, message: error.message };
  } finally {
    session.close();
  }
}
"""


def test_a_graph_the_page_names_is_a_module_of_lab_that_defines_one_or_refused_by_name(page, site):
    """The worker imports the graph its page names (lab/browser/lab_rpc.py page_graph): a name that is
    no module of lab, no module at all, or a module without a PROFILE fails the boot, saying which."""
    page.goto(site + HOST_PAGE)
    refusals = {
        "os": "the graph must be named by a module of lab that defines PROFILE, not 'os'",
        "lab.nope": "no graph module 'lab.nope'",
        "lab.controller": "'lab.controller' names no graph: it defines no PROFILE (a GraphProfile)",
    }
    for graph, said in refusals.items():
        options = {"graph": graph, "spare": False, "offline": False, "snapshot": False}
        refused = page.evaluate(OPEN_REFUSED, options)
        assert not refused["ok"] and said in refused["message"], refused
        assert "Traceback" not in refused["message"]


def test_corrupt_records_get_a_clear_error_and_wiping_storage_is_the_way_back(page, site):
    lab = Lab(page, site)
    lab.open(spare=False)
    thread = lab.start("fixed")
    lab.do("run")
    assert lab.page.evaluate(CORRUPT_THREAD, thread) > 0

    answer = lab.page.evaluate(COMMAND, ["frames", {}])
    named = f"thread {thread!r}, checkpoint "  # the record that does not load
    assert not answer["ok"] and named in answer["message"], answer
    assert "does not load" in answer["message"] and "Traceback" not in answer["message"]

    lab.page.evaluate("labSession.wipeStorage()")
    databases = lab.page.evaluate("async () => (await indexedDB.databases()).map((d) => d.name)")
    assert not {"checkpoint-lab", "checkpoint-lab-threads", "checkpoint-lab-ledger"} & set(databases)

    lab.open(spare=False)  # a fresh page after the wipe: boots, and the lab is empty
    assert lab.do("restore") == {"session": None}
    assert lab.stored(None) == {"checkpoints": [], "writes": [], "ledger": []}
