"""The session commands: which thread the lab works on, and what the page needs to draw it.

In LangGraph a thread is only a key, ``{"configurable": {"thread_id": ...}}``: every checkpoint is
saved under it, and ``delete_thread`` forgets one. The lab's session is that key plus what the
learner chose for it (case, variant, durability), remembered in the journal so that a reload or a
crash picks the same thread up again: ``catalog``, ``start``, ``restore``, ``threads``, ``open``,
``state``, ``set_writer`` (one writer per thread across tabs) and ``reset``. A part of
``LabController``.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict
from typing import Any

from lab.aml.cases import CASES, get_case
from lab.aml.graph import VARIANTS, describe_graph
from lab.checkpoint.errors import CorruptRecordError
from lab.controller.case_texts import case_choices, with_node_summaries
from lab.controller.command_table import COMMANDS
from lab.controller.commands import command, validate_thread_id
from lab.controller.facts import WRITERS, last_run
from lab.controller.seam_catalog import SEAMS
from lab.controller.session import DEFAULT_DURABILITY, DURABILITIES, Session, choose, said
from lab.controller.thread_commands import damage
from lab.controller.thread_file import MAX_FILE_BYTES
from lab.controller.validation import MAX_FORK_BYTES


class SessionCommands:
    """The commands that choose, list, restore and forget threads (a part of ``LabController``)."""

    @command
    async def catalog(self) -> dict[str, Any]:
        """Everything the page needs to draw itself: cases, variants, modes, seams, diagrams."""
        return {
            "cases": case_choices(),
            "variants": VARIANTS,
            "durabilities": DURABILITIES,
            "seams": SEAMS,
            "commands": COMMANDS,
            "graphs": {v: with_node_summaries(describe_graph(graph)) for v, graph in self.graphs.items()},
            "session": asdict(self.session) if self.session else None,
            "limits": {"thread_file_bytes": MAX_FILE_BYTES, "fork_bytes": MAX_FORK_BYTES},
        }

    @command
    async def start(
        self,
        case_id: str,
        variant: str = "misplaced",
        durability: str = DEFAULT_DURABILITY,
        thread_id: str | None = None,
    ) -> dict[str, Any]:
        """A new thread for ``case_id``; nothing runs until ``step`` or ``run``."""
        try:
            get_case(case_id if isinstance(case_id, str) else repr(case_id))
        except KeyError as exc:
            raise said(
                "input.unknown_case",
                "{problem}",
                problem=exc.args[0],
                case=repr(case_id),
                cases=", ".join(CASES),
            ) from None
        choose(variant, VARIANTS, "variant")
        choose(durability, DURABILITIES, "durability")
        thread_id = validate_thread_id(
            f"{case_id}-{uuid.uuid4().hex[:8]}" if thread_id is None else thread_id
        )
        if await self._head_id(thread_id) is not None:
            raise said(
                "thread.exists_start",
                "Thread {thread} already has checkpoints; choose another thread id",
                thread=repr(thread_id),
            )
        await self._close_run()
        self.session = Session(thread_id, case_id, variant, durability)
        await self.journal.save_session(asdict(self.session))
        await self._emit({"type": "session", "session": asdict(self.session)})
        return {"session": asdict(self.session), "graph": describe_graph(self.graphs[variant])}

    @command
    async def restore(self, observe_only: bool = False, thread_id: str | None = None) -> dict[str, Any]:
        """Pick up the session the journal remembers (after a crash or a reload), or the saved thread
        ``thread_id`` (the one this tab had: another tab may have opened another since).
        ``observe_only``: a warm spare boots while another process may still be running the thread,
        so it only reads; the process that takes over restores for real and writes down a run that
        died unseen (with tabs, ``set_writer("here")`` does that once this tab holds the lock)."""
        await self._close_run()
        saved = await self._remembered(thread_id)
        self.session = Session(**saved) if saved else None
        if self.session is None:
            return {"session": None}
        if not observe_only:
            await self._note_unseen_death(self.session.thread_id)
        try:
            await self._checkpoint_count(self.session.thread_id)  # loads every record of the thread
            return {"session": saved, "state": await self._state()}
        except CorruptRecordError as error:  # the lab opens without it; threads() offers to drop it
            damaged, self.session = damage(self.session.thread_id, error), None
            return {"session": None, "damaged": damaged}

    async def _remembered(self, thread_id: str | None) -> dict[str, Any] | None:
        """The session to restore: the saved thread ``thread_id`` if it still is saved, else the
        journal's current one."""
        if thread_id is not None:
            thread_id = validate_thread_id(thread_id)
            for saved in await self.journal.sessions():
                if saved["thread_id"] == thread_id:
                    return {key: saved[key] for key in ("thread_id", "case_id", "variant", "durability")}
        return await self.journal.session()

    async def _note_unseen_death(self, thread_id: str) -> None:
        """A run the journal saw start but never end or crash died with its process outside any
        seam (the page killed the worker at a random moment): write that down, as a crash."""
        records = await self.journal.records(thread_id)
        run = last_run(records)
        if run is None or run["status"] != "running":
            return
        step = max((r["step"] for r in records if r.get("run") == run["run"] and "step" in r), default=-1)
        point = {"seam": "kill", "node": None, "step": step, "checkpoint_id": None}
        await self.journal.append(thread_id, {"type": "crash", "run": run["run"], **point, "at": time.time()})

    @command
    async def threads(self) -> dict[str, Any]:
        """Every saved thread, newest first: its case, variant, durability and checkpoint count."""
        current = self.session.thread_id if self.session else None
        threads = [await self._listed(saved, current) for saved in await self.journal.sessions()]
        return {"current": current, "threads": threads}

    @command
    async def open(self, thread_id: str) -> dict[str, Any]:
        """Make the saved thread ``thread_id`` the session again (a learner goes back to it)."""
        thread_id = validate_thread_id(thread_id)
        saved = next((s for s in await self.journal.sessions() if s["thread_id"] == thread_id), None)
        if saved is None:
            raise said(
                "thread.not_saved",
                "No saved thread {thread}; the saved threads are listed by threads()",
                thread=repr(thread_id),
            )
        await self._refuse_damaged(thread_id)
        await self._close_run()
        self.session = Session(saved["thread_id"], saved["case_id"], saved["variant"], saved["durability"])
        await self.journal.save_session(asdict(self.session))
        await self._emit({"type": "session", "session": asdict(self.session)})
        return {
            "session": asdict(self.session),
            "graph": describe_graph(self.graphs[self.session.variant]),
            "state": await self._state(),
        }

    @command
    async def state(self) -> dict[str, Any]:
        """The thread now: live values, next nodes, open interrupts, and what the lab is doing."""
        return await self._state()

    @command
    async def set_writer(self, writer: str) -> dict[str, Any]:
        """Who writes this thread across the browser's tabs (LangGraph assumes one writer per thread;
        the page holds a Web Lock per thread and reports it): ``"here"`` or ``"elsewhere"``. While
        another tab writes, every writing command is refused and the view is read-only. A paused run
        is closed when the lock is lost; a live run cannot be, so that is refused (the page then
        kills its process, as a lost lease should). Holding the lock with no run of its own, this
        process knows a run the journal saw start and never end is dead, and writes that down."""
        writer = choose(writer, WRITERS, "writer")
        if writer == "elsewhere":
            await self._close_run()
        self.writer = writer
        if writer == "here" and self.session is not None and self._run is None:
            await self._note_unseen_death(self.session.thread_id)
        return {"writer": writer}

    @command
    async def reset(self) -> dict[str, Any]:
        """Forget everything: every thread's checkpoints, the ledger, the journal, the session."""
        await self._close_run()
        threads = {saved.config["configurable"]["thread_id"] async for saved in self.saver.alist(None)}
        for thread_id in sorted(threads):
            await self.saver.adelete_thread(thread_id)
        await self.world.clear()
        await self.journal.clear()
        self.session, self._crash = None, None
        await self._emit({"type": "reset", "threads_deleted": len(threads)})
        return {"threads_deleted": len(threads)}
