"""The lab controller: the commands the page sends, and the events it gets back.

One :class:`LabController` per lab session (in the browser: per Web Worker). It holds the
checkpoint saver, the external world, the compiled variants of a graph (with the graph's profile),
the current thread and its durability mode, and runs the graph with LangGraph's own API: ``ainvoke`` to
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
- ``start(case_id, variant=None, durability="async", thread_id=None, storage="full")`` → session, diagram;
- ``restore(observe_only=False, thread_id=None)`` → the session the journal remembers (or the saved
  thread ``thread_id``; after a crash or reload) and ``state``;
- ``threads()`` → ``{"current", "threads", "pick"}``: every saved thread (the journal's sessions), newest
  first, each ``{thread_id, case_id, variant, durability, started_at, checkpoints, current, damaged,
  open}`` (``open``: Open's verdict for it); ``pick``: whether the threads picker has anything to choose;
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

A layer above may plug in commands of its own (``commands=``): the guided lessons'
``lesson_command`` and ``lesson_check`` (:mod:`lab.lessons.commands`), in the lab page's worker.

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

**Where each part lives.** The controller is plain state, rules, one command table and a run
driver, each in view:

- :class:`~lab.controller.state.LabState`: everything a command reads or changes (``self.state``);
- :mod:`~lab.controller.command_table`: :data:`COMMANDS`, each name with its function and whether
  it reads, writes or acts; ``dispatch`` and the one-writer refusal are generated from it;
- the commands, functions of the controller: :mod:`~lab.controller.session_commands`,
  :mod:`~lab.controller.run_commands` (and crash arming), :mod:`~lab.controller.time_travel`,
  :mod:`~lab.controller.observation_commands` (ledger, view, storage),
  :mod:`~lab.controller.thread_commands` (links, drop, thread files); the reads and refusals they
  share are :mod:`~lab.controller.thread_reading`'s;
- the rules, pure functions of :class:`~lab.controller.facts.ThreadFacts`:
  :mod:`~lab.controller.actions`, :mod:`~lab.controller.view` and the modules it names;
- :class:`~lab.controller.run_driver.RunDriver` (``self.driver``): one run at a time, its pause
  gate, its crash, and every seam as journal records and events (:mod:`~lab.controller.seam_events`);
- the graph: any compiled graph with its :class:`~lab.controller.profile.GraphProfile` (the AML
  investigation's is ``lab.aml.profile.AML_PROFILE``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from lab.checkpoint.base import BaseCheckpointSaver
from lab.controller.command_table import COMMANDS, READS, WRITES, Command, dispatch
from lab.controller.frames import to_jsonable
from lab.controller.journal import Journal, MemoryJournal
from lab.controller.process import Process, ProcessSaver, ProcessWorld
from lab.controller.profile import GraphProfile
from lab.controller.run_driver import RunDriver
from lab.controller.seam_catalog import SEAMS
from lab.controller.session import DURABILITIES, validate_thread_id
from lab.controller.state import LabState
from lab.graph import CompiledStateGraph
from lab.world import World

__all__ = ["COMMANDS", "DURABILITIES", "READS", "SEAMS", "WRITES", "LabController", "validate_thread_id"]

Emit = Callable[[dict[str, Any]], Awaitable[None]]


class LabController:
    """One lab session: the page's commands over a graph, a saver, an outside world and a journal."""

    def __init__(
        self,
        saver: BaseCheckpointSaver,
        world: World,
        emit: Emit,
        *,
        profile: GraphProfile,
        delay: float,
        journal: Journal | None = None,
        commands: Mapping[str, Command] = {},
    ) -> None:
        """``delay``: seconds the graph's nodes wait, so a learner sees them run (tests pass 0);
        ``commands``: the commands a layer above plugs in, besides :data:`COMMANDS`."""
        self.commands: dict[str, Command] = {**COMMANDS, **commands}
        self.profile = profile
        self.state = LabState()
        self.process = Process()
        self.saver = ProcessSaver(saver, self.process)
        self.world = ProcessWorld(world, self.process)
        self.journal: Journal = journal if journal is not None else MemoryJournal()
        self.delay = delay
        self.graphs: dict[tuple[str, str], CompiledStateGraph] = {}
        """Each (variant, storage way)'s graph, built when first asked for (``graph_for``)."""
        self.diagrams: dict[tuple[str, str], dict[str, Any]] = {}
        """Each graph's diagram, drawn when first asked for (``diagram_for``)."""
        self.driver = RunDriver(self)
        self.world.on_call = self.driver.on_external_call
        self.world.on_call_now = self.driver.on_external_call_now
        self._emit_callback = emit

    def graph_for(self, variant: str, storage: str = "full") -> CompiledStateGraph:
        """The graph a thread of ``variant`` runs with its lists stored ``storage``'s way ("full":
        LangGraph's default, whole; or opted in to ``DeltaChannel``), compiled once per controller."""
        if (variant, storage) not in self.graphs:
            self.graphs[variant, storage] = self.profile.build(
                self.world, variant, checkpointer=self.saver, delay=self.delay, storage=storage
            )
        return self.graphs[variant, storage]

    def diagram_for(self, variant: str, storage: str = "full") -> dict[str, Any]:
        """The diagram of :meth:`graph_for`'s graph as the page draws it (``profile.describe``), drawn
        once per controller: a compiled graph's nodes and edges never change, and every ``view`` sends it."""
        if (variant, storage) not in self.diagrams:
            self.diagrams[variant, storage] = self.profile.describe(self.graph_for(variant, storage))
        return self.diagrams[variant, storage]

    async def dispatch(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run the command ``name`` with keyword ``args`` (what the worker calls)."""
        return await dispatch(self, name, args)

    async def terminate(self) -> None:
        """End this controller's process for good (CPython's stand-in for ``worker.terminate()``)."""
        await self.driver.terminate()

    async def emit(self, event: dict[str, Any], *, last_words: bool = False) -> None:
        """Send the page one event, numbered (``seq``) and tagged with the open thread. A dead process
        says nothing more, except its ``last_words``: the crash point of a death met inside a plain
        ``def`` node, which had to die before it could say where (``RunDriver.on_external_call_now``)."""
        if not self.process.alive and not last_words:
            return
        self.state.seq += 1
        thread_id = self.state.session.thread_id if self.state.session else None
        await self._emit_callback(to_jsonable({"seq": self.state.seq, "thread_id": thread_id, **event}))
