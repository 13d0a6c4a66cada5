"""Seams into events: what the page is told, and what the journal keeps, at each seam of a run.

LangGraph tells a caller what happened through ``stream_mode`` ("updates", "checkpoints", "debug");
the lab's page hears it as events (``{type, seq, thread_id, ...}``): every seam, and for ``put`` /
``put_writes`` what was just committed, read back from the saver. The journal keeps what no
checkpoint records (which tasks started and finished, which run crashed where), so the view can be
rebuilt after a reload. Each function takes the controller (``lab``) and one seam of a run.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from lab.checkpoint.base import NULL_TASK_ID
from lab.controller import thread_reading as read
from lab.controller.frames import frame_of, writer_name
from lab.controller.state import Lab
from lab.pregel.seams import Seam


class RunIdentity(Protocol):
    """What a seam's records need to know about its run."""

    number: int
    thread_id: str


async def journal_seam(lab: Lab, run: RunIdentity, seam: Seam) -> None:
    """Write down what a seam shows that no checkpoint keeps (side-effect seams: the ledger has them)."""
    record: dict[str, Any] = {"type": seam.name, "run": run.number, "step": seam.step, "at": time.time()}
    if seam.name == "step_start":
        tasks, restored = seam.detail.get("tasks", []), seam.detail.get("restored", [])
        record |= {"checkpoint_id": seam.checkpoint_id, "tasks": list(tasks), "restored": list(restored)}
    elif seam.name in ("task_start", "task_finish", "put_writes", "interrupt", "error"):
        record |= {"node": seam.node, "task_id": seam.task_id}
        if seam.name == "error":
            record["error"] = str(seam.detail.get("error", ""))
    elif seam.name == "put":
        record["checkpoint_id"] = seam.checkpoint_id
    elif seam.name == "task_call":  # a task a node called: it runs now, or its saved result is reused
        detail = seam.detail
        record |= {"node": seam.node, "task_id": seam.task_id, "checkpoint_id": seam.checkpoint_id}
        record |= {"caller": detail["caller"], "caller_task_id": detail["caller_task_id"]}
        record["restored"] = bool(detail["restored"])
    elif seam.name != "step_end":
        return
    await lab.journal.append(run.thread_id, record)


async def announce(lab: Lab, run: RunIdentity, seam: Seam) -> None:
    """The events that say what a seam committed or raised."""
    if seam.name == "put":
        committed = frame_of(await read.saved(lab, seam.checkpoint_id), read.graph(lab))
        await lab.emit({"type": "checkpoint", "run": run.number, "frame": committed})
    elif seam.name == "put_writes":
        await lab.emit({"type": "writes", "run": run.number, **await committed_writes(lab, seam)})
    elif seam.name == "interrupt":
        interrupts = seam.detail.get("interrupts", [])
        await lab.emit(
            {"type": "interrupt", "run": run.number, **seam_payload(seam), "interrupts": interrupts}
        )
    elif seam.name == "error":
        error = {"type": seam.detail["error_type"], "message": str(seam.detail["error"])}
        await lab.emit(
            {"type": "error", "scope": "task", "run": run.number, **seam_payload(seam), "error": error}
        )


async def committed_writes(lab: Lab, seam: Seam) -> dict[str, Any]:
    """The writes ``put_writes`` just stored for the seam's task, read back from the saver."""
    saved = await read.saved(lab, seam.checkpoint_id)
    task_id = seam.task_id or NULL_TASK_ID  # resume values and Command updates belong to no task
    writer = seam.node or writer_name(task_id, {})
    writes = [
        (writer, channel, value) for tid, channel, value in saved.pending_writes or [] if tid == task_id
    ]
    return {"checkpoint_id": seam.checkpoint_id, "node": writer, "task_id": task_id, "writes": writes}


def seam_payload(seam: Seam) -> dict[str, Any]:
    return {
        "seam": seam.name,
        "step": seam.step,
        "checkpoint_id": seam.checkpoint_id,
        "node": seam.node,
        "task_id": seam.task_id,
        "detail": seam.detail,
    }
