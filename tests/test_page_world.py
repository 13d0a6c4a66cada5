"""``PageWorld`` on CPython: each external call is an event to the page and a reply settles it.

In the browser the page answers through the ``world_reply`` worker command; here the test plays the
page, answering the events ``PageWorld`` emits.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from lab.aml.graph import ChargeReceipt
from lab.browser.page_world import ExternalWorldError, PageWorld
from lab.controller.world import IdempotencyError

SITE = {"thread_id": "t-1", "node": "fetch_transactions", "task_id": "task-1", "checkpoint_id": "c-1"}


class Page:
    """Collects the events a PageWorld emits, and answers them."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.world = PageWorld(self.events.append, timeout=0.2)

    async def call(self, coroutine: Any) -> asyncio.Task:
        task = asyncio.ensure_future(coroutine)
        await asyncio.sleep(0)  # let the call emit its event
        return task


async def test_a_charge_is_an_event_to_the_page_and_its_reply_is_the_receipt():
    page = Page()
    charging = await page.call(
        page.world.charge("t-1:task-1", **SITE, amount_cents=250, purpose="transaction-graph query")
    )
    (event,) = page.events
    assert event == {
        "type": "world",
        "call": 1,
        "op": "charge",
        "args": {
            "idempotency_key": "t-1:task-1",
            **SITE,
            "amount_cents": 250,
            "purpose": "transaction-graph query",
        },
    }
    receipt = ChargeReceipt("ch_0001", "t-1:task-1", 250, "transaction-graph query", **SITE)
    assert page.world.reply({"call": 1, "ok": True, "result": receipt.as_dict()})
    assert await charging == receipt
    assert not page.world.reply({"call": 1, "ok": True, "result": receipt.as_dict()})  # answered already


@pytest.mark.parametrize(
    ("error", "raised", "says"),
    [
        ({"type": "IdempotencyError", "message": "Keys for idempotent requests"}, IdempotencyError, "Keys"),
        ({"type": "QuotaExceededError", "message": "the disk is full"}, ExternalWorldError, "disk is full"),
    ],
)
async def test_a_failed_page_call_raises_in_python(error, raised, says):
    page = Page()
    filing = await page.call(page.world.file_sar(None, **SITE, case_id="S-1001", report={}))
    page.world.reply({"call": 1, "ok": False, "error": error})
    with pytest.raises(raised, match=says):
        await filing


async def test_a_page_that_does_not_answer_fails_the_call_after_the_timeout():
    page = Page()
    with pytest.raises(ExternalWorldError, match="did not answer the external call 'entries' within 0.2 s"):
        await page.world.entries()
    assert not page.world.reply({"call": 1, "ok": True, "result": []})  # too late: nobody waits
