"""The records the page keeps for a worker without IndexedDB (``static/page-records.mjs``), in Chromium:
every call that LangGraph's conformance suite makes through the saver over ``PageStorage`` (81 tests,
run in CPython against ``tests/records_page.py``, the page as Python plays it), and a story of every
kind of change, is replayed in the real JavaScript store, which must answer each exactly as recorded.
So the suite's verdict holds for the store the embedded lab really uses. No Python boots in the page:
the module is imported on its own."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from typing import Any

import pytest
from langgraph.checkpoint.conformance import checkpointer_test, validate

from lab.browser.page_records import PageRecords, PageRecordsError, add, clear, delete, delete_prefix, put
from lab.browser.page_storage import PageStorage
from lab.checkpoint import CheckpointSaver
from tests.records_page import RecordsPage

# Runs in the page: each log in a fresh PageRecords, every call's answer as the worker would get it.
REPLAY = """
async (logs) => {
  const { PageRecords } = await import("/page-records.mjs");
  return logs.map((calls) => {
    const records = new PageRecords();
    return calls.map(({ op, args }) => {
      try {
        return { ok: true, result: records.handle(op, args) };
      } catch (error) {
        return { ok: false, error: { type: error.name } };
      }
    });
  });
}
"""


async def every_change(records: PageRecords) -> None:
    """What the saver's calls may leave unobserved: each kind of change with a visible effect."""
    await records.write(
        [put("s", ["t", "b"], 1), put("s", ["t", "a"], 2), put("s", ["t", 1], 3), put("s", ["u"], 4)]
    )
    await records.write([put("s", ["t", "b"], 5), add("s", ["t", "a"], 6), add("s", ["t", "c"], {"n": [7]})])
    await records.with_prefix("s", ["t"])  # first-stored order; put replaced, add kept; 1 is not "1"
    await records.get("s", [["t", "a"], ["t", "1"], ["nothing"]])
    with contextlib.suppress(PageRecordsError):  # an unknown change: none of the write is applied
        await records.write([delete("s", ["t", "b"]), {"do": "rename", "store": "s"}])
    await records.write([delete_prefix("s", ["t"]), put("other", ["t"], 8)])
    await records.with_prefix("s", [])
    await records.write([clear("other"), put("s", ["t", "a"], 9)])
    await records.with_prefix("other", [])
    await records.with_prefix("s", [])


def conformance_calls() -> tuple[Any, list[list[dict[str, Any]]]]:
    """Run the conformance suite over page-kept storage, then :func:`every_change`: the suite's report
    and each fresh page's calls."""
    pages: list[RecordsPage] = []

    @checkpointer_test(name="lab saver over PageStorage")
    async def page_saver():
        pages.append(RecordsPage())
        yield CheckpointSaver(PageStorage(pages[-1].connect()))

    # Playwright's sync API holds this thread's event loop: the suite runs in a thread of its own.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        report = pool.submit(asyncio.run, validate(page_saver)).result()
        pages.append(RecordsPage())
        pool.submit(asyncio.run, every_change(pages[-1].connect())).result()
    return report, [page.log for page in pages]


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer as the replay gives it: a failure by its type alone (the messages are each language's)."""
    return answer if answer["ok"] else {"ok": False, "error": {"type": answer["error"]["type"]}}


@pytest.mark.no_python  # the module alone, imported by a page that boots nothing
def test_the_page_store_answers_every_call_of_the_saver_contract_as_recorded(page, site):
    report, logs = conformance_calls()
    assert report.passed_all() and report.conformance_level() == "FULL"
    calls = [call for log in logs for call in log]
    assert len(calls) > 400 and {call["op"] for call in calls} == {"read", "write"}
    assert [call["answer"]["error"]["type"] for call in calls if not call["answer"]["ok"]] == ["TypeError"]
    page.goto(f"{site}/embed?lesson=nope")  # a page of the site that boots nothing
    sent = [[{"op": call["op"], "args": call["args"]} for call in log] for log in logs]
    replayed = page.evaluate(REPLAY, sent)
    mismatches = [
        (call["op"], call["args"], call["answer"], got)
        for log, answers in zip(logs, replayed, strict=True)
        for call, got in zip(log, answers, strict=True)
        if got != comparable(call["answer"])
    ]
    assert mismatches == [], mismatches[:3]
