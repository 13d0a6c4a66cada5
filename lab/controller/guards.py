"""Guards: the refusals every command checks first, each with the reason the page shows.

LangGraph raises at its caller when a call cannot be made (no checkpointer, no such checkpoint, a
graph already running). The lab's commands refuse the same situations, and more the page must
explain: a crashed process, no thread chosen, a run still paused or running, an action the view
shows disabled (its reason is :func:`~lab.controller.actions.refusal`'s). A part of ``LabController``.
"""

from __future__ import annotations

from lab.controller.actions import NO_CASE, PAUSED, RUNNING, refusal
from lab.controller.seam_catalog import THE_STEP
from lab.controller.session import Session, refused, said


class Guards:
    """The checks a command makes before it acts (a part of ``LabController``)."""

    async def _refuse_unless(self, action: str) -> None:
        """Refuse ``action`` with the reason the page shows next to its disabled button."""
        if (reason := refusal(action, await self._facts())) is not None:
            raise refused(reason)

    def _require_alive(self) -> None:
        if not self.process.alive:
            where = self._crash_report or {}
            raise said(
                "process.crashed",
                "This Python process crashed at {seam} of {node}; start a new controller over the same "
                "storage, then resume",
                seam=where.get("seam"),
                node=where.get("node") or THE_STEP,
            )

    def _require_session(self) -> Session:
        if self.session is None:
            raise refused(NO_CASE)
        return self.session

    def _require_idle(self) -> None:
        if self._run is not None:
            raise refused(PAUSED if self._run.gate is not None else RUNNING)
