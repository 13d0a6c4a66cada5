"""The storage panel: what the saver holds, thread by thread and checkpoint by checkpoint, the bill
of the same thread under LangGraph's two ways of storing an appending list, and what Prune keeps
(LangGraph's ``prune(thread_ids, strategy="keep_latest")``, which the lab makes safe for delta
channels).

The bytes are ``lab.checkpoint.bill``'s: every record's serialized values, as IndexedDB holds them.
Each checkpoint is billed twice more: its *full* bytes, with every list stored whole (LangGraph's
default, ``BinaryOperatorAggregate`` for ``Annotated[list, operator.add]``), and its *delta* bytes,
with every list key opted in to ``DeltaChannel`` (a sentinel, a ``DeltaSnapshot`` where the rules
of ``lab.pregel.delta`` store one). One of the two is what the thread stores; the other is computed
from its values and writes (``DeltaEncoder``), so a learner compares the two on the same thread.

Prune keeps the newest checkpoint of each namespace of the thread. A delta channel's value there
is rebuilt from its ancestors, so Prune first stores that value whole (``asnapshot_channels``); the
ancestors can then go. The panel's preview says which checkpoints stay and how many bytes remain.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lab.checkpoint.base import CheckpointTuple
from lab.checkpoint.bill import CheckpointBill, size, thread_bill
from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.delta import DeltaSentinel, DeltaSnapshot
from lab.pregel.channels import BinaryOperatorAggregate, DeltaChannel, folding
from lab.pregel.delta import DeltaEncoder
from lab.pregel.graph import Pregel


def delta_channels(graph: Pregel) -> set[str]:
    return {name for name, channel in graph.channels.items() if isinstance(channel, DeltaChannel)}


def whole_lists(graph: Pregel) -> dict[str, DeltaChannel]:
    """The list keys the graph stores whole (reducer channels that start from a list), each as the
    ``DeltaChannel`` it could opt in to: its reducer folded write by write, so batching-invariant."""
    return {
        name: DeltaChannel(folding(channel.reducer))
        for name, channel in graph.channels.items()
        if isinstance(channel, BinaryOperatorAggregate) and isinstance(channel.value, list)
    }


async def full_values(saver: CheckpointSaver, graph: Pregel, thread_id: str) -> dict[str, Any]:
    """Checkpoint id -> the stored tuple with its delta values rebuilt, for every namespace."""
    tuples = {}
    async for saved in saver.alist({"configurable": {"thread_id": thread_id}}):
        tuples[saved.checkpoint["id"]] = await graph.acomplete(saved)
    return tuples


def restored_bytes(bill: CheckpointBill, stored: dict[str, Any], saver: CheckpointSaver) -> int:
    """The checkpoint's bytes had it stored ``stored`` (channel -> value) for these of its blobs."""
    sizes = {channel: blob_size(value, saver) for channel, value in stored.items() if channel in bill.blobs}
    return bill.total - sum(bill.blobs[channel] for channel in sizes) + sum(sizes.values())


def blob_size(value: Any, saver: CheckpointSaver) -> int:
    """A stored blob's bytes: nothing for a delta channel's sentinel, else the serialized value."""
    return 0 if isinstance(value, DeltaSentinel) else size(saver.serde.dumps_typed(value))


def picked(values: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    return {name: values[name] for name in names if name in values}


def parent_of(saved: CheckpointTuple, tuples: dict[str, CheckpointTuple]) -> CheckpointTuple | None:
    return tuples.get(saved.parent_config["configurable"]["checkpoint_id"]) if saved.parent_config else None


def both_bills(
    bills: list[CheckpointBill], tuples: dict[str, CheckpointTuple], graph: Pregel, saver: CheckpointSaver
) -> list[tuple[int, int]]:
    """Per checkpoint (``bills`` oldest first): its bytes with every list whole (LangGraph's
    default) and with every list a ``DeltaChannel``."""
    deltas, encoder = delta_channels(graph), DeltaEncoder(whole_lists(graph))
    figures = []
    for bill in bills:
        saved = tuples[bill.checkpoint_id]
        values = saved.checkpoint["channel_values"]
        parent = (
            tuples.get(saved.parent_config["configurable"]["checkpoint_id"]) if saved.parent_config else None
        )
        encoded = encoder.encode(saved.checkpoint, parent)["channel_values"]
        full = restored_bytes(bill, {name: values[name] for name in deltas if name in values}, saver)
        delta = restored_bytes(
            bill, {name: encoded[name] for name in encoder.specs if name in encoded}, saver
        )
        figures.append((full, delta))
    return figures


def cumulative(figures: list[int]) -> list[int]:
    total, sums = 0, []
    for figure in figures:
        total += figure
        sums.append(total)
    return sums


def heads(bills: list[CheckpointBill]) -> dict[str, CheckpointBill]:
    """The newest checkpoint of each namespace (``bills`` oldest first)."""
    return {bill.checkpoint_ns: bill for bill in bills}


async def pruned_bytes(
    saver: CheckpointSaver, thread_id: str, head: CheckpointBill, checkpoint: dict[str, Any], deltas: set[str]
) -> int:
    """The bytes one kept checkpoint holds after Prune: its record, its writes, and every blob its
    versions name, its delta channels stored whole."""
    versions = checkpoint["channel_versions"]
    keys = [(thread_id, head.checkpoint_ns, channel, version) for channel, version in versions.items()]
    blobs = await saver.storage.blobs(keys)
    stored = {key[2]: size(value) for key, value in blobs.items()}
    for channel in deltas & set(versions):
        stored[channel] = size(saver.serde.dumps_typed(DeltaSnapshot(checkpoint["channel_values"][channel])))
    return head.row + head.writes + sum(stored.values())


async def thread_report(saver: CheckpointSaver, graph: Pregel, thread_id: str) -> dict[str, Any]:
    """One thread's bill, checkpoint by checkpoint (oldest first), its growth with every list whole
    (LangGraph's default) and with every list a ``DeltaChannel``, and what Prune would keep."""
    bills = await thread_bill(saver.storage, saver.serde, thread_id)
    tuples = await full_values(saver, graph, thread_id)
    deltas = delta_channels(graph)
    rows = []
    for bill, (full, delta) in zip(bills, both_bills(bills, tuples, graph, saver), strict=True):
        saved = tuples[bill.checkpoint_id]
        rows.append(
            {
                "checkpoint_id": bill.checkpoint_id,
                "checkpoint_ns": bill.checkpoint_ns,
                "step": saved.metadata.get("step"),
                "source": saved.metadata.get("source"),
                "bytes": bill.total,
                "full_bytes": full,
                "delta_bytes": delta,
            }
        )
    kept = heads(bills)
    after = [
        await pruned_bytes(saver, thread_id, head, tuples[head.checkpoint_id].checkpoint, deltas)
        for head in kept.values()
    ]
    total = sum(row["bytes"] for row in rows)
    return {
        "thread_id": thread_id,
        "storage": "delta" if deltas else "full",
        "bytes": total,
        "full_bytes": sum(row["full_bytes"] for row in rows),
        "delta_bytes": sum(row["delta_bytes"] for row in rows),
        "checkpoints": rows,
        "growth": {
            "stored": cumulative([row["bytes"] for row in rows]),
            "full": cumulative([row["full_bytes"] for row in rows]),
            "delta": cumulative([row["delta_bytes"] for row in rows]),
        },
        "prune": {
            "keeps": [head.checkpoint_id for head in kept.values()],
            "bytes": sum(after),
            "frees": total - sum(after),
        },
    }


async def storage_report(saver: CheckpointSaver, graph: Pregel, thread_id: str | None) -> dict[str, Any]:
    """The panel: every thread's bytes, and the current thread's report (``None`` without one)."""
    # the stored rows, not loaded checkpoints: a thread whose records no longer load is still billed
    thread_ids = sorted({row["thread_id"] for row in await saver.storage.checkpoints(None, None)})
    threads = []
    for other in thread_ids:
        bills = await thread_bill(saver.storage, saver.serde, other)
        threads.append({"thread_id": other, "bytes": sum(b.total for b in bills), "checkpoints": len(bills)})
    current = await thread_report(saver, graph, thread_id) if thread_id in thread_ids else None
    return {"threads": threads, "thread": current}


async def prune_thread(saver: CheckpointSaver, graph: Pregel, thread_id: str) -> None:
    """Prune: store the kept checkpoints' delta values whole, then ``prune(keep_latest)``."""
    deltas = delta_channels(graph)
    for head in heads(await thread_bill(saver.storage, saver.serde, thread_id)).values():
        config = {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": head.checkpoint_ns,
                "checkpoint_id": head.checkpoint_id,
            }
        }
        saved = await graph.acomplete(await saver.aget_tuple(config))
        versions = saved.checkpoint["channel_versions"]
        values = saved.checkpoint["channel_values"]
        await saver.asnapshot_channels(
            config, {channel: values[channel] for channel in deltas if channel in versions}
        )
    await saver.aprune([thread_id], strategy="keep_latest")
