"""In-memory checkpoints, as in ``langgraph.checkpoint.memory.InMemorySaver``.

``MemoryStorage`` keeps the rows of ``lab.checkpoint.storage`` in nested dicts; everything else
is the shared ``CheckpointSaver``. Nothing awaits real I/O, so the sync API works too
(``supports_sync = True``). Data lives as long as the saver object: use it for tests, demos
and learning, and IndexedDB in the browser to keep threads across reloads.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import partial

from lab.checkpoint.base import ChannelVersion
from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.serde import SerializerProtocol, TypedValue
from lab.checkpoint.storage import BlobKey, BlobRow, CheckpointKey, CheckpointRow, WriteRow


class MemoryStorage:
    """``CheckpointStorage`` in dicts, each keyed by thread first so a thread deletes in O(1).

    No method awaits anything, and rows built by the saver cannot make ``put`` fail halfway,
    so every call is atomic. Stored rows are never copied or mutated: they hold only immutable
    str / int / bytes and the saver never changes a row it passed or received. (Deleting leaves
    empty inner dicts behind; they are harmless.)
    """

    supports_sync = True

    def __init__(self) -> None:
        # (defaultdicts: a put finds or makes its thread's dicts in one lookup, where setdefault
        # would build a spare empty dict every call; reads use .get, which makes nothing. Their
        # factories run no Python code, so two threads cannot both make one thread's dict.)
        # thread_id -> checkpoint_ns -> checkpoint_id -> row
        self._checkpoints: defaultdict[str, defaultdict[str, dict[str, CheckpointRow]]] = defaultdict(
            partial(defaultdict, dict)
        )
        # thread_id -> (checkpoint_ns, channel, version) -> serialized value
        self._blobs: defaultdict[str, dict[tuple[str, str, ChannelVersion], TypedValue]] = defaultdict(dict)
        # thread_id -> (checkpoint_ns, checkpoint_id) -> (task_id, idx) -> row
        self._writes: defaultdict[str, defaultdict[tuple[str, str], dict[tuple[str, int], WriteRow]]] = (
            defaultdict(partial(defaultdict, dict))
        )

    async def put(
        self,
        *,
        checkpoints: Sequence[CheckpointRow] = (),
        blobs: Sequence[BlobRow] = (),
        writes: Sequence[WriteRow] = (),
    ) -> None:
        for row in checkpoints:
            self._checkpoints[row["thread_id"]][row["checkpoint_ns"]][row["checkpoint_id"]] = row
        for blob in blobs:
            key = blob["checkpoint_ns"], blob["channel"], blob["version"]
            self._blobs[blob["thread_id"]][key] = blob["value"]
        for write in writes:
            slots = self._writes[write["thread_id"]][write["checkpoint_ns"], write["checkpoint_id"]]
            slot = (write["task_id"], write["idx"])
            if write["overwrite"] or slot not in slots:
                slots[slot] = write

    async def checkpoint(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str | None
    ) -> CheckpointRow | None:
        by_id = self._checkpoints.get(thread_id, {}).get(checkpoint_ns)
        if not by_id:
            return None
        return by_id.get(max(by_id) if checkpoint_id is None else checkpoint_id)

    async def checkpoints(
        self,
        thread_id: str | None,
        checkpoint_ns: str | None,
        *,
        before: str | None = None,
        limit: int | None = None,
    ) -> list[CheckpointRow]:
        threads = list(self._checkpoints) if thread_id is None else [thread_id]
        rows = [
            row
            for thread in threads
            for namespace, by_id in self._checkpoints.get(thread, {}).items()
            if checkpoint_ns is None or namespace == checkpoint_ns
            for checkpoint_id, row in by_id.items()
            if before is None or checkpoint_id < before
        ]
        rows.sort(key=lambda row: row["checkpoint_id"], reverse=True)
        return rows if limit is None else rows[:limit]

    async def blobs(self, keys: Sequence[BlobKey]) -> dict[BlobKey, TypedValue]:
        found = {}
        for key in keys:
            thread_id, checkpoint_ns, channel, version = key
            value = self._blobs.get(thread_id, {}).get((checkpoint_ns, channel, version))
            if value is not None:
                found[key] = value
        return found

    async def writes(self, keys: Sequence[CheckpointKey]) -> list[WriteRow]:
        return [
            write
            for thread_id, checkpoint_ns, checkpoint_id in keys
            for write in self._writes.get(thread_id, {}).get((checkpoint_ns, checkpoint_id), {}).values()
        ]

    async def delete(
        self,
        *,
        threads: Sequence[str] = (),
        checkpoints: Sequence[CheckpointKey] = (),
        blobs: Sequence[BlobKey] = (),
    ) -> None:
        for thread_id in threads:
            for table in (self._checkpoints, self._blobs, self._writes):
                table.pop(thread_id, None)
        for thread_id, checkpoint_ns, checkpoint_id in checkpoints:
            self._checkpoints.get(thread_id, {}).get(checkpoint_ns, {}).pop(checkpoint_id, None)
            self._writes.get(thread_id, {}).pop((checkpoint_ns, checkpoint_id), None)
        for thread_id, checkpoint_ns, channel, version in blobs:
            self._blobs.get(thread_id, {}).pop((checkpoint_ns, channel, version), None)


class InMemorySaver(CheckpointSaver):
    """The checkpoint saver to use in tests and in a single Python process."""

    def __init__(self, *, serde: SerializerProtocol | None = None) -> None:
        super().__init__(MemoryStorage(), serde=serde)


MemorySaver = InMemorySaver
"""LangGraph's older name for ``InMemorySaver``, which 1.2 still exports (LangChain Academy uses it)."""
