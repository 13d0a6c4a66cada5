"""LangGraph's own checkpointer conformance suite (``langgraph-checkpoint-conformance``) run
against the lab's in-memory savers: ``InMemorySaver`` (its rows in the process) and the saver
core over ``PageStorage`` (its rows kept by the page, for a browser worker without IndexedDB;
here ``tests/records_page.py`` plays the page).

The suite only calls the async methods and detects a capability by the async method being
overridden, so our saver needs no adapter: all 8 capabilities (5 base + delete_for_runs,
copy_thread, prune) must be detected and all 81 tests must pass.
"""

from __future__ import annotations

import pytest
from langgraph.checkpoint.conformance import checkpointer_test, validate

from lab.browser.page_storage import PageStorage
from lab.checkpoint import CheckpointSaver
from lab.checkpoint.memory import InMemorySaver
from tests.conformance_report import assert_full_conformance
from tests.records_page import RecordsPage


@checkpointer_test(name="lab InMemorySaver")
async def lab_memory_saver():
    yield InMemorySaver()  # a fresh saver per capability


@checkpointer_test(name="lab saver over PageStorage")
async def lab_page_saver():
    yield CheckpointSaver(PageStorage(RecordsPage().connect()))  # a fresh page per capability


@pytest.mark.parametrize("saver", [lab_memory_saver, lab_page_saver], ids=["in-process", "page-kept"])
async def test_conformance_all_capabilities(saver, capsys: pytest.CaptureFixture[str]) -> None:
    report = await validate(saver)
    assert_full_conformance(report, capsys)
