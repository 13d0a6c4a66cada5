"""The storage panel's numbers (``storage`` command, ``lab.controller.storage_panel``) on CPython:
they equal the bytes the saver's rows hold, the thread is also billed with its lists whole
(LangGraph's default, what it stores) and with them opted in to ``DeltaChannel``, and
``prune`` keeps exactly what the report said it would, with the thread still readable."""

from __future__ import annotations

from lab.checkpoint.bill import size
from tests.test_thread_commands import corrupt_metadata

CASE = "S-1001"  # structuring: goes through review to a filed SAR


def memory_bytes(saver, thread_id: str) -> int:
    """Every serialized value the in-memory storage holds for one thread, summed here directly."""
    storage = saver.storage
    rows = [row for by_id in storage._checkpoints.get(thread_id, {}).values() for row in by_id.values()]
    blobs = storage._blobs.get(thread_id, {}).values()
    writes = [w for by_key in storage._writes.get(thread_id, {}).values() for w in by_key.values()]
    return (
        sum(size(row["checkpoint"]) + size(row["metadata"]) for row in rows)
        + sum(size(blob) for blob in blobs)
        + sum(size(write["value"]) for write in writes)
    )


async def finished_thread(lab, thread_id: str) -> None:
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync", thread_id=thread_id)
    await lab.do("run")
    await lab.do("answer", approve=True)


async def test_the_report_counts_what_the_saver_holds(lab):
    await finished_thread(lab, "first")
    await finished_thread(lab, "second")
    report = await lab.do("storage")
    assert [t["thread_id"] for t in report["threads"]] == ["first", "second"]
    for thread in report["threads"]:
        assert thread["bytes"] == memory_bytes(lab.saver, thread["thread_id"])
    current = report["thread"]
    assert current["thread_id"] == "second"
    assert (
        current["bytes"]
        == memory_bytes(lab.saver, "second")
        == sum(c["bytes"] for c in current["checkpoints"])
    )
    frames = await lab.frames()
    assert [c["checkpoint_id"] for c in current["checkpoints"]] == [f["checkpoint_id"] for f in frames]
    assert current["growth"]["stored"][-1] == current["bytes"]
    assert current["storage"] == "full"
    assert current["growth"]["full"][-1] == current["full_bytes"] == current["bytes"]
    assert current["growth"]["delta"][-1] == current["delta_bytes"] < current["bytes"]


async def test_prune_keeps_the_newest_checkpoint_and_what_it_said(lab):
    await finished_thread(lab, "t")
    state = await lab.do("state")
    preview = (await lab.do("storage"))["thread"]["prune"]
    assert preview["keeps"] == [state["checkpoint_id"]]
    after = (await lab.do("prune"))["thread"]
    assert [c["checkpoint_id"] for c in after["checkpoints"]] == preview["keeps"]
    assert after["bytes"] == preview["bytes"] == memory_bytes(lab.saver, "t")
    assert (await lab.do("state"))["values"] == state["values"]
    assert [f["checkpoint_id"] for f in await lab.frames()] == preview["keeps"]


async def test_prune_refuses_without_a_thread(lab):
    assert (await lab.fail("prune"))["message"] == "No case is open: start one first"


async def test_a_thread_whose_records_no_longer_load_is_still_billed(lab):
    """The bill reads stored rows, not loaded checkpoints: a damaged thread (its metadata is not
    msgpack) is listed with its bytes, and the panel still shows the current thread's bill."""
    await finished_thread(lab, "damaged")
    await finished_thread(lab, "current")
    corrupt_metadata(lab, "damaged")
    report = await lab.do("storage")
    assert [t["thread_id"] for t in report["threads"]] == ["current", "damaged"]
    assert report["threads"][1]["bytes"] == memory_bytes(lab.saver, "damaged")
    assert report["thread"]["thread_id"] == "current"


async def billed(storage: str) -> dict:
    """A finished case on a fresh lab whose graph stores its lists ``storage``'s way: its bill."""
    from tests.controller_lab import Lab

    lab = Lab()
    await lab.do("start", case_id=CASE, variant="fixed", durability="sync", thread_id="t", storage=storage)
    await lab.do("run")
    await lab.do("answer", approve=True)
    return (await lab.do("storage"))["thread"]


async def test_delta_storage_is_the_switch_and_each_bill_prices_the_other_way():
    """The same case stored whole (LangGraph's default) and with ``DeltaChannel`` switched on: each
    thread's bill holds what it stores, and prices the other way exactly as the other thread stores
    it, checkpoint by checkpoint (ids and version tails vary a byte or two: the savings compare)."""
    whole, deltas = await billed("full"), await billed("delta")
    assert (whole["storage"], deltas["storage"]) == ("full", "delta")
    assert whole["bytes"] == whole["full_bytes"] > whole["delta_bytes"]
    assert deltas["bytes"] == deltas["delta_bytes"] < deltas["full_bytes"]

    def savings(bill: dict) -> list[int]:
        return [c["full_bytes"] - c["delta_bytes"] for c in bill["checkpoints"]]

    assert savings(whole) == savings(deltas) and sum(savings(whole)) > 0
