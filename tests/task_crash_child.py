"""Real LangGraph processes for ``tests/test_task_crash_langgraph.py``, killed for real: a graph whose
``fetch`` pays a query and whose ``human_review`` buys an export in a ``@task`` before ``interrupt()``
(no idempotency key), over a ``SqliteSaver`` file that outlives every process.

    python tests/task_crash_child.py

imports LangGraph once and then serves: each line it reads on stdin is a JSON request
``{"folder": DIR, "durability": D, "act": ACT, "moment": M}``, for which it forks a fresh process (one that
has never run a graph) and prints ``EXIT <code>`` once that process has ended (``-9``: killed). The forked
process runs thread "case-1" of ``DIR/thread.sqlite``; every charge and every entry into
``human_review`` is a line appended (and fsync'ed) to ``DIR/ledger.txt``, the outside world.

ACT is ``start`` (invoke the case), ``resume`` (``invoke(None)``), ``approve`` (``Command(resume=...)``)
or ``finish`` (what a learner does after a crash in a new process: Resume if the thread has a saved next
step, else Run, then Approve). It prints ``INTERRUPTED`` or ``DONE <approved>`` after each invoke. With a
MOMENT the process prints ``AT <moment> <pid>`` when it gets there and waits to be killed (SIGKILL):

- ``side_effect``: inside the task, right before the export is paid;
- ``side_effect_done``: inside the task, right after it was paid, before the task returns (so before
  its result can be saved);
- ``returned``: in the node, after the task returned, before ``interrupt()``; under "sync" and "async"
  once the task's result, and the checkpoint it is pending on, are in the file ("exit" saves neither
  before the run stops);
- ``interrupt``: the node called ``interrupt()``: under "sync" and "async" once the question is saved
  and the task's result is in the file with the checkpoint it is pending on (under "async" those saves
  run on other threads, in any order: a kill before the checkpoint landed would re-run the step), under
  "exit" when the run is about to save
  on its way out (its first ``put``: nothing of it is saved yet, and without that checkpoint the writes
  the exit save sends beside it on other threads name a checkpoint that does not exist).

The first three are the lab's crash seams of the AML ``task`` variant; ``returned`` is the tasks
lesson's own moment. A forked process that hangs is ended by an alarm after ``GUARD_S``.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
import threading
import traceback
from pathlib import Path
from typing import Any, NoReturn, TypedDict

from forked_python import serve_forks  # beside this file: python tests/task_crash_child.py
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.func import task
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

INTERRUPT = "__interrupt__"
GUARD_S = 300
"""Seconds a forked process may live: the test kills it, or it ends, long before (this bounds a broken
one)."""
CONFIG = {"configurable": {"thread_id": "case-1"}}
SAVED_RESULT = (
    "select count(*) from writes join checkpoints using (thread_id, checkpoint_ns, checkpoint_id)"
    " where channel = '__return__'"
)
"""The task's result, saved as a pending write of a checkpoint that is saved too (under ``async`` a
checkpoint and a write of the next step are saved in the background, in either order)."""


class Case(TypedDict, total=False):
    case_id: str
    review: dict[str, Any]


class Process:
    """One forked process: its thread's files, its durability, and the moment it stops at (or ``None``)."""

    def __init__(self, folder: Path, durability: str, moment: str | None) -> None:
        self.db, self.ledger = folder / "thread.sqlite", folder / "ledger.txt"
        self.durability, self.moment = durability, moment

    def reach(self, moment: str) -> None:
        """At ``moment``: if it is the one asked for, say so and wait to be killed."""
        if moment == self.moment:
            print(f"AT {moment} {os.getpid()}", flush=True)
            threading.Event().wait()

    def record(self, line: str) -> None:
        """A line in the ledger, on disk before the call that made it returns."""
        with open(self.ledger, "a") as ledger:
            ledger.write(line + "\n")
            ledger.flush()
            os.fsync(ledger.fileno())

    def wait_for_the_tasks_saved_result(self) -> None:
        reader = sqlite3.connect(self.db)
        while not reader.execute(SAVED_RESULT).fetchone()[0]:
            threading.Event().wait(0.01)

    def graph(self, saver: SqliteSaver) -> Any:
        @task
        def buy_export(case_id: str) -> str:
            self.reach("side_effect")
            self.record("charge export")  # the paid API answered: money moved
            self.reach("side_effect_done")
            return f"export of {case_id}"

        def fetch(state: Case) -> Case:
            self.record("charge query")
            return {}

        def human_review(state: Case) -> Case:
            self.record("enter human_review")
            export = buy_export(state["case_id"]).result()
            if self.moment == "returned" and self.durability != "exit":
                self.wait_for_the_tasks_saved_result()
            self.reach("returned")
            decision = interrupt({"question": "File a SAR?"})
            return {"review": {**decision, "export": export}}

        builder = StateGraph(Case)
        builder.add_node("fetch", fetch)
        builder.add_node("human_review", human_review)
        builder.add_edge(START, "fetch")
        builder.add_edge("fetch", "human_review")
        builder.add_edge("human_review", END)
        return builder.compile(checkpointer=saver)

    def invoke(self, graph: Any, act: str) -> None:
        if act == "finish":
            self.invoke(graph, "resume" if graph.get_state(CONFIG).next else "start")
            self.invoke(graph, "approve")
            return
        request = {
            "start": {"case_id": "S-1001"},
            "resume": None,
            "approve": Command(resume={"approved": True}),
        }
        out = graph.invoke(request[act], CONFIG, durability=self.durability)
        print("INTERRUPTED" if INTERRUPT in out else f"DONE {out['review']['approved']}", flush=True)

    def run(self, act: str) -> None:
        saver = WatchedSaver(sqlite3.connect(self.db, check_same_thread=False))
        saver.process = self
        self.invoke(self.graph(saver), act)
        if self.moment is not None:
            raise SystemExit(f"the run passed {self.moment} without stopping")


class WatchedSaver(SqliteSaver):
    """A ``SqliteSaver`` that stops the process at the ``interrupt`` moment (see the docstring)."""

    process: Process

    def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        if self.process.moment == "interrupt" and self.process.durability == "exit":
            self.process.reach("interrupt")  # the run's save on its way out: nothing of it is saved yet
        return super().put(config, checkpoint, metadata, new_versions)

    def put_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        super().put_writes(config, writes, task_id, task_path)
        if self.process.moment != "interrupt":
            return
        if INTERRUPT in {channel for channel, _ in writes}:
            # (under "async" the task's result, the question and the checkpoint they belong to are
            # saved on other threads, in any order: wait until the result and its checkpoint are in)
            self.process.wait_for_the_tasks_saved_result()
            self.process.reach("interrupt")


def forked(request: dict[str, Any]) -> NoReturn:
    """The forked process: run the request's act, then end without returning to the server's loop."""
    signal.alarm(GUARD_S)
    code = 0
    try:
        process = Process(Path(request["folder"]), request["durability"], request.get("moment"))
        process.run(request["act"])
    except BaseException:  # noqa: BLE001 - whatever ended it is printed; the server reports the exit code
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    os._exit(code)


if __name__ == "__main__":
    serve_forks(forked)
