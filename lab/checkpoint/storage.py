"""The storage interface under every lab saver (LangGraph savers keep this layer private:
``InMemorySaver``'s dicts, ``PostgresSaver``'s ``checkpoints`` / ``checkpoint_blobs`` /
``checkpoint_writes`` tables; we make it an explicit, small interface).

All contract logic lives in ``lab.checkpoint.core.CheckpointSaver``; a backend only stores and
finds *rows*. Rows are plain dicts of ``str`` / ``int`` / ``bytes`` (values already serialized
into ``(type, bytes)`` pairs), so a backend never pickles. Three kinds of row, like
LangGraph's three Postgres tables:

- ``CheckpointRow``, key ``(thread_id, checkpoint_ns, checkpoint_id)``;
- ``BlobRow``: one channel value, key ``(thread_id, checkpoint_ns, channel, version)``, shared
  by every checkpoint whose ``channel_versions`` has that version;
- ``WriteRow``: one pending write, key ``(thread_id, checkpoint_ns, checkpoint_id, task_id, idx)``.

**Every method is one atomic unit and can be one IndexedDB transaction.** Inside an IndexedDB
transaction you cannot ``await`` between requests (Pyodide resumes in a new macrotask, by which
time the transaction has auto-committed), so each method's requests must be computable from its
arguments alone: issue them all synchronously, then await the transaction's ``complete`` once.
That is why ``put`` takes everything to write at once, why a write row says itself whether it
may replace an existing row (no read-then-write), and why lookups take lists of keys.

A sketch of the IndexedDB mapping (object stores with array key paths)::

    checkpoints  key [thread_id, checkpoint_ns, checkpoint_id]
    blobs        key [thread_id, checkpoint_ns, channel, version]
    writes       key [thread_id, checkpoint_ns, checkpoint_id, task_id, idx]

    put          checkpoints.put / blobs.put; writes.put if row["overwrite"] else writes.add
                 (a failing add must call event.preventDefault(), or it aborts the transaction)
    checkpoint   get([t, ns, id]); latest: openCursor(bound([t, ns], [t, ns, []]), "prev")
    checkpoints  getAll(bound([t], [t, []])), then filter / sort newest first in Python
    blobs        one get per key
    writes       one getAll(bound([t, ns, id], [t, ns, id, []])) per checkpoint
    delete       delete(key) or delete(bound(prefix, [...prefix, []])) per store
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypedDict

from lab.checkpoint.base import ChannelVersion
from lab.checkpoint.serde import TypedValue

CheckpointKey = tuple[str, str, str]
"""``(thread_id, checkpoint_ns, checkpoint_id)``"""

BlobKey = tuple[str, str, str, ChannelVersion]
"""``(thread_id, checkpoint_ns, channel, version)``"""


class CheckpointRow(TypedDict):
    thread_id: str
    checkpoint_ns: str
    checkpoint_id: str
    parent_checkpoint_id: str | None
    checkpoint: TypedValue
    """The checkpoint without ``channel_values`` (those are blobs)."""
    metadata: TypedValue


class BlobRow(TypedDict):
    thread_id: str
    checkpoint_ns: str
    channel: str
    version: ChannelVersion
    value: TypedValue
    """``("empty", b"")`` when the channel has this version but no value."""


class WriteRow(TypedDict):
    thread_id: str
    checkpoint_ns: str
    checkpoint_id: str
    task_id: str
    idx: int
    """Position in the task's batch, or a negative slot from ``WRITES_IDX_MAP``."""
    channel: str
    value: TypedValue
    task_path: str
    overwrite: bool
    """``True``: replace a row with the same key; ``False``: keep the existing row (add-if-absent)."""


class CheckpointStorage(Protocol):
    """Where a ``CheckpointSaver`` keeps its rows (in memory, in IndexedDB...)."""

    supports_sync: bool
    """``True`` if no method ever really suspends (an in-memory backend), so the saver can
    offer sync methods by running these coroutines to completion without an event loop.
    A backend doing real I/O sets ``False``; its saver is then async-only."""

    async def put(
        self,
        *,
        checkpoints: Sequence[CheckpointRow] = (),
        blobs: Sequence[BlobRow] = (),
        writes: Sequence[WriteRow] = (),
    ) -> None:
        """Store all rows, atomically. Checkpoint and blob rows replace rows with the same key;
        write rows do so only if ``row["overwrite"]``."""
        ...

    async def checkpoint(
        self, thread_id: str, checkpoint_ns: str, checkpoint_id: str | None
    ) -> CheckpointRow | None:
        """The row with this id, or the one with the largest id in ``(thread_id, checkpoint_ns)``
        when ``checkpoint_id`` is ``None``; ``None`` if there is none."""
        ...

    async def checkpoints(
        self,
        thread_id: str | None,
        checkpoint_ns: str | None,
        *,
        before: str | None = None,
        limit: int | None = None,
    ) -> list[CheckpointRow]:
        """Rows sorted by ``checkpoint_id``, newest first. ``None`` for ``thread_id`` /
        ``checkpoint_ns`` means any; ``before`` keeps ids strictly smaller; ``limit`` (>= 0)
        keeps the first ``limit`` rows."""
        ...

    async def blobs(self, keys: Sequence[BlobKey]) -> dict[BlobKey, TypedValue]:
        """The stored value of each key that exists (missing keys are left out)."""
        ...

    async def writes(self, keys: Sequence[CheckpointKey]) -> list[WriteRow]:
        """All write rows stored on these checkpoints, in any order."""
        ...

    async def delete(
        self,
        *,
        threads: Sequence[str] = (),
        checkpoints: Sequence[CheckpointKey] = (),
        blobs: Sequence[BlobKey] = (),
    ) -> None:
        """Delete, atomically: every row of each thread; each checkpoint with all its writes;
        each blob. Missing keys are ignored."""
        ...
