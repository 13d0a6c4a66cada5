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
from lab.checkpoint import InMemorySaver
from lab.controller import LabController
from lab.controller.world import IdempotencyError, InMemoryWorld

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


class LedgerPage:
    """The page's side of the world for a controller: each ``world`` event is answered by a ledger
    that records raw rows the way ``static/ledger.mjs`` does (its field names, ``at`` in ms, the
    worker number), so the one Python rule reads the same story from either world."""

    def __init__(self) -> None:
        self.backing = InMemoryWorld()
        self.world = PageWorld(self.on_event)
        self.rows: list[dict[str, Any]] = []

    def on_event(self, event: dict[str, Any]) -> None:
        asyncio.ensure_future(self.answer(event))

    async def answer(self, event: dict[str, Any]) -> None:
        args, op = dict(event["args"]), event["op"]
        if op == "entries":
            result: Any = [dict(row) for row in self.rows]
        elif op == "charge":
            result = (await self.backing.charge(args.pop("idempotency_key"), **args)).as_dict()
        else:
            result = (await self.backing.file_sar(args.pop("idempotency_key"), **args)).as_dict()
        if op in ("charge", "file_sar"):
            (row,) = (await self.backing.entries())[-1:]
            self.rows.append({**row, "report": args.get("report"), "worker": 1})
        self.world.reply({"call": event["call"], "ok": True, "result": result})


@pytest.mark.parametrize("variant", ["misplaced", "fixed"])
async def test_the_ledger_verdict_is_one_rule_for_the_page_world_and_the_memory_world(variant):
    verdicts = []
    for world in ("memory", "page"):
        page = LedgerPage()
        controller = LabController(
            InMemorySaver(), page.backing if world == "memory" else page.world, _ignore, delay=0
        )
        await controller.dispatch("start", {"case_id": "S-1001", "variant": variant, "durability": "sync"})
        await controller.dispatch("run")
        await controller.dispatch("answer", {"approve": True})
        ledger = (await controller.dispatch("view"))["result"]["ledger"]
        verdicts.append(
            (
                ledger["verdict"],
                [d["causes"] for d in ledger["duplicates"]],
                [(e["node"], e["outcome"]["code"], e["flag"]) for e in ledger["entries"]],
            )
        )
    assert verdicts[0] == verdicts[1]
    assert verdicts[0][0]["double"] is (variant == "misplaced")


async def _ignore(_event: dict[str, Any]) -> None:
    return None
