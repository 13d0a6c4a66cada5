"""The saver's storage layer over records the page keeps: the lab's ``InMemorySaver`` for a worker
that the lab kills.

LangGraph's ``InMemorySaver`` is one saver core over three dicts; the lab's savers are one core
(:class:`lab.checkpoint.core.CheckpointSaver`) over a small storage layer
(:mod:`lab.checkpoint.storage`). Without IndexedDB, keeping the rows in the worker
(:class:`lab.checkpoint.memory.MemoryStorage`) would lose them with the worker at every crash, so
this layer keeps them in the page (:mod:`lab.browser.page_records`), in the three stores and under
the keys of :mod:`lab.checkpoint.indexeddb`::

    checkpoints  [thread_id, checkpoint_ns, checkpoint_id]                 a checkpoint without its values
    blobs        [thread_id, checkpoint_ns, channel, version]              one channel value
    writes       [thread_id, checkpoint_ns, checkpoint_id, task_id, idx]   one pending write

A record is its row as JSON: the key fields, plus each serialized value as ``{type, bytes}``
(``bytes`` in base64). Every method of the storage protocol is one ``write`` (atomic) or one round
of reads; the latest checkpoint, history order, ``before`` and ``limit`` are worked out here, in
Python, over the records of one thread. The page stores; it decides nothing.

This module imports nothing from Pyodide, so CPython runs the saver contract over it.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Sequence
from typing import Any

from lab.browser.page_records import Change, Key, Records, add, delete, delete_prefix, put
from lab.checkpoint.serde import TypedValue
from lab.checkpoint.storage import BlobKey, BlobRow, CheckpointKey, CheckpointRow, WriteRow

CHECKPOINTS, BLOBS, WRITES = "checkpoints", "blobs", "writes"
STORES = (CHECKPOINTS, BLOBS, WRITES)


def _record(row: dict[str, Any]) -> dict[str, Any]:
    """A row as JSON: each serialized value ``(type, bytes)`` becomes ``{type, bytes: base64}``."""
    return {field: _wire(value) if isinstance(value, tuple) else value for field, value in row.items()}


def _wire(value: TypedValue) -> dict[str, str]:
    kind, data = value
    return {"type": kind, "bytes": base64.b64encode(data).decode("ascii")}


def _row(record: dict[str, Any]) -> Any:
    """The row a record holds: each ``{type, bytes}`` back to ``(type, bytes)``."""
    return {field: _typed(value) if isinstance(value, dict) else value for field, value in record.items()}


def _typed(value: dict[str, str]) -> TypedValue:
    return value["type"], base64.b64decode(value["bytes"])


def _checkpoint_key(row: CheckpointRow) -> Key:
    return [row["thread_id"], row["checkpoint_ns"], row["checkpoint_id"]]


def _blob_key(row: BlobRow) -> Key:
    return [row["thread_id"], row["checkpoint_ns"], row["channel"], row["version"]]


def _write_key(row: WriteRow) -> Key:
    return [row["thread_id"], row["checkpoint_ns"], row["checkpoint_id"], row["task_id"], row["idx"]]


def _write_change(row: WriteRow) -> Change:
    """A write row replaces the stored one only if it says so (``overwrite``); else first write wins."""
    record = _record({field: value for field, value in row.items() if field != "overwrite"})
    return (put if row["overwrite"] else add)(WRITES, _write_key(row), record)


def _write_row(record: dict[str, Any]) -> WriteRow:
    return {**_row(record), "overwrite": False}


def _newest_first(
    rows: list[CheckpointRow], checkpoint_ns: str | None, before: str | None, limit: int | None
) -> list[CheckpointRow]:
    """The rows of ``checkpoint_ns`` (``None``: any) with ids below ``before``, newest first, at most
    ``limit`` of them."""
    kept = [
        row
        for row in rows
        if (checkpoint_ns is None or row["checkpoint_ns"] == checkpoint_ns)
        and (before is None or row["checkpoint_id"] < before)
    ]
    kept.sort(key=lambda row: row["checkpoint_id"], reverse=True)
    return kept if limit is None else kept[: max(limit, 0)]


class PageStorage:
    """``CheckpointStorage`` in the page's records (:class:`lab.browser.page_records.PageRecords`)."""

    supports_sync = False  # every method waits for the page: the saver is async-only

    def __init__(self, records: Records) -> None:
        self.records = records

    async def put(
        self,
        *,
        checkpoints: Sequence[CheckpointRow] = (),
        blobs: Sequence[BlobRow] = (),
        writes: Sequence[WriteRow] = (),
    ) -> None:
        await self.records.write(
            [
                *(put(CHECKPOINTS, _checkpoint_key(row), _record(row)) for row in checkpoints),
                *(put(BLOBS, _blob_key(row), _record(row)) for row in blobs),
                *(_write_change(row) for row in writes),
            ]
        )

    async def checkpoint(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str | None
    ) -> CheckpointRow | None:
        if checkpoint_id is not None:
            (record,) = await self.records.get(CHECKPOINTS, [[thread_id, checkpoint_ns, checkpoint_id]])
            return None if record is None else _row(record)
        latest = await self.checkpoints(thread_id, checkpoint_ns, limit=1)
        return latest[0] if latest else None

    async def checkpoints(
        self,
        thread_id: str | None,
        checkpoint_ns: str | None,
        *,
        before: str | None = None,
        limit: int | None = None,
    ) -> list[CheckpointRow]:
        prefix: Key = [] if thread_id is None else [thread_id]
        if thread_id is not None and checkpoint_ns is not None:
            prefix.append(checkpoint_ns)
        records = await self.records.with_prefix(CHECKPOINTS, prefix)
        return _newest_first([_row(record) for record in records], checkpoint_ns, before, limit)

    async def blobs(self, keys: Sequence[BlobKey]) -> dict[BlobKey, TypedValue]:
        records = await self.records.get(BLOBS, [list(key) for key in keys])
        return {
            key: _typed(record["value"])
            for key, record in zip(keys, records, strict=True)
            if record is not None
        }

    async def writes(self, keys: Sequence[CheckpointKey]) -> list[WriteRow]:
        found = await asyncio.gather(*(self.records.with_prefix(WRITES, list(key)) for key in keys))
        return [_write_row(record) for records in found for record in records]

    async def delete(
        self,
        *,
        threads: Sequence[str] = (),
        checkpoints: Sequence[CheckpointKey] = (),
        blobs: Sequence[BlobKey] = (),
    ) -> None:
        await self.records.write(
            [
                *(delete_prefix(store, [thread_id]) for thread_id in threads for store in STORES),
                *(change for key in checkpoints for change in _checkpoint_deletion(list(key))),
                *(delete(BLOBS, list(key)) for key in blobs),
            ]
        )


def _checkpoint_deletion(key: Key) -> list[Change]:
    """A checkpoint goes with all its writes."""
    return [delete(CHECKPOINTS, key), delete_prefix(WRITES, key)]
