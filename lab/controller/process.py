"""One Python process, and what it can still reach once it has crashed.

Durable execution is about surviving the death of the process that runs the graph. In the browser
the page kills it for real: it terminates the Web Worker and nothing more happens in it. In CPython
the tests simulate that death inside one interpreter, and a simulation must not let the "dead"
process keep working: a sibling task may still be running its node (and about to pay), and under
``durability="async"`` saves queued in the background would still land after the crash.

So everything that outlives the process goes through a fence tied to a :class:`Process`:
:class:`ProcessSaver` (the checkpoint store) and :class:`ProcessWorld` (the outside world's
services, :mod:`lab.world`). Once :meth:`Process.kill` has run, every write or external call raises
:class:`ProcessKilled` instead of landing, exactly as if the code had never got that far.
LangGraph has no such class: it is the lab's model of ``kill -9``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, NoReturn

from lab.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersion,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    Config,
)
from lab.checkpoint.delta import DeltaChannelHistory
from lab.world import Operation, World


class ProcessKilled(asyncio.CancelledError):
    """Raised in code that runs after its process was killed.

    It is a ``CancelledError``: no ``except Exception`` in a node can swallow it, the super-step
    loop treats it as "the process is being killed: save nothing more", and a background task it
    ends counts as cancelled rather than failed."""


class Process:
    """The lifetime of one Python process (in the browser: one Web Worker)."""

    def __init__(self) -> None:
        self.alive = True
        self._grave: asyncio.Future[None] | None = None

    def check(self) -> None:
        """Raise :class:`ProcessKilled` if the process is dead."""
        if not self.alive:
            raise ProcessKilled()

    def kill(self) -> None:
        self.alive = False

    async def freeze(self) -> NoReturn:
        """Stop here for good: the point where the real process is terminated."""
        if self._grave is None:
            self._grave = asyncio.get_running_loop().create_future()
        with contextlib.suppress(asyncio.CancelledError):  # bury() or the task's own cancellation
            await asyncio.shield(self._grave)  # cancelling one frozen task must not thaw the others
        raise ProcessKilled()

    def bury(self) -> None:
        """Unwind every frozen coroutine with :class:`ProcessKilled` (CPython clean-up only)."""
        self.kill()
        if self._grave is not None:
            self._grave.cancel()


class ProcessSaver(BaseCheckpointSaver):
    """A checkpoint saver as seen from one process: reads pass, writes stop when it dies."""

    def __init__(self, saver: BaseCheckpointSaver, process: Process) -> None:
        self.saver = saver
        self.process = process

    @property
    def reader(self) -> BaseCheckpointSaver:
        """The saver itself, for reading its stored rows (the storage bill, a thread file)."""
        return self.saver

    def writer(self) -> BaseCheckpointSaver:
        """The saver itself, for a write no run is part of (an import, a prune): a dead process
        gets :class:`ProcessKilled` instead. No run is live then, so nothing can kill it midway."""
        self.process.check()
        return self.saver

    async def aget_tuple(self, config: Config) -> CheckpointTuple | None:
        return await self.saver.aget_tuple(config)

    async def alist(
        self,
        config: Config | None,
        *,
        filter: dict[str, Any] | None = None,
        before: Config | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        async for saved in self.saver.alist(config, filter=filter, before=before, limit=limit):
            yield saved

    async def aput(
        self,
        config: Config,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> Config:
        self.process.check()
        return await self.saver.aput(config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self, config: Config, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        self.process.check()
        await self.saver.aput_writes(config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        self.process.check()
        await self.saver.adelete_thread(thread_id)

    def get_next_version(self, current: ChannelVersion | None, channel: None = None) -> ChannelVersion:
        return self.saver.get_next_version(current, channel)

    async def aget_delta_channel_history(
        self, *, config: Config, channels: Sequence[str]
    ) -> dict[str, DeltaChannelHistory]:
        return await self.saver.aget_delta_channel_history(config=config, channels=channels)


class ProcessWorld:
    """The external world as seen from one process: no calls once it is dead.

    ``on_call(moment, call)`` (set by the controller) is awaited right before each call leaves the
    process (``side_effect``) and right after its answer came back (``side_effect_done``): the two
    moments *inside* a node that the loop's seams cannot see. A call made synchronously (``lab.world``
    from a plain ``def`` node, :meth:`record_now`) meets the same two moments through ``on_call_now``,
    which cannot wait: a crash there kills the process at once.
    """

    def __init__(self, world: World, process: Process) -> None:
        self.world = world
        self.process = process
        self.on_call: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None
        self.on_call_now: Callable[[str, dict[str, Any]], None] | None = None

    async def request(self, operation: Operation, request: dict[str, Any]) -> dict[str, Any]:
        """Send one request of ``operation`` from this process, between its two moments."""
        call = {**request, "op": operation.kind}
        self.process.check()
        if self.on_call is not None:
            await self.on_call("side_effect", call)
        self.process.check()
        answer = await self.world.request(operation, request)
        if self.on_call is not None:
            await self.on_call("side_effect_done", call)
        return answer

    async def entries(self) -> list[dict[str, Any]]:
        return await self.world.entries()

    async def clear(self) -> None:
        self.process.check()
        await self.world.clear()

    async def add_entries(self, rows: list[dict[str, Any]]) -> None:
        self.process.check()
        await self.world.add_entries(rows)

    def record_now(self, row: dict[str, Any]) -> None:
        """Record a row decided in this process without waiting (``lab.world``'s synchronous calls),
        between its ``side_effect`` and ``side_effect_done`` moments."""
        call = {**row, "op": row["kind"]}
        self._meet_now("side_effect", call)
        self.world.record_now(row)
        self._meet_now("side_effect_done", call)

    def _meet_now(self, moment: str, call: dict[str, Any]) -> None:
        self.process.check()
        if self.on_call_now is not None:
            self.on_call_now(moment, call)
        self.process.check()  # a crash at this moment killed the process: the node stops here
