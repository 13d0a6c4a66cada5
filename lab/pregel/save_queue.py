"""The save queue: how a run's saves reach the saver under each ``durability`` mode.

LangGraph's ``PregelLoop`` hands its checkpointer each checkpoint (``put``) and each task's writes
(``put_writes``) as the run makes them, and ``durability`` says when the run waits for them:

- ``"sync"``: each save is done before the run goes on;
- ``"async"``: saves run in the background, in order (each one after the one before, as
  LangGraph's ``_checkpointer_put_after_previous``); the run waits for the last one at its end;
- ``"exit"``: nothing is saved while the run goes; when it ends, the loop saves where it stopped
  (``SuperStepLoop.save_on_exit``), and those saves go through here like ``"sync"`` ones.

:class:`SaveQueue` is that choice for one run of :class:`~lab.pregel.loop.SuperStepLoop`. The
loop asks the saver for a save (a coroutine, not started) and gives it here with the seam to report
to the lab's hook once the save is done (``put`` or ``put_writes``; ``None``: no hook).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine
from typing import Any

from lab.pregel.seams import Seam, SeamHook
from lab.types import Durability

Save = Coroutine[Any, Any, Any]
"""A save the saver was asked for (``aput`` or ``aput_writes``), not started yet."""


class SaveQueue:
    """The saves of one run, on their way to the saver."""

    durability: Durability
    on_seam: SeamHook | None
    """The lab's hook, told each save's seam once the save is done."""
    last: asyncio.Future[None] | None
    """The last background save (``"async"``); each one waits for the one before."""

    __slots__ = tuple(__annotations__)

    def __init__(self, durability: Durability, on_seam: SeamHook | None) -> None:
        self.durability = durability
        self.on_seam = on_seam
        self.last = None

    def persist(self, saving: Save, seam: Seam | None) -> Awaitable[None]:
        """What the caller awaits: the save itself ("sync", "exit"), or its place in the queue
        ("async"); either way its ``seam`` is reported once it is saved."""
        if self.durability != "async":
            return saving if seam is None else self.report_once_saved(saving, seam)
        return self.queue(saving, seam)

    async def report_once_saved(self, saving: Save, seam: Seam | None) -> None:
        """Run the save, then tell the lab's hook (``seam``, if any)."""
        await saving
        if seam is not None:
            await self.on_seam(seam)

    async def queue(self, saving: Save, seam: Seam | None) -> None:
        """``durability="async"``: run the save in the background, after the one before."""
        previous = self.last

        async def in_order() -> None:
            if previous is not None:
                await previous  # (an earlier save failed, or the process died: this one never runs)
            await self.report_once_saved(saving, seam)

        self.last = asyncio.ensure_future(in_order())
        # A save that never ran (one before it failed, or the process was killed before this one's
        # turn, even before it started waiting) is closed, not left behind never awaited.
        self.last.add_done_callback(lambda _: saving.close())

    async def settle(self) -> None:
        """Wait for the background saves (the last one waits for all before it)."""
        if self.last is not None:
            await self.last
