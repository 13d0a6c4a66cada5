"""A simulated lab: the lab's controller on CPython, over storage that outlives its process.

No LangGraph concept of its own: LangGraph's promise after a crash is that a new process, given the
same checkpointer, resumes the thread. The page keeps that storage outside the worker (IndexedDB,
the page's world) and replaces a killed worker with a new one. :class:`SimulatedLab` does the same
in one Python process: the saver, the outside world and the journal live in memory here, the
controller is the "process", and :meth:`SimulatedLab.crash` ends it and boots a new one over the
same storage, which restores the thread, as the page's new worker does.

One class serves every CPython driver of the lab: the build's lesson seeds (``site_build``), the
playground's challenges (:mod:`lab.playground.challenges`, whose program is loaded afresh in each
process: ``profile`` is then a function that makes it) and the tests (``tests/controller_lab.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from lab.checkpoint import BaseCheckpointSaver, InMemorySaver
from lab.controller.command_table import Command
from lab.controller.controller import LabController
from lab.controller.journal import MemoryJournal
from lab.controller.profile import GraphProfile
from lab.world import MemoryWorld


class Refused(RuntimeError):
    """A command the simulated lab sent was refused; ``error`` is the controller's answer."""

    def __init__(self, name: str, error: dict[str, Any]) -> None:
        super().__init__(f"{name} was refused: {error.get('message')}")
        self.error = error


class SimulatedLab:
    """The lab's controller over a saver, a world and a journal that outlive its process, sent the
    commands the page's clicks send."""

    def __init__(
        self,
        profile: GraphProfile | Callable[[], GraphProfile],
        *,
        saver: BaseCheckpointSaver | None = None,
        journal: MemoryJournal | None = None,
        commands: Mapping[str, Command] = {},
    ) -> None:
        """``profile``: the graph the lab drives, or a function making it anew for each process;
        ``commands``: the commands a layer above plugs into the controller (``LabController``)."""
        self.profile = profile
        self.commands = commands
        self.saver = saver if saver is not None else InMemorySaver()
        self.world = MemoryWorld()
        self.journal = journal if journal is not None else MemoryJournal()
        self.controller = self.boot()

    def boot(self) -> LabController:
        """A new process over the lab's storage (nothing restored yet)."""
        profile = self.profile if isinstance(self.profile, GraphProfile) else self.profile()
        return LabController(
            self.saver,
            self.world,
            self.emit,
            profile=profile,
            journal=self.journal,
            delay=0,
            commands=self.commands,
        )

    async def emit(self, event: dict[str, Any]) -> None:
        """The process's events for the page: here nobody draws them."""

    async def dispatch(self, name: str, /, **args: Any) -> dict[str, Any]:
        """The controller's answer to the command, a refusal included."""
        return await self.controller.dispatch(name, args)

    async def do(self, name: str, /, **args: Any) -> dict[str, Any]:
        """The command's result; a refusal raises :class:`Refused`."""
        answer = await self.dispatch(name, **args)
        if not answer["ok"]:
            raise Refused(name, answer["error"])
        return answer["result"]

    async def restart(self) -> None:
        """End the process and boot a new one (nothing restored)."""
        await self.controller.terminate()
        self.controller = self.boot()

    async def crash(self) -> dict[str, Any]:
        """The page kills the worker: a new process over the same storage restores the thread
        (answers ``restore``'s result)."""
        await self.restart()
        return await self.do("restore")

    async def close(self) -> None:
        """End the process (a paused run with it): a simulated lab leaves nothing running."""
        await self.controller.terminate()
