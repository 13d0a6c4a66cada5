"""The run commands: ``step``, ``run``, ``resume`` and ``answer``, each one ``ainvoke`` of the graph.

LangGraph starts a thread with ``ainvoke(input, config)``, continues it (after a crash: finished
tasks restored from their pending writes, the others re-run) with ``ainvoke(None, config)``, and
answers an ``interrupt()`` with ``ainvoke(Command(resume=...), config)``. The lab sends the same
calls; ``step`` pauses the run after one super-step inside that one call
(:mod:`lab.controller.run_driver`). A part of ``LabController``.
"""

from __future__ import annotations

from typing import Any

from lab.controller.commands import command
from lab.controller.session import Until, said
from lab.controller.validation import check_resume
from lab.types import Command


class RunCommands:
    """The commands that run the graph forward (a part of ``LabController``)."""

    @command
    async def step(self, durability: str | None = None) -> dict[str, Any]:
        """Advance one super-step: start a run (or continue the thread), then pause at the next frame."""
        return await self._advance("step", durability)

    @command
    async def run(self, durability: str | None = None) -> dict[str, Any]:
        """Run to the next interrupt or to the end (continuing a paused run)."""
        return await self._advance("end", durability)

    @command
    async def resume(self, until: Until = "end", durability: str | None = None) -> dict[str, Any]:
        """Continue the thread after a crash: ``ainvoke(None, thread_config)``. Finished tasks of
        the interrupted step are restored from their pending writes; the others run again."""
        await self._refuse_unless("resume")
        return await self._start_run("resume", None, self._thread_config(), until, durability)

    @command
    async def answer(
        self, approve: bool, until: Until = "end", durability: str | None = None
    ) -> dict[str, Any]:
        """Answer the officer's review: ``Command(resume={"approved": approve})``."""
        if not isinstance(approve, bool):
            raise said("input.approve_not_bool", "approve must be true or false")
        await self._refuse_unless("approve")
        check_resume((await self._snapshot()).interrupts, {"approved": approve})
        request = Command(resume={"approved": approve})
        return await self._start_run("answer", request, self._thread_config(), until, durability)

    async def _advance(self, until: Until, durability: str | None) -> dict[str, Any]:
        run = self._run
        if run is not None and run.gate is not None:
            if durability not in (None, run.durability):
                raise said(
                    "input.durability_kept",
                    "This run was started with durability {durability}; it keeps it",
                    durability=repr(run.durability),
                )
            return await self._release(run, until)
        await self._refuse_unless("run")
        if await self._head_id(self._require_session().thread_id) is None:
            case_input = {"case_id": self.session.case_id}
            return await self._start_run("input", case_input, self._thread_config(), until, durability)
        return await self._start_run("continue", None, self._thread_config(), until, durability)
