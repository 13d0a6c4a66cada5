"""One process of the tasks lesson's crash check (tests/test_lesson_claims_tasks.py), on real LangGraph:
a two-node graph (``fetch`` pays a query, ``human_review`` buys an export in a ``@task`` before
``interrupt()``, with no idempotency key) over a SqliteSaver file, which outlives the process.

``python lesson_task_crash_child.py DB LEDGER DURABILITY ACT [MARK]``: ACT is ``start`` (invoke the
case), ``resume`` (``invoke(None)``) or ``approve`` (``Command(resume=...)``). Every charge and every
entry into ``human_review`` is appended to LEDGER (flushed and synced) as it happens. With MARK
(``charged``: in the task, right after the export was paid; ``returned``: in the node, after the
task returned, before ``interrupt()``), the process prints ``AT MARK`` there and waits to be killed;
at ``returned`` under ``sync`` or ``async`` it first waits until the task's result, and the checkpoint
it is pending on, are in the file (``exit`` saves neither before the run stops).
"""

import os
import sqlite3
import sys
import threading
import time
from typing import TypedDict

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.func import task
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

DB, LEDGER, DURABILITY, ACT = sys.argv[1:5]
MARK = sys.argv[5] if len(sys.argv) > 5 else None
GUARD = 60
"""Seconds the wait for the task's saved write may take before the process gives up (never reached
when the write is saved: the wait ends on it)."""


def record(line: str) -> None:
    with open(LEDGER, "a") as ledger:
        ledger.write(line + "\n")
        ledger.flush()
        os.fsync(ledger.fileno())


def die_here(mark: str) -> None:
    """Say where the process stands, then wait for the test's SIGKILL."""
    if mark == MARK:
        print(f"AT {mark}", flush=True)
        threading.Event().wait()


SAVED_RESULT = (
    "select count(*) from writes join checkpoints using (thread_id, checkpoint_ns, checkpoint_id)"
    " where channel = '__return__'"
)
"""The task's result, saved as a pending write of a checkpoint that is saved too (under ``async`` a
checkpoint and a write of the next step are saved in the background, in either order)."""


def wait_for_the_tasks_saved_result() -> None:
    reader = sqlite3.connect(DB)
    for _ in range(GUARD * 100):
        if reader.execute(SAVED_RESULT).fetchone()[0]:
            return
        time.sleep(0.01)
    raise SystemExit("the task's result was never saved")


class Case(TypedDict, total=False):
    case_id: str
    review: dict


@task
def buy_export(case_id: str) -> str:
    record("charge export")  # the paid API answered: money moved
    die_here("charged")
    return f"export of {case_id}"


def fetch(state: Case) -> Case:
    record("charge query")
    return {}


def human_review(state: Case) -> Case:
    record("enter human_review")
    export = buy_export(state["case_id"]).result()
    if MARK == "returned" and DURABILITY != "exit":
        wait_for_the_tasks_saved_result()
    die_here("returned")
    decision = interrupt({"question": "File a SAR?"})
    return {"review": {**decision, "export": export}}


builder = StateGraph(Case)
builder.add_node("fetch", fetch)
builder.add_node("human_review", human_review)
builder.add_edge(START, "fetch")
builder.add_edge("fetch", "human_review")
builder.add_edge("human_review", END)
graph = builder.compile(checkpointer=SqliteSaver(sqlite3.connect(DB, check_same_thread=False)))
config = {"configurable": {"thread_id": "case-1"}}
request = {"start": {"case_id": "S-1001"}, "resume": None, "approve": Command(resume={"approved": True})}
out = graph.invoke(request[ACT], config, durability=DURABILITY)
print("INTERRUPTED" if "__interrupt__" in out else f"DONE {out['review']['approved']}", flush=True)
