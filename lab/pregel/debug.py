"""``stream_mode="tasks"`` and ``"debug"``: each task as it starts and as it ends, as LangGraph's
``pregel/debug.py`` maps them.

- ``"tasks"``: a task's start ``{id, name, input, triggers}`` (every task of a step as the step begins,
  and each ``@task`` call as it is made, even one whose saved result comes back), and its result
  ``{id, name, error, result, interrupts}`` once its writes are saved: ``result`` its writes to the
  state's keys (a ``@task``'s ``__return__``), several writes to one key as ``{"$writes": [...]}``,
  ``error`` the exception itself. A task whose saved writes are reused has no result event;
- ``"debug"``: the ``"checkpoints"`` and ``"tasks"`` chunks, each wrapped as ``{step, timestamp, type,
  payload}`` (``type``: ``checkpoint``, ``task`` or ``task_result``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any

from lab.checkpoint.base import ERROR, INTERRUPT
from lab.pregel.task import Task
from lab.pregel.task_calls import RETURN


def task_payload(task: Task) -> dict[str, Any]:
    """A task as it starts."""
    return {"id": task.id, "name": task.name, "input": task.input, "triggers": task.triggers}


def task_result_payload(
    task: Task, writes: Sequence[tuple[str, Any]], state_keys: Collection[str], error: BaseException | None
) -> dict[str, Any]:
    """A task as it ends: its writes to the state (and its return value), its error, its questions."""
    result: dict[str, Any] = {}
    for channel, value in writes:
        if channel not in state_keys and channel != RETURN:
            continue
        if channel not in result:
            result[channel] = value
        elif isinstance(result[channel], dict) and isinstance(result[channel].get("$writes"), list):
            result[channel]["$writes"].append(value)
        else:
            result[channel] = {"$writes": [result[channel], value]}
    interrupts = [dict(vars(i)) for channel, value in writes if channel == INTERRUPT for i in value]
    if error is None:
        error = next((value for channel, value in writes if channel == ERROR), None)
    return {"id": task.id, "name": task.name, "error": error, "result": result, "interrupts": interrupts}


def debug_event(mode: str, chunk: dict[str, Any], step: int) -> dict[str, Any]:
    """A ``"checkpoints"`` or ``"tasks"`` chunk as ``stream_mode="debug"`` wraps it (``step``: the
    loop's, a checkpoint's being the one before)."""
    kind = "checkpoint" if mode == "checkpoints" else "task_result" if "result" in chunk else "task"
    return {
        "step": step - 1 if mode == "checkpoints" else step,
        "timestamp": datetime.now(UTC).isoformat(),
        "type": kind,
        "payload": chunk,
    }
