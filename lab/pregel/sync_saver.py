"""How the sync API reaches a checkpoint saver, as LangGraph's ``SyncPregelLoop`` does.

LangGraph's sync methods (``invoke``, ``stream``, ``get_state``, ``get_state_history``,
``update_state``) call a saver's sync methods (``get_tuple``, ``list``, ``put``, ``put_writes``,
``get_delta_channel_history``) and its async methods (``ainvoke``...) the async ones. The lab's
loop is async underneath, so the sync API runs it with :data:`SYNC_API` set, and the graph reaches
the saver through :func:`for_this_call`: under the sync API a :class:`SyncMethods`, whose async
methods call the saver's sync ones. A saver subclass that overrides only ``put`` (say) is then
used, not bypassed without a word.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextvars import ContextVar
from typing import Any

from lab.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersion,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    Config,
)
from lab.checkpoint.core import CheckpointSaver
from lab.checkpoint.delta import DeltaChannelHistory

SYNC_API: ContextVar[bool] = ContextVar("lab_sync_api", default=False)
"""True while a sync method of a compiled graph runs the async core (``lab.pregel.sync_loop.run_sync``)."""

SAVER_METHODS = ("get_tuple", "list", "put", "put_writes", "aget_tuple", "alist", "aput", "aput_writes")


def for_this_call(saver: BaseCheckpointSaver | None) -> BaseCheckpointSaver | None:
    """The saver as the running API call reaches it: through its sync methods under the sync API
    (unless they are the lab's own, which only run the async ones: then nothing differs)."""
    if saver is None or not SYNC_API.get() or _plain(type(saver)):
        return saver
    return SyncMethods(saver)


@functools.cache
def _plain(saver_class: type) -> bool:
    """Does this saver class keep the lab's ``CheckpointSaver`` methods (sync and async) as they are?"""
    return issubclass(saver_class, CheckpointSaver) and all(
        getattr(saver_class, name) is getattr(CheckpointSaver, name) for name in SAVER_METHODS
    )


WritesPutter = Callable[[Config, Sequence[tuple[str, Any]], str, str], Awaitable[None] | None]
"""``(config, writes, task_id, task_path)``: how the loop calls a saver's ``aput_writes``."""


def writes_putter(saver: BaseCheckpointSaver, method: str = "aput_writes") -> WritesPutter:
    """``saver.aput_writes`` (or ``put_writes``) as the loop calls it, with a ``task_path``; left out for
    a saver whose method does not take one, as LangGraph leaves it out (a saver written before the
    parameter existed, with ``put_writes(config, writes, task_id)``)."""
    put = getattr(saver, method)
    if _takes_task_path(getattr(put, "__func__", put)):
        return put
    return lambda config, writes, task_id, task_path: put(config, writes, task_id)


@functools.cache
def _takes_task_path(put: Callable[..., Any]) -> bool:
    """Whether a ``put_writes`` method names a ``task_path`` parameter (LangGraph's test)."""
    try:
        return inspect.signature(put).parameters.get("task_path") is not None
    except (TypeError, ValueError):  # (a callable without a signature: given the path, as before)
        return True


class SyncMethods(BaseCheckpointSaver):
    """A saver whose async methods call the sync methods of ``saver``."""

    def __init__(self, saver: BaseCheckpointSaver) -> None:
        self.saver = saver

    async def aget_tuple(self, config: Config) -> CheckpointTuple | None:
        return self.saver.get_tuple(config)

    async def alist(
        self,
        config: Config | None,
        *,
        filter: dict[str, Any] | None = None,
        before: Config | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        for saved in self.saver.list(config, filter=filter, before=before, limit=limit):
            yield saved

    async def aput(
        self,
        config: Config,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> Config:
        return self.saver.put(config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self, config: Config, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        writes_putter(self.saver, "put_writes")(config, writes, task_id, task_path)

    def get_next_version(self, current: ChannelVersion | None, channel: None = None) -> ChannelVersion:
        return self.saver.get_next_version(current, channel)

    async def aget_delta_channel_history(
        self, *, config: Config, channels: Sequence[str]
    ) -> dict[str, DeltaChannelHistory]:
        """The saver's ``get_delta_channel_history`` if it has one, else the default walk over
        ``get_tuple`` (through :meth:`aget_tuple`)."""
        history = getattr(self.saver, "get_delta_channel_history", None)
        if history is not None:
            return history(config=config, channels=channels)
        return await super().aget_delta_channel_history(config=config, channels=channels)
