"""Guided lessons over the lab: each a list of steps (predict → do → see why) about one thing
learners get wrong in LangGraph. A lesson is data (:mod:`lab.lessons.model`); a step is done when
its facts hold on the controller's ``view()`` (:mod:`lab.lessons.facts`); :mod:`lab.lessons.play`
turns a step into the commands a learner's clicks send and checks it. The prose, in every
language, lives in ``narratives/``.

Modules: ``model`` (the data shapes), ``facts`` (what a step checks), ``refs`` (arguments filled in
when a command is sent), ``play`` (deep links and checks), ``l1_checkpoints`` … ``l13_tasks``
(the lessons).
"""

from importlib import import_module

from lab.lessons.model import Lesson

LESSON_MODULES = (
    "l1_checkpoints",
    "l2_threads",
    "l3_crash",
    "l4_node_restarts",
    "l5_idempotency",
    "l6_replay_fork",
    "l7_edit_past",
    "l8_durability",
    "l9_secrets",
    "l10_storage",
    "l11_one_writer",
    "l12_subgraphs",
    "l13_tasks",
)
LESSONS: tuple[Lesson, ...] = tuple(import_module(f"lab.lessons.{name}").LESSON for name in LESSON_MODULES)
"""The lessons, in the order the lesson list shows them."""

PENDING_MODULES: tuple[str, ...] = ()
PENDING: tuple[Lesson, ...] = tuple(import_module(f"lab.lessons.{name}").LESSON for name in PENDING_MODULES)
"""Lessons written before the lab can run them (their LangGraph code is tested; their lab steps wait
for what the module's docstring names): not listed, not rendered."""


def get_lesson(lesson_id: str) -> Lesson:
    for lesson in LESSONS:
        if lesson.id == lesson_id:
            return lesson
    raise KeyError(f"No lesson {lesson_id!r}; the lessons: {', '.join(lesson.id for lesson in LESSONS)}")


__all__ = ["LESSONS", "PENDING", "Lesson", "get_lesson"]
