"""Every guided lesson, replayed on CPython through the commands a learner's clicks send.

A lesson states answers (which nodes re-run, 14.50 against 26.50, what ``next`` becomes); each is an
expected fact of a step, and this test fails when the runtime does something else. Deep links are
replayed too: a new lab with empty storage, sent the moves into a middle step, stands where a
learner who clicked through stands.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from lab.checkpoint import CheckpointSaver
from lab.controller.journal import MemoryJournal
from lab.lessons import LESSONS, get_lesson
from lab.lessons.facts import FACTS
from lab.lessons.model import Lesson, predict_answer
from lab.lessons.play import lesson_data, moves_into
from tests.controller_lab import Lab
from tests.crash_soak import SlowStorage


async def send(lab: Lab, lesson: str, step: str, part: int | str) -> dict[str, Any]:
    """One move, as the page sends it: ask Python for the command, send it, reboot after a crash."""
    command = await lab.do("lesson_command", lesson=lesson, step=step, part=part)
    answer = await lab.controller.dispatch(command["name"], command["args"])
    if answer["ok"] and answer["result"].get("status") == "crashed":
        await lab.crash_and_reboot()
    return answer


async def check(lab: Lab, lesson: str, step: str) -> dict[str, Any]:
    return await lab.do("lesson_check", lesson=lesson, step=step)


async def walk(lab: Lab, lesson: Lesson) -> None:
    """Every step in order: prepare, check the step is not done yet, act, check it is done."""
    for step in lesson.steps:
        for index in range(len(step.prepare)):
            assert (await send(lab, lesson.id, step.id, index))["ok"]
        if step.action is not None:
            before = await check(lab, lesson.id, step.id)
            assert not before["done"], f"{lesson.id}/{step.id} is done before its action: {before}"
            await send(lab, lesson.id, step.id, "action")
        result = await check(lab, lesson.id, step.id)
        wrong = {name: fact for name, fact in result["facts"].items() if not fact["holds"]}
        assert result["done"], f"{lesson.id}/{step.id}: the runtime did otherwise: {wrong}"


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in LESSONS])
async def test_every_lesson_states_what_the_runtime_does(lab, lesson_id):
    await walk(lab, get_lesson(lesson_id))


class SlowJournal(MemoryJournal):
    """The journal, as IndexedDB keeps it in the browser: every append takes 0-3 event-loop turns."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    async def append(self, thread_id: str, record: dict[str, Any]) -> None:
        for _ in range(self.rng.randint(0, 3)):
            await asyncio.sleep(0)
        await super().append(thread_id, record)


PACES = range(6)
"""Seeds of how long each save and each journal record takes (in event-loop turns)."""


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in LESSONS])
async def test_every_lesson_states_the_same_answers_whatever_the_pace_of_storage(lesson_id):
    """A lesson's answers must not depend on the machine: under ``durability="async"`` the saves
    run beside the graph, so a slow storage once made lesson 8 lose more than it states."""
    for seed in PACES:
        rng = random.Random(seed)
        lab = Lab(CheckpointSaver(SlowStorage(rng)), SlowJournal(rng))
        await walk(lab, get_lesson(lesson_id))
        await lab.controller.terminate()


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in LESSONS])
async def test_a_deep_link_to_a_middle_step_rebuilds_it_from_empty_storage(lesson_id):
    lesson = get_lesson(lesson_id)
    middle = lesson.steps[len(lesson.steps) // 2]
    lab = Lab()
    for step_id, part in moves_into(lesson, middle.id):
        assert (await send(lab, lesson.id, step_id, part))["ok"] or step_id != middle.id
    if middle.action is not None:
        await send(lab, lesson.id, middle.id, "action")
    assert (await check(lab, lesson.id, middle.id))["done"]
    await lab.controller.terminate()


def test_lessons_have_four_to_eight_steps_and_a_predict_step():
    assert len(LESSONS) >= 8 and len({lesson.id for lesson in LESSONS}) == len(LESSONS)
    for lesson in LESSONS:
        assert 4 <= len(lesson.steps) <= 8, lesson.id
        assert any(step.predict for step in lesson.steps), lesson.id
        assert len(set(lesson.step_ids())) == len(lesson.steps), lesson.id


def test_every_predict_answer_is_one_of_its_choices_and_every_fact_exists():
    for lesson in LESSONS:
        for step in lesson.steps:
            assert set(step.expects) <= set(FACTS), (lesson.id, step.id)
            assert step.code, (lesson.id, step.id)
            if step.predict:
                assert predict_answer(step) in step.predict.choices, (lesson.id, step.id)
                assert len(step.predict.choices) >= 2


def test_lesson_data_is_json_for_the_page():
    data = lesson_data(get_lesson("crash"))
    assert [step["id"] for step in data["steps"]] == ["arm", "crash", "resume", "ledger"]
    resume = data["steps"][2]
    assert resume["moves"] == [["arm", 0], ["arm", "action"], ["crash", "action"]]
    assert resume["predict"]["choices"][resume["predict"]["answer"]] == ["screen_sanctions"]


async def test_bad_lesson_commands_get_a_clear_error(lab):
    error = await lab.fail("lesson_check", lesson="nope", step="x")
    assert "No lesson 'nope'" in error["message"]
    error = await lab.fail("lesson_command", lesson="crash", step="ledger")
    assert "asks for no action" in error["message"]
    error = await lab.fail("lesson_command", lesson="crash", step="arm", part=7)
    assert "has no part 7" in error["message"]
    await lab.do("start", case_id="S-1001")
    error = await lab.fail("lesson_command", lesson="replay-fork", step="replay")
    assert "next = ['human_review']" in error["message"]
