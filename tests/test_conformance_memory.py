"""LangGraph's own checkpointer conformance suite (``langgraph-checkpoint-conformance``) run
against the lab's ``InMemorySaver``.

The suite only calls the async methods and detects a capability by the async method being
overridden, so our saver needs no adapter: all 8 capabilities (5 base + delete_for_runs,
copy_thread, prune) must be detected and all 81 tests must pass.
"""

from __future__ import annotations

import contextlib
import io

import pytest
from langgraph.checkpoint.conformance import checkpointer_test, validate

from lab.checkpoint.memory import InMemorySaver

EXPECTED_TESTS = {
    "put": 17,
    "put_writes": 10,
    "get_tuple": 10,
    "list": 16,
    "delete_thread": 5,
    "delete_for_runs": 7,
    "copy_thread": 8,
    "prune": 8,
}


@checkpointer_test(name="lab InMemorySaver")
async def lab_memory_saver():
    yield InMemorySaver()  # a fresh saver per capability


async def test_conformance_all_capabilities(capsys: pytest.CaptureFixture[str]) -> None:
    report = await validate(lab_memory_saver)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        report.print_report()
    counts = {name: (result.tests_passed, result.tests_failed) for name, result in report.results.items()}
    summary = f"{printed.getvalue()}  tests passed/failed per capability: {counts}\n"
    for result in report.results.values():
        summary += "".join(f"  FAILED {failure}\n" for failure in result.failures)
    with capsys.disabled():
        print(summary)

    detected = {name for name, result in report.results.items() if result.detected}
    assert detected == set(EXPECTED_TESTS), summary
    assert counts == {name: (count, 0) for name, count in EXPECTED_TESTS.items()}, summary
    assert sum(passed for passed, _ in counts.values()) == 81, summary
    assert report.conformance_level() == "FULL", summary
