"""Time travel: the thread's checkpoints as frames, replay from one, fork at one, switch branches.

LangGraph's time travel is ``get_state_history`` (every checkpoint of a thread), ``invoke(None,
config_with_checkpoint_id)`` (replay: a ``fork`` checkpoint, then that step's tasks run again),
``update_state(config_with_checkpoint_id, values, as_node)`` (an ``update`` checkpoint as a new child,
the thread's new head) and ``update_state(..., None, as_node="__copy__")`` (a copy of a checkpoint
next to it: the lab's ``checkout``). ``frames``, ``frame``, ``replay``, ``fork``, ``branches``,
``checkout``. A part of ``LabController``.
"""

from __future__ import annotations

from typing import Any

from lab.aml.graph import CaseState
from lab.controller.commands import command
from lab.controller.frames import branch_tree, checkpoint_id_of, diff_frames, frame_of
from lab.controller.session import Until
from lab.controller.validation import check_fork_values


class TimeTravelCommands:
    """The commands over a thread's past (a part of ``LabController``)."""

    @command
    async def frames(self) -> dict[str, Any]:
        """Every checkpoint of the thread, oldest first."""
        session = self._require_session()
        return {"thread_id": session.thread_id, "frames": await self._frames()}

    @command
    async def frame(self, checkpoint_id: str) -> dict[str, Any]:
        """One checkpoint, and what changed since its parent."""
        saved = await self._saved(checkpoint_id)
        shown = frame_of(saved, self._graph())
        parent = await self._saved(shown["parent_id"]) if shown["parent_id"] else None
        return {
            "frame": shown,
            "diff": diff_frames(frame_of(parent, self._graph()) if parent else None, shown),
        }

    @command
    async def replay(
        self, checkpoint_id: str, until: Until = "end", durability: str | None = None
    ) -> dict[str, Any]:
        """Re-execute from an old frame: ``ainvoke(None, config_with_checkpoint_id)`` writes a
        fork checkpoint, then re-runs that step's tasks (saved writes are not reused)."""
        self._require_session()
        await self._close_run()
        await self._saved(checkpoint_id)
        config = self._thread_config(checkpoint_id)
        return await self._start_run("replay", None, config, until, durability)

    @command
    async def fork(
        self, checkpoint_id: str, values: dict[str, Any], as_node: str | None = None
    ) -> dict[str, Any]:
        """Edit the state at an old frame: ``aupdate_state(config_with_id, values, as_node)``
        writes an ``update`` checkpoint as a new child of it, the thread's new head."""
        self._require_session()
        await self._close_run()
        await self._saved(checkpoint_id)
        graph = self._graph()
        check_fork_values(values, CaseState)
        config = await graph.aupdate_state(self._thread_config(checkpoint_id), values, as_node)
        forked = frame_of(await self._saved(checkpoint_id_of(config)), graph)
        await self._emit({"type": "checkpoint", "run": None, "frame": forked})
        return {"checkpoint_id": forked["checkpoint_id"], "frame": forked}

    @command
    async def branches(self) -> dict[str, Any]:
        """The thread's checkpoints as a tree by parent id, with the head marked."""
        return branch_tree(await self._frames())

    @command
    async def checkout(self, checkpoint_id: str) -> dict[str, Any]:
        """Switch branches: make a copy of ``checkpoint_id`` the thread's head, so that the next
        thread-only run continues there. LangGraph has no "checkout"; the head is always the
        newest checkpoint, and ``update_state(config, None, as_node="__copy__")`` writes a ``fork``
        copy next to the checkpoint (same parent, same values) without running anything."""
        self._require_session()
        await self._close_run()
        await self._saved(checkpoint_id)
        graph = self._graph()
        config = await graph.aupdate_state(self._thread_config(checkpoint_id), None, as_node="__copy__")
        copied = frame_of(await self._saved(checkpoint_id_of(config)), graph)
        await self._emit({"type": "checkpoint", "run": None, "frame": copied})
        return {"checkpoint_id": copied["checkpoint_id"], "frame": copied}
