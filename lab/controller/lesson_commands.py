"""The guided lessons' two commands: which command a step's move sends, and whether the step is done.

Every lesson step asks for one LangGraph call (a run, a resume, a replay, a fork, ...) and states
what the runtime answered; the lessons are data (:mod:`lab.lessons`), and these commands resolve a
step's command against the lab now (its checkpoint and thread ids) and check the step's facts on
``view()``, in Python, so the page only clicks and shows. A part of ``LabController``.
"""

from __future__ import annotations

from typing import Any

from lab.controller.commands import command


class LessonCommands:
    """``lesson_command`` and ``lesson_check`` (a part of ``LabController``)."""

    @command
    async def lesson_command(self, lesson: str, step: str, part: int | str = "action") -> dict[str, Any]:
        """``{"name", "args"}``: the command a lesson step's move sends, as its control would send it
        (checkpoint and thread ids filled in from the lab now). ``part``: ``"action"`` or the index
        of one of the step's ``prepare`` commands."""
        # here, not above: the lessons are imported by the first lesson, not by every boot of the lab
        from lab.lessons import get_lesson
        from lab.lessons.play import command_of
        from lab.lessons.refs import resolve

        command = command_of(get_lesson(lesson), step, part)
        view = (await self.view())["result"]
        return resolve(command, view, (await self.threads())["result"]["threads"])

    @command
    async def lesson_check(self, lesson: str, step: str) -> dict[str, Any]:
        """``{"done", "facts"}``: whether the step's facts hold on ``view()`` now, each with its value."""
        from lab.lessons import get_lesson  # here, not above: see lesson_command
        from lab.lessons.play import check_step

        return check_step(get_lesson(lesson).step(step), (await self.view())["result"], self.last_answer)
