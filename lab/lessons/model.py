"""A guided lesson as plain data: the shape of a Learn Git Branching level, over a LangGraph thread.

A lesson is a list of steps. Each step may *prepare* the lab (scripted commands the learner does
not choose: open a new thread, arm a crash), then asks for one *action* (the command a highlighted
control sends; "do it for me" sends the same one), and is done when every *expected fact* holds on
the controller's ``view()`` (see :mod:`lab.lessons.facts`). A step may ask a *predict* question
first: its correct choice is the value one of those facts takes, so the answer the lesson states is
the answer the runtime gives (``tests/test_lessons.py`` replays every lesson to check it).

Nothing here runs anything: :mod:`lab.lessons.play` turns a step into controller commands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Command:
    """One controller command. ``refs`` names arguments filled in when it is sent, from the lab's
    state at that moment (a checkpoint id, the thread id): see :mod:`lab.lessons.refs`."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Predict:
    """A question asked before the action runs; ``fact`` names the expected fact that answers it."""

    fact: str
    choices: tuple[Any, ...]


@dataclass(frozen=True)
class Step:
    """One screen of a lesson: prepare, act, then the facts that must hold afterwards."""

    id: str
    expects: dict[str, Any]
    action: Command | None = None
    prepare: tuple[Command, ...] = ()
    predict: Predict | None = None
    code: str = ""
    """The real LangGraph code for what the step does."""


@dataclass(frozen=True)
class Lesson:
    """A lesson: an id (its URL segment), its steps, and the panels of the lab it uses."""

    id: str
    steps: tuple[Step, ...]
    panels: tuple[str, ...] = ("graph", "status", "controls")

    def step(self, step_id: str) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(f"Lesson {self.id!r} has no step {step_id!r}; its steps: {self.step_ids()}")

    def step_ids(self) -> list[str]:
        return [step.id for step in self.steps]


def predict_answer(step: Step) -> Any:
    """The correct choice of a step's predict question: the value its fact is expected to take."""
    if step.predict is None:
        return None
    return step.expects[step.predict.fact]


def do(name: str, refs: dict[str, str] | None = None, **args: Any) -> Command:
    """A command as a lesson writes it: ``do("arm_crash", seam="task_start", node="intake")``."""
    return Command(name, args, refs or {})


def start_case(variant: str, durability: str, case_id: str = "S-1001", storage: str = "full") -> Command:
    """A new thread on ``case_id`` (a fresh thread id each time, so a lesson can be taken again);
    ``storage="delta"`` builds its graph with the lists opted in to ``DeltaChannel``."""
    args = {"storage": storage} if storage != "full" else {}
    return do("start", case_id=case_id, variant=variant, durability=durability, **args)
