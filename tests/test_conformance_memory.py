"""LangGraph's own checkpointer conformance suite (``langgraph-checkpoint-conformance``) run
against the lab's ``InMemorySaver``.

The suite only calls the async methods and detects a capability by the async method being
overridden, so our saver needs no adapter: all 8 capabilities (5 base + delete_for_runs,
copy_thread, prune) must be detected and all 81 tests must pass.
"""

from __future__ import annotations

import pytest
from langgraph.checkpoint.conformance import checkpointer_test, validate

from lab.checkpoint.memory import InMemorySaver
from tests.conformance_report import assert_full_conformance


@checkpointer_test(name="lab InMemorySaver")
async def lab_memory_saver():
    yield InMemorySaver()  # a fresh saver per capability


async def test_conformance_all_capabilities(capsys: pytest.CaptureFixture[str]) -> None:
    report = await validate(lab_memory_saver)
    assert_full_conformance(report, capsys)
