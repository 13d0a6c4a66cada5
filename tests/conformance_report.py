"""Reading a ``langgraph-checkpoint-conformance`` report: print it, then demand full conformance.

Shared by the in-memory saver's test (CPython) and the IndexedDB saver's test (Chromium): both must
pass the same 81 tests, with all 8 capabilities detected.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

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


def assert_full_conformance(report: Any, capsys: pytest.CaptureFixture[str], note: str = "") -> None:
    """Print the report in the normal test output (not only with ``-s``) and check every count."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        report.print_report()
    counts = {name: (result.tests_passed, result.tests_failed) for name, result in report.results.items()}
    summary = f"{printed.getvalue()}  tests passed/failed per capability: {counts}\n{note}"
    for result in report.results.values():
        summary += "".join(f"  FAILED {failure}\n" for failure in result.failures)
    with capsys.disabled():
        print(summary)

    detected = {name for name, result in report.results.items() if result.detected}
    assert detected == set(EXPECTED_TESTS), summary
    assert counts == {name: (count, 0) for name, count in EXPECTED_TESTS.items()}, summary
    assert sum(passed for passed, _ in counts.values()) == 81, summary
    assert report.conformance_level() == "FULL", summary
