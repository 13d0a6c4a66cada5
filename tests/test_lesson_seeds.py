"""Seeds for fast deep links (site_build/seed_recorder.py): where a step begins, the lesson's threads as
thread files; a lab seeded from them walks the rest of the lesson to the same answers as the lab that
replayed every move, and a step whose state no thread file carries gets no seed."""

from __future__ import annotations

import base64

from lab.controller.thread_file import read_thread_file
from lab.lessons import get_lesson
from site_build.seed_recorder import LessonLab, lesson_seeds


async def test_a_late_step_is_seeded_with_the_threads_the_earlier_steps_made() -> None:
    lesson = get_lesson("idempotency")
    seeds = await lesson_seeds(lesson)
    assert {"resume", "business-key-crash"} <= set(seeds)
    seed = seeds["business-key-crash"]
    assert len(seed.ids) == len(seed.threads) == 2  # the fixed variant's thread, then the task-key one
    assert seed.current == seed.ids[-1]
    files = [read_thread_file(base64.b64decode(data)) for data in seed.threads]
    assert [file.thread_id for file in files] == list(seed.ids)
    seeded = await LessonLab.seeded(seed)
    assert seeded is not None
    assert await seeded.walk(lesson, 4) == await walk_of_replay(lesson, 4)
    await seeded.close()
    others = {thread for step, other in seeds.items() if step != "business-key-crash" for thread in other.ids}
    assert not others & set(seed.ids)  # each step's own threads: importing one seed never blocks another


async def walk_of_replay(lesson, start: int) -> list:
    replayed = LessonLab()
    await replayed.walk(lesson, 0, start)
    checks = await replayed.walk(lesson, start)
    await replayed.close()
    return checks


async def test_a_step_that_begins_with_an_armed_crash_or_a_pruned_thread_is_not_seeded() -> None:
    crash = await lesson_seeds(get_lesson("crash"))
    assert "crash" not in crash  # its seed would lose the crash armed by the step before
    assert {"resume", "ledger"} <= set(crash)  # after the real crash, the threads carry everything
    storage = await lesson_seeds(get_lesson("storage"))
    assert "continue" not in storage  # after Prune, the thread's chain is not whole: no file


async def test_a_thread_resumed_after_an_interrupt_travels_as_a_file() -> None:
    """The resume value's writes belong to no task (journal ``put_writes`` with node None): the file
    the lab exports imports again (a seed after an answered interrupt)."""
    seeds = await lesson_seeds(get_lesson("interrupt"))
    assert {"why", "fixed", "fixed-approve"} <= set(seeds)
