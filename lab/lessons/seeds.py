"""Seeds for fast deep links: the threads a lesson step opens on, recorded once as thread files.

A deep link to a late step rebuilt its threads by sending every earlier step's moves again (a
real crash included, each node at the lab's pace): 20-40 s in the browser. LangGraph's own answer
to "start from where another run stood" is a saver that already holds the checkpoints; the lab's is
a thread file (:mod:`lab.controller.thread_file`: checkpoints, pending writes, journal, ledger). So
the build walks each lesson once on CPython (:class:`LessonLab`: the lab's controller over
in-memory storage, a crashed process replaced as the page replaces a killed worker) and, where a
step begins, exports every thread the lesson has made so far (:class:`Seed`). A deep link imports
them, opens the current one and sends only the step's own preparation.

A seed is kept only if it is proven: a lab seeded from it, walked from that step to the lesson's
end, gives every check the same answer (done, and each fact's value) as the lab that replayed the
moves. State no thread file carries (an armed crash, which tab holds a thread) fails that proof, so
such a step has no seed and its deep link replays as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lab.aml.profile import AML_PROFILE
from lab.checkpoint import InMemorySaver
from lab.controller import LabController
from lab.controller.journal import MemoryJournal
from lab.lessons.model import Lesson
from lab.world import MemoryWorld

__all__ = ["LessonLab", "Seed", "lesson_seeds"]


@dataclass(frozen=True)
class Seed:
    """The lab's threads where a step begins: their ids and files (base64), oldest first, and the
    thread the lab is on."""

    ids: tuple[str, ...]
    threads: tuple[str, ...]
    current: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"ids": list(self.ids), "threads": list(self.threads), "current": self.current}


class LessonLab:
    """A lesson's lab on CPython: the controller over a saver, a world and a journal that outlive
    its process, sent the commands the page's clicks send."""

    def __init__(self) -> None:
        self.saver, self.world, self.journal = InMemorySaver(), MemoryWorld(), MemoryJournal()
        self.controller = self.boot()

    def boot(self) -> LabController:
        return LabController(
            self.saver, self.world, self.ignore, profile=AML_PROFILE, journal=self.journal, delay=0
        )

    @staticmethod
    async def ignore(event: dict[str, Any]) -> None:
        """Nobody draws a recording's events."""

    async def do(self, name: str, **args: Any) -> dict[str, Any]:
        answer = await self.controller.dispatch(name, args)
        if not answer["ok"]:
            raise RuntimeError(f"{name} was refused: {answer['error']['message']}")
        return answer["result"]

    async def send(self, lesson: Lesson, step_id: str, part: int | str) -> None:
        """One move, as the runner sends it (a refusal is an answer); after a crash, a new process
        restores the thread, as LabSession's new worker does."""
        command = await self.do("lesson_command", lesson=lesson.id, step=step_id, part=part)
        answer = await self.controller.dispatch(command["name"], command["args"])
        if answer["ok"] and answer["result"].get("status") == "crashed":
            await self.controller.terminate()
            self.controller = self.boot()
            await self.do("restore")

    async def close(self) -> None:
        """End the process (a paused run with it): a recording leaves nothing running."""
        await self.controller.terminate()

    async def walk(self, lesson: Lesson, start: int, stop: int | None = None) -> list[dict[str, Any]]:
        """Steps ``start`` to ``stop`` (the end) of ``lesson``: each one's preparation and action, then
        its check."""
        checks = []
        for step in lesson.steps[start:stop]:
            for index in range(len(step.prepare)):
                await self.send(lesson, step.id, index)
            if step.action is not None:
                await self.send(lesson, step.id, "action")
            checks.append(await self.do("lesson_check", lesson=lesson.id, step=step.id))
        return checks

    async def seed(self) -> Seed | None:
        """Every saved thread's file, oldest first, and the open thread (``None``: a thread has no
        file, as one with no checkpoint yet)."""
        ids = [session["thread_id"] for session in reversed(await self.journal.sessions())]
        files = []
        for thread_id in ids:
            answer = await self.controller.dispatch("export_thread", {"thread_id": thread_id})
            if not answer["ok"]:
                return None
            files.append(answer["result"]["data"])
        current = self.controller.state.session
        return Seed(tuple(ids), tuple(files), current.thread_id if current else None)

    @classmethod
    async def seeded(cls, seed: Seed) -> LessonLab | None:
        """A new lab holding ``seed``'s threads, on its current one (``None``: a file was refused, as
        a pruned thread's, whose chain is not whole)."""
        lab = cls()
        on = None
        for data in seed.threads:
            answer = await lab.controller.dispatch("import_thread", {"data": data})
            if not answer["ok"]:
                await lab.close()
                return None
            on = answer["result"]["session"]["thread_id"]  # an import opens its thread
        if seed.current not in (None, on):
            await lab.do("open", thread_id=seed.current)
        return lab


async def lesson_seeds(lesson: Lesson) -> dict[str, Seed]:
    """The proven seed of each step after the first (see the module's docstring), by step id. Each
    step's seed comes from a replay of its own, so no two seeds share a thread id: a browser that
    imported one step's seed can still import another's."""
    whole = LessonLab()
    checks = await whole.walk(lesson, 0)
    await whole.close()
    proven = {}
    for index in range(1, len(lesson.steps)):
        replayed = LessonLab()
        await replayed.walk(lesson, 0, index)
        seed = await replayed.seed()
        await replayed.close()
        if seed is not None and await proves(seed, lesson, index, checks[index:]):
            proven[lesson.steps[index].id] = seed
    return proven


async def proves(seed: Seed, lesson: Lesson, index: int, checks: list[dict[str, Any]]) -> bool:
    """Whether a lab seeded from ``seed`` walks from step ``index`` to the end giving ``checks``."""
    seeded = await LessonLab.seeded(seed)
    if seeded is None:
        return False
    try:
        return await seeded.walk(lesson, index) == checks
    finally:
        await seeded.close()
