"""``lab.world``: one decider for every recorder, and the recorder a context variable of the run.

Stripe's idempotency rule is decided once (:mod:`lab.world.decider`) over the operations a graph's
profile declares; the memory world, the page's world and the playground's ledger copy only keep rows.
A synchronous call (``lab.world.charge`` in a plain ``def`` node) goes to the recorder of the run it is
made in, so two runs in one process never write to each other's world.
"""

from __future__ import annotations

import asyncio
import contextvars

import pytest

from lab.controller.profile import GraphProfile
from lab.world import (
    EMAIL,
    PAYMENT,
    IdempotencyError,
    MemoryWorld,
    Operation,
    charge,
    send_email,
    use_recorder,
)
from lab.world.decider import decide_request, request_row
from lab.world.recorder import current_recorder, record_in_this_run, runs_record_for_themselves

SITE = {"thread_id": "t", "node": "pay", "task_id": "a1", "checkpoint_id": "c1"}


def test_one_decider_numbers_receipts_per_operation_and_replays_a_known_key() -> None:
    world = MemoryWorld()
    first = world.record(PAYMENT, request_row(PAYMENT, "k", **SITE, amount_cents=500, purpose="export"))
    again = world.record(PAYMENT, request_row(PAYMENT, "k", **SITE, amount_cents=500, purpose="export"))
    mail = world.record(EMAIL, request_row(EMAIL, "k", **SITE, purpose="email to a: hi"))  # keys are per kind
    assert (first["id"], first["replayed"], again["id"], again["replayed"]) == (
        "ch_0001",
        False,
        "ch_0001",
        True,
    )
    assert again["amount_cents"] == 500  # the receipt is the original's ...
    assert [row["amount_cents"] for row in world.rows] == [500, 0, 0]  # ... the replay moved nothing
    assert (mail["id"], mail["replayed"]) == ("em_0001", False)
    with pytest.raises(IdempotencyError, match="amount_cents: 500 then 900"):
        world.record(PAYMENT, request_row(PAYMENT, "k", **SITE, amount_cents=900, purpose="export"))
    assert len(world.rows) == 3  # the refused request left no row


def test_an_operation_says_its_receipt_prefix_and_what_a_reused_key_must_repeat() -> None:
    filing = Operation("filing", "fl", label="filed", noun="filing", compared=("case",))
    rows: list[dict] = []
    for case in ("A", "A"):
        rows.append(
            decide_request(rows, filing, request_row(filing, "k", **SITE, purpose="x", case=case)).row
        )
    assert [(row["id"], row["replayed"]) for row in rows] == [("fl_0001", False), ("fl_0001", True)]
    with pytest.raises(IdempotencyError, match="case: 'A' then 'B'"):
        decide_request(rows, filing, request_row(filing, "k", **SITE, purpose="other", case="B"))
    # purpose is not compared for this operation: another purpose with the same key replays
    assert decide_request(rows, filing, request_row(filing, "k", **SITE, purpose="y", case="A")).row[
        "replayed"
    ]


async def test_each_run_records_in_its_own_world_even_when_the_runs_interleave() -> None:
    worlds = {"one": MemoryWorld(), "two": MemoryWorld()}

    async def run(name: str) -> None:
        record_in_this_run(worlds[name])  # as the profile's enter_run does, in the run's own task
        for n in range(3):
            charge(1, f"{name} {n}")
            await asyncio.sleep(0)  # let the other run go on between two calls

    await asyncio.gather(asyncio.create_task(run("one")), asyncio.create_task(run("two")))
    for name, world in worlds.items():
        assert [row["purpose"] for row in world.rows] == [f"{name} {n}" for n in range(3)]
        assert [row["id"] for row in world.rows] == ["ch_0001", "ch_0002", "ch_0003"]
    assert current_recorder() not in worlds.values()  # the runs' recorders stayed in their tasks


async def test_a_block_that_chose_a_recorder_gets_its_runs_calls_unless_they_record_for_themselves() -> None:
    """A program's script keeps its own ledger around ``graph.invoke`` (the gallery's ``__main__``
    blocks): its runs' calls land there. A challenge's check starts runs of its own inside whatever
    block called it: they record in their own worlds."""
    runs, script = MemoryWorld(), MemoryWorld()

    async def run() -> None:
        record_in_this_run(runs)
        charge(1, "export")

    with use_recorder(script):
        await asyncio.create_task(run())
        with runs_record_for_themselves():
            await asyncio.create_task(run())
        assert current_recorder() is script
    assert [len(script.rows), len(runs.rows)] == [1, 1]


def test_outside_any_run_each_context_gets_a_fresh_memory_world() -> None:
    def send() -> MemoryWorld:
        send_email("ana@example.com", "hello")
        recorder = current_recorder()
        assert isinstance(recorder, MemoryWorld)
        return recorder

    first, second = contextvars.copy_context().run(send), contextvars.copy_context().run(send)
    assert first is not second and len(first.rows) == len(second.rows) == 1


def test_a_profile_names_a_kind_it_does_not_declare_by_the_kind_itself() -> None:
    profile = GraphProfile(build=lambda *args, **kwargs: None, operations=(PAYMENT,))  # type: ignore[arg-type]
    assert profile.operation("charge") is PAYMENT
    assert profile.operation("fax") == Operation("fax", "fax", label="fax", noun="fax")
