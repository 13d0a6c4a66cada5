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

**Where each part lives.** :class:`LabController` only builds the session's objects; its commands
and helpers are mixins, one concern each:

- :mod:`~lab.controller.command_table`: :data:`COMMANDS`, :data:`READS`, :data:`WRITES`, ``dispatch``;
- :mod:`~lab.controller.session_commands`: ``catalog``, ``start``, ``restore``, ``threads``,
  ``open``, ``state``, ``set_writer``, ``reset``;
- :mod:`~lab.controller.run_commands`: ``step``, ``run``, ``resume``, ``answer``;
- :mod:`~lab.controller.crash_arming`: ``arm_crash``, ``disarm_crash``;
- :mod:`~lab.controller.time_travel`: ``frames``, ``frame``, ``replay``, ``fork``, ``branches``,
  ``checkout``;
- :mod:`~lab.controller.observation_commands`: ``ledger``, ``executions``, ``view``;
- :mod:`~lab.controller.lesson_commands`: ``lesson_command``, ``lesson_check``;
- :mod:`~lab.controller.storage_commands`: ``storage``, ``prune``;
- :mod:`~lab.controller.thread_commands`: ``link``, ``drop``, ``export_thread``, ``import_thread``;
- :mod:`~lab.controller.thread_reading` and :mod:`~lab.controller.guards`: the reads and the
  refusals the commands share;
- :mod:`~lab.controller.run_driver` and :mod:`~lab.controller.seam_events`: one run at a time, its
  pause gate, its crash, and every seam as journal records and events.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from lab.aml.graph import DEFAULT_DELAY, VARIANTS, ExternalWorld, build_graph
from lab.checkpoint.base import BaseCheckpointSaver
from lab.controller.command_table import COMMANDS, READS, WRITES, CommandDispatch
from lab.controller.commands import validate_thread_id
from lab.controller.crash_arming import CrashArming
from lab.controller.guards import Guards
from lab.controller.journal import Journal, MemoryJournal
from lab.controller.lesson_commands import LessonCommands
from lab.controller.observation_commands import ObservationCommands
from lab.controller.process import Process, ProcessSaver, ProcessWorld
from lab.controller.run_commands import RunCommands
from lab.controller.run_driver import CrashPoint, Run, RunDriver
from lab.controller.seam_catalog import SEAMS
from lab.controller.seam_events import SeamEvents
from lab.controller.session import DURABILITIES, Session
from lab.controller.session_commands import SessionCommands
from lab.controller.storage_commands import StorageCommands
from lab.controller.thread_commands import ThreadCommands
from lab.controller.thread_reading import ThreadReading
from lab.controller.time_travel import TimeTravelCommands
from lab.graph import CompiledStateGraph

__all__ = ["COMMANDS", "DURABILITIES", "READS", "SEAMS", "WRITES", "LabController", "validate_thread_id"]

Emit = Callable[[dict[str, Any]], Awaitable[None]]


class LabController(
    CommandDispatch,
    SessionCommands,
    RunCommands,
    CrashArming,
    TimeTravelCommands,
    ObservationCommands,
    LessonCommands,
    StorageCommands,
    ThreadCommands,
    ThreadReading,
    Guards,
    RunDriver,
    SeamEvents,
):
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
