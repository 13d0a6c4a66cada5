"""Playing a lesson: the commands that lead to a step, and the check that says it is done.

A deep link to a step rebuilds its thread from empty storage by sending, in order, every command
of the steps before it (their ``prepare`` commands, then their action) and then the step's own
``prepare`` commands: the same commands a learner's clicks send, so the thread is the same.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from lab.lessons.facts import FACTS
from lab.lessons.model import Command, Lesson, Step, predict_answer

Move = tuple[str, int | str]
"""``(step id, part)``: ``part`` is the index of a ``prepare`` command, or ``"action"``."""


def moves_into(lesson: Lesson, step_id: str) -> list[Move]:
    """The moves that open ``step_id``: every earlier step in full, then this step's preparation."""
    moves: list[Move] = []
    for step in lesson.steps:
        moves += [(step.id, index) for index in range(len(step.prepare))]
        if step.id == step_id:
            return moves
        if step.action is not None:
            moves.append((step.id, "action"))
    raise KeyError(f"Lesson {lesson.id!r} has no step {step_id!r}; its steps: {lesson.step_ids()}")


def command_of(lesson: Lesson, step_id: str, part: int | str) -> Command:
    """The command one move sends."""
    step = lesson.step(step_id)
    if part == "action":
        if step.action is None:
            raise KeyError(f"Step {step_id!r} of lesson {lesson.id!r} asks for no action")
        return step.action
    if not isinstance(part, int) or not 0 <= part < len(step.prepare):
        raise KeyError(f"Step {step_id!r} of lesson {lesson.id!r} has no part {part!r}")
    return step.prepare[part]


def check_step(step: Step, view: dict[str, Any], last: dict[str, Any] | None) -> dict[str, Any]:
    """``{"done", "facts"}``: each expected fact with the value it has now; done when all hold."""
    facts = {}
    for name, expected in step.expects.items():
        actual = FACTS[name](view, last)
        facts[name] = {"expected": expected, "actual": actual, "holds": actual == expected}
    return {"done": all(fact["holds"] for fact in facts.values()), "facts": facts}


def lesson_data(lesson: Lesson) -> dict[str, Any]:
    """The lesson as JSON-able data for the page (no rule in it: the page asks Python to check)."""
    return {
        "id": lesson.id,
        "panels": list(lesson.panels),
        "steps": [
            {
                "id": step.id,
                "moves": [list(move) for move in moves_into(lesson, step.id)],
                "action": asdict(step.action) if step.action else None,
                "predict": (
                    {
                        "choices": list(step.predict.choices),
                        "answer": step.predict.choices.index(predict_answer(step)),
                    }
                    if step.predict
                    else None
                ),
                "expects": step.expects,
                "code": step.code,
            }
            for step in lesson.steps
        ],
    }
