"""``PageWorld`` on CPython: each external call is an event to the page and a reply settles it.

In the browser the page answers through the ``world_reply`` worker command; here the test plays the
page, answering the events ``PageWorld`` emits.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from lab.aml.profile import AML_PROFILE
from lab.aml.world import AmlWorld, ChargeReceipt
from lab.browser.page_calls import REPLY_TIMEOUT_S
from lab.browser.page_world import ExternalWorldError, PageWorld
from lab.checkpoint import InMemorySaver
from lab.controller import LabController
from lab.world import IdempotencyError, MemoryWorld

SITE = {"thread_id": "t-1", "node": "fetch_transactions", "task_id": "task-1", "checkpoint_id": "c-1"}


class Page:
    """Collects the events a PageWorld emits, and answers them."""

    def __init__(self, timeout: float = REPLY_TIMEOUT_S) -> None:
        self.events: list[dict[str, Any]] = []
        self.world = PageWorld(self.events.append, timeout=timeout)

    async def call(self, coroutine: Any) -> asyncio.Task:
        task = asyncio.ensure_future(coroutine)
        await asyncio.sleep(0)  # let the call emit its event
        return task


async def test_a_charge_reads_the_page_rows_decides_in_python_and_asks_the_page_to_record_the_row():
    page = Page()
    before_ms = time.time() * 1000
    charging = await page.call(
        AmlWorld(page.world).charge("t-1:task-1", **SITE, amount_cents=250, purpose="transaction-graph query")
    )
    (read,) = page.events
    assert read == {"type": "world", "call": 1, "op": "entries", "args": {}}
    assert page.world.reply({"call": 1, "ok": True, "result": []})
    await _until(lambda: len(page.events) == 2)
    record = page.events[1]
    assert (record["type"], record["call"], record["op"]) == ("world", 2, "record")
    row = record["args"]
    assert row == {
        "seq": 1,
        "kind": "charge",
        "id": "ch_0001",
        "idempotency_key": "t-1:task-1",
        "replayed": False,
        "purpose": "transaction-graph query",
        "amount_cents": 250,
        **SITE,
        "at": row["at"],
    }
    assert before_ms <= row["at"] <= time.time() * 1000  # ms since 1970, as the page's clock reads
    assert not charging.done()  # the receipt waits until the page has recorded the row
    assert page.world.reply({"call": 2, "ok": True, "result": {**row, "seq": 1, "worker": 1}})
    assert await charging == ChargeReceipt("ch_0001", "t-1:task-1", 250, "transaction-graph query", **SITE)
    assert not page.world.reply({"call": 2, "ok": True, "result": None})  # answered already


async def test_a_failed_page_call_raises_in_python():
    page = Page()
    filing = await page.call(AmlWorld(page.world).file_sar(None, **SITE, case_id="S-1001", report={}))
    page.world.reply(
        {"call": 1, "ok": False, "error": {"type": "QuotaExceededError", "message": "disk full"}}
    )
    with pytest.raises(ExternalWorldError, match="QuotaExceededError: disk full"):
        await filing
    assert [event["op"] for event in page.events] == ["entries"]  # nothing recorded


async def test_a_page_that_does_not_answer_fails_the_call_after_the_timeout():
    page = Page(timeout=0.2)  # the other tests keep the page's 30 s: a loaded machine never times them out
    with pytest.raises(ExternalWorldError, match="did not answer the external call 'entries' within 0.2 s"):
        await page.world.entries()
    assert not page.world.reply({"call": 1, "ok": True, "result": []})  # too late: nobody waits


class LedgerPage:
    """The page's side of the world, as ``static/ledger.mjs`` plays it: it stores and lists raw rows,
    noting the worker, and decides nothing; a row whose ``seq`` is taken fails with IndexedDB's
    ``ConstraintError``. Pass another page's ``rows`` to share its ledger (a second browser tab)."""

    def __init__(self, rows: list[dict[str, Any]] | None = None, worker: int = 1) -> None:
        self.world = PageWorld(self.on_event)
        self.rows: list[dict[str, Any]] = [] if rows is None else rows
        self.worker = worker
        self.conflicts = 0

    def on_event(self, event: dict[str, Any]) -> None:
        asyncio.get_running_loop().call_soon(self.answer, event)

    def answer(self, event: dict[str, Any]) -> None:
        op, args = event["op"], event["args"]
        result: Any = None
        if op == "entries":
            result = [dict(row) for row in self.rows]
        elif op == "record":
            if any(row["seq"] == args["seq"] for row in self.rows):
                self.conflicts += 1
                error = {"type": "ConstraintError", "message": "Key already exists in the object store."}
                self.world.reply({"call": event["call"], "ok": False, "error": error})
                return
            result = {**args, "worker": self.worker}
            self.rows.append(result)
        else:
            self.rows.clear()
        self.world.reply({"call": event["call"], "ok": True, "result": result})


CHARGE = {"amount_cents": 250, "purpose": "transaction-graph query"}
REQUESTS = [  # (kind, idempotency key, parameters): a story the one rule must answer alike in both worlds
    ("charge", "k-1", CHARGE),
    ("charge", "k-1", CHARGE),  # the same key: replayed
    ("charge", None, CHARGE),  # no key: always executes
    ("charge", None, CHARGE),
    ("sar", "k-1", {"case_id": "S-1001", "report": {"risk": "high"}}),  # keys are per service
    ("sar", "k-1", {"case_id": "S-1001", "report": {"risk": "high"}}),
    ("charge", "k-1", {**CHARGE, "amount_cents": 900}),  # the same key, other parameters: refused
    ("charge", "k-2", {**CHARGE, "purpose": "export"}),
]


async def _story(world: MemoryWorld | PageWorld) -> list[Any]:
    answers: list[Any] = []
    for kind, key, parameters in REQUESTS:
        aml = AmlWorld(world)
        call = aml.charge if kind == "charge" else aml.file_sar
        try:
            answers.append((await call(key, **SITE, **parameters)).as_dict())
        except IdempotencyError as refused:
            answers.append(str(refused))
    rows = [{k: v for k, v in row.items() if k not in ("at", "worker")} for row in await world.entries()]
    return [answers, rows]


async def test_the_one_idempotency_rule_answers_alike_for_the_memory_world_and_the_page_world():
    memory, page = await _story(MemoryWorld()), await _story(LedgerPage().world)
    assert memory == page
    answers, rows = memory
    assert [a["replayed"] if isinstance(a, dict) else "refused" for a in answers] == [
        False, True, False, False, False, True, "refused", False,
    ]  # fmt: skip
    assert [row["id"] for row in rows] == [
        "ch_0001", "ch_0001", "ch_0002", "ch_0003", "sar_0001", "sar_0001", "ch_0004",
    ]  # fmt: skip
    assert [row["amount_cents"] for row in rows] == [250, 0, 250, 250, 0, 0, 250]
    assert [row["seq"] for row in rows] == list(range(1, 8))  # the refused request left no row
    assert "amount_cents: 250 then 900" in answers[6]


async def test_parallel_requests_to_the_page_world_never_share_a_receipt_number():
    page = LedgerPage()
    receipts = await asyncio.gather(*(AmlWorld(page.world).charge(None, **SITE, **CHARGE) for _ in range(3)))
    assert [r.receipt_id for r in receipts] == ["ch_0001", "ch_0002", "ch_0003"]


async def test_two_tabs_charging_at_once_never_collide_on_a_ledger_row_or_a_receipt():
    """Two processes (two browser tabs) over one ledger: each decides over the rows it read, so the
    later one's row is stale; the ledger refuses its taken ``seq`` and it decides again, never failing."""
    tab_a = LedgerPage(worker=1)
    tab_b = LedgerPage(tab_a.rows, worker=2)
    other_site = {**SITE, "thread_id": "t-2"}
    receipts = await asyncio.gather(
        *(AmlWorld(tab_a.world).charge(None, **SITE, **CHARGE) for _ in range(3)),
        *(AmlWorld(tab_b.world).charge(None, **other_site, **CHARGE) for _ in range(3)),
        AmlWorld(tab_b.world).charge("k-1", **other_site, **CHARGE),
        AmlWorld(tab_a.world).charge("k-1", **other_site, **CHARGE),  # the same key from the other tab
    )
    assert tab_a.conflicts + tab_b.conflicts > 0  # the race happened, and was decided again
    rows = tab_a.rows
    assert sorted(row["seq"] for row in rows) == list(range(1, 9))
    executed = [row["id"] for row in rows if not row["replayed"]]
    assert sorted(executed) == [f"ch_{n:04d}" for n in range(1, 8)]  # seven charges, seven receipts
    keyed = receipts[-2:]  # whichever tab came second got the first one's receipt back
    assert sorted(r.replayed for r in keyed) == [False, True] and keyed[0].receipt_id == keyed[1].receipt_id
    assert {row["worker"] for row in rows} == {1, 2}


async def test_a_ledger_that_keeps_changing_fails_the_request_clearly():
    page = LedgerPage()
    page.conflicts = 0
    page.answer = lambda event: page.world.reply(  # type: ignore[method-assign]
        {"call": event["call"], "ok": True, "result": []}
        if event["op"] == "entries"
        else {"call": event["call"], "ok": False, "error": {"type": "ConstraintError", "message": "taken"}}
    )
    with pytest.raises(ExternalWorldError, match="decisions went stale"):
        await AmlWorld(page.world).charge(None, **SITE, **CHARGE)


@pytest.mark.parametrize("variant", ["misplaced", "fixed"])
async def test_the_ledger_verdict_is_one_rule_for_the_page_world_and_the_memory_world(variant):
    verdicts = []
    for world in ("memory", "page"):
        page = LedgerPage()
        controller = LabController(
            InMemorySaver(),
            MemoryWorld() if world == "memory" else page.world,
            _ignore,
            profile=AML_PROFILE,
            delay=0,
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


async def _until(condition: Any) -> None:
    """Let the event loop run until ``condition()`` holds (a bounded number of turns)."""
    for _ in range(100):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


async def _ignore(_event: dict[str, Any]) -> None:
    return None
