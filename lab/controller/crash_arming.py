"""Crash arming: where the next run's process dies (``arm_crash``, ``disarm_crash``).

LangGraph's durable execution promises that a thread killed at any moment resumes from its last
checkpoint and pending writes; it has no command to kill one. The lab arms a crash at a seam of the
Pregel loop (a :class:`~lab.controller.run_driver.CrashPoint`: seam, node, step, the seams that must
happen first), and the run driver kills the process there, as ``kill -9`` would. Which seams can be
armed is the seam catalogue's rule (:func:`~lab.controller.seam_catalog.arm_refusal`). A part of
``LabController``.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from lab.aml.graph import VARIANTS, describe_graph
from lab.controller.commands import command
from lab.controller.run_driver import CrashPoint, crash_after
from lab.controller.seam_catalog import arm_refusal, seam_catalog
from lab.controller.session import refused, said


class CrashArming:
    """``arm_crash`` and ``disarm_crash`` (a part of ``LabController``)."""

    @command
    async def arm_crash(
        self, seam: str, node: str | None = None, step: int | None = None, after: list[Any] | None = None
    ) -> dict[str, Any]:
        """Kill the process the next time a run reaches ``seam`` (of ``node``, in ``step``, if given),
        once the seam ``after`` (``[seam, node]``, or a list of them) has happened in that run."""
        crash = CrashPoint(seam, node, step, crash_after(after))
        diagram = describe_graph(self.graphs[self.session.variant if self.session else VARIANTS[0]])
        for point in [(seam, node), *crash.waits_for()]:
            if (reason := arm_refusal(seam_catalog(diagram), *point)) is not None:
                raise refused(reason)
        if step is not None and (not isinstance(step, int) or isinstance(step, bool)):
            raise said("input.step_not_number", "step must be a whole number, got {given}", given=repr(step))
        self._crash = crash
        return {"armed": asdict(self._crash)}

    @command
    async def disarm_crash(self) -> dict[str, Any]:
        self._crash = None
        return {"armed": None}
