"""What made a checkpoint, in a few words: the caption a screen reader hears on the time-travel scrubber.

LangGraph's ``StateSnapshot.metadata["source"]`` says how a checkpoint came to be (``input``, ``loop``,
``update``, ``fork``); a ``loop`` checkpoint is written after the step that ran its parent's ``next``.
So frame 4 of 9 reads "after fetch_prices": the nodes whose writes it holds.
"""

from __future__ import annotations

from typing import Any

from lab.controller.messages import Message, message


def nodes_that_ran(parent: dict[str, Any] | None) -> list[str]:
    """The tasks of the step that wrote a ``loop`` checkpoint: its parent's ``next``."""
    return list(parent["next"]) if parent else []


def frame_caption(frame: dict[str, Any], parent: dict[str, Any] | None) -> Message:
    """``frame`` described by what made it (``parent``: the frame it was written after, if saved)."""
    source = frame["source"]
    if source == "input":
        return message("frame.input", "the input")
    if source == "update":
        return message("frame.update", "after update_state")
    if source == "fork":
        return message("frame.fork", "a copy to replay from")
    ran = nodes_that_ran(parent)
    if source == "loop" and ran:
        return message("frame.after", "after {nodes}", nodes=", ".join(ran))
    return message("frame.step", "step {step}", step=frame["step"])
