"""Benchmark 5: the saver's work for one super-step of the AML graph on the IndexedDB saver, against raw
IndexedDB transactions writing the same records from JavaScript in the same page.

    python bench/superstep_indexeddb.py [--runs 5] [--pause-ms 20]

Not a test: run it by hand. First, on CPython, a run of the AML graph (variant ``fixed``,
``durability="sync"``, to the officer's review) is recorded at the saver: every ``aput`` and
``aput_writes`` it made, grouped by super-step (a step's tasks' writes, then its checkpoint). Then, in
Chromium, once the lab's first visit has finished its background work (the warm spare booted, the
offline copy and the memory snapshot stored: they would compete for the same cores), each
super-step's calls are replayed into the browser's ``IndexedDBSaver`` twice, each time into a thread of
its own: by one ``saver_calls`` command, which makes them one after another as the runtime does in a
super-step and reports how long they took in the worker (Python in Pyodide, serializing, converting to
JS, one transaction per call, awaiting each ``complete``); and by one ``saver_call`` command per call,
summing the worker's times. Then a page script reads back the records that step stored and writes
copies of them (another thread id) with the same number of transactions, timed.

Every timed part starts after the same pause (``--pause-ms``, 20 by default): in the lab a super-step's
saves follow its nodes' work, and IndexedDB answers the first transaction after a pause more slowly than
one right after another (here: raw steps 1.7-1.8 ms after 0-5 ms, 2.0-2.7 ms after 20-100 ms; the saver
about 2.5-3.6 ms either way). Until 2026-12-01 the raw side wrote right after reading its records, with
no pause, while the saver's calls came one command each: that ratio is printed too ("as measured until").
The figure is the median over steps and runs of saver / raw for a whole super-step, the saver's calls
made by one command.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser"), str(ROOT / "bench")]

from boot import FIRST_VISIT_DONE, poll  # noqa: E402
from saver_adapter import request, saver_call_args  # noqa: E402
from saver_bench_page import IDB_PROMISES_JS, saver_bench_page  # noqa: E402

from lab.aml.cases import case_summaries  # noqa: E402
from lab.aml.profile import AML_PROFILE  # noqa: E402
from lab.browser.saver_rpc import encode  # noqa: E402
from lab.checkpoint import InMemorySaver  # noqa: E402
from lab.controller import LabController  # noqa: E402
from lab.world import MemoryWorld  # noqa: E402
from site_build.offline import precache_list  # noqa: E402

# Copies what one super-step stored to thread `target`, one timed transaction per saver call, `pause` ms
# after it read the records (0: at once).
# calls: [["put", checkpoint_id, [blob keys]] | ["writes", checkpoint_id, task_id], ...]
RAW_STEP = (
    """
async ([database, thread, calls, target, pause]) => {
"""
    + IDB_PROMISES_JS
    + """
  window.benchDb ??= await settle(indexedDB.open(database));
  const db = window.benchDb;
  const read = db.transaction(["checkpoints", "blobs", "writes"]);
  const records = [];
  for (const [kind, id, extra] of calls) {
    if (kind === "put") {
      const checkpoint = await settle(read.objectStore("checkpoints").get([thread, "", id]));
      const blobs = await Promise.all(extra.map((key) => settle(read.objectStore("blobs").get(key))));
      records.push([["checkpoints", checkpoint], ...blobs.map((blob) => ["blobs", blob])]);
    } else {
      const range = IDBKeyRange.bound([thread, "", id, extra], [thread, "", id, extra, []]);
      const writes = await settle(read.objectStore("writes").getAll(range));
      records.push(writes.map((write) => ["writes", write]));
    }
  }
  if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
  const started = performance.now();
  for (const batch of records) {
    const stores = [...new Set(batch.map(([store]) => store))];
    const tx = db.transaction(stores, "readwrite", { durability: "relaxed" });
    const done = ended(tx);
    for (const [store, record] of batch) tx.objectStore(store).put({ ...record, thread_id: target });
    await done;
  }
  return [performance.now() - started, records.reduce((n, batch) => n + batch.length, 0)];
}
"""
)


class RecordingSaver(InMemorySaver):
    """An in-memory saver that records the writing calls, grouped into super-steps by ``aput``."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[list[tuple[str, tuple[Any, ...]]]] = [[]]

    async def aput(self, config, checkpoint, metadata, new_versions):  # type: ignore[override]
        self.steps[-1].append(("aput", (config, checkpoint, metadata, new_versions)))
        self.steps.append([])
        return await super().aput(config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config, writes, task_id, task_path=""):  # type: ignore[override]
        self.steps[-1].append(("aput_writes", (config, list(writes), task_id, task_path)))
        await super().aput_writes(config, writes, task_id, task_path)


def recorded_steps() -> list[list[tuple[str, tuple[Any, ...]]]]:
    """The saver calls of one AML run to the officer's review (driven as the page drives it, by the lab
    controller), one list per super-step."""
    saver = RecordingSaver()

    async def drive() -> None:
        async def ignore(event: dict[str, Any]) -> None:
            return None

        controller = LabController(saver, MemoryWorld(), ignore, profile=AML_PROFILE, delay=0)
        case_id = case_summaries()[0]["id"]
        await controller.dispatch("start", {"case_id": case_id, "variant": "fixed", "durability": "sync"})
        await controller.dispatch("run")

    asyncio.run(drive())
    return [step for step in saver.steps if step]


def retarget(config: dict, thread: str) -> dict:
    return {"configurable": {**config["configurable"], "thread_id": thread}}


def first_visit_done(page, dist: Path) -> None:
    """Wait until the lab's first visit has finished its background work (it competes for the cores)."""
    files = len(precache_list(dist))
    poll(page, FIRST_VISIT_DONE.replace("FILES", str(files)), "the first visit's background work")


PAUSE_MS = 20
"""Every timed part starts after this pause (``--pause-ms``): the saver's, as a super-step's saves follow
its nodes' work in the lab, and the raw one's too (right after reading its records, the raw side's writes
are faster: see the module docstring)."""


def raw_calls(step, thread: str) -> list[list]:
    """What ``RAW_STEP`` copies of a step's saves in ``thread``: each ``aput``'s checkpoint and blobs, each
    ``aput_writes``' writes."""
    calls = []
    for method, args in step:
        if method == "aput":
            keys = [[thread, "", channel, version] for channel, version in args[3].items()]
            calls.append(["put", args[1]["id"], keys])
        else:
            calls.append(["writes", args[0]["configurable"]["checkpoint_id"], args[2]])
    return calls


def measure(page, database: str, steps, run: int, pause_ms: int) -> list[tuple[float, ...]]:
    """Replay every step on the browser's saver twice - one ``saver_calls`` for the whole step, and one
    ``saver_call`` per call (each into a thread of its own, taking turns at going first) - then raw, twice
    (after the pause, and at once); per step: saver ms (whole step), saver ms (sum of the single calls),
    raw ms, records, raw ms at once."""
    results = []
    for number, step in enumerate(steps):
        retargeted = {
            way: [(method, (retarget(args[0], f"bench-{run}-{way}"), *args[1:])) for method, args in step]
            for way in ("step", "calls")
        }
        measured: dict[str, float] = {}
        for way in ("step", "calls") if (run + number) % 2 == 0 else ("calls", "step"):
            page.wait_for_timeout(pause_ms)
            if way == "step":
                calls = encode([[method, list(args), {}] for method, args in retargeted[way]])
                measured[way] = request(page, "saver_calls", {"database": database, "calls": calls})["ms"]
            else:
                measured[way] = sum(
                    request(page, "saver_call", saver_call_args(database, method, args, {}))["ms"]
                    for method, args in retargeted[way]
                )
        thread = f"bench-{run}-step"
        copies = raw_calls(retargeted["step"], thread)
        raw_ms, records = page.evaluate(RAW_STEP, [database, thread, copies, f"raw-{thread}", pause_ms])
        at_once_ms, _ = page.evaluate(RAW_STEP, [database, thread, copies, f"raw-at-once-{thread}", 0])
        results.append((measured["step"], measured["calls"], raw_ms, records, at_once_ms))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pause-ms", type=int, default=PAUSE_MS, help="the pause before each timed part")
    options = parser.parse_args()
    runs = options.runs
    steps = recorded_steps()
    rows: list[tuple[float, ...]] = []
    with saver_bench_page(after_boot=first_visit_done) as lab:
        for run in range(runs):
            rows.extend(measure(lab.page, lab.database, steps, run, options.pause_ms))
    raw = statistics.median(r[2] for r in rows)
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, load average {os.getloadavg()[0]:.1f}; "
        f"{len(steps)} super-steps x {runs} runs"
    )
    print(f"calls per step: {[len(step) for step in steps]}")
    print(f"records per step: {[r[3] for r in rows[: len(steps)]]}")
    at_once = statistics.median(r[4] for r in rows)
    print(
        f"raw IndexedDB: median {raw:.2f} ms per super-step after a {options.pause_ms} ms pause (the "
        f"baseline), {at_once:.2f} ms at once after reading the records"
    )
    for label, index in (("a step's calls in one command", 0), ("one command per call (summed)", 1)):
        saver = statistics.median(r[index] for r in rows)
        ratios = statistics.median(r[index] / r[2] for r in rows if r[2] > 0)
        print(
            f"saver, {label}: median {saver:.2f} ms; ratio of medians {saver / raw:.2f}; "
            f"median of per-step ratios {ratios:.2f}"
        )
    old = statistics.median(r[1] for r in rows) / at_once
    old_steps = statistics.median(r[1] / r[4] for r in rows if r[4] > 0)
    print(
        f"as measured until 2026-12-01 (one command per call / raw at once): {old:.2f} "
        f"(per-step {old_steps:.2f})"
    )


if __name__ == "__main__":
    main()
