"""A child process for ``tests/test_task_crash_langgraph.py``: real LangGraph, a node that buys an
export in a ``@task`` before ``interrupt()``, over a ``SqliteSaver`` on disk, killed for real.

    python tests/task_crash_child.py DIR DURABILITY MOMENT

runs the graph on thread "t" of ``DIR/threads.sqlite``. Every charge is a line appended (and
fsync'ed) to ``DIR/charges.log``: the outside world, which outlives the process. With a ``MOMENT``
(not ``none``) the process writes ``DIR/marker`` when it reaches that moment and then blocks, until
the parent kills it (SIGKILL). The moments are the lab's crash seams of the AML ``task`` variant:

- ``side_effect``: inside the task, right before the charge leaves;
- ``side_effect_done``: inside the task, right after the charge, before the task returns (so
  before its result can be saved);
- ``interrupt``: the node called ``interrupt()`` and the loop holds its question: under "sync" and
  "async" once the task's result and the question are saved (``put_writes`` returned for both),
  under "exit" when the run is about to save on its way out (its first ``put``: nothing of it is
  saved yet, and without that checkpoint the writes the exit save sends beside it on other threads
  name a checkpoint that does not exist).

With ``MOMENT`` ``none`` the process picks the thread up (``invoke(None)`` if the thread has a
checkpoint, else the input again), answers the review "approve", and prints the final state as JSON.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, TypedDict

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.func import task
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

RETURN, INTERRUPT = "__return__", "__interrupt__"


class State(TypedDict, total=False):
    case_id: str
    draft: str
    export: dict[str, Any]
    outcome: str


class Child:
    """One process: where it writes, its durability, and the moment it stops at (or ``none``)."""

    def __init__(self, folder: Path, durability: str, moment: str) -> None:
        self.folder, self.durability, self.moment = folder, durability, moment
        self.task_saved = threading.Event()

    def reach(self, moment: str) -> None:
        """At ``moment``: if it is the one asked for, say so (the marker file) and wait to be killed."""
        if moment != self.moment:
            return
        (self.folder / "marker").write_text(moment)
        while True:
            time.sleep(60)

    def charge(self, case_id: str) -> dict[str, Any]:
        """The paid call: a line in the ledger, on disk before the call returns."""
        with open(self.folder / "charges.log", "a") as ledger:
            ledger.write(f"export {case_id}\n")
            ledger.flush()
            os.fsync(ledger.fileno())
        return {"receipt": f"ch_{os.getpid()}", "case_id": case_id}

    def graph(self, saver: SqliteSaver) -> Any:
        @task
        def buy_export(case_id: str) -> dict[str, Any]:
            self.reach("side_effect")
            receipt = self.charge(case_id)
            self.reach("side_effect_done")
            return receipt

        def draft(state: State) -> dict[str, Any]:
            return {"draft": f"SAR for {state['case_id']}"}

        def human_review(state: State) -> dict[str, Any]:
            export = buy_export(state["case_id"]).result()
            decision = interrupt({"draft": state["draft"], "export": export})
            return {"export": export, "outcome": "filed" if decision["approved"] else "closed"}

        builder = StateGraph(State)
        builder.add_node("draft", draft)
        builder.add_node("human_review", human_review)
        builder.add_edge(START, "draft")
        builder.add_edge("draft", "human_review")
        builder.add_edge("human_review", END)
        return builder.compile(checkpointer=saver)


class WatchedSaver(SqliteSaver):
    """A ``SqliteSaver`` that stops the process at the ``interrupt`` moment (see the docstring)."""

    child: Child

    def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        if self.child.moment == "interrupt" and self.child.durability == "exit":
            self.child.reach("interrupt")  # the run's save on its way out: nothing of it is saved yet
        return super().put(config, checkpoint, metadata, new_versions)

    def put_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        channels = {channel for channel, _ in writes}
        if self.child.moment != "interrupt":
            super().put_writes(config, writes, task_id, task_path)
            return
        super().put_writes(config, writes, task_id, task_path)
        if RETURN in channels:
            self.child.task_saved.set()
        if INTERRUPT in channels:
            self.child.task_saved.wait()  # (under "async" the two saves run on other threads)
            self.child.reach("interrupt")


def main(folder: Path, durability: str, moment: str) -> None:
    child = Child(folder, durability, moment)
    config = {"configurable": {"thread_id": "t"}}
    with WatchedSaver.from_conn_string(str(folder / "threads.sqlite")) as saver:
        saver.child = child
        graph = child.graph(saver)
        if moment != "none":
            graph.invoke({"case_id": "S-1"}, config, durability=durability)
            raise SystemExit(f"the run passed {moment} without stopping")
        request = None if graph.get_state(config).next else {"case_id": "S-1"}
        asked = graph.invoke(request, config, durability=durability)
        assert asked["__interrupt__"], asked
        done = graph.invoke(Command(resume={"approved": True}), config, durability=durability)
        print(json.dumps({"outcome": done["outcome"], "export": done["export"]}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3])
