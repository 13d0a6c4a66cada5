"""Arguments a lesson fills in when it sends a command, from the lab's state at that moment.

A lesson cannot write a checkpoint id or a thread id into its data (they are new on every run), so
a command names them: ``refs={"checkpoint_id": "review_frame"}``. LangGraph users do the same by
hand: they pick a ``StateSnapshot`` from ``get_state_history`` and pass its ``config`` on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lab.lessons.model import Command

Ref = Callable[[dict[str, Any], list[dict[str, Any]]], Any]


def _newest_frame_before(node: str, view: dict[str, Any]) -> str:
    frames = [frame for frame in view["frames"] if frame["next"] == [node]]
    if not frames:
        raise LookupError(f"No checkpoint of this thread has next = [{node!r}] yet")
    return frames[-1]["checkpoint_id"]


def current_thread(view: dict[str, Any], threads: list[dict[str, Any]]) -> str:
    """The thread the lab is on."""
    return view["session"]["thread_id"]


def previous_thread(view: dict[str, Any], threads: list[dict[str, Any]]) -> str:
    """The thread saved just before the current one (``threads`` is newest first)."""
    current = current_thread(view, threads)
    older = [saved["thread_id"] for saved in threads if saved["thread_id"] != current]
    if not older:
        raise LookupError("There is no other saved thread to go back to")
    return older[0]


def review_frame(view: dict[str, Any], threads: list[dict[str, Any]]) -> str:
    """The newest checkpoint whose next node is ``human_review``."""
    return _newest_frame_before("human_review", view)


def classify_frame(view: dict[str, Any], threads: list[dict[str, Any]]) -> str:
    """The newest checkpoint whose next node is ``classify_typology``."""
    return _newest_frame_before("classify_typology", view)


REFS: dict[str, Ref] = {
    ref.__name__: ref for ref in (current_thread, previous_thread, review_frame, classify_frame)
}


def resolve(command: Command, view: dict[str, Any], threads: list[dict[str, Any]]) -> dict[str, Any]:
    """``{"name", "args"}``: the command exactly as the page's control sends it."""
    filled = {arg: REFS[ref](view, threads) for arg, ref in command.refs.items()}
    return {"name": command.name, "args": {**command.args, **filled}}
