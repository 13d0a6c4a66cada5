"""The super-step loop: LangGraph's ``PregelLoop``.

One run of a graph on one thread, in phases (each a method below, in this order; ``run`` drives them):

1. ``load``        the thread's latest checkpoint (or the one the config addresses);
2. ``first``       decides what kind of run this is: new input (an *input* checkpoint), a resume
                   (answers to interrupts, saved writes reused), or time travel (a *fork*);
3. ``tick``        prepares the next step's tasks from the checkpoint: every node whose trigger
                   channel moved past what it last saw. Tasks that already finished before a crash
                   or an interrupt get their saved writes back instead of running again;
4. the runner      (``StepRunner``, ``lab.pregel.runner``: LangGraph's ``PregelRunner``) runs the
                   remaining tasks concurrently. As each one finishes, the loop saves its writes
                   (``save_writes``) as *pending writes* on the checkpoint the step started from,
                   and its stream chunks go out at once (its slower siblings keep running);
5. ``finish_step`` applies all writes at once (in node-name order), bumps channel versions and
                   saves the next checkpoint (``save_next_checkpoint``); back to 3 until no node
                   is triggered.

Three parts have objects of their own: the runner; the saves, which reach the saver through a
``SaveQueue`` (``lab.pregel.save_queue``: when each save is awaited, per ``durability``); the stream
chunks, made and handed out by a ``StreamOutput`` (``lab.pregel.stream_output``). The loop's own
fields come in four groups, each saying when it moves: fixed for the run; settled by ``load`` and
``first``; where the run is (every super-step); what the saver has (every save).

A run the caller stops mid-way (a closed stream, a cancelled run) is ``abandon``-ed, as in LangGraph.

**Seams.** Where the lab can watch a run, the loop reports a ``Seam`` (``lab.pregel.seams``) to an
optional async hook (``on_seam=``; with no hook, none is made). In the order one super-step meets them:

- ``step_start`` (``StepRunner.start``: tasks prepared, none started): the lab pauses here for Step;
- per task (``StepRunner.execute``): ``task_start``, the node runs, ``task_finish``, then
  ``put_writes`` once its writes are saved (``persist_writes``: the lab reads them back from the
  saver); or ``interrupt`` / ``error``;
- ``step_end`` (``finish_step``: all tasks done), then ``put`` once the next checkpoint is saved
  (the lab reads it back and draws it as a frame); the input and fork checkpoints report ``put`` too.

Under ``durability="async"``, ``put`` and ``put_writes`` are reported when their background save is done.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Iterable, Mapping
from contextlib import aclosing
from typing import Any, Protocol

from lab.checkpoint.base import (
    INTERRUPT,
    NULL_TASK_ID,
    RESUME,
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    Checkpoint,
    CheckpointTuple,
    empty_checkpoint,
)
from lab.errors import MULTIPLE_INTERRUPTS, EmptyInputError, GraphInterrupt, GraphRecursionError
from lab.pregel import algo, delta, subgraph, sync_saver
from lab.pregel.algo import INTERRUPT_SEEN, StepWrites
from lab.pregel.channels import Channel
from lab.pregel.ids import is_interrupt_id
from lab.pregel.nodes import START, command_update, goto_writes
from lab.pregel.runner import RunnerGraph, StepRunner
from lab.pregel.save_queue import SaveQueue
from lab.pregel.seams import Seam, SeamHook
from lab.pregel.stream_output import StreamOutput, checkpoint_chunk
from lab.pregel.subgraph import Chunk, Loan, Replay
from lab.pregel.task import Task
from lab.types import Command, Durability


class CompiledGraph(RunnerGraph, Protocol):
    """What the loop and its runner read from a compiled graph (``lab.pregel.graph.Pregel``)."""

    channels: dict[str, Channel]
    delta_channels: frozenset[str]
    untracked: frozenset[str]
    trigger_to_nodes: dict[str, list[str]]


NOT_LOADED: Checkpoint = {
    "v": 4,
    "id": "",
    "ts": "",
    "channel_values": {},
    "channel_versions": {},
    "versions_seen": {},
    "updated_channels": None,
}
"""A loop's ``checkpoint`` until ``load`` replaces it (never changed)."""


class SuperStepLoop:
    """One run of a graph on one thread. Every field is declared here and set in ``__init__``;
    those under "fixed" never change, the others move as the run goes (each group says when)."""

    # -- the run as asked (fixed for the whole run) --------------------------------------------------
    graph: CompiledGraph
    input: Any
    config: dict[str, Any]
    durability: Durability
    saver: BaseCheckpointSaver | None
    """Where checkpoints go (under the sync API, its sync methods: ``lab.pregel.sync_saver``)."""
    put_writes: sync_saver.WritesPutter | None
    """The saver's ``aput_writes``, given a ``task_path`` only if it takes one (as LangGraph checks)."""
    saves: SaveQueue
    """How saves reach the saver under the run's ``durability`` (``lab.pregel.save_queue``)."""
    next_version: algo.NextVersion
    """How a channel's version moves on: the saver's rule, or plain integers without a saver."""
    on_seam: SeamHook | None
    interrupt_before: list[str] | str
    interrupt_after: list[str] | str
    stream: StreamOutput
    """The run's stream chunks, made and not yet handed out (``lab.pregel.stream_output``)."""
    runner: StepRunner
    """Runs each step's tasks (``lab.pregel.runner``)."""
    parent: Loan | None
    """A subgraph's run (``lab.pregel.subgraph``): what the task running it lent it."""
    namespace: str
    parents: dict[str, str]
    """``metadata["parents"]`` of its checkpoints: the namespace -> checkpoint id map above it."""

    # -- settled by ``load`` and ``first`` (then fixed) ----------------------------------------------
    stop: int
    """The step past which the run is out of steps (``recursion_limit``)."""
    superseded: bool
    """The checkpoint the config addresses is not the thread's latest."""
    replay: Replay | None
    resume_map: Mapping[str, Any] | None
    """Answers by interrupt id (``Command(resume={id: answer})``)."""

    # -- where the run is (moves every super-step) ---------------------------------------------------
    step: int
    checkpoint: Checkpoint
    """The checkpoint the current step starts from (its versions move as the step's writes apply)."""
    metadata: dict[str, Any]
    channels: dict[str, Channel]
    pending: list[algo.PendingWrite]
    """The writes saved on ``checkpoint``: by this step's tasks, or before a crash or interrupt."""
    updated: set[str] | None
    """The channels the last applied writes changed (``None``: unknown, every node is a candidate)."""
    tasks: dict[str, Task]
    """The current step's tasks, by id."""
    expiring: set[str] | None
    """The expiring channels that may hold a value, kept by ``apply`` so that a step clears those
    without looking at every channel (``None``: not gathered yet)."""
    status: str
    replaying: bool
    """The first step replays an old checkpoint (its saved writes are not reused)."""
    resuming: bool | None
    """The run resumes: ``None`` once its first step is over (what its subgraphs inherit)."""

    # -- what the saver has (moves with every save) --------------------------------------------------
    checkpoint_config: dict[str, Any]
    """The config addressing the last checkpoint saved (or loaded)."""
    parent_config: dict[str, Any] | None
    saved_id: str | None
    """The id of the last checkpoint the saver has (``None``: none yet in this run's thread)."""
    stored_versions: dict[str, Any]
    """The channel versions of that checkpoint (what the next ``put`` adds to)."""
    delta_forced: set[str] | None
    """Delta channels the next checkpoint saved must snapshot (``None``: all; ``lab.pregel.delta``)."""
    written_task_ids: set[str]
    """The tasks whose writes this run recorded (under ``"exit"``, ``save_on_exit`` saves theirs)."""

    __slots__ = tuple(__annotations__)

    def __init__(
        self,
        graph: CompiledGraph,
        input: Any,
        config: dict[str, Any],
        *,
        durability: Durability = "async",
        on_seam: SeamHook | None = None,
        stream_modes: frozenset[str] = frozenset(("values",)),
        interrupt_before: list[str] | str = (),
        interrupt_after: list[str] | str = (),
        context: Any = None,
        store: Any = None,
        saver: BaseCheckpointSaver | None,
        parent: Loan | None = None,
        stream_subgraphs: bool = False,
        task_updates: bool = True,
        last_values_only: bool = False,
        caller_config: dict[str, Any] | None = None,
    ) -> None:
        """``caller_config``: the config as the caller gave it (before a root run resets what addresses
        checkpoints), whose keys its tasks' metadata names (``lab.config.TaskConfigs``)."""
        self.graph = graph
        self.input = input
        self.config = config
        self.durability = durability
        self.saver = saver
        self.put_writes = sync_saver.writes_putter(saver) if saver else None
        self.saves = SaveQueue(durability, on_seam)
        self.next_version = saver.get_next_version if saver else _next_int_version
        self.on_seam = on_seam
        self.interrupt_before = interrupt_before
        self.interrupt_after = interrupt_after
        self.parent = parent
        self.namespace = config["configurable"].get("checkpoint_ns", "")
        self.stream = StreamOutput(
            stream_modes,
            self.namespace,
            parent.relay if parent else None,
            graph.state_keys,
            stream_subgraphs=stream_subgraphs,
            task_updates=task_updates,
            last_values_only=last_values_only,
        )
        self.runner = StepRunner(
            self, config, caller_config, context, store, stream_modes, stream_subgraphs=stream_subgraphs
        )
        self.parents = subgraph.parents_of(parent, config)

        self.stop = 0
        self.superseded = False
        self.replay = parent.replay if parent else None
        self.resume_map = parent.resume_map if parent else None

        self.step = 0
        self.checkpoint = NOT_LOADED
        self.metadata = {"step": -2}
        self.channels = {}
        self.pending = []
        self.updated = None
        self.tasks = {}
        self.expiring = None
        self.status = "pending"
        self.replaying = False
        self.resuming = parent.resuming if parent else None

        self.checkpoint_config = config
        self.parent_config = None
        self.saved_id = None
        self.stored_versions = {}
        self.delta_forced = None
        self.written_task_ids = set()

    # -- 1. load ---------------------------------------------------------------------------------
    async def load(self) -> None:
        conf = self.config["configurable"]
        self.checkpoint_config = {**self.config, "configurable": {"checkpoint_ns": "", **conf}}
        saved = await self.load_saved()
        if saved is None:
            self.checkpoint = empty_checkpoint()
            self.channels = algo.channels_from_checkpoint(self.graph.channels, self.checkpoint)
        else:
            if conf.get("checkpoint_id"):
                latest = await self.saver.aget_tuple(self._thread_config())
                self.superseded = latest is not None and latest.checkpoint["id"] != saved.checkpoint["id"]
            self.checkpoint, self.metadata = saved.checkpoint, saved.metadata
            self.pending = list(saved.pending_writes or [])
            self.saved_id, self.parent_config = self.checkpoint["id"], saved.parent_config
            self.checkpoint_config["configurable"].update(saved.config["configurable"])
            self.channels = await delta.load_channels(self.graph.channels, saved, self.saver)
        self.delta_forced = delta.written_channels(self.pending)
        self.stored_versions = dict(self.checkpoint["channel_versions"])
        self.step = self.metadata["step"] + 1
        self.stop = self.step + self.config.get("recursion_limit", 25) + 1
        self.updated = set(self.checkpoint.get("updated_channels") or []) or None

    async def load_saved(self) -> CheckpointTuple | None:
        """The checkpoint the config addresses, or the latest; for a subgraph's first run under a
        replaying root, the last one from before the replayed point (and it takes its input again)."""
        if self.saver is None:
            return None
        addressed = self.config["configurable"].get("checkpoint_id")  # (first: LangGraph's order)
        if self.replay is not None and not addressed and self.replay.first_visit(self.namespace):
            self.resuming = None
            return await self.replay.checkpoint(self.saver, self.config)
        return await self.saver.aget_tuple(self.config)

    # -- 2. first: input, resume or time travel ---------------------------------------------------
    async def first(self) -> None:
        is_command = isinstance(self.input, Command)
        addressed = bool(self.config["configurable"].get("checkpoint_id"))
        asked = self.input is None or is_command if self.resuming is None else self.resuming
        resuming = bool(self.checkpoint["channel_versions"]) and asked
        time_travel = addressed and not (is_command and self.input.resume is not None)
        self.replaying = time_travel or self.superseded
        if time_travel:  # old answers are not replayed: interrupts fire again
            self.pending[:] = [w for w in self.pending if w[1] != RESUME]
        forks = (
            resuming
            and time_travel
            and (self.metadata.get("source") not in ("update", "fork") or self.superseded)
        )

        carried: list[algo.PendingWrite] = []
        if is_command:
            writes = self._command_writes(self.input)
            if forks:
                carried = [(NULL_TASK_ID, channel, value) for channel, value in writes]
            elif writes:  # one batch, as LangGraph saves them: a resume and an update both count
                await self.save_writes(NULL_TASK_ID, writes)
        if self.replaying or carried:  # a new branch: the start's writes may be another child's
            self.delta_forced = None
        if self.saved_id is None:  # a new thread: the input's writes sit on a checkpoint never stored
            self.delta_forced = None
        updated = algo.apply_null_writes(
            self.checkpoint,
            self.channels,
            [*self.pending, *carried],
            self.next_version,
            self.graph.trigger_to_nodes,
        )
        if self.updated is not None:
            self.updated |= updated

        replayed_edit = self.metadata.get("source") in ("update", "fork")
        replay_bound = self.parent_config if forks and replayed_edit else None
        if resuming:
            self.checkpoint["versions_seen"][INTERRUPT_SEEN] = dict(self.checkpoint["channel_versions"])
            if forks:
                self.pending[:] = [w for w in self.pending if w[1] != INTERRUPT]
                await self.save_next_checkpoint("fork", updated=None)
            self.stream.values_changed(self.read_state)
        elif self.input is not None:  # (a Command on an empty thread is input too, as in LangGraph)
            # a new input discards the tasks left from the last run (none where no channel has a version yet)
            unfinished = self.prepare() if self.checkpoint["channel_versions"] else {}
            self.updated = self.apply(
                [*unfinished.values(), StepWrites("__input__", self.graph.input_writes(self.input))]
            )
            await self.save_next_checkpoint("input", self.updated)
        elif self.parent is None or self.resuming is None:
            raise EmptyInputError(f"Received no input for {START}")
        if self.parent is None:  # what the subgraphs of this run's first step inherit
            self.resuming = resuming
            self.replay = Replay(self.replay_point(replay_bound)) if time_travel else None

    def replay_point(self, bound: dict[str, Any] | None) -> str:
        """The checkpoint a replay's subgraphs start from before (as LangGraph picks it): the one
        replayed, or the parent of a replayed ``update``/``fork`` checkpoint."""
        if bound is None and self.metadata.get("source") in ("update", "fork") and self.parent_config:
            bound = self.parent_config
        return bound["configurable"]["checkpoint_id"] if bound else self.checkpoint["id"]

    def _command_writes(self, command: Command) -> list[tuple[str, Any]]:
        """The caller's ``Command`` as writes of the NULL task (``goto``, ``resume``, ``update``)."""
        writes = goto_writes(command.goto, START)
        if command.resume is not None:
            if not self.saver:
                raise RuntimeError("Cannot use Command(resume=...) without checkpointer")
            answers = command.resume
            if isinstance(answers, dict) and all(is_interrupt_id(k) for k in answers):
                self.resume_map = answers
            elif len(self.pending_interrupts()) > 1:
                raise RuntimeError(MULTIPLE_INTERRUPTS)
            else:
                writes.append((RESUME, answers))
        writes += command_update(command.update, self.graph.state_keys)
        if not writes and self.resume_map is None:
            raise EmptyInputError("Received empty Command input (give resume=, update= or goto=)")
        return writes

    def pending_interrupts(self) -> set[str]:
        statuses = algo.task_statuses(self.pending)
        return {i.id for status in statuses.values() for i in status.pending_interrupts}

    # -- 3. tick: which tasks run next? -----------------------------------------------------------
    def tick(self) -> bool:
        """Prepare the next step's tasks; ``False`` when the run is over (plain bookkeeping: no ``await``)."""
        self.tasks = self.prepare(self.updated)
        if self.streams_checkpoints:
            self.emit_checkpoint(self.tasks)
        if self.step > self.stop:
            self.status = "out_of_steps"
            return False
        if not self.tasks:
            self.status = "done"
            return False
        if not self.replaying:  # finished before the crash/interrupt: reuse
            for task in algo.reuse_finished_writes(self.tasks, self.pending):
                self.stream.task_update(task, cached=True)
        if self.interrupt_before and algo.breakpoint_hit(
            self.checkpoint, self.tasks.values(), self.interrupt_before
        ):
            self.status = "interrupt_before"
            raise GraphInterrupt()
        if self.stream.streams_tasks:
            for task in self.tasks.values():
                self.stream.task_start(task, self.step)
        return True

    def prepare(self, updated: set[str] | None = None) -> dict[str, Task]:
        candidates = algo.woken_nodes(self.graph.trigger_to_nodes, updated) if updated else None
        tasks = algo.prepare_tasks(
            self.graph.nodes,
            self.checkpoint,
            self.channels,
            self.pending,
            self.step,
            self.graph.state_keys,
            candidates=candidates,
            resume_map=self.resume_map,
            namespace=self.namespace,
        )
        if self.parent is not None:  # an answer the root was given may be for an interrupt in here
            for task in tasks.values():
                task.take_fresh_answer = subgraph.or_from(task.take_fresh_answer, self.parent.task)
        return tasks

    # -- 4. the runner runs the tasks (``lab.pregel.runner``); each one's writes are saved here ------
    async def save_writes(
        self, task_id: str, writes: list[tuple[str, Any]], task: Task | None = None
    ) -> None:
        """Record a task's writes on the checkpoint this step started from (``put_writes``)."""
        if not writes:
            return
        self.written_task_ids.add(task_id)
        if writes[0][0] in WRITES_IDX_MAP and all(w[0] in WRITES_IDX_MAP for w in writes):
            writes = list({w[0]: w for w in writes}.values())
        if task_id == NULL_TASK_ID:
            self.pending[:] = [w for w in self.pending if w[0] != task_id or w[1] not in WRITES_IDX_MAP]
            writes = sorted(writes, key=lambda w: w[0] in WRITES_IDX_MAP)
            to_save = [w[1:] for w in self.pending if w[0] == task_id] + writes
        else:
            if self.pending:
                self.pending[:] = [w for w in self.pending if w[0] != task_id]
            to_save = writes
        for chan, value in writes:
            self.pending.append((task_id, chan, value))
        if self.saver and self.durability != "exit":
            await self.persist_writes(task_id, to_save, task)

    def persist_writes(
        self, task_id: str, writes: list[tuple[str, Any]], task: Task | None
    ) -> Awaitable[None]:
        """Hand a task's writes to the saver; the caller awaits what comes back (``SaveQueue.persist``)."""
        config = self._config_at(self.checkpoint["id"])
        path = algo.task_path_str(task.path) if task else ""
        if self.graph.untracked:
            writes = algo.savable_writes(writes, self.graph.untracked)
        saving = self.put_writes(config, writes, task_id, path)
        seam = self.seam_here("put_writes", task, channels=[c for c, _ in writes]) if self.on_seam else None
        return self.saves.persist(saving, seam)

    # -- 5. finish the step: apply writes, save the next checkpoint --------------------------------
    async def finish_step(self) -> None:
        if self.on_seam is not None:
            await self.report("step_end")
        self.updated = self.apply(self.tasks.values())
        self.stream.values_changed(self.read_state, self.updated)
        self.pending.clear()
        self.replaying = False
        await self.save_next_checkpoint("loop", self.updated)  # (seam put, once saved)
        if self.interrupt_after and algo.breakpoint_hit(
            self.checkpoint, self.tasks.values(), self.interrupt_after
        ):
            self.status = "interrupt_after"
            if self.streams_checkpoints:  # the checkpoint it pauses on, with the tasks a resume runs
                self.emit_checkpoint(self.prepare(self.updated))
            raise GraphInterrupt()
        self.resuming = None  # only the first step's subgraphs resume with the run

    def apply(self, tasks: Iterable[Task | StepWrites]) -> set[str]:
        if self.expiring is None:  # (once: from then on the channels change only here)
            self.expiring = algo.holding_expiring(self.channels)
        return algo.apply_writes(
            self.checkpoint,
            self.channels,
            tasks,
            self.next_version,
            self.graph.trigger_to_nodes,
            self.expiring,
        )

    # -- saving checkpoints -------------------------------------------------------------------------
    async def save_next_checkpoint(self, source: str, updated: set[str] | None) -> None:
        """Snapshot the channels as the next checkpoint (metadata ``source``: input, loop or fork) and
        save it; under ``durability="exit"`` it is kept for ``resave_on_exit``. The step moves on."""
        saving = self.saver is not None and self.durability != "exit"
        new_versions = self.new_versions() if saving else {}
        snapshot = self.to_snapshot(new_versions, self.delta_forced)
        self.metadata = {"source": source, "step": self.step, "parents": self.parents}
        made = algo.create_checkpoint(self.checkpoint, self.channels, self.step, updated, snapshot)
        # The saver gets ``made``, whose versions are copies; the loop goes on changing the ones it has.
        self.checkpoint = {
            **made,
            "channel_versions": self.checkpoint["channel_versions"],
            "versions_seen": self.checkpoint["versions_seen"],
        }
        if saving:
            await self.put(made, new_versions)
        self.step += 1

    async def resave_on_exit(self) -> None:
        """``durability="exit"``: save the checkpoint the run stopped at (its id and time as they
        were made), with the channels as they are now, unless the saver has it already."""
        if self.checkpoint["id"] == self.saved_id:
            return
        new_versions = self.new_versions()
        snapshot = self.to_snapshot(new_versions, None)
        made = algo.create_checkpoint(self.checkpoint, self.channels, self.step, self.updated, snapshot)
        self.checkpoint = {**made, "id": self.checkpoint["id"], "ts": self.checkpoint["ts"]}
        await self.put(self.checkpoint, new_versions)  # (the run is over: the loop changes it no more)

    def to_snapshot(self, moved: dict[str, Any], forced: set[str] | None) -> set[str]:
        """The delta channels the next checkpoint stores whole (``delta.to_snapshot``); none to ask
        about in a graph without any."""
        return delta.to_snapshot(self.channels, moved, forced) if self.graph.delta_channels else set()

    def new_versions(self) -> dict[str, Any]:
        return algo.new_versions(self.checkpoint["channel_versions"], self.stored_versions)

    def put(self, checkpoint: Checkpoint, new_versions: dict[str, Any]) -> Awaitable[None]:
        """Hand ``checkpoint`` (a snapshot the loop does not change: a background save stores this
        moment) to the saver, the blobs of ``new_versions`` with it; the caller awaits what comes
        back (``SaveQueue.persist``)."""
        self.delta_forced = set()
        parent_id = self.checkpoint_config["configurable"].get("checkpoint_id")
        self.parent_config = self._config_at(parent_id) if parent_id else None
        self.stored_versions = checkpoint["channel_versions"]  # (neither the saver nor the loop changes it)
        if self.graph.untracked:
            checkpoint = algo.savable_checkpoint(checkpoint, self.graph.untracked)
        saving = self.saver.aput(self.checkpoint_config, checkpoint, self.metadata, new_versions)
        self.saved_id = self.checkpoint["id"]
        self.checkpoint_config = self._config_at(self.checkpoint["id"])
        seam = self.seam_here("put", source=self.metadata.get("source")) if self.on_seam else None
        return self.saves.persist(saving, seam)

    # -- the end of a run ---------------------------------------------------------------------------
    async def settle(self, stopped: bool) -> None:
        """End of run: with ``durability="exit"`` save now; wait for background saves. ``stopped``:
        by an interrupt or an exception."""
        await self.save_on_exit(stopped)
        await self.saves.settle()

    async def abandon(self) -> None:
        """The run stops mid-way (the caller closed the stream or cancelled the run), as in LangGraph:
        what is done is kept (``durability="exit"`` saves it now, ``resave_on_exit``), tasks still
        running are cancelled (``StepRunner.saves_cancellation`` says when that leaves an
        ``__error__``; either way they run again on resume), background saves are awaited."""
        await self.save_on_exit(stopped=True)
        await self.runner.cancel_unfinished()
        await self.saves.settle()

    async def save_on_exit(self, stopped: bool) -> None:
        """``durability="exit"``: the checkpoint the run stopped at and its tasks' writes. A
        subgraph saves only where a resume needs it (it stopped, or it keeps one history per
        thread, ``checkpointer=True``), as in LangGraph."""
        if self.parent is not None and not stopped and subgraph.NS_END in self.namespace:
            return
        if self.saver and self.durability == "exit":
            await self.resave_on_exit()
            by_task: dict[str, list[tuple[str, Any]]] = {}
            for tid, channel, value in self.pending:
                if tid in self.written_task_ids:
                    by_task.setdefault(tid, []).append((channel, value))
            for tid, writes in by_task.items():
                await self.persist_writes(tid, writes, self.tasks.get(tid))

    # -- the run, as the caller sees it ------------------------------------------------------------
    async def run(self) -> AsyncIterator[Chunk]:
        await self.load()
        error: BaseException | None = None
        try:
            await self.first()
            while True:
                for chunk in self.stream.drain():
                    yield chunk
                if not self.tick():
                    break
                for chunk in self.stream.drain():
                    yield chunk
                await self.runner.start(self.tasks)
                if self.runner.running:  # tasks side by side: each one's chunks go out as soon as it
                    # finishes (and, streaming subgraphs, each subgraph chunk as soon as it is emitted)
                    async with aclosing(self.runner.as_they_finish()) as woken:
                        async for _ in woken:
                            for chunk in self.stream.drain():
                                yield chunk
                self.runner.raise_what_tasks_raised()
                await self.finish_step()  # (its chunks go out after: the writes applied, as in LangGraph,
                # where ``add_messages`` has given the messages of an ``updates`` chunk their ids)
        except GraphInterrupt as paused:
            self.status = "interrupted"
            if self.parent is not None:  # a subgraph: the parent's node pauses with it
                error = paused
            else:
                if not paused.interrupts:  # a static breakpoint (interrupt_before/after) asks nothing
                    self.stream.emit("updates", {INTERRUPT: ()})
                self.emit_values_with_finished_tasks()
        except Exception as exc:
            error = exc
        except BaseException:  # the caller closed the stream or cancelled the run
            await self.abandon()
            raise
        self.stream.emit_due_values(self.read_state)
        await self.settle(stopped=error is not None or self.status == "interrupted")
        for chunk in self.stream.drain():
            yield chunk
        if error is not None:
            raise error
        if self.status == "out_of_steps":
            raise GraphRecursionError.of(self.config.get("recursion_limit", 25))

    # -- output: stream chunks and seams ------------------------------------------------------------
    def read_state(self) -> Any:
        return self.graph.read_values(self.channels)

    @property
    def streams_checkpoints(self) -> bool:
        """Is a ``checkpoints`` chunk made for each checkpoint (streamed as such, or in ``debug``)?"""
        return ("checkpoints" in self.stream.modes or self.stream.debug) and self.saver is not None

    def emit_checkpoint(self, tasks: dict[str, Task]) -> None:
        """The ``checkpoints`` chunk of the checkpoint the loop is at, whose next step runs ``tasks``."""
        at, state = self._config_at(self.checkpoint["id"]), self.read_state()
        chunk = checkpoint_chunk(
            self.graph, at, self.parent_config, self.metadata, state, tasks, self.pending
        )
        self.stream.step_event("checkpoints", chunk, self.step)

    def emit_values_with_finished_tasks(self) -> None:
        """After an interrupt, the caller sees the state including finished siblings' writes."""
        finished = [t for t in self.tasks.values() if t.writes]
        if self.pending and finished:
            channels = {k: c.restore(c.value) for k, c in self.channels.items()}
            checkpoint = {
                **self.checkpoint,
                "versions_seen": {},
                "channel_versions": dict(self.checkpoint["channel_versions"]),
            }
            updated = algo.apply_writes(checkpoint, channels, finished, self.next_version, {})
            if not updated.isdisjoint(self.graph.state_keys):
                self.stream.emit("values", self.graph.read_values(channels))

    def seam_here(self, name: str, task: Task | None = None, **detail: Any) -> Seam:
        """The seam the run is at now, for the lab's hook."""
        node, task_id = (task.name, task.id) if task else (None, None)
        return Seam(name, self.step, self.checkpoint["id"], node, task_id, detail)

    async def report(self, name: str, task: Task | None = None, **detail: Any) -> None:
        """Tell the lab's hook that the run is at seam ``name`` now (callers ask ``if self.on_seam``
        first: with no hook there is nothing to tell)."""
        await self.on_seam(self.seam_here(name, task, **detail))

    def _thread_config(self) -> dict[str, Any]:
        conf = self.config["configurable"]
        return {
            "configurable": {"thread_id": conf["thread_id"], "checkpoint_ns": conf.get("checkpoint_ns", "")}
        }

    def _config_at(self, checkpoint_id: str) -> dict[str, Any]:
        if self.checkpoint_config["configurable"].get("checkpoint_id") == checkpoint_id:
            return self.checkpoint_config
        conf = {**self.checkpoint_config["configurable"], "checkpoint_id": checkpoint_id}
        return {**self.checkpoint_config, "configurable": conf}


def _next_int_version(current: Any, _channel: None) -> int:
    return 1 if current is None else int(current) + 1
