"""The activity history: what happened on the thread, rebuilt from the journal after any reload.

LangGraph's closest relative is ``stream_mode="debug"`` (task and checkpoint events as they
happen); the lab keeps the same facts in its journal, outside the process, so the history a learner
reads survives a crash and a reload. Each entry is a message (code, params, English text) with the
run it belongs to and the time it was recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lab.controller.messages import Message, message
from lab.controller.seam_catalog import THE_STEP

Describe = Callable[[dict[str, Any]], Message]

RUN_KINDS = ("input", "continue", "resume", "answer", "replay")
"""What started a run (``RunDriver.start_run``)."""
RUN_ENDS = ("done", "interrupted", "error", "stopped", "crashed")
"""How a run ended (``run_end`` records)."""


def run_kind(kind: str) -> Message:
    """A run's kind as a word the page says in its language."""
    return message(f"run.kind.{kind}", kind)


def run_end(status: str) -> Message:
    return message(f"run.status.{status}", status)


def restored_nodes(nodes: list[str]) -> Message:
    """The tail of a step's line naming the tasks restored from pending writes (none: nothing)."""
    if not nodes:
        return message("log.restored_none", "")
    return message("log.restored", "; restored from pending writes: {nodes}", nodes=", ".join(nodes))


DESCRIBE: dict[str, Describe] = {
    "run_start": lambda r: message(
        "log.run_start",
        "Run {run} started ({kind}, durability {durability})",
        run=r["run"],
        kind=run_kind(r["kind"]),
        durability=r["durability"],
    ),
    "step_start": lambda r: message(
        "log.step_start",
        "Step {step}: runs {tasks}{restored}",
        step=r["step"],
        tasks=", ".join(r["tasks"]) or "∅",
        restored=restored_nodes(r["restored"]),
    ),
    "task_start": lambda r: message("log.task_start", "{node} started", node=r["node"]),
    "task_finish": lambda r: message("log.task_finish", "{node} finished", node=r["node"]),
    "put_writes": lambda r: message("log.put_writes", "{node}: writes saved", node=r["node"] or "<null>"),
    "interrupt": lambda r: message(
        "log.interrupt", "{node} called interrupt(): waiting for an answer", node=r["node"]
    ),
    "error": lambda r: message(
        "log.error", "{node} raised {error}", node=r["node"], error=r.get("error", "")
    ),
    "put": lambda r: message("log.put", "Checkpoint saved (step {step})", step=r["step"]),
    "task_call": lambda r: message(
        "log.task_restored" if r["restored"] else "log.task_call",
        "{caller} called task {node}: "
        + ("its saved result came back, it did not run" if r["restored"] else "it runs"),
        caller=r["caller"],
        node=r["node"],
    ),
    "crash": lambda r: message(
        "log.crash",
        "The process was killed at {seam} of {node} (step {step})",
        seam=r["seam"],
        node=r.get("node") or THE_STEP,
        step=r["step"],
    ),
    "run_end": lambda r: message(
        "log.run_end", "Run {run} ended: {status}", run=r["run"], status=run_end(r["status"])
    ),
}
"""One sentence per kind of journal record (``step_end`` says nothing a learner needs)."""


def activity(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``[{"run", "at", "kind", "message"}]``, oldest first."""
    return [
        {"run": r.get("run"), "at": r.get("at"), "kind": r["type"], "message": DESCRIBE[r["type"]](r)}
        for r in records
        if r["type"] in DESCRIBE
    ]
