"""The checkpoint data model and the saver contract, as in ``langgraph.checkpoint.base``.

A *checkpoint* is the state of one graph (thread + namespace) between two super-steps:
channel values, their versions and which versions each node has already seen. A *checkpoint
saver* stores checkpoints, plus the *pending writes* that tasks of the next super-step saved
before the step finished (so a crashed, failed or interrupted step can be resumed without
re-running the tasks that already succeeded).

``BaseCheckpointSaver`` lists the methods the runtime may call, in sync/async pairs. The lab has
one implementation, ``lab.checkpoint.core.CheckpointSaver``; backends only provide storage.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any, Literal, NamedTuple, TypedDict

from lab.checkpoint.delta import NO_SEED, DeltaChannelHistory, PathStep, contributing, history
from lab.checkpoint.ids import timestamp_text, uuid6

Config = dict[str, Any]
"""A run config (LangGraph's ``RunnableConfig``). The saver reads ``config["configurable"]``
(``thread_id``, ``checkpoint_ns``, ``checkpoint_id``) and ``config["metadata"]``."""

ChannelVersion = str | int | float
"""The lab's own versions are strings (see ``CheckpointSaver.get_next_version``); the
conformance suite writes ints, which must work too."""

ChannelVersions = dict[str, ChannelVersion]

PendingWrite = tuple[str, str, Any]
"""``(task_id, channel, value)``: one write a task made, saved before its step finished."""

ERROR = "__error__"
"""Write key of a task that raised; the value is ``repr(exception)``."""
SCHEDULED = "__scheduled__"
"""Reserved write key; LangGraph's open-source loop never writes it."""
INTERRUPT = "__interrupt__"
"""Write key of a task that called ``interrupt()``; the value is a list of ``Interrupt``."""
RESUME = "__resume__"
"""Write key of resume answers (raw value for the null task, list of answers for a task)."""
NO_WRITES = "__no_writes__"
"""Write key of a task that finished without writing anything (marks it as done)."""
NULL_TASK_ID = "00000000-0000-0000-0000-000000000000"
"""Task id of writes that no task made (resume values, ``update_state`` input...)."""

WRITES_IDX_MAP = {ERROR: -1, SCHEDULED: -2, INTERRUPT: -3, RESUME: -4}
"""Fixed, negative write slots of the special keys. Regular writes use their position in the
batch (0, 1, 2...). A saver keeps the *first* regular write of a slot (re-saving a batch is a
no-op) but *overwrites* a special slot (a second failure replaces the first ``__error__``)."""

LATEST_VERSION = 4
"""The checkpoint format version LangGraph 1.2 writes (its TypedDict docs still say 1)."""

MAX_THREAD_ID_LENGTH = 255
"""The longest thread id the lab stores, a limit of its own (docs/LANGGRAPH.md: where lab deliberately
differs): LangGraph's ``InMemorySaver`` has none, and ``PostgresSaver`` keeps ids in ``TEXT``
columns. The lab refuses longer ids everywhere, up front, saying so."""


def check_thread_id_length(thread_id: str) -> None:
    """Refuse a thread id longer than ``MAX_THREAD_ID_LENGTH``, saying why (one rule, one message)."""
    if len(thread_id) > MAX_THREAD_ID_LENGTH:
        raise ValueError(
            f"thread_id is {len(thread_id)} characters long; the lab accepts at most {MAX_THREAD_ID_LENGTH} "
            "(a limit of the lab's own: LangGraph's InMemorySaver and PostgresSaver, whose thread_id "
            "columns are TEXT, accept longer ids)."
        )


class Checkpoint(TypedDict):
    """The state of one graph between two super-steps."""

    v: int
    """Format version: ``4`` for checkpoints the lab writes."""
    id: str
    """A UUIDv6 (``lab.checkpoint.ids.uuid6``); string order == creation order."""
    ts: str
    """ISO-8601 UTC creation time, e.g. ``2026-11-29T19:12:29.351919+00:00``."""
    channel_values: dict[str, Any]
    """Value of every channel that has a version *and* currently holds a value."""
    channel_versions: ChannelVersions
    """Version of every channel ever written on this lineage (never removed)."""
    versions_seen: dict[str, ChannelVersions]
    """node -> {trigger channel -> version the node saw when it last ran}."""
    updated_channels: list[str] | None
    """Sorted names of the channels the producing step changed; ``None`` for update/fork."""


class CheckpointMetadata(TypedDict, total=False):
    """Facts about a checkpoint, filterable with ``list(filter=...)``.

    Besides these keys, ``put`` copies every scalar key of ``config["metadata"]`` and
    ``config["configurable"]`` (e.g. ``user_id``) into it.
    """

    source: Literal["input", "loop", "update", "fork"]
    """``input``: created from the input of invoke; ``loop``: by a super-step; ``update``: by
    ``update_state``; ``fork``: a copy made to replay from an older checkpoint."""
    step: int
    """-1 for the first input checkpoint, 0 for the ``__start__`` step, then +1 per step."""
    parents: dict[str, str]
    """namespace -> checkpoint id of the parent graph (for subgraph checkpoints)."""
    run_id: str
    """The run that created the checkpoint (what ``delete_for_runs`` matches)."""


class CheckpointTuple(NamedTuple):
    """A checkpoint as a saver returns it, with its config, metadata, parent and writes."""

    config: Config
    checkpoint: Checkpoint
    metadata: CheckpointMetadata
    parent_config: Config | None = None
    pending_writes: list[PendingWrite] | None = None


def empty_checkpoint() -> Checkpoint:
    """The checkpoint a fresh thread starts from (id with clock sequence -2, like LangGraph)."""
    return {  # (a literal, not ``Checkpoint(...)``: the same dict, made faster for every new thread)
        "v": LATEST_VERSION,
        "id": uuid6(-2),
        "ts": timestamp_text(),
        "channel_values": {},
        "channel_versions": {},
        "versions_seen": {},
        "updated_channels": None,
    }


def copy_checkpoint(checkpoint: Checkpoint) -> Checkpoint:
    """A copy whose dicts (values, versions, each node's seen versions) can be changed freely.

    Channel values themselves are not copied.
    """
    return Checkpoint(
        v=checkpoint["v"],
        id=checkpoint["id"],
        ts=checkpoint["ts"],
        channel_values=checkpoint["channel_values"].copy(),
        channel_versions=checkpoint["channel_versions"].copy(),
        versions_seen={node: seen.copy() for node, seen in checkpoint["versions_seen"].items()},
        updated_channels=checkpoint.get("updated_channels"),
    )


class BaseCheckpointSaver:
    """The checkpoint saver contract (LangGraph's ``BaseCheckpointSaver``).

    Config conventions: callers address a thread with
    ``{"configurable": {"thread_id": T}}``, add ``checkpoint_ns`` (``""`` for the root graph,
    ``"<node>:<task_id>"`` for a subgraph) and ``checkpoint_id`` to address one checkpoint.
    Savers return ``{"configurable": {"thread_id", "checkpoint_ns", "checkpoint_id"}}``.
    """

    # --- reading -------------------------------------------------------------------------

    def get_tuple(self, config: Config) -> CheckpointTuple | None:
        """The checkpoint ``configurable.checkpoint_id``, or the newest of the thread and
        namespace if there is no id; ``None`` if it does not exist. Its pending writes are
        ordered by ``(task_path, task_id, idx)``."""
        raise NotImplementedError

    async def aget_tuple(self, config: Config) -> CheckpointTuple | None:
        raise NotImplementedError

    def get(self, config: Config) -> Checkpoint | None:
        """Just the checkpoint of ``get_tuple``."""
        saved = self.get_tuple(config)
        return saved.checkpoint if saved else None

    async def aget(self, config: Config) -> Checkpoint | None:
        saved = await self.aget_tuple(config)
        return saved.checkpoint if saved else None

    def list(
        self,
        config: Config | None,
        *,
        filter: dict[str, Any] | None = None,
        before: Config | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first. ``config`` narrows to a thread (all its namespaces unless
        ``checkpoint_ns`` is given), ``filter`` keeps checkpoints whose metadata has all the
        given key/value pairs, ``before`` keeps ids strictly older than its ``checkpoint_id``,
        ``limit`` caps the count."""
        raise NotImplementedError

    async def alist(
        self,
        config: Config | None,
        *,
        filter: dict[str, Any] | None = None,
        before: Config | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        raise NotImplementedError
        yield  # makes this an async generator, like the real implementations

    # --- writing -------------------------------------------------------------------------

    def put(
        self,
        config: Config,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> Config:
        """Store ``checkpoint`` as a child of ``configurable.checkpoint_id`` (if any) and return
        the config addressing it. ``new_versions`` names the channels whose version changed
        since the parent: only their values need storing."""
        raise NotImplementedError

    async def aput(
        self,
        config: Config,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> Config:
        raise NotImplementedError

    def put_writes(
        self,
        config: Config,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Store the ``(channel, value)`` writes of one task on the checkpoint ``config``
        addresses (the one its step started from)."""
        raise NotImplementedError

    async def aput_writes(
        self,
        config: Config,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        raise NotImplementedError

    def get_next_version(self, current: ChannelVersion | None, channel: None = None) -> ChannelVersion:
        """The version a channel gets when it is updated; must sort after ``current``.
        (``channel`` is unused; LangGraph keeps it for backwards compatibility.) By default, as
        LangGraph's: integers counting up from 1 (a saver with string versions overrides this)."""
        if isinstance(current, str):
            raise NotImplementedError("string channel versions: the saver must define get_next_version")
        return 1 if current is None else current + 1

    # --- deleting and copying --------------------------------------------------------------

    def delete_thread(self, thread_id: str) -> None:
        """Remove every checkpoint, blob and write of the thread, in all namespaces."""
        raise NotImplementedError

    async def adelete_thread(self, thread_id: str) -> None:
        raise NotImplementedError

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Remove the checkpoints (and their writes) whose metadata ``run_id`` is listed."""
        raise NotImplementedError

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        raise NotImplementedError

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy every checkpoint (same ids), value and write of a thread to another thread."""
        raise NotImplementedError

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        raise NotImplementedError

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """``keep_latest``: keep only the newest checkpoint (and its writes) of each namespace
        of each thread; ``delete``: remove the threads entirely."""
        raise NotImplementedError

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        raise NotImplementedError

    # --- delta channels ----------------------------------------------------------------------

    async def aget_delta_channel_history(
        self, *, config: Config, channels: Sequence[str]
    ) -> dict[str, DeltaChannelHistory]:
        """Per channel, the seed and the writes, oldest first, that rebuild a delta channel's
        value at the checkpoint ``config`` addresses (``lab.checkpoint.delta``). This default
        walks ``aget_tuple`` + ``parent_config``, one ancestor at a time, as LangGraph's does;
        ``CheckpointSaver`` overrides it with three storage reads."""
        if not channels:
            return {}
        path: list[PathStep] = []
        writes_by_checkpoint: dict[str, list[PendingWrite]] = {}
        seeds: dict[str, tuple[int, Any]] = {}
        child = await self.aget_tuple(config)
        while child is not None and child.parent_config is not None and len(seeds) < len(channels):
            parent = await self.aget_tuple(child.parent_config)
            if parent is None:
                break
            stored = parent.checkpoint["channel_values"]
            for channel in channels:
                if channel not in seeds and channel in stored:
                    seeds[channel] = (len(path), stored[channel])
            path.append(
                PathStep(
                    parent.checkpoint["id"],
                    parent.checkpoint["channel_versions"],
                    child.checkpoint["channel_versions"],
                )
            )
            writes_by_checkpoint[parent.checkpoint["id"]] = list(parent.pending_writes or [])
            child = parent
        return {
            channel: history(
                writes_by_checkpoint,
                contributing(path, channel, seeds[channel][0] if channel in seeds else None),
                channel,
                seeds.get(channel, (None, NO_SEED))[1],
            )
            for channel in channels
        }
