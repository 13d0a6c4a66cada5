"""What each node of the diagram is doing, and why: one state and a one-line reason per node.

In LangGraph a super-step's tasks start together; each one that finishes has its writes saved as
*pending writes* of the checkpoint the step started from (``put_writes``), and the step's own
checkpoint is saved once all are done. After a crash, ``invoke(None, thread)`` *restores* the tasks
whose writes were saved and *re-runs* the others. A node's state here tells that story:

===================  =============================================================================
``next``             scheduled in the current step (or the head's ``next``), not started
``running``          started, not finished (the run is live)
``finished_unsaved`` finished, but its writes are not saved yet (or were lost to a crash)
``saved``            its writes are saved (pending writes of the step's checkpoint)
``restored``         on resume, its saved writes were reused: it did not run again
``rerun``            on resume, it ran again: nothing of its first run was saved
``interrupted``      it called ``interrupt()``: waits for an answer
``failed``           it raised
``crashed``          the process was killed while it ran (or at its seam)
``idle``             none of the above now
===================  =============================================================================

The picture comes from the journal's last step (seams recorded as they happened) while that step
is live or is still the head; otherwise from the saved head alone, keeping the marks of a crash.
"""

from __future__ import annotations

from typing import Any

from lab.controller.facts import ThreadFacts, last_crash
from lab.controller.frames import NULL_WRITER
from lab.controller.journal import RESUMING_KINDS
from lab.controller.messages import Message, message

NODE_STATES = (
    "next",
    "running",
    "finished_unsaved",
    "saved",
    "restored",
    "rerun",
    "interrupted",
    "failed",
    "crashed",
    "idle",
)
"""Every state a node can be drawn in (the legend's order)."""
CONTROL_CHANNELS = frozenset(("__interrupt__", "__error__", "__resume__"))


def last_step(records: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The journal's last ``step_start`` and the records of the same run after it."""
    index = next((i for i in range(len(records) - 1, -1, -1) if records[i]["type"] == "step_start"), None)
    if index is None:
        return None, []
    start = records[index]
    return start, [r for r in records[index + 1 :] if r.get("run") == start["run"]]


SAVED_BEFORE_SEAM = frozenset(("put_writes", "interrupt"))
"""Seams the loop reaches after the task's writes were saved: a crash there loses nothing of it."""


def completed_seams(after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The step's records, plus the seam a crash stopped at if its writes were already saved
    (the controller crashes before it writes the seam down)."""
    crash = next((r for r in after if r["type"] == "crash"), None)
    if crash is not None and crash["seam"] in SAVED_BEFORE_SEAM and crash.get("node"):
        return [*after, {"type": crash["seam"], "node": crash["node"]}]
    return after


def died_in(node: str, crash: dict[str, Any] | None, after: list[dict[str, Any]]) -> bool:
    """The crash killed ``node``'s task: it stopped at the node's seam before its writes were
    saved, or the node was still running (started, not finished, not interrupted, not failed)."""
    if crash is None:
        return False
    if crash.get("node") == node:
        return crash["seam"] not in SAVED_BEFORE_SEAM
    ended = any(seen(after, kind, node) for kind in ("task_finish", "interrupt", "error"))
    return bool(seen(after, "task_start", node)) and not ended


def seen(after: list[dict[str, Any]], kind: str, node: str) -> dict[str, Any] | None:
    """The last record of ``kind`` about ``node`` in the step."""
    return next((r for r in reversed(after) if r["type"] == kind and r.get("node") == node), None)


def ran_before(records: list[dict[str, Any]], start: dict[str, Any], node: str) -> bool:
    """A resuming run's first step re-runs ``node`` if an earlier run already started it on the
    same checkpoint (same step, same task: LangGraph derives the task id from the checkpoint)."""
    run_starts = [r for r in records if r["type"] == "run_start" and r["run"] == start["run"]]
    if not run_starts or run_starts[0]["kind"] not in RESUMING_KINDS:
        return False
    first = next(r for r in records if r["type"] == "step_start" and r["run"] == start["run"])
    if first is not start:
        return False
    return any(
        r["type"] == "task_start"
        and r["node"] == node
        and r["run"] < start["run"]
        and r["step"] == start["step"]
        for r in records
    )


def step_state(
    node: str, facts: ThreadFacts, start: dict[str, Any], after: list[dict[str, Any]]
) -> tuple[str, Message]:
    """The state of ``node`` in the journal's last step."""
    if node in start["restored"]:
        return "restored", message(
            "node.restored", "Restored: its writes were saved before the crash, so it did not run again"
        )
    crash = next((r for r in after if r["type"] == "crash"), None)
    after = completed_seams(after)
    started, finished = seen(after, "task_start", node), seen(after, "task_finish", node)
    if died_in(node, crash, after):
        return "crashed", message(
            "node.crashed", "Crashed: the process was killed at {seam} while it ran", seam=crash["seam"]
        )
    if seen(after, "interrupt", node):
        return "interrupted", message(
            "node.interrupted", "Interrupted: it called interrupt() and waits for an answer"
        )
    if failed := seen(after, "error", node):
        return "failed", message("node.failed", "Failed: it raised {error}", error=failed.get("error", ""))
    if started and not finished:
        return "running", message("node.running", "Running in step {step}", step=start["step"])
    if finished:
        return finished_state(node, facts, start, after, crash)
    if node in start["tasks"]:
        return "next", message("node.next", "Next: scheduled in step {step}", step=start["step"])
    return "idle", message("node.idle", "Not part of this step")


def finished_state(
    node: str,
    facts: ThreadFacts,
    start: dict[str, Any],
    after: list[dict[str, Any]],
    crash: dict[str, Any] | None,
) -> tuple[str, Message]:
    """A node that finished: saved or not, and whether it ran for the second time."""
    ended = any(r["type"] == "run_end" and r["status"] in ("done", "interrupted") for r in after)
    if not seen(after, "put_writes", node) and not ended:
        if crash is not None:
            return "finished_unsaved", message(
                "node.lost", "Finished, but the crash came before its writes were saved: it will run again"
            )
        return "finished_unsaved", message("node.unsaved", "Finished; its writes are not saved yet")
    if ran_before(facts.records, start, node):
        return "rerun", message("node.rerun", "Re-run on resume: nothing of its first run was saved")
    return "saved", message(
        "node.saved",
        "Saved: its writes are stored with checkpoint {checkpoint}",
        checkpoint=start["checkpoint_id"],
    )


def head_state(node: str, head: dict[str, Any] | None) -> tuple[str, Message]:
    """The state of ``node`` read from the saved head alone (no live step describes it)."""
    if head is None:
        return "idle", message("node.idle", "Not part of this step")
    task = next((t for t in head["tasks"] if t["name"] == node), None)
    if task is None:
        return "idle", message("node.idle", "Not part of this step")
    if task["interrupts"] and not _answered(head):
        return "interrupted", message(
            "node.interrupted", "Interrupted: it called interrupt() and waits for an answer"
        )
    if task["error"]:
        return "failed", message("node.failed", "Failed: it raised {error}", error=task["error"])
    writes = [c for writer, c, _ in head["pending_writes"] if writer == node and c not in CONTROL_CHANNELS]
    if writes:
        return "saved", message(
            "node.saved",
            "Saved: its writes are stored with checkpoint {checkpoint}",
            checkpoint=head["checkpoint_id"],
        )
    return "next", message("node.next", "Next: scheduled in step {step}", step=head["step"] + 1)


def _answered(head: dict[str, Any]) -> bool:
    return any(w == NULL_WRITER and c == "__resume__" for w, c, _ in head["pending_writes"])


def crash_mark(node: str, crash: dict[str, Any] | None, records: list[dict[str, Any]]) -> Message | None:
    """Why ``node`` stays marked crashed after the head moved on (or never got its step saved)."""
    if crash is None:
        return None
    start, after = last_step(records)
    if start is None or start["run"] != crash["run"] or not died_in(node, crash, after):
        return None
    return message(
        "node.crashed_lost",
        "Crashed at {seam}; the checkpoint of its step was not saved, so resume starts again from the head",
        seam=crash["seam"],
    )


def node_states(facts: ThreadFacts, nodes: list[str]) -> dict[str, dict[str, Any]]:
    """``{node: {"state", "reason"}}`` for every node of the diagram."""
    start, after = last_step(facts.records)
    live = facts.run is not None
    head_id = facts.head["checkpoint_id"] if facts.head else None
    if start is not None and (live or start["checkpoint_id"] == head_id):
        states = {node: step_state(node, facts, start, after) for node in nodes}
    else:
        crash = last_crash(facts.records)
        states = {}
        for node in nodes:
            mark = crash_mark(node, crash, facts.records)
            states[node] = ("crashed", mark) if mark else head_state(node, facts.head)
    return {node: {"state": state, "reason": reason} for node, (state, reason) in states.items()}
