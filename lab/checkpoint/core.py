"""The one checkpoint saver of the lab: LangGraph's ``BaseCheckpointSaver`` contract, written
once on top of a small storage interface (``lab.checkpoint.storage``).

What a saver must do, as observed on LangGraph's ``InMemorySaver``:

- ``put`` stores the checkpoint without its values, plus one *blob* per channel listed in
  ``new_versions``, keyed ``(thread, ns, channel, version)``; a channel that has a version but
  no value gets the ``("empty", b"")`` marker. Loading rebuilds ``channel_values`` from
  ``channel_versions``, so an unchanged channel costs nothing per step. Versions must be
  unique per branch (see ``get_next_version``), or a fork would overwrite the other branch's
  blobs.
- ``put`` adds to the metadata every scalar key of ``config["metadata"]`` and
  ``config["configurable"]``, except the saver's own keys and internal ones.
- ``put_writes`` keys each write ``(task_id, idx)`` on its checkpoint: a regular write keeps the
  first value stored (re-saving a batch is a no-op), a special one (``__error__``...) keeps the
  last. Reads return writes ordered by ``(task_path, task_id, idx)``.

The async methods are the implementation. The sync methods run the same coroutines to the end
without an event loop, which works because an in-memory storage never suspends; a storage that
does real I/O (IndexedDB) declares ``supports_sync = False`` and its saver is async-only. A
subclass that overrides a sync method (``get_tuple``, ``list``, ``put``, ``put_writes``) has its
async twin call it, as LangGraph's ``InMemorySaver`` does.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator, Sequence
from typing import Any, Literal, TypeVar

from lab.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersion,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    Config,
    PendingWrite,
    check_thread_id_length,
)
from lab.checkpoint.delta import (
    DELTA,
    NO_SEED,
    DeltaChannelHistory,
    DeltaSentinel,
    DeltaSnapshot,
    PathStep,
    contributing,
    history,
)
from lab.checkpoint.errors import CorruptRecordError, UnsavableValueError
from lab.checkpoint.records import checkpoint_problem, metadata_problem, place_name, record_place
from lab.checkpoint.serde import MsgpackSerializer, SerializerProtocol, TypedValue
from lab.checkpoint.storage import BlobKey, BlobRow, CheckpointKey, CheckpointRow, CheckpointStorage, WriteRow

T = TypeVar("T")

EMPTY: TypedValue = ("empty", b"")
"""Blob of a channel that has a version but no value (e.g. a consumed trigger)."""
_NO_VALUE = object()
"""What ``put`` finds for a channel missing from ``channel_values`` (stored as ``EMPTY``)."""

MARKERS: tuple[TypedValue, ...] = (EMPTY, DELTA)
"""Blobs that are markers of the saver, not serialized values."""
NOT_A_VALUE = frozenset(kind for kind, _ in MARKERS)
"""Blob kinds that load as "no entry in ``channel_values``": empty, and a delta channel's sentinel."""

SEED_LOOKUP_BATCH = 32
"""How many ancestors' blobs the delta walk reads at once while it looks for a seed."""

_newest_version: tuple[str, int] = ("0", 0)
"""The version ``get_next_version`` made last, with its integer part: most calls are asked for the next
one (parsing its 32 digits back costs a quarter of the call)."""

_OWN_CONFIG_KEYS = frozenset({"thread_id", "checkpoint_id", "checkpoint_ns", "checkpoint_map"})
"""Config keys that address checkpoints and are never copied into metadata."""


def _checked_thread_id(thread_id: object) -> str:
    """The thread id, if it may be stored: a ``str`` of at most ``MAX_THREAD_ID_LENGTH`` characters."""
    if not isinstance(thread_id, str):
        raise TypeError(
            f"thread_id must be a str, got {type(thread_id).__name__} {thread_id!r} "
            "(the graph API converts it with str(); savers store text keys)"
        )
    check_thread_id_length(thread_id)
    return thread_id


def _enriched_metadata(config: Config, metadata: CheckpointMetadata) -> dict[str, Any]:
    """``metadata`` plus the scalar keys of ``config["metadata"]`` and ``config["configurable"]``
    that it does not already have, skipping the saver's own keys and ``langgraph_*`` / ``__*``.

    NUL characters are removed from strings, as LangGraph does (Postgres text cannot hold them).
    """
    result = dict(metadata)
    for key, value in metadata.items():  # (a copy, mended where needed: cheaper than a rebuilt dict)
        if isinstance(value, str) and "\x00" in value:
            result[key] = value.replace("\x00", "")
    extra = config.get("metadata")
    if extra:
        _add_scalars(result, extra)
    configurable = config.get("configurable")
    if configurable and not _OWN_CONFIG_KEYS.issuperset(configurable):  # (a config naming its checkpoint)
        _add_scalars(result, configurable)
    return result


def _add_scalars(result: dict[str, Any], source: dict[str, Any]) -> None:
    """Copy into ``result`` the text and number keys of ``source`` it does not have (see above)."""
    for key, value in source.items():
        if key in result or key in _OWN_CONFIG_KEYS or key.startswith(("langgraph_", "__")):
            continue
        if isinstance(value, str):
            result[key] = value.replace("\x00", "")
        elif isinstance(value, (int, float)):  # bool is an int
            result[key] = value


def _checkpoint_config(thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> Config:
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": checkpoint_ns,
            "checkpoint_id": checkpoint_id,
        }
    }


def _blob_keys(row: CheckpointRow, checkpoint: dict[str, Any]) -> Iterator[BlobKey]:
    """The keys of the blobs holding the values of a stored checkpoint."""
    for channel, version in checkpoint["channel_versions"].items():
        yield row["thread_id"], row["checkpoint_ns"], channel, version


def _checkpoint_key(row: CheckpointRow | WriteRow) -> CheckpointKey:
    return row["thread_id"], row["checkpoint_ns"], row["checkpoint_id"]


def _write_order(write: WriteRow) -> tuple[str, str, int]:
    """Pending writes are returned in the order the runtime applies them."""
    return write["task_path"], write["task_id"], write["idx"]


class CheckpointSaver(BaseCheckpointSaver):
    """A complete checkpoint saver over any ``CheckpointStorage``."""

    _sync_overrides: frozenset[str] = frozenset()
    """The sync methods (``get_tuple``, ``list``, ``put``, ``put_writes``) this class overrides. Their
    async twins then call them, as the async methods of LangGraph's ``InMemorySaver`` call its sync
    ones: a saver that changes only ``put`` (say) is used by the async API too. (The sync API calls
    the sync methods: ``lab.pregel.sync_saver``.) Found once per class, as it is defined: every save
    asks."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._sync_overrides = frozenset(
            method
            for method in ("get_tuple", "list", "put", "put_writes")
            if getattr(cls, method) is not getattr(CheckpointSaver, method)
        )

    def __init__(self, storage: CheckpointStorage, *, serde: SerializerProtocol | None = None) -> None:
        self.storage = storage
        self.serde = serde or MsgpackSerializer()

    # --- sync methods: the async ones, run to completion -----------------------------------

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine that never suspends, without an event loop."""
        if not self.storage.supports_sync:
            coro.close()
            raise RuntimeError(
                f"{type(self).__name__} stores its data in {type(self.storage).__name__}, which only has "
                "an async API: use aput / aput_writes / aget_tuple / alist / adelete_thread... "
                "(e.g. ainvoke instead of invoke)"
            )
        try:
            coro.send(None)
        except StopIteration as finished:
            return finished.value
        coro.close()
        raise RuntimeError(
            f"{type(self.storage).__name__} suspended during a sync call although it declares "
            "supports_sync = True; a storage that awaits real I/O must declare supports_sync = False"
        )

    def get_tuple(self, config: Config) -> CheckpointTuple | None:
        return self._run(self._get_tuple(config))

    def list(
        self,
        config: Config | None,
        *,
        filter: dict[str, Any] | None = None,
        before: Config | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        return iter(self._run(self._list(config, filter, before, limit)))

    def put(
        self,
        config: Config,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> Config:
        return self._run(self._put(config, checkpoint, metadata, new_versions))

    def put_writes(
        self, config: Config, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        self._run(self._put_writes(config, writes, task_id, task_path))

    def delete_thread(self, thread_id: str) -> None:
        self._run(self.adelete_thread(thread_id))

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        self._run(self.adelete_for_runs(run_ids))

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        self._run(self.acopy_thread(source_thread_id, target_thread_id))

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        self._run(self.aprune(thread_ids, strategy=strategy))

    def get_delta_channel_history(
        self, *, config: Config, channels: Sequence[str]
    ) -> dict[str, DeltaChannelHistory]:
        return self._run(self.aget_delta_channel_history(config=config, channels=channels))

    # --- versions ---------------------------------------------------------------------------

    def get_next_version(self, current: ChannelVersion | None, channel: None = None) -> str:
        """``"<int + 1, 32 digits>.<random float>"``, e.g.
        ``00000000000000000000000000000002.0.24064461566380035``.

        The integer part is that of ``current`` (``None`` counts as 0, an int as itself) plus
        one, zero-padded so that string order is numeric order. The random tail makes versions
        of a fork differ from the original branch's, so their blobs never share a key.
        """
        global _newest_version
        newest = _newest_version  # (read once: another thread may replace it)
        if current is None:
            integer = 0
        elif current == newest[0]:  # the loop asks about the version it was last given: no parse
            integer = newest[1]
        else:
            integer = int(str(current).partition(".")[0])
        # (zfill writes what :032 and :016 write, faster)
        version = f"{str(integer + 1).zfill(32)}.{repr(random.random()).zfill(16)}"
        _newest_version = (version, integer + 1)
        return version

    # --- writing ------------------------------------------------------------------------------

    async def aput(
        self,
        config: Config,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> Config:
        if "put" in self._sync_overrides:
            return self.put(config, checkpoint, metadata, new_versions)
        return await self._put(config, checkpoint, metadata, new_versions)

    async def _put(
        self,
        config: Config,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> Config:
        configurable = config["configurable"]
        thread_id = _checked_thread_id(configurable["thread_id"])
        checkpoint_ns: str = configurable["checkpoint_ns"]
        checkpoint_id = checkpoint["id"]
        stored = checkpoint.copy()  # (copy, then pop: a third of what a comprehension leaving it out costs)
        values = stored.pop("channel_values")
        dumps = self.serde.dumps_typed
        blobs: list[BlobRow] = []
        for channel, version in new_versions.items():
            # What a channel stores: its value serialized, the delta sentinel's marker, or EMPTY for
            # a channel without a value. (Here, not in a method: one call less per channel.)
            value = values.get(channel, _NO_VALUE)
            if value is _NO_VALUE:
                blob = EMPTY
            elif isinstance(value, DeltaSentinel):
                blob = DELTA
            else:
                try:
                    blob = dumps(value)
                except UnsavableValueError as error:
                    raise error.at(f"channel {channel!r}") from None
            # Rows are dict literals rather than BlobRow(...) calls: same dicts, a third of the cost.
            blobs.append(
                {
                    "thread_id": thread_id,
                    "checkpoint_ns": checkpoint_ns,
                    "channel": channel,
                    "version": version,
                    "value": blob,
                }
            )
        row: CheckpointRow = {
            "thread_id": thread_id,
            "checkpoint_ns": checkpoint_ns,
            "checkpoint_id": checkpoint_id,
            "parent_checkpoint_id": configurable.get("checkpoint_id"),
            "checkpoint": self._dump(stored, "the checkpoint"),
            "metadata": self._dump(_enriched_metadata(config, metadata), "the metadata"),
        }
        await self.storage.put(checkpoints=(row,), blobs=blobs)
        return _checkpoint_config(thread_id, checkpoint_ns, checkpoint_id)

    async def aput_writes(
        self, config: Config, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        if "put_writes" in self._sync_overrides:
            return self.put_writes(config, writes, task_id, task_path)
        return await self._put_writes(config, writes, task_id, task_path)

    async def _put_writes(
        self, config: Config, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        configurable = config["configurable"]
        thread_id = _checked_thread_id(configurable["thread_id"])
        checkpoint_ns: str = configurable.get("checkpoint_ns", "")
        checkpoint_id: str = configurable["checkpoint_id"]
        dumps = self.serde.dumps_typed
        rows: list[WriteRow] = []
        for position, (channel, value) in enumerate(writes):
            idx = WRITES_IDX_MAP.get(channel, position)
            try:  # (here, not in _dump: one call less per write)
                stored = dumps(value)
            except UnsavableValueError as error:
                raise error.at(f"the write to {channel!r} of task {task_id!r}") from None
            if rows:  # (a copy of the first row with this write's four fields: half a dict literal's cost)
                row = rows[0].copy()
                row["idx"] = idx
                row["channel"] = channel
                row["value"] = stored
                row["overwrite"] = idx < 0
            else:
                row = {
                    "thread_id": thread_id,
                    "checkpoint_ns": checkpoint_ns,
                    "checkpoint_id": checkpoint_id,
                    "task_id": task_id,
                    "idx": idx,
                    "channel": channel,
                    "value": stored,
                    "task_path": task_path,
                    "overwrite": idx < 0,  # special slots: last write wins; regular: first wins
                }
            rows.append(row)
        await self.storage.put(writes=rows)

    def _dump(self, value: Any, what: str) -> TypedValue:
        """Serialize ``value``; an error names ``what`` it was (the checkpoint, a channel...)."""
        try:
            return self.serde.dumps_typed(value)
        except UnsavableValueError as error:
            raise error.at(what) from None

    # --- reading ------------------------------------------------------------------------------

    def _load(self, value: TypedValue, key: CheckpointKey, part: str, **names: Any) -> Any:
        """Deserialize a stored value; anything wrong is one ``CorruptRecordError`` naming the record
        (``part``, a ``lab.checkpoint.records.PARTS`` code, and its ``names`` say which part of it;
        put into words only then, it costs nothing)."""
        try:
            return self.serde.loads_typed(value)
        except CorruptRecordError as error:
            place = record_place(key, part, **names)
            raise error.at(place_name(place), place) from error
        except Exception as error:  # a custom serializer's own error: still the one error type
            place = record_place(key, part, **names)
            refused = CorruptRecordError.coded(
                "serializer_raised",
                "its serializer raised {error}: {detail}",
                error=type(error).__name__,
                detail=str(error),
            )
            raise refused.at(place_name(place), place) from error

    def _checkpoint(self, row: CheckpointRow) -> dict[str, Any]:
        return self._load_dict(row, "checkpoint", checkpoint_problem)

    def _metadata(self, row: CheckpointRow) -> dict[str, Any]:
        return self._load_dict(row, "metadata", metadata_problem)

    def _load_dict(
        self,
        row: CheckpointRow,
        field: Literal["checkpoint", "metadata"],
        problem_of: Callable[[Any], CorruptRecordError | None],
    ) -> dict[str, Any]:
        """Load the row's checkpoint or metadata, refusing it if ``problem_of`` finds it malformed."""
        key = _checkpoint_key(row)
        loaded = self._load(row[field], key, field)
        problem = problem_of(loaded)
        if problem:
            place = record_place(key, field)
            raise problem.at(place_name(place), place)
        return loaded

    def _load_write(self, write: WriteRow) -> Any:
        key = _checkpoint_key(write)
        return self._load(write["value"], key, "write", channel=write["channel"], task=write["task_id"])

    async def aget_tuple(self, config: Config) -> CheckpointTuple | None:
        if "get_tuple" in self._sync_overrides:
            return self.get_tuple(config)
        return await self._get_tuple(config)

    async def _get_tuple(self, config: Config) -> CheckpointTuple | None:
        configurable = config["configurable"]
        row = await self.storage.checkpoint(
            configurable["thread_id"],
            configurable.get("checkpoint_ns", ""),
            configurable.get("checkpoint_id") or None,
        )
        if row is None:
            return None
        (saved,) = await self._tuples([row], [self._metadata(row)])
        return saved

    async def alist(
        self,
        config: Config | None,
        *,
        filter: dict[str, Any] | None = None,
        before: Config | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        if "list" in self._sync_overrides:
            listed: Iterable[CheckpointTuple] = self.list(config, filter=filter, before=before, limit=limit)
        else:
            listed = await self._list(config, filter, before, limit)
        for saved in listed:
            yield saved

    async def _list(
        self, config: Config | None, filter: dict[str, Any] | None, before: Config | None, limit: int | None
    ) -> list[CheckpointTuple]:
        if limit is not None and limit <= 0:
            return []
        configurable = config["configurable"] if config else {}
        wanted_id = configurable.get("checkpoint_id")
        rows = await self.storage.checkpoints(
            configurable.get("thread_id"),
            configurable.get("checkpoint_ns"),
            before=before["configurable"].get("checkpoint_id") if before else None,
            limit=None if filter or wanted_id else limit,
        )
        picked: list[CheckpointRow] = []
        metadatas: list[dict[str, Any]] = []
        for row in rows:
            if wanted_id and row["checkpoint_id"] != wanted_id:
                continue
            metadata = self._metadata(row)
            if filter and any(metadata.get(key) != value for key, value in filter.items()):
                continue
            picked.append(row)
            metadatas.append(metadata)
            if len(picked) == limit:
                break
        return await self._tuples(picked, metadatas)

    async def _tuples(
        self, rows: Sequence[CheckpointRow], metadatas: Sequence[dict[str, Any]]
    ) -> list[CheckpointTuple]:
        """Complete stored rows with their channel values and pending writes (two storage calls
        for any number of rows)."""
        checkpoints = [self._checkpoint(row) for row in rows]
        blobs = await self.storage.blobs(
            [
                key
                for row, checkpoint in zip(rows, checkpoints, strict=True)
                for key in _blob_keys(row, checkpoint)
            ]
        )
        writes_by_checkpoint: dict[CheckpointKey, list[WriteRow]] = {}
        for write in await self.storage.writes([_checkpoint_key(row) for row in rows]):
            writes_by_checkpoint.setdefault(_checkpoint_key(write), []).append(write)

        result = []
        for row, checkpoint, metadata in zip(rows, checkpoints, metadatas, strict=True):
            thread_id, checkpoint_ns, checkpoint_id = key = _checkpoint_key(row)
            values = {}
            for blob_key in _blob_keys(row, checkpoint):
                blob = blobs.get(blob_key)
                if blob is not None and blob[0] not in NOT_A_VALUE:
                    channel, version = blob_key[2:]
                    values[channel] = self._load(
                        blob, key, "channel_version", channel=channel, version=version
                    )
            writes = sorted(writes_by_checkpoint.get(key, []), key=_write_order)
            parent_id = row["parent_checkpoint_id"]
            result.append(
                CheckpointTuple(
                    config=_checkpoint_config(thread_id, checkpoint_ns, checkpoint_id),
                    checkpoint={**checkpoint, "channel_values": values},
                    metadata=metadata,
                    parent_config=_checkpoint_config(thread_id, checkpoint_ns, parent_id)
                    if parent_id
                    else None,
                    pending_writes=[
                        (write["task_id"], write["channel"], self._load_write(write)) for write in writes
                    ],
                )
            )
        return result

    # --- delta channels: rebuilding a value from ancestor writes ---------------------------------

    async def aget_delta_channel_history(
        self, *, config: Config, channels: Sequence[str]
    ) -> dict[str, DeltaChannelHistory]:
        """For each channel, the seed and the writes that rebuild its value at the checkpoint
        ``config`` addresses (see ``lab.checkpoint.delta``). Three storage reads, whatever the depth:
        the namespace's checkpoint rows, the ancestors' blobs (in batches, until every channel
        has a seed), the contributing ancestors' writes."""
        if not channels:
            return {}
        configurable = config["configurable"]
        thread_id, checkpoint_ns = configurable["thread_id"], configurable.get("checkpoint_ns", "")
        rows = await self.storage.checkpoints(thread_id, checkpoint_ns)
        ancestors = self._ancestors(rows, configurable.get("checkpoint_id"))
        path, seeds = await self._seeds(thread_id, checkpoint_ns, ancestors, channels)
        contributors = {
            channel: contributing(path, channel, seeds[channel][0] if channel in seeds else None)
            for channel in channels
        }
        keys = {(thread_id, checkpoint_ns, cid) for ids in contributors.values() for cid in ids}
        writes_by_checkpoint: dict[str, list[PendingWrite]] = {}
        for write in sorted(await self.storage.writes(list(keys)), key=_write_order):
            loaded = (write["task_id"], write["channel"], self._load_write(write))
            writes_by_checkpoint.setdefault(write["checkpoint_id"], []).append(loaded)
        return {
            channel: history(
                writes_by_checkpoint, contributors[channel], channel, seeds.get(channel, (None, NO_SEED))[1]
            )
            for channel in channels
        }

    async def asnapshot_channels(self, config: Config, values: dict[str, Any]) -> None:
        """Store ``values`` whole, as ``DeltaSnapshot`` blobs of these delta channels at the versions
        the checkpoint ``config`` addresses names (the same value at the same version: no other
        checkpoint's value changes). The walk then stops there: the lab's Prune does this to the
        checkpoint it keeps, so that ``keep_latest`` keeps that one checkpoint alone."""
        configurable = config["configurable"]
        thread_id, checkpoint_ns = configurable["thread_id"], configurable.get("checkpoint_ns", "")
        row = await self.storage.checkpoint(thread_id, checkpoint_ns, configurable.get("checkpoint_id"))
        if row is None or not values:
            return
        versions = self._checkpoint(row)["channel_versions"]
        blobs: list[BlobRow] = [
            {
                "thread_id": thread_id,
                "checkpoint_ns": checkpoint_ns,
                "channel": channel,
                "version": versions[channel],
                "value": self._dump(DeltaSnapshot(value), f"channel {channel!r}"),
            }
            for channel, value in values.items()
        ]
        await self.storage.put(blobs=blobs)

    def _ancestors(self, rows: Sequence[CheckpointRow], checkpoint_id: str | None) -> Iterator[PathStep]:
        """The target's ancestors, nearest first, each with its child's versions on the path
        (lazily: the walk stops reading rows once every channel has its seed)."""
        by_id = {row["checkpoint_id"]: row for row in rows}
        row = by_id.get(checkpoint_id) if checkpoint_id else (rows[0] if rows else None)
        child_versions = self._checkpoint(row)["channel_versions"] if row is not None else {}
        while row is not None and (parent := by_id.get(row["parent_checkpoint_id"] or "")) is not None:
            versions = self._checkpoint(parent)["channel_versions"]
            yield PathStep(parent["checkpoint_id"], versions, child_versions)
            row, child_versions = parent, versions

    async def _seeds(
        self, thread_id: str, checkpoint_ns: str, ancestors: Iterator[PathStep], channels: Sequence[str]
    ) -> tuple[list[PathStep], dict[str, tuple[int, Any]]]:
        """Walk ``ancestors`` until every channel has its seed: the nearest ancestor (index on the
        path) storing a real value, and that value (``NO_SEED`` if the channel was empty there).
        Returns the path walked and the seeds; a channel without one (the walk reached the root)
        is left out."""
        path: list[PathStep] = []
        seeds: dict[str, tuple[int, Any]] = {}
        while wanted := [c for c in channels if c not in seeds]:
            batch = list(itertools.islice(ancestors, SEED_LOOKUP_BATCH))
            if not batch:
                break
            keys = [
                (thread_id, checkpoint_ns, channel, step.versions[channel])
                for step in batch
                for channel in wanted
                if channel in step.versions
            ]
            blobs = await self.storage.blobs(keys)
            for step in batch:
                for channel in wanted:
                    if channel in seeds or channel not in step.versions:
                        continue
                    blob = blobs.get((thread_id, checkpoint_ns, channel, step.versions[channel]))
                    if blob is None or blob[0] == DELTA[0]:
                        continue
                    key = (thread_id, checkpoint_ns, step.checkpoint_id)
                    value = (
                        NO_SEED if blob[0] == EMPTY[0] else self._load(blob, key, "channel", channel=channel)
                    )
                    seeds[channel] = (len(path), value)
                path.append(step)
        return path, seeds

    # --- deleting and copying -----------------------------------------------------------------

    async def adelete_thread(self, thread_id: str) -> None:
        await self.storage.delete(threads=(thread_id,))

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        doomed_runs = set(run_ids)
        if not doomed_runs:
            return
        rows = await self.storage.checkpoints(None, None)
        doomed = [row for row in rows if self._metadata(row).get("run_id") in doomed_runs]
        await self._delete_checkpoints(doomed, rows)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        if strategy == "delete":
            await self.storage.delete(threads=thread_ids)
            return
        if strategy != "keep_latest":
            raise ValueError(f"unknown prune strategy {strategy!r}: use 'keep_latest' or 'delete'")
        rows = [row for thread_id in thread_ids for row in await self.storage.checkpoints(thread_id, None)]
        kept = await self.kept_by_prune(rows)
        await self._delete_checkpoints([row for row in rows if _checkpoint_key(row) not in kept], rows)

    async def kept_by_prune(self, rows: Sequence[CheckpointRow]) -> set[CheckpointKey]:
        """What ``prune(strategy="keep_latest")`` keeps of ``rows`` (newest first per thread): the
        newest checkpoint of each namespace, plus the ancestors its delta channels are rebuilt
        from (up to each one's snapshot), without which the kept checkpoint could not be read."""
        by_namespace: dict[tuple[str, str], list[CheckpointRow]] = {}
        for row in rows:
            by_namespace.setdefault((row["thread_id"], row["checkpoint_ns"]), []).append(row)
        kept: set[CheckpointKey] = set()
        for (thread_id, checkpoint_ns), namespace_rows in by_namespace.items():
            latest = namespace_rows[0]
            kept.add(_checkpoint_key(latest))
            chain = await self._delta_chain(namespace_rows, latest)
            kept.update((thread_id, checkpoint_ns, checkpoint_id) for checkpoint_id in chain)
        return kept

    async def _delta_chain(self, rows: Sequence[CheckpointRow], row: CheckpointRow) -> list[str]:
        """The ancestors of ``row`` that its delta channels' values are rebuilt from."""
        blobs = await self.storage.blobs(list(_blob_keys(row, self._checkpoint(row))))
        deltas = [key[2] for key, blob in blobs.items() if blob[0] == DELTA[0]]
        if not deltas:
            return []
        ancestors = self._ancestors(rows, row["checkpoint_id"])
        path, seeds = await self._seeds(row["thread_id"], row["checkpoint_ns"], ancestors, deltas)
        reach = max(seeds[channel][0] if channel in seeds else len(path) - 1 for channel in deltas)
        return [step.checkpoint_id for step in path[: reach + 1]]

    async def _delete_checkpoints(
        self, doomed: Sequence[CheckpointRow], rows: Iterable[CheckpointRow]
    ) -> None:
        """Delete ``doomed`` rows with their writes, and the blobs that no other checkpoint of
        their namespace (among ``rows``, which must include every checkpoint of it) still uses."""
        if not doomed:
            return
        namespaces = {(row["thread_id"], row["checkpoint_ns"]) for row in doomed}
        doomed_keys = {_checkpoint_key(row) for row in doomed}
        orphan_candidates: set[BlobKey] = set()
        still_used: set[BlobKey] = set()
        for row in rows:
            if (row["thread_id"], row["checkpoint_ns"]) in namespaces:
                blob_keys = _blob_keys(row, self._checkpoint(row))
                (orphan_candidates if _checkpoint_key(row) in doomed_keys else still_used).update(blob_keys)
        await self.storage.delete(checkpoints=list(doomed_keys), blobs=list(orphan_candidates - still_used))

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        target = _checked_thread_id(target_thread_id)
        rows = await self.storage.checkpoints(source_thread_id, None)
        blob_keys = {key for row in rows for key in _blob_keys(row, self._checkpoint(row))}
        blobs = await self.storage.blobs(list(blob_keys))
        writes = await self.storage.writes([_checkpoint_key(row) for row in rows])
        await self.storage.put(
            checkpoints=[{**row, "thread_id": target} for row in rows],
            blobs=[
                BlobRow(
                    thread_id=target,
                    checkpoint_ns=checkpoint_ns,
                    channel=channel,
                    version=version,
                    value=value,
                )
                for (_, checkpoint_ns, channel, version), value in blobs.items()
            ],
            writes=[{**write, "thread_id": target, "overwrite": True} for write in writes],
        )
