"""The lab without IndexedDB keeps its checkpoints and journal in the page (``lab.browser.page_storage``,
``page_journal``, ``page_records``), so a crash, which replaces the worker, keeps the thread. Here
``tests/records_page.py`` plays the page; each controller a crash boots connects to it anew, as a new
worker does. (The saver contract over ``PageStorage``: ``tests/test_conformance_memory.py``.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import test_controller
from controller_lab import Lab

from lab.browser.page_journal import PageJournal
from lab.browser.page_records import PageRecords, PageRecordsError
from lab.browser.page_storage import PageStorage
from lab.checkpoint import CheckpointSaver
from lab.controller import LabController, MemoryJournal
from tests.records_page import RecordsPage


class PageKeptLab(Lab):
    """The controller-level lab of ``controller_lab`` whose saver and journal live in the page: every
    controller booted (the first, and each after a crash) is a new worker with a new client."""

    def __init__(self) -> None:
        self.page = RecordsPage()
        super().__init__()

    def boot(self) -> LabController:
        records = self.page.connect()
        self.saver, self.journal = CheckpointSaver(PageStorage(records)), PageJournal(records)
        return super().boot()


@pytest.fixture
async def lab():
    yield PageKeptLab()
    leftovers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert leftovers == [], "a run outlived its test"


async def test_a_crash_in_screen_after_fetch_finished_restores_fetch_from_the_page(lab):
    # (Not under durability "async": the page, like IndexedDB, really suspends a put, so the step's
    # checkpoint may still be on its way when the process dies - what test_crash_harness measures.)
    await test_controller.test_crash_in_screen_after_fetch_finished_restores_fetch(lab, "sync")
    assert lab.page.stores["checkpoints"] and lab.page.stores["journal"]  # it was all in the page


@pytest.mark.parametrize(("variant", "charges", "replayed"), [("misplaced", 2, 0), ("fixed", 1, 1)])
async def test_a_crash_between_side_effect_and_saved_writes_reruns_the_node(lab, variant, charges, replayed):
    await test_controller.test_crash_between_side_effect_and_saved_writes_reruns_the_node(
        lab, variant, charges, replayed
    )


@pytest.mark.parametrize(("durability", "kept"), [("sync", [-1, 0, 1, 2]), ("exit", [])])
async def test_durability_decides_what_a_crash_leaves_in_the_page(lab, durability, kept):
    await test_controller.test_durability_decides_what_a_crash_leaves(lab, durability, kept)


async def _journal_story(journal: Any) -> list[Any]:
    """One story told to a journal; a second process (``other``) appends too, as a worker after a crash."""
    other = PageJournal(journal.page) if isinstance(journal, PageJournal) else journal
    seen: list[Any] = []
    await journal.save_session({"thread_id": "a", "case_id": "S-1"})
    await journal.append("a", {"type": "run_start", "n": 1})
    await journal.append("b", {"type": "run_start", "n": 2})
    await other.append("a", {"type": "task_start", "n": 3})
    await journal.append("a", {"type": "task_finish", "n": 4})
    seen += [await journal.records("a"), await other.records("b"), await other.session()]
    first = await journal.sessions()
    await asyncio.sleep(0.01)  # a later start
    await journal.save_session({"thread_id": "b", "case_id": "S-2"})
    await journal.save_session({"thread_id": "a", "case_id": "S-1", "variant": "fixed"})  # keeps started_at
    later = await journal.sessions()
    seen += [[row["thread_id"] for row in later], later[1]["started_at"] == first[0]["started_at"]]
    await journal.forget("a")
    seen += [
        await journal.records("a"),
        await journal.session(),
        [row["thread_id"] for row in await journal.sessions()],
    ]
    await journal.save_session({"thread_id": "b", "case_id": "S-2"})
    await journal.forget("a")  # not the current session: it stays
    seen += [(await journal.session())["thread_id"]]
    await asyncio.sleep(0.01)  # a later start
    await journal.remember_session({"thread_id": "c", "case_id": "S-3"})  # a fork: saved, not opened
    seen += [(await journal.session())["thread_id"], [row["thread_id"] for row in await journal.sessions()]]
    await journal.clear()
    seen += [await journal.records("b"), await journal.session(), await journal.sessions()]
    return seen


async def test_the_page_journal_tells_the_story_the_memory_journal_tells():
    page = RecordsPage()
    told = await _journal_story(PageJournal(page.connect()))
    assert told == await _journal_story(MemoryJournal())
    assert [record["n"] for record in told[0]] == [1, 3, 4]  # in the order appended, across processes
    assert told[3:5] == [["b", "a"], True]  # newest first; "a" kept the time it was first saved
    assert told[9:11] == ["b", ["c", "b"]]  # a remembered session is listed, the current one stays


async def test_a_page_that_does_not_answer_fails_the_storage_call_clearly():
    storage = PageStorage(PageRecords(lambda _event: None, timeout=0.1))  # a page that is gone
    with pytest.raises(PageRecordsError, match="did not answer the records call 'read' within 0.1 s"):
        await storage.checkpoint("t", "", None)


async def test_a_change_the_page_does_not_know_fails_whole():
    page = RecordsPage()
    records = page.connect()
    await records.write([{"do": "put", "store": "s", "key": ["k"], "record": 1}])
    with pytest.raises(PageRecordsError, match="TypeError"):
        await records.write(
            [{"do": "put", "store": "s", "key": ["k"], "record": 2}, {"do": "rename", "store": "s"}]
        )
    assert await records.get("s", [["k"], ["none"]]) == [1, None]  # nothing of the failed write
