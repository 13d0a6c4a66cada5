"""The tasks a node called (LangGraph's ``@task`` inside a node), one row each: ran, or restored.

In LangGraph a node that calls a ``@task`` function starts a task of its own, whose id is derived
from the checkpoint its step started from; what the task returned is saved at once as a pending
write (``__return__``) of that checkpoint. A node that runs again from its first line (after
``interrupt()``, after a crash) and makes the same call gets the saved result back: the task is
*restored*, it does not run. A task whose result was lost (a crash before it was saved) runs again,
and a charge inside it is made again. The rows come from the journal's ``task_call`` records
(:mod:`lab.controller.seam_events`): the calls of each node's latest execution.

============  =====================================================================================
``restored``  its saved result was given back: it did not run
``running``   it runs in the live run; its result is not saved yet
``saved``     it ran, and its result is saved with the step's checkpoint
``rerun``     it ran again (its result is saved now): an earlier run of it was lost before its save
``crashed``   the process was killed before its result was saved: it runs again on resume
``ran``       it ran; the run ended without saving its result (it raised)
============  =====================================================================================
"""

from __future__ import annotations

from typing import Any

from lab.controller.messages import Message, message

TASK_ROW_STATES = ("restored", "running", "saved", "rerun", "crashed", "ran")
"""Every state a called task's row can be drawn in."""


def task_rows(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """``{node: [{"name", "task_id", "run", "step", "state", "reason"}]}``: for each node that called
    tasks, the calls of its latest execution (its last run and step with a call), in call order."""
    calls = [r for r in records if r["type"] == "task_call"]
    latest: dict[str, tuple[int, int]] = {}
    for call in calls:
        latest[call["caller"]] = max(latest.get(call["caller"], (0, 0)), (call["run"], call["step"]))
    return {
        caller: [row(call, records) for call in calls if _at(call) == at and call["caller"] == caller]
        for caller, at in latest.items()
    }


def row(call: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    state, reason = call_state(call, records)
    return {
        "name": call["node"],
        "task_id": call["task_id"],
        "run": call["run"],
        "step": call["step"],
        "state": state,
        "reason": reason,
    }


def call_state(call: dict[str, Any], records: list[dict[str, Any]]) -> tuple[str, Message]:
    """What became of one call: restored, or ran and then saved, lost to a crash, or still running."""
    checkpoint = call["checkpoint_id"]
    if call["restored"]:
        return "restored", message(
            "task.restored",
            "Restored: its result was saved with checkpoint {checkpoint}, so it did not run again",
            checkpoint=checkpoint,
        )
    its_run = [r for r in records if r.get("run") == call["run"]]
    if saved(its_run, call["task_id"]):
        if lost_before(call, records):
            return "rerun", message(
                "task.rerun", "Ran again: an earlier run of it was lost before its result was saved"
            )
        return "saved", message(
            "task.saved", "Ran; its result is saved with checkpoint {checkpoint}", checkpoint=checkpoint
        )
    if crash := next((r for r in its_run if r["type"] == "crash"), None):
        if crash.get("in_task_id") == call["task_id"]:
            return "crashed", message(
                "task.crashed_inside",
                "Crashed at {seam}, inside it: its result was never saved, so it runs again on resume",
                seam=crash["seam"],
            )
        return "crashed", message(
            "task.crashed", "Crashed before its result was saved: it runs again on resume"
        )
    if any(r["type"] == "run_end" for r in its_run):
        return "ran", message("task.ran", "Ran; the run ended without saving its result")
    return "running", message("task.running", "Running; its result is not saved yet")


def saved(its_run: list[dict[str, Any]], task_id: str) -> bool:
    """Was the task's result saved in its run (its ``put_writes``)?"""
    return any(r["type"] == "put_writes" and r.get("task_id") == task_id for r in its_run)


def lost_before(call: dict[str, Any], records: list[dict[str, Any]]) -> bool:
    """Did an earlier run make the same call (same node, same task) and lose it before its save?"""
    return any(
        r["type"] == "task_call"
        and r["run"] < call["run"]
        and (r["caller"], r["node"]) == (call["caller"], call["node"])
        and not r["restored"]
        and not saved([x for x in records if x.get("run") == r["run"]], r["task_id"])
        for r in records
    )


def _at(call: dict[str, Any]) -> tuple[int, int]:
    return call["run"], call["step"]
