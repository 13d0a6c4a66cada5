"""Reading the thread: its config, its saved checkpoints as frames, its state, and the view's facts.

LangGraph reads a thread through its config: ``{"configurable": {"thread_id", "checkpoint_id"?}}``,
``aget_state`` (the head as a ``StateSnapshot``), and the saver's ``aget_tuple`` / ``alist`` (one
checkpoint, every checkpoint newest first). The lab reads the same way, rebuilds delta channels'
values (``acomplete``), and gathers what the view's rules read into one
:class:`~lab.controller.facts.ThreadFacts`. A part of ``LabController``.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from lab.checkpoint.base import CheckpointTuple
from lab.controller.facts import ThreadFacts
from lab.controller.frames import checkpoint_id_of, frame_of
from lab.controller.session import said
from lab.graph import CompiledStateGraph


class ThreadReading:
    """The controller's reads of the current thread (a part of ``LabController``)."""

    def _graph(self) -> CompiledStateGraph:
        return self.graphs[self._require_session().variant]

    def _thread_config(self, checkpoint_id: str | None = None) -> dict[str, Any]:
        configurable = {"thread_id": self._require_session().thread_id}
        if checkpoint_id is not None:
            configurable["checkpoint_id"] = checkpoint_id
        return {"configurable": configurable}

    async def _snapshot(self) -> Any:
        return await self._graph().aget_state(self._thread_config())

    async def _head_id(self, thread_id: str) -> str | None:
        saved = await self.saver.aget_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
        return saved.checkpoint["id"] if saved else None

    async def _checkpoint_count(self, thread_id: str) -> int:
        config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
        return len([saved async for saved in self.saver.alist(config)])

    async def _saved(self, checkpoint_id: Any) -> CheckpointTuple:
        if not isinstance(checkpoint_id, str) or not checkpoint_id:
            raise said("input.checkpoint_not_text", "checkpoint_id must be a checkpoint id (text)")
        config = {"configurable": {**self._thread_config(checkpoint_id)["configurable"], "checkpoint_ns": ""}}
        saved = await self._graph().acomplete(await self.saver.aget_tuple(config))  # delta values rebuilt
        if saved is None:
            raise said(
                "thread.no_checkpoint",
                "Thread {thread} has no checkpoint {checkpoint}",
                thread=repr(self._require_session().thread_id),
                checkpoint=repr(checkpoint_id),
            )
        return saved

    async def _frames(self) -> list[dict[str, Any]]:
        config = {"configurable": {"thread_id": self._require_session().thread_id, "checkpoint_ns": ""}}
        graph = self._graph()
        newest_first = await graph.acomplete_all([saved async for saved in self.saver.alist(config)])
        return [frame_of(saved, graph) for saved in reversed(newest_first)]

    async def _state(self) -> dict[str, Any]:
        snapshot = await self._snapshot()
        run = self._run
        return {
            "session": asdict(self._require_session()),
            "values": snapshot.values,
            "next": snapshot.next,
            "interrupts": snapshot.interrupts,
            "checkpoint_id": checkpoint_id_of(snapshot.config) if snapshot.metadata else None,
            "run": None
            if run is None
            else {"run": run.number, "kind": run.kind, "paused": run.gate is not None},
            "crash_armed": asdict(self._crash) if self._crash else None,
        }

    async def _facts(self, frames: list[dict[str, Any]] | None = None) -> ThreadFacts:
        """What the view's rules read: session, live run, saved head, journal, armed crash."""
        armed = asdict(self._crash) if self._crash else None
        if self.session is None:
            return ThreadFacts(None, armed=armed, writer=self.writer)
        frames = await self._frames() if frames is None else frames
        run = self._run
        live = None
        if run is not None:
            live = {
                "run": run.number,
                "kind": run.kind,
                "durability": run.durability,
                "paused": run.gate is not None,
            }
            if run.gate is not None and run.paused:
                live |= {"step": run.paused["step"], "next": run.paused["next"]}
        return ThreadFacts(
            session=asdict(self.session),
            run=live,
            head=frames[-1] if frames else None,
            records=await self.journal.records(self.session.thread_id),
            armed=armed,
            frame_ids=frozenset(f["checkpoint_id"] for f in frames),
            writer=self.writer,
        )

    def _writer_facts(self) -> ThreadFacts:
        """Just enough facts for the one-writer rule (no storage read)."""
        return ThreadFacts(asdict(self.session) if self.session else None, writer=self.writer)

    async def _journals_of(self, rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
        """The journal of every thread the ledger's requests came from (to tell why one repeated)."""
        return {thread: await self.journal.records(thread) for thread in {r["thread_id"] for r in rows}}
