"""Driving the lab page the way a learner does - through its buttons, by accessible role and name - and
reading back what it shows and what the browser's IndexedDB holds.

The page under test is a view: the truth it must agree with is (a) what Python's controller says
(``lab.command(...)``, the LabSession the page exposes as ``window.lab``) and (b) what IndexedDB
holds, read here with plain JavaScript in the page, not through the worker.

Waiting: the site's CSP forbids the string evaluation that ``wait_for_function`` uses, so everything
polls with ``page.evaluate`` (see ``browser_harness``). A command the page sent has finished - and the
view has been refreshed after it - once ``body[data-commands-done]`` has grown.
"""

from __future__ import annotations

import re
import time
from typing import Any

from browser_harness import wait_until_ready
from playwright.sync_api import expect

NODE_DELAY_S = 0.05  # each node works 50 ms (the lab's default is 0.3 s): crashes still land inside
TIMEOUT_S = 30
THREADS_DB = "checkpoint-lab-threads"
LEDGER_DB = "checkpoint-lab-ledger"

# Reads one object store of one database with plain IndexedDB calls, in the page.
READ_STORE = """
async ([database, store]) => {
  const settle = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await settle(indexedDB.open(database));
  try {
    if (!db.objectStoreNames.contains(store)) return [];
    const rows = await settle(db.transaction(store).objectStore(store).getAll());
    return rows.map((row) => {
      const plain = {};
      for (const [key, value] of Object.entries(row)) {
        if (value && typeof value === "object" && "bytes" in value) continue;  // serialized values
        plain[key] = value;
      }
      return plain;
    });
  } finally {
    db.close();
  }
}
"""

# Overwrite every checkpoint's metadata of a thread with bytes that are not msgpack (0xc1 is never used).
CORRUPT_THREAD = """
async (thread) => {
  const settle = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await settle(indexedDB.open("checkpoint-lab-threads"));
  const tx = db.transaction(["checkpoints"], "readwrite");
  const store = tx.objectStore("checkpoints");
  const rows = await settle(store.getAll(IDBKeyRange.bound([thread], [thread, []])));
  for (const row of rows) store.put({ ...row, metadata: { type: "msgpack", bytes: new Uint8Array([0xc1]) } });
  await new Promise((resolve) => { tx.oncomplete = resolve; });
  db.close();
  return rows.length;
}
"""


def wait_until(page, predicate, what: str, timeout_s: float = TIMEOUT_S):
    """Poll ``predicate()`` until it returns something truthy; fail with ``what`` and the status line."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            status = page.evaluate("() => document.querySelector('#status')?.textContent")
            error = page.evaluate("() => document.querySelector('#error-line')?.textContent")
            raise AssertionError(f"timed out waiting for {what}; status: {status!r}; error: {error!r}")
        page.wait_for_timeout(40)


def view(page, expression: str) -> Any:
    """Evaluate a JS expression over the page's read-only view model (``labView``)."""
    return page.evaluate(f"() => {{ const m = window.labView; return {expression}; }}")


def settle(page) -> None:
    """Let the view draw: it renders on the next animation frame after a change."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def process_ready(page) -> bool:
    return page.evaluate("() => document.body.dataset.process === 'ready' && !!window.labView.status")


def open_lab(page, base_url: str, query: str = "", delay: float = NODE_DELAY_S) -> None:
    """Open the lab with short node delays and wait until Python is ready and the catalogue is drawn."""
    separator = "&" if query else ""
    page.goto(f"{base_url}/?delay={delay}{separator}{query}")
    wait_until_ready(page)
    wait_until(page, lambda: process_ready(page), "the lab's process to be ready")


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def commands_done(page) -> int:
    return int(page.evaluate("() => document.body.dataset.commandsDone ?? '0'"))


def press(page, name: str) -> None:
    """Click a button that sends one command, and wait until it answered and the view caught up."""
    before = commands_done(page)
    button(page, name).click()
    wait_until(page, lambda: commands_done(page) > before and not view(page, "m.busy"), f"{name!r} to finish")
    settle(page)


def key(page, shortcut: str) -> None:
    """Press a keyboard shortcut (with the focus on the page, not in a field) and wait for its command."""
    before = commands_done(page)
    page.locator("#status").click()  # a neutral spot: shortcuts are ignored while typing
    page.keyboard.press(shortcut)
    wait_until(
        page, lambda: commands_done(page) > before and not view(page, "m.busy"), f"shortcut {shortcut}"
    )
    settle(page)


def start(page, case: str = "S-1001", variant: str = "misplaced", durability: str = "sync") -> str:
    """Choose a case, variant and durability in the form, press Start; returns the new thread id."""
    page.get_by_role("combobox", name="Case", exact=True).select_option(case)
    page.get_by_role("radio", name=re.compile(rf"^{re.escape(variant)}(?![\w-])")).check()  # not task-key
    page.get_by_role("radio", name=re.compile(rf"^{durability}\b")).check()
    press(page, "Start")
    thread = view(page, "m.session && m.session.thread_id")
    assert thread and thread.startswith(case), thread
    assert view(page, "m.session.variant") == variant and view(page, "m.session.durability") == durability
    return thread


def arm_crash(page, seam: str, node: str | None = None) -> None:
    """Choose a seam by its controller name (``data-seam``) and a node, then press Arm crash."""
    page.locator(f'#crash-seams input[data-seam="{seam}"]').check()
    if node is not None:
        page.get_by_role("combobox", name="Of node").select_option(node)
    press(page, "Arm crash")
    armed = page.locator("#crash-armed")
    expect(armed).to_contain_text(f"({seam})")
    if node is not None:
        expect(armed).to_contain_text(f"of {node}")


def crash_and_reboot(page, name: str = "Run") -> dict:
    """Press ``name`` with a crash armed: the worker is terminated for real and a new one boots.
    Returns the crash as Python's view states it (``seam``, ``node``, ``step``, ``kept``: checkpoints
    IndexedDB held after), once the new process's view is in the page's store."""
    before = view(page, "m.crashes")
    process = page.inner_text("#process")
    button(page, name).click()
    wait_until(
        page,
        lambda: view(page, "m.crashes") > before and process_ready(page) and not view(page, "m.busy")
        and view(page, "m.viewProcess") > 1 and view(page, "m.status.phase.startsWith('crashed')"),
        "the crash and the new process's view",
    )  # fmt: skip
    settle(page)
    after = page.inner_text("#process")
    assert after != process and after.startswith("Python process #"), (process, after)
    assert page.locator("#crash-report").is_visible()
    return view(page, "({...m.status.message.params, kept: m.frames.length})")


# -- what the page shows -----------------------------------------------------------------------------


def table_ids(page) -> list[str]:
    """Checkpoint ids of the rows of the checkpoint table, top to bottom."""
    return page.eval_on_selector_all(
        "#checkpoint-table tbody tr", "(rows) => rows.map((r) => r.dataset.checkpointId)"
    )


def table_rows(page) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        "#checkpoint-table tbody tr",
        "(rows) => rows.map((r) => ({id: r.dataset.checkpointId, step: r.dataset.step,"
        " source: r.dataset.source,"
        " next: r.querySelector('td.next').textContent, writes: r.querySelector('td.pending').textContent,"
        " writers: [...new Set([...r.querySelectorAll('td.pending li')].map((li) => li.dataset.node))]"
        "}))",
    )


def shown_counts(page) -> dict[str, int]:
    """Executions per node as the page's table shows them."""
    rows = page.eval_on_selector_all(
        "#executions-table tbody tr[data-node]",
        "(rows) => rows.map((r) => [r.dataset.node, r.querySelector('.count').textContent])",
    )
    return {node: int(count) for node, count in rows}


def shown_resume(page) -> dict[str, str]:
    """Per node, what the executions table says the last resume did, as a learner reads it (the
    verdict's visible text: "restored from pending writes" / "re-run" / "")."""
    return dict(
        page.eval_on_selector_all(
            "#executions-table tbody tr[data-node]",
            "(rows) => rows.map((r) => [r.dataset.node, r.querySelector('.verdict')?.textContent ?? ''])",
        )
    )


def controller(page, name: str, args: dict | None = None) -> Any:
    """A controller command sent straight through the page's LabSession (what Python says)."""
    return page.evaluate("([name, args]) => window.lab.command(name, args)", [name, args or {}])


def assert_counts_are_true(page) -> dict[str, int]:
    """The execution counts the page shows equal what the runtime recorded (the controller's
    ``executions``), node by node, every graph node included (0 for one that never ran). The view
    draws on the next animation frame, so let it catch up before judging."""
    runtime = controller(page, "executions")["nodes"]

    def agree():
        shown = shown_counts(page)
        return shown if shown == {node: runtime.get(node, {}).get("started", 0) for node in shown} else None

    try:
        shown = wait_until(page, agree, "the shown execution counts to match the runtime's")
    except AssertionError:
        raise AssertionError(f"shown {shown_counts(page)} != runtime {runtime}") from None
    assert set(runtime) - {"__start__"} <= set(shown), (shown, runtime)
    return shown


# -- what IndexedDB holds ------------------------------------------------------------------------------


def idb_rows(page, database: str, store: str) -> list[dict]:
    return page.evaluate(READ_STORE, [database, store])


def idb_checkpoints(page, thread_id: str) -> list[dict]:
    """The thread's checkpoint records in IndexedDB (ids are time-ordered: oldest first)."""
    rows = [r for r in idb_rows(page, THREADS_DB, "checkpoints") if r["thread_id"] == thread_id]
    return sorted(rows, key=lambda r: r["checkpoint_id"])


def idb_checkpoint_ids(page, thread_id: str) -> list[str]:
    return [r["checkpoint_id"] for r in idb_checkpoints(page, thread_id)]


def idb_writes(page, thread_id: str, checkpoint_id: str) -> list[dict]:
    rows = idb_rows(page, THREADS_DB, "writes")
    return [r for r in rows if r["thread_id"] == thread_id and r["checkpoint_id"] == checkpoint_id]


def corrupt_checkpoints(page, thread_id: str) -> int:
    """Make every checkpoint record of the thread undecodable, straight in IndexedDB; how many."""
    return page.evaluate(CORRUPT_THREAD, thread_id)


def idb_ledger(page) -> list[dict]:
    return sorted(idb_rows(page, LEDGER_DB, "requests"), key=lambda r: r["seq"])


def assert_table_is_storage(page, thread_id: str) -> list[str]:
    """The checkpoint table shows exactly the checkpoints IndexedDB holds, oldest first."""
    ids = idb_checkpoint_ids(page, thread_id)
    wait_until(page, lambda: table_ids(page) == ids, f"the table to show IndexedDB's {len(ids)} checkpoints")
    return ids
