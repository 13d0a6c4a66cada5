"""A thread's storage bill: the bytes its stored records hold, checkpoint by checkpoint (LangGraph has
no counterpart; it is what the lab's storage panel and ``bench/storage_bill.py`` show next to the
bill of the same thread stored the other way, lists whole or as ``DeltaChannel`` deltas).

A record's size is the size of its serialized values (``TypedValue`` bytes): a checkpoint row's
checkpoint and metadata, a blob's value, a write's value. Keys are not counted. In IndexedDB these
are the ``bytes`` (``Uint8Array``) of each record's ``{type, bytes}`` fields, so a page script can
sum the same figure itself. Each blob is billed to the oldest checkpoint whose versions name it
(the one that stored it); each write to the checkpoint it was stored on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lab.checkpoint.serde import SerializerProtocol, TypedValue
from lab.checkpoint.storage import BlobKey, CheckpointRow, CheckpointStorage


@dataclass
class CheckpointBill:
    """The bytes one checkpoint added to storage."""

    checkpoint_id: str
    checkpoint_ns: str
    row: int
    """Its own record: the checkpoint (without values) and its metadata."""
    blobs: dict[str, int] = field(default_factory=dict)
    """Channel -> bytes of the blob it stored (only channels whose version it introduced)."""
    writes: int = 0
    """Its pending writes."""

    @property
    def total(self) -> int:
        return self.row + sum(self.blobs.values()) + self.writes


def size(value: TypedValue) -> int:
    """The stored size of one serialized value."""
    return len(value[1])


async def thread_bill(
    storage: CheckpointStorage, serde: SerializerProtocol, thread_id: str
) -> list[CheckpointBill]:
    """Every checkpoint of a thread (all namespaces), oldest first, with the bytes it stored."""
    rows = sorted(await storage.checkpoints(thread_id, None), key=lambda row: row["checkpoint_id"])
    versions = {row["checkpoint_id"]: _versions(serde, row) for row in rows}
    owner: dict[BlobKey, str] = {}
    for row in rows:  # oldest first: the first to name a blob stored it
        for channel, version in versions[row["checkpoint_id"]].items():
            owner.setdefault((thread_id, row["checkpoint_ns"], channel, version), row["checkpoint_id"])
    bills = {row["checkpoint_id"]: _row_bill(row) for row in rows}
    for key, value in (await storage.blobs(list(owner))).items():
        bills[owner[key]].blobs[key[2]] = size(value)
    keys = [(thread_id, row["checkpoint_ns"], row["checkpoint_id"]) for row in rows]
    for write in await storage.writes(keys):
        bills[write["checkpoint_id"]].writes += size(write["value"])
    return list(bills.values())


def _row_bill(row: CheckpointRow) -> CheckpointBill:
    return CheckpointBill(
        row["checkpoint_id"], row["checkpoint_ns"], size(row["checkpoint"]) + size(row["metadata"])
    )


def _versions(serde: SerializerProtocol, row: CheckpointRow) -> dict[str, object]:
    return serde.loads_typed(row["checkpoint"])["channel_versions"]
