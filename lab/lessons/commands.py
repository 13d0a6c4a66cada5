"""The guided lessons' two commands, plugged into the lab controller from above.

No LangGraph concept: a lesson step asks for one LangGraph call and states what the runtime
answered. ``lesson_command`` resolves a step's move into the controller command its control sends
(checkpoint and thread ids filled in from the lab now); ``lesson_check`` checks the step's facts on
``view()``. The controller knows no lessons: the lab page's graph (``lab.aml.lab_page``, which its
worker opens) and the simulated lab that records seeds hand these to it
(``LabController(commands=LESSON_COMMANDS)``), as the table it dispatches from knows its own
(:mod:`lab.controller.command_table`).
"""

from __future__ import annotations

from typing import Any

from lab.controller import session_commands
from lab.controller.command_table import Command
from lab.controller.observation_commands import view
from lab.controller.state import Lab
from lab.lessons import get_lesson
from lab.lessons.play import check_step, command_of
from lab.lessons.refs import resolve


async def lesson_command(lab: Lab, lesson: str, step: str, part: int | str = "action") -> dict[str, Any]:
    """``{"name", "args"}``: the command a lesson step's move sends, as its control would send it
    (checkpoint and thread ids filled in from the lab now). ``part``: ``"action"`` or the index
    of one of the step's ``prepare`` commands."""
    command = command_of(get_lesson(lesson), step, part)
    return resolve(command, await view(lab), (await session_commands.threads(lab))["threads"])


async def lesson_check(lab: Lab, lesson: str, step: str) -> dict[str, Any]:
    """``{"done", "facts"}``: whether the step's facts hold on ``view()`` now, each with its value."""
    return check_step(get_lesson(lesson).step(step), await view(lab), lab.state.last_answer)


LESSON_COMMANDS: dict[str, Command] = {
    "lesson_command": Command(lesson_command, "read"),
    "lesson_check": Command(lesson_check, "read"),
}
"""The lessons' commands, for ``LabController(commands=...)``: both only read."""
