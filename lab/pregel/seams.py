"""Seams: the points of a run where the lab may watch, pause or crash it (no LangGraph concept).

LangGraph's loop has no such hook; the lab's instruments need one. A run given ``on_seam=`` (a
:data:`SeamHook`) reports a :class:`Seam` at each of these points, in the order one super-step meets
them (``lab.pregel.loop``'s docstring says where each one is reported); a run given no hook makes
none. At every seam the lab's hook (``lab.controller.run_driver``) may kill the process right there
(an armed crash), writes the seam in its journal and tells the page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Seam:
    """A point in a run where the lab may watch, pause or crash the process."""

    name: str  # step_start | task_start | task_finish | put_writes | step_end | put | interrupt | error
    # | task_call (a task a node calls: lab.pregel.task_calls)
    step: int
    checkpoint_id: str
    node: str | None = None
    task_id: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


SeamHook = Callable[[Seam], Awaitable[None]]
"""The lab's hook: told each seam, the run waits until it returns."""
