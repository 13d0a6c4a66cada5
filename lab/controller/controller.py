"""The lab controller: the commands the page sends, and the events it gets back.

One :class:`LabController` per lab session (in the browser: per Web Worker). It holds the
checkpoint saver, the external world, both compiled variants of the AML graph, the current
thread and its durability mode, and runs the graph with LangGraph's own API: ``ainvoke`` to
start, resume (``None`` on a thread-only config), answer (``Command(resume=...)``) or replay
(``None`` on a config with a ``checkpoint_id``); ``aupdate_state`` to fork; ``alist`` /
``aget_tuple`` to read the frames.

**Seams.** Every run is started with ``on_seam=``: the super-step loop awaits the controller at
each seam (:data:`SEAMS`). That one hook serves everything the lab shows:

- every seam becomes a ``seam`` event, and ``put`` / ``put_writes`` also a ``checkpoint`` /
  ``writes`` event carrying what was just committed, read back from the saver;
- ``task_start`` / ``task_finish`` are written to the journal, which counts executions;
- **step**: the hook *pauses* at ``step_start`` by awaiting an ``asyncio.Event`` the controller
  owns. We pause inside one continuous run instead of re-invoking with ``interrupt_before="*"``,
  because a breakpoint resume writes ``versions_seen["__interrupt__"]`` into every later
  checkpoint and, under ``durability="exit"``, every re-invoke is a separate run that saves its own
  checkpoint: the frames would differ from a normal run's. A paused run differs from a normal run
  only in time. The hook pauses at the first ``step_start`` whose checkpoint the run had not
  stood on when it was released, i.e. after one super-step (or on a fresh input / fork frame);
- **crash**: at the armed seam the hook records and announces a ``crash_point``, kills the
  :class:`~lab.controller.process.Process` (nothing more from it reaches the saver or the world)
  and freezes. In the browser the page terminates the worker on that event; in CPython call
  :meth:`LabController.terminate`, drop the object and build a new controller over the same
  saver, world and journal.

**Commands** (:data:`COMMANDS`; all async; ``dispatch(name, args)`` calls one by name). Each answers
``{"ok": true, "result": {...}}`` or ``{"ok": false, "error": {"type", "message"[, "notes"]}}``,
JSON-able, never a traceback:

- ``catalog()`` → cases, variants, durabilities, seams, commands, both diagrams, session;
- ``start(case_id, variant="misplaced", durability="async", thread_id=None)`` → session, diagram;
- ``restore(observe_only=False, thread_id=None)`` → the session the journal remembers (or the saved
  thread ``thread_id``; after a crash or reload) and ``state``;
- ``threads()`` → ``{"current", "threads"}``: every saved thread (the journal's sessions), newest
  first, each ``{thread_id, case_id, variant, durability, started_at, checkpoints, current}``;
- ``open(thread_id)`` → session, diagram, ``state``: a saved thread becomes the session again
  (going back to an earlier thread; a paused run is closed first, as ``start`` does);
- ``state()`` → live values, next, interrupts, head checkpoint id, run / crash status;
- run commands: ``step(durability=None)``, ``run(durability=None)``, ``resume(until="end",
  durability=None)``, ``answer(approve, until="end", durability=None)``, ``replay(checkpoint_id,
  until="end", durability=None)``; each answers when its run stops: ``{"status": "paused", "step",
  "checkpoint_id", "next"}`` | ``{"status": "interrupted" | "done", "values", "interrupts", "next",
  "checkpoint_id"}`` | ``{"status": "error", "error"}`` | ``{"status": "crashed", "crash_point"}`` |
  ``{"status": "stopped"}`` (a paused run closed by ``replay`` / ``fork`` / ``start`` / ``reset``);
- ``arm_crash(seam, node=None, step=None, after=None)``, ``disarm_crash()``;
- ``frames()`` → every checkpoint, oldest first (see :func:`~lab.controller.frames.frame_of`);
  ``frame(checkpoint_id)`` → one frame and its ``diff`` against the parent;
- ``fork(checkpoint_id, values, as_node=None)`` → the new ``update`` checkpoint and its frame;
- ``branches()`` → ``{"head", "nodes", "branches"}``; ``checkout(checkpoint_id)`` → the copy of that
  frame that is now the head (switching branches);
- ``ledger()``; ``executions()``; ``reset()``;
- ``set_writer(writer)``: ``"here"`` or ``"elsewhere"``, which tab holds the thread's lock (the page
  reports it); while ``"elsewhere"``, the commands in :data:`WRITES` are refused with the reason the
  view shows;
- ``view()`` → everything the page draws, computed here (:mod:`lab.controller.view`): node states
  with reasons, actions with the reasons they are disabled, the status line, frames with diffs, the
  branch tree, the annotated ledger and its verdict, the seam catalogue, the activity history.
- ``lesson_command(lesson, step, part)`` → the command a guided lesson's move sends;
  ``lesson_check(lesson, step)`` → ``{done, facts}``: the step's facts checked on ``view()``
  (:mod:`lab.lessons`).

**Events** (one async ``emit(event)`` callback; each event has ``type``, ``seq``, ``thread_id``):

- ``session {session}``, ``reset {threads_deleted}``;
- ``run_started {run, kind, durability, until, variant}`` (kind: input | continue | resume | answer
  | replay);
- ``seam {run, seam, step, checkpoint_id, node, task_id, detail}`` for every seam;
- ``checkpoint {run, frame}`` once a ``put`` committed (``run: null`` for ``fork`` / ``checkout``);
- ``writes {run, checkpoint_id, node, task_id, writes: [[node, channel, value], ...]}`` once a
  ``put_writes`` committed (``node: "<null>"`` for resume values);
- ``interrupt {run, node, task_id, interrupts: [{id, value}], ...}``;
- ``error {scope: "task" | "run", run, error: {type, message}, ...}``;
- ``paused {run, step, checkpoint_id, next}``;
- ``crash_point {run, seam, node, step, checkpoint_id}``: the last event of a process;
- ``run_finished {run, status, ...}`` with the run command's answer.

**Durability** is a per-run choice: the session's default (set by ``start``) applies unless a run
command passes ``durability=``; a paused run keeps the mode it started with.
"""

from __future__ import annotations

import inspect
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any

from lab.aml.cases import CASES, get_case
from lab.aml.graph import (
    DEFAULT_DELAY,
    VARIANTS,
    CaseState,
    ExternalWorld,
    build_graph,
    describe_graph,
)
from lab.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from lab.checkpoint.errors import CorruptRecordError
from lab.controller.actions import NO_CASE, PAUSED, RUNNING, refusal, written_elsewhere
from lab.controller.case_texts import case_choices, with_node_summaries
from lab.controller.commands import command, validate_thread_id
from lab.controller.facts import WRITERS, ThreadFacts, last_run
from lab.controller.frames import (
    branch_tree,
    checkpoint_id_of,
    diff_frames,
    frame_of,
)
from lab.controller.journal import Journal, MemoryJournal, executions_report
from lab.controller.ledger_rules import annotate_ledger
from lab.controller.process import Process, ProcessSaver, ProcessWorld
from lab.controller.run_driver import CrashPoint, Run, RunDriver, crash_after
from lab.controller.seam_catalog import SEAMS, THE_STEP, arm_refusal, seam_catalog
from lab.controller.seam_events import SeamEvents
from lab.controller.session import (
    DEFAULT_DURABILITY,
    DURABILITIES,
    Session,
    Until,
    choose,
    error_payload,
    refused,
    said,
)
from lab.controller.storage_panel import prune_thread, storage_report
from lab.controller.thread_commands import ThreadCommands, damage
from lab.controller.thread_file import MAX_FILE_BYTES
from lab.controller.validation import MAX_FORK_BYTES, check_fork_values, check_resume
from lab.controller.view import build_view
from lab.graph import CompiledStateGraph
from lab.lessons import get_lesson
from lab.lessons.play import check_step, command_of
from lab.lessons.refs import resolve
from lab.types import Command

Emit = Callable[[dict[str, Any]], Awaitable[None]]

COMMANDS = (
    "catalog",
    "start",
    "restore",
    "threads",
    "open",
    "state",
    "step",
    "run",
    "resume",
    "answer",
    "arm_crash",
    "disarm_crash",
    "frames",
    "frame",
    "replay",
    "fork",
    "branches",
    "checkout",
    "ledger",
    "executions",
    "view",
    "lesson_command",
    "lesson_check",
    "reset",
    "set_writer",
    # -- issue 10: links, damaged threads, thread files (lab.controller.thread_commands) --
    "link",
    "drop",
    "export_thread",
    "import_thread",
    # -- issue 11: the storage panel (lab.controller.storage_panel) --
    "storage",
    "prune",
)
"""The page's commands, in the order a lesson meets them."""
READS = ("catalog", "restore", "threads", "state", "frames", "frame", "branches", "ledger", "executions")
READS += ("view", "lesson_command", "lesson_check", "set_writer", "link", "export_thread", "storage")
"""Commands that change nothing a learner did: a lesson check looks at the answer to the last other one."""
WRITES = ("step", "run", "resume", "answer", "replay", "fork", "checkout", "reset", "prune")
"""Commands that write the thread (reset: every thread), refused while another tab writes it."""


class LabController(RunDriver, SeamEvents, ThreadCommands):
    """One lab session: the page's commands over a saver, an external world and a journal."""

    def __init__(
        self,
        saver: BaseCheckpointSaver,
        world: ExternalWorld,
        emit: Emit,
        *,
        journal: Journal | None = None,
        delay: float = DEFAULT_DELAY,
    ) -> None:
        self.process = Process()
        self.saver = ProcessSaver(saver, self.process)
        self.world = ProcessWorld(world, self.process)
        self.world.on_call = self._on_external_call
        self.journal: Journal = journal if journal is not None else MemoryJournal()
        self.delay = delay
        self.graphs: dict[str, CompiledStateGraph] = {
            variant: build_graph(self.world, variant, checkpointer=self.saver, delay=delay)
            for variant in VARIANTS
        }
        self.session: Session | None = None
        self._emit_callback = emit
        self._run: Run | None = None
        self._crash: CrashPoint | None = None
        self._crash_report: dict[str, Any] | None = None
        self._seq = 0
        self.last_answer: dict[str, Any] | None = None  # to the last command not in READS
        self.writer = "here"  # who holds the thread's lock across tabs (set_writer; the page knows)

    async def dispatch(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run the command ``name`` with keyword ``args`` (what the worker calls)."""
        if name not in COMMANDS:
            error = said(
                "input.unknown_command",
                "Unknown command {name}; the commands are: {commands}",
                name=repr(name),
                commands=", ".join(COMMANDS),
            )
            return {"ok": False, "error": error_payload(error)}
        method = getattr(self, name)
        try:
            inspect.signature(method).bind(**(args or {}))
        except TypeError as exc:
            refusal = said("input.bad_arguments", "{name}: {problem}", name=name, problem=str(exc))
            return {"ok": False, "error": error_payload(refusal)}
        if name in WRITES and (reason := written_elsewhere(self._writer_facts())) is not None:
            return {"ok": False, "error": error_payload(refused(reason))}
        answer = await method(**(args or {}))
        if name not in READS:
            self.last_answer = {"command": name, "args": args or {}, **answer}
        return answer

    # -- the session ----------------------------------------------------------------------------------
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

    # -- running ----------------------------------------------------------------------------------------
    @command
    async def step(self, durability: str | None = None) -> dict[str, Any]:
        """Advance one super-step: start a run (or continue the thread), then pause at the next frame."""
        return await self._advance("step", durability)

    @command
    async def run(self, durability: str | None = None) -> dict[str, Any]:
        """Run to the next interrupt or to the end (continuing a paused run)."""
        return await self._advance("end", durability)

    @command
    async def resume(self, until: Until = "end", durability: str | None = None) -> dict[str, Any]:
        """Continue the thread after a crash: ``ainvoke(None, thread_config)``. Finished tasks of
        the interrupted step are restored from their pending writes; the others run again."""
        await self._refuse_unless("resume")
        return await self._start_run("resume", None, self._thread_config(), until, durability)

    @command
    async def answer(
        self, approve: bool, until: Until = "end", durability: str | None = None
    ) -> dict[str, Any]:
        """Answer the officer's review: ``Command(resume={"approved": approve})``."""
        if not isinstance(approve, bool):
            raise said("input.approve_not_bool", "approve must be true or false")
        await self._refuse_unless("approve")
        check_resume((await self._snapshot()).interrupts, {"approved": approve})
        request = Command(resume={"approved": approve})
        return await self._start_run("answer", request, self._thread_config(), until, durability)

    @command
    async def arm_crash(
        self, seam: str, node: str | None = None, step: int | None = None, after: list[Any] | None = None
    ) -> dict[str, Any]:
        """Kill the process the next time a run reaches ``seam`` (of ``node``, in ``step``, if given),
        once the seam ``after`` (``[seam, node]``, or a list of them) has happened in that run."""
        crash = CrashPoint(seam, node, step, crash_after(after))
        diagram = describe_graph(self.graphs[self.session.variant if self.session else VARIANTS[0]])
        for point in [(seam, node), *crash.waits_for()]:
            if (reason := arm_refusal(seam_catalog(diagram), *point)) is not None:
                raise refused(reason)
        if step is not None and (not isinstance(step, int) or isinstance(step, bool)):
            raise said("input.step_not_number", "step must be a whole number, got {given}", given=repr(step))
        self._crash = crash
        return {"armed": asdict(self._crash)}

    @command
    async def disarm_crash(self) -> dict[str, Any]:
        self._crash = None
        return {"armed": None}

    # -- time travel -----------------------------------------------------------------------------------
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

    # -- what the lab observed ---------------------------------------------------------------------------
    @command
    async def ledger(self) -> dict[str, Any]:
        """Every request the paid API and the SAR registry received, repeated charges flagged."""
        rows = await self.world.entries()
        return annotate_ledger(rows, await self._journals_of(rows))

    @command
    async def executions(self) -> dict[str, Any]:
        """How often each node ran over the thread's life; restored vs re-run on the last resume."""
        session = self._require_session()
        return executions_report(await self.journal.records(session.thread_id))

    @command
    async def view(self) -> dict[str, Any]:
        """Everything the page draws, computed here (see :mod:`lab.controller.view`)."""
        frames = await self._frames() if self.session else []
        facts = await self._facts(frames)
        rows = await self.world.entries()
        journals = await self._journals_of(rows)
        variant = self.session.variant if self.session else VARIANTS[0]
        return build_view(
            seq=self._seq,
            facts=facts,
            diagram=describe_graph(self.graphs[variant]),
            frames=frames,
            ledger_rows=rows,
            journals=journals,
            defaults={
                "variant": VARIANTS[0],
                "variants": VARIANTS,
                "durability": DEFAULT_DURABILITY,
                "durabilities": DURABILITIES,
                "seams": SEAMS,
                "delay": self.delay,
            },
        )

    # -- guided lessons (lab.lessons) ----------------------------------------------------------------
    @command
    async def lesson_command(self, lesson: str, step: str, part: int | str = "action") -> dict[str, Any]:
        """``{"name", "args"}``: the command a lesson step's move sends, as its control would send it
        (checkpoint and thread ids filled in from the lab now). ``part``: ``"action"`` or the index
        of one of the step's ``prepare`` commands."""
        command = command_of(get_lesson(lesson), step, part)
        view = (await self.view())["result"]
        return resolve(command, view, (await self.threads())["result"]["threads"])

    @command
    async def lesson_check(self, lesson: str, step: str) -> dict[str, Any]:
        """``{"done", "facts"}``: whether the step's facts hold on ``view()`` now, each with its value."""
        return check_step(get_lesson(lesson).step(step), (await self.view())["result"], self.last_answer)

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

    # -- the storage panel (issue 11; lab.controller.storage_panel) ------------------------------------
    @command
    async def storage(self) -> dict[str, Any]:
        """``{"threads", "thread"}``: every thread's bytes, and the current thread's bill checkpoint by
        checkpoint, its growth against naive full snapshots, and what ``prune`` would keep."""
        thread_id = self.session.thread_id if self.session else None
        return await storage_report(self.saver.saver, self._graph(), thread_id)

    @command
    async def prune(self) -> dict[str, Any]:
        """Prune the current thread to its newest checkpoint (``prune(strategy="keep_latest")``, its
        delta values stored whole first); answers with ``storage()``'s report."""
        self._require_idle()
        self.process.check()
        await prune_thread(self.saver.saver, self._graph(), self._require_session().thread_id)
        return await storage_report(self.saver.saver, self._graph(), self._require_session().thread_id)

    # -- runs: start, wait, pause, release, close -------------------------------------------------------
    async def _advance(self, until: Until, durability: str | None) -> dict[str, Any]:
        run = self._run
        if run is not None and run.gate is not None:
            if durability not in (None, run.durability):
                raise said(
                    "input.durability_kept",
                    "This run was started with durability {durability}; it keeps it",
                    durability=repr(run.durability),
                )
            return await self._release(run, until)
        await self._refuse_unless("run")
        if await self._head_id(self._require_session().thread_id) is None:
            case_input = {"case_id": self.session.case_id}
            return await self._start_run("input", case_input, self._thread_config(), until, durability)
        return await self._start_run("continue", None, self._thread_config(), until, durability)

    # -- reading the thread ---------------------------------------------------------------------------
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

    async def _refuse_unless(self, action: str) -> None:
        """Refuse ``action`` with the reason the page shows next to its disabled button."""
        if (reason := refusal(action, await self._facts())) is not None:
            raise refused(reason)

    # -- guards ---------------------------------------------------------------------------------------
    def _require_alive(self) -> None:
        if not self.process.alive:
            where = self._crash_report or {}
            raise said(
                "process.crashed",
                "This Python process crashed at {seam} of {node}; start a new controller over the same "
                "storage, then resume",
                seam=where.get("seam"),
                node=where.get("node") or THE_STEP,
            )

    def _require_session(self) -> Session:
        if self.session is None:
            raise refused(NO_CASE)
        return self.session

    def _require_idle(self) -> None:
        if self._run is not None:
            raise refused(PAUSED if self._run.gate is not None else RUNNING)
