"""The super-step loop: LangGraph's ``PregelLoop`` + ``PregelRunner``, in one readable file.

One run of a graph on one thread, read top to bottom:

1. ``load``   the thread's latest checkpoint (or the one the config addresses);
2. ``first``  decides what kind of run this is: new input (an *input* checkpoint), a resume
              (answers to interrupts, saved writes reused), or time travel (a *fork*);
3. ``tick``   prepares the next step's tasks from the checkpoint: every node whose trigger
              channel moved past what it last saw. Tasks that already finished before a crash
              or an interrupt get their saved writes back instead of running again;
4. ``run_step`` runs the remaining tasks concurrently. As each one finishes, its writes are
              saved as *pending writes* on the checkpoint the step started from, and its stream
              chunks go out at once (its slower siblings keep running);
5. ``finish_step`` applies all writes at once (in node-name order), bumps channel versions and
              saves a new *loop* checkpoint; back to 3 until no node is triggered.

A run that stops mid-way (the caller closes the stream or cancels the run) is ``abandon``-ed as
in LangGraph: tasks still running are cancelled, what is done stays saved (``durability="exit"``
saves it now), and the cancelled tasks run again on resume.

Every seam (step start, task start/finish, each ``put_writes``, each ``put``, step end,
interrupt, error) is reported to an optional async hook, so the lab can draw it, pause there,
or kill the process right there. With no hook attached a seam costs one ``if``.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, Protocol

from lab.checkpoint.base import (
    ERROR,
    INTERRUPT,
    NO_WRITES,
    NULL_TASK_ID,
    RESUME,
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    Checkpoint,
    CheckpointTuple,
    empty_checkpoint,
)
from lab.config import task_config
from lab.errors import (
    EmptyInputError,
    GraphInterrupt,
    GraphRecursionError,
    NodeCancelledError,
    ParentCommand,
    with_troubleshooting,
)
from lab.pregel import algo, delta, subgraph
from lab.pregel.algo import INTERRUPT_SEEN, StepWrites
from lab.pregel.channels import Channel
from lab.pregel.ids import is_interrupt_id
from lab.pregel.nodes import START, Node, command_update, goto_writes, state_writes_view, task_result
from lab.pregel.subgraph import Chunk, Loan, Relay, Replay
from lab.pregel.task import Task
from lab.runtime import Runtime
from lab.types import Command, Durability


class CompiledGraph(Protocol):
    """What the loop reads from a compiled graph (``lab.pregel.graph.Pregel``), and nothing more."""

    nodes: dict[str, Node]
    channels: dict[str, Channel]
    state_keys: list[str]
    trigger_to_nodes: dict[str, list[str]]


MULTIPLE_INTERRUPTS = (
    "When there are multiple pending interrupts, you must specify the interrupt id when resuming. "
    "Docs: https://docs.langchain.com/oss/python/langgraph/interrupts#handling-multiple-interrupts."
)


@dataclass(frozen=True)
class Seam:
    """A point in a run where the lab may watch, pause or crash the process."""

    name: str  # step_start | task_start | task_finish | put_writes | step_end | put | interrupt | error
    step: int
    checkpoint_id: str
    node: str | None = None
    task_id: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


SeamHook = Callable[[Seam], Awaitable[None]]


class SuperStepLoop:
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
        saver: BaseCheckpointSaver | None,
        parent: Loan | None = None,
        stream_subgraphs: bool = False,
    ) -> None:
        self.graph = graph
        self.runtime = Runtime(context=context)
        self.saver = saver  # (under the sync API, its sync methods: ``lab.pregel.sync_saver``)
        self.input = input
        self.config = config
        self.durability = durability
        self.on_seam = on_seam
        self.interrupt_before = interrupt_before
        self.interrupt_after = interrupt_after
        # -- a subgraph's run (``lab.pregel.subgraph``): what the task running it lent it
        self.parent = parent
        self.parents = subgraph.parents_of(parent, config)  # metadata["parents"] of its checkpoints
        self.namespace: str = config["configurable"].get("checkpoint_ns", "")
        self.namespace_tuple = subgraph.as_tuple(self.namespace)  # how its stream chunks name it
        self.relay = parent.relay if parent else None  # the root's stream with subgraphs=True
        self.own_modes = stream_modes
        self.stream_modes = stream_modes | (self.relay.modes if self.relay else frozenset())
        """The modes chunks are made for: the caller's, and the root stream's."""
        self.output: list[Chunk] = []  # stream chunks, drained by the caller
        self.live = Relay(stream_modes, self.output_chunk) if stream_subgraphs else None
        """This run's own stream of its subgraphs' chunks (``stream(..., subgraphs=True)``)."""
        self.relay_for_subgraphs = self.live or self.relay
        self.resuming: bool | None = parent.resuming if parent else None
        self.replay: Replay | None = parent.replay if parent else None
        self.status = "pending"
        self._saving: asyncio.Future[None] | None = None  # background saves (durability="async")
        self.running: list[asyncio.Future[None]] = []  # the current step's tasks

    # -- 1. load ---------------------------------------------------------------------------------
    async def load(self) -> None:
        conf = self.config["configurable"]
        saved = await self.load_saved()
        self.superseded = False
        if saved is not None and conf.get("checkpoint_id"):
            latest = await self.saver.aget_tuple(self._thread_config())
            self.superseded = latest is not None and latest.checkpoint["id"] != saved.checkpoint["id"]
        self.checkpoint: Checkpoint = saved.checkpoint if saved else empty_checkpoint()
        self.metadata: dict[str, Any] = saved.metadata if saved else {"step": -2}
        self.pending: list[algo.PendingWrite] = list(saved.pending_writes or []) if saved else []
        self.saved_id = self.checkpoint["id"] if saved else None
        self.parent_config = saved.parent_config if saved else None
        self.checkpoint_config = {
            **self.config,
            "configurable": {"checkpoint_ns": "", **conf, **(saved.config["configurable"] if saved else {})},
        }
        if saved is None:
            self.channels = algo.channels_from_checkpoint(self.graph.channels, self.checkpoint)
        else:
            self.channels = await delta.load_channels(self.graph.channels, saved, self.saver)
        self.delta_forced: set[str] | None = delta.written_channels(self.pending)
        """Delta channels the first checkpoint this run saves must snapshot (``None``: all)."""
        self.stored_versions = dict(self.checkpoint["channel_versions"])
        self.step = self.metadata["step"] + 1
        self.stop = self.step + self.config.get("recursion_limit", 25) + 1
        self.updated: set[str] | None = set(self.checkpoint.get("updated_channels") or []) or None
        self.written_task_ids: set[str] = set()
        self.resume_map: Mapping[str, Any] | None = self.parent.resume_map if self.parent else None

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
            self._next_version,
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
                await self.put_checkpoint({"source": "fork"}, updated=None)
            self.emit_values()
        elif self.input is not None:  # (a Command on an empty thread is input too, as in LangGraph)
            unfinished = self.prepare()  # a new input discards the tasks left from the last run
            self.updated = self.apply([*unfinished.values(), StepWrites("__input__", [(START, self.input)])])
            await self.put_checkpoint({"source": "input"})
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
    async def tick(self) -> bool:
        self.tasks = self.prepare(self.updated)
        if "checkpoints" in self.stream_modes and self.saver:
            self.emit("checkpoints", self.checkpoint_event())
        if self.step > self.stop:
            self.status = "out_of_steps"
            return False
        if not self.tasks:
            self.status = "done"
            return False
        if not self.replaying:  # finished before the crash/interrupt: reuse
            for task in algo.reuse_finished_writes(self.tasks, self.pending):
                self.emit_update(task)
        if self.interrupt_before and algo.breakpoint_hit(
            self.checkpoint, self.tasks.values(), self.interrupt_before
        ):
            self.status = "interrupt_before"
            raise GraphInterrupt()
        return True

    def prepare(self, updated: set[str] | None = None) -> dict[str, Task]:
        candidates = None
        if updated:
            candidates = sorted({n for chan in updated for n in self.graph.trigger_to_nodes.get(chan, ())})
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

    # -- 4. run the step's tasks -------------------------------------------------------------------
    async def run_step(self) -> AsyncIterator[Chunk]:
        """Run the step's tasks concurrently; each task's stream chunks are yielded as soon as it
        finishes, while its slower siblings keep running. A failure does not cancel the others."""
        todo = [t for t in self.tasks.values() if not t.writes]
        if self.on_seam is not None:
            restored = [t.name for t in self.tasks.values() if t.writes]  # saved writes reused, not re-run
            await self.seam("step_start", detail={"tasks": [t.name for t in todo], "restored": restored})
        self.finish_order: list[BaseException] = []
        self.running = []
        if len(todo) == 1 and self.live is None:  # inline: a save queued in the background stays in flight
            await self.execute(todo[0], alone=True)
        else:
            self.running = [asyncio.ensure_future(self.execute(t, alone=len(todo) == 1)) for t in todo]
            async for _ in subgraph.as_they_come(self.running, self.live):  # (and subgraphs' chunks, live)
                for chunk in self.drain():
                    yield chunk
        if failures := [o for o in self.finish_order if not isinstance(o, GraphInterrupt)]:
            raise failures[0]
        if paused := [o for o in self.finish_order if isinstance(o, GraphInterrupt)]:
            raise GraphInterrupt(tuple(i for o in paused for i in o.interrupts))

    async def execute(self, task: Task, *, alone: bool = False) -> None:
        """Run one task's node and save what came of it: its writes, its interrupt or its error."""
        node = self.graph.nodes[task.name]
        if self.on_seam is not None:
            await self.seam("task_start", task)
        task.lender = self
        token = task.activate()
        try:
            writes = await self.run_node(task, node)
        except ParentCommand as bubbled:  # for the graph that ran this one: no writes here
            task.deactivate(token)
            subgraph.readdress(bubbled, task)
            self.finish_order.append(bubbled)
            return
        except GraphInterrupt as interrupt:
            task.deactivate(token)
            self.finish_order.append(interrupt)
            if not interrupt.interrupts:  # a subgraph's static breakpoint: nothing to save
                return
            answers = [w for w in task.writes if w[0] == RESUME]
            await self.save_writes(task.id, [(INTERRUPT, list(interrupt.interrupts)), *answers], task)
            self.emit("updates", {INTERRUPT: interrupt.interrupts})
            if "values" in self.stream_modes:
                state = algo.read_state(self.channels, self.graph.state_keys)
                shown = state if isinstance(state, dict) else {}  # a whole-value state is not shown
                self.emit("values", {**shown, INTERRUPT: interrupt.interrupts})
            await self.seam("interrupt", task, detail={"interrupts": list(interrupt.interrupts)})
            return
        except asyncio.CancelledError as cancelled:
            task.deactivate(token)
            if not cancelled_by_the_caller():
                await self.fail(task, NodeCancelledError(task.name))
                return
            if self.saves_cancellation(alone):
                await self.save_writes(task.id, [*task.writes, (ERROR, repr(cancelled))], task)
            raise  # the caller stopped the run: the task re-runs on resume
        except Exception as exc:
            task.deactivate(token)
            exc.add_note(f"During task with name '{task.name}' and id '{task.id}'")
            await self.fail(task, exc)
            return
        task.deactivate(token)
        task.writes.extend(writes)
        if all(w[0] in algo.CONTROL_WRITES for w in task.writes):
            task.writes.append((NO_WRITES, None))  # record that it finished, even with no output
        if self.on_seam is not None:
            await self.seam("task_finish", task)
        await self.save_writes(task.id, task.writes, task)
        self.emit_update(task)

    async def run_node(self, task: Task, node: Node) -> list[tuple[str, Any]]:
        """Call the task's node; what it returned, as writes. A ``Command.PARENT`` a subgraph of
        this node returned is this node's result."""
        try:
            result = task.input if node.func is None else node.call(task.input, self.task_config(task))
            if type(result) is not dict and inspect.isawaitable(result):  # (most nodes return a dict)
                result = await result
        except ParentCommand as bubbled:
            result = subgraph.addressed_to(bubbled, task)
            if result is None:
                raise
        graph = self.graph
        keys = node.input_keys or graph.state_keys  # START keeps only the input schema's keys
        return await algo.node_writes(node, result, self.channels, keys, graph.nodes)

    def loan_to_subgraphs(self, task: Task) -> Loan:
        """What a graph run inside the task's node inherits from it (``lab.pregel.subgraph``)."""
        return Loan(
            task=task,
            saver=self.saver,
            checkpoint_map={**self.parents, self.namespace: self.checkpoint["id"]},
            resuming=self.resuming,
            durability=self.durability,
            runtime=self.runtime,
            relay=self.relay_for_subgraphs,
            resume_map=self.resume_map,
            replay=self.replay,
        )

    def saves_cancellation(self, alone: bool) -> bool:
        """Does a task the caller cancelled leave ``__error__: CancelledError()``? As in LangGraph:
        yes beside siblings (its runner commits the cancelled task); not for a task run alone
        (run inline, nothing is committed); not under "exit" (the run's last save came first)."""
        return not alone and self.durability != "exit"

    async def fail(self, task: Task, exc: Exception) -> None:
        """A node raised: save its ``__error__`` (kept with what it wrote so far); siblings go on."""
        self.finish_order.append(exc)
        await self.save_writes(task.id, [*task.writes, (ERROR, repr(exc))], task)
        await self.seam("error", task, detail={"error": repr(exc), "error_type": type(exc).__name__})

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
        self.pending += [(task_id, c, v) for c, v in writes]
        if self.saver and self.durability != "exit":
            await self.persist_writes(task_id, to_save, task)

    async def persist_writes(self, task_id: str, writes: list[tuple[str, Any]], task: Task | None) -> None:
        config = self._config_at(self.checkpoint["id"])
        path = algo.task_path_str(task.path) if task else ""
        saved = self.saver.aput_writes(config, writes, task_id, path)
        await self.persist(saved, "put_writes", task, lambda: {"channels": [c for c, _ in writes]})

    # -- 5. finish the step: apply writes, save the next checkpoint --------------------------------
    async def finish_step(self) -> None:
        if self.on_seam is not None:
            await self.seam("step_end")
        self.updated = self.apply(self.tasks.values())
        self.emit_values(self.updated)
        self.pending.clear()
        self.replaying = False
        await self.put_checkpoint({"source": "loop"})
        if self.interrupt_after and algo.breakpoint_hit(
            self.checkpoint, self.tasks.values(), self.interrupt_after
        ):
            self.status = "interrupt_after"
            raise GraphInterrupt()
        self.resuming = None  # only the first step's subgraphs resume with the run

    def apply(self, tasks: Any) -> set[str]:
        return algo.apply_writes(
            self.checkpoint, self.channels, tasks, self._next_version, self.graph.trigger_to_nodes
        )

    @property
    def _next_version(self) -> algo.NextVersion:
        return self.saver.get_next_version if self.saver else _next_int_version

    async def put_checkpoint(self, metadata: dict[str, Any] | None, updated: Any = "current") -> None:
        """Snapshot the channels as a new checkpoint; ``metadata=None`` re-saves the current one
        at the end of a ``durability="exit"`` run."""
        exiting = metadata is None
        updated = self.updated if updated == "current" else updated
        if exiting and self.checkpoint["id"] == self.saved_id:
            return
        saving = bool(self.saver) and (exiting or self.durability != "exit")
        versions = self.checkpoint["channel_versions"]
        new_versions = algo.new_versions(versions, self.stored_versions) if saving else {}
        snapshot = delta.to_snapshot(self.channels, new_versions, None if exiting else self.delta_forced)
        if not exiting:
            self.metadata = {**metadata, "step": self.step, "parents": self.parents}
            self.checkpoint = algo.create_checkpoint(
                self.checkpoint, self.channels, self.step, updated, snapshot
            )
        elif self.saver:
            self.checkpoint = {
                **algo.create_checkpoint(self.checkpoint, self.channels, self.step, updated, snapshot),
                "id": self.checkpoint["id"],
                "ts": self.checkpoint["ts"],
            }
        if saving:
            self.delta_forced = set()
            parent_id = self.checkpoint_config["configurable"].get("checkpoint_id")
            self.parent_config = self._config_at(parent_id) if parent_id else None
            handed = handed_over(self.checkpoint)
            self.stored_versions = handed["channel_versions"]  # (neither the saver nor the loop changes it)
            saved = self.saver.aput(self.checkpoint_config, handed, self.metadata, new_versions)
            self.saved_id = self.checkpoint["id"]
            self.checkpoint_config = self._config_at(self.checkpoint["id"])
            source = self.metadata.get("source")
            await self.persist(saved, "put", None, lambda: {"source": source})
        if not exiting:
            self.step += 1

    # -- saving in the foreground ("sync") or background ("async") ----------------------------------
    async def persist(
        self,
        saving: Coroutine[Any, Any, Any],
        seam: str,
        task: Task | None,
        detail: Callable[[], dict[str, Any]],
    ) -> None:
        """Run a save now ("sync", "exit") or behind the earlier ones ("async"), then report its seam
        (with the ``detail`` it makes, asked for only when a hook listens)."""
        if self.durability == "async":
            previous, step, checkpoint_id = self._saving, self.step, self.checkpoint["id"]

            async def in_order() -> None:
                try:
                    if previous is not None:
                        await previous
                except BaseException:
                    saving.close()  # an earlier save failed or the process died: this one never runs
                    raise
                await saving
                if self.on_seam is not None:
                    await self.seam(seam, task, detail=detail(), step=step, checkpoint_id=checkpoint_id)

            self._saving = asyncio.ensure_future(in_order())
        else:
            await saving
            if self.on_seam is not None:
                await self.seam(seam, task, detail=detail())

    async def settle(self, stopped: bool) -> None:
        """End of run: with ``durability="exit"`` save now; wait for background saves. ``stopped``:
        by an interrupt or an exception."""
        await self.save_on_exit(stopped)
        if self._saving is not None:
            await self._saving

    async def abandon(self) -> None:
        """The run stops mid-way, as in LangGraph: what is done is kept (``durability="exit"``
        saves it now), tasks still running are cancelled (``saves_cancellation`` says when that
        leaves an ``__error__``; either way they run again on resume), background saves are awaited."""
        await self.save_on_exit(stopped=True)
        unfinished = [running for running in self.running if not running.done()]
        for running in unfinished:
            running.cancel()
        await asyncio.gather(*unfinished, return_exceptions=True)
        if self._saving is not None:
            await self._saving

    async def save_on_exit(self, stopped: bool) -> None:
        """``durability="exit"``: the checkpoint the run stopped at and its tasks' writes. A
        subgraph saves only where a resume needs it (it stopped, or it keeps one history per
        thread, ``checkpointer=True``), as in LangGraph."""
        if self.parent is not None and not stopped and subgraph.NS_END in self.namespace:
            return
        if self.saver and self.durability == "exit":
            await self.put_checkpoint(None)
            by_task: dict[str, list[tuple[str, Any]]] = {}
            for tid, channel, value in self.pending:
                if tid in self.written_task_ids:
                    by_task.setdefault(tid, []).append((channel, value))
            for tid, writes in by_task.items():
                await self.persist_writes(tid, writes, getattr(self, "tasks", {}).get(tid))

    # -- the run, as the caller sees it ------------------------------------------------------------
    async def run(self) -> AsyncIterator[Chunk]:
        await self.load()
        error: BaseException | None = None
        try:
            await self.first()
            while True:
                for chunk in self.drain():
                    yield chunk
                if not await self.tick():
                    break
                for chunk in self.drain():
                    yield chunk
                async with aclosing(self.run_step()) as step_chunks:
                    async for chunk in step_chunks:
                        yield chunk
                for chunk in self.drain():
                    yield chunk
                await self.finish_step()
        except GraphInterrupt as paused:
            self.status = "interrupted"
            if self.parent is not None:  # a subgraph: the parent's node pauses with it
                error = paused
            else:
                if not paused.interrupts:  # a static breakpoint (interrupt_before/after) asks nothing
                    self.emit("updates", {INTERRUPT: ()})
                self.emit_values_with_finished_tasks()
        except Exception as exc:
            error = exc
        except BaseException:  # the caller closed the stream or cancelled the run
            await self.abandon()
            raise
        await self.settle(stopped=error is not None or self.status == "interrupted")
        for chunk in self.drain():
            yield chunk
        if error is not None:
            raise error
        if self.status == "out_of_steps":
            limit = self.config.get("recursion_limit", 25)
            raise GraphRecursionError(
                with_troubleshooting(
                    f"Recursion limit of {limit} reached without hitting a stop condition. You can increase "
                    "the limit by setting the `recursion_limit` config key.",
                    "GRAPH_RECURSION_LIMIT",
                )
            )

    # -- output: stream chunks and seams ------------------------------------------------------------
    def emit(self, mode: str, chunk: Any) -> None:
        """A chunk for the caller, and for the root's stream with ``subgraphs=True``."""
        if mode in self.own_modes:
            self.output.append((self.namespace_tuple, mode, chunk))
        if self.relay is not None and mode in self.relay.modes:
            self.relay.put((self.namespace_tuple, mode, chunk))

    def output_chunk(self, chunk: Chunk) -> None:
        """A subgraph's chunk for this (root) run's stream, between this run's own."""
        self.output.append(chunk)

    def drain(self) -> list[Chunk]:
        chunks = self.output
        if chunks:
            self.output = []
        return chunks

    def emit_values(self, updated: set[str] | None = None) -> None:
        if "values" not in self.stream_modes:
            return
        if updated is None or not updated.isdisjoint(self.graph.state_keys):
            self.emit("values", algo.read_state(self.channels, self.graph.state_keys))

    def checkpoint_event(self) -> dict[str, Any]:
        """The ``stream_mode="checkpoints"`` chunk: the checkpoint a step starts from and its tasks."""
        statuses = algo.task_statuses(self.pending)
        state_keys = self.graph.state_keys
        config = self._config_at(self.checkpoint["id"])

        def task_entry(task: Task) -> dict[str, Any]:
            status = statuses.get(task.id, algo.TaskStatus())
            entry: dict[str, Any] = {"id": task.id, "name": task.name}
            state = subgraph.task_state(self.graph, task, config)
            if status.error:
                return {**entry, "error": status.error, "state": state}
            if status.finished:
                entry["result"] = task_result(status.output, state_keys)
            interrupts = tuple({**vars(i), "response_schema": None} for i in status.interrupts)  # as 1.2's
            return {**entry, "interrupts": interrupts, "state": state}

        def plain(config: dict[str, Any] | None) -> dict[str, Any] | None:
            config = subgraph.with_checkpoint_map(config, self.metadata)
            return {"configurable": dict(config["configurable"])} if config else None

        return {
            "config": plain(config),
            "parent_config": plain(self.parent_config),
            "values": algo.read_state(self.channels, state_keys),
            "metadata": self.metadata,
            "next": [t.name for t in self.tasks.values()],
            "tasks": [task_entry(t) for t in self.tasks.values()],
        }

    def emit_update(self, task: Task) -> None:
        if task.name == START or "updates" not in self.stream_modes:
            return
        self.emit("updates", {task.name: state_writes_view(task.writes, self.graph.state_keys)})

    def emit_values_with_finished_tasks(self) -> None:
        """After an interrupt, the caller sees the state including finished siblings' writes."""
        finished = [t for t in getattr(self, "tasks", {}).values() if t.writes]
        if self.pending and finished:
            channels = {k: c.restore(c.value) for k, c in self.channels.items()}
            checkpoint = {
                **self.checkpoint,
                "versions_seen": {},
                "channel_versions": dict(self.checkpoint["channel_versions"]),
            }
            updated = algo.apply_writes(checkpoint, channels, finished, self._next_version, {})
            if not updated.isdisjoint(self.graph.state_keys):
                self.emit("values", algo.read_state(channels, self.graph.state_keys))

    async def seam(
        self,
        name: str,
        task: Task | None = None,
        *,
        detail: dict | None = None,
        step: int | None = None,
        checkpoint_id: str | None = None,
    ) -> None:
        if self.on_seam is None:
            return
        await self.on_seam(
            Seam(
                name,
                self.step if step is None else step,
                checkpoint_id or self.checkpoint["id"],
                task.name if task else None,
                task.id if task else None,
                detail or {},
            )
        )

    def task_config(self, task: Task) -> dict[str, Any]:
        """What ``get_config()`` returns inside the task's node (see ``lab.config``)."""
        return task_config(
            self.config,
            node=task.name,
            namespace=task.namespace,
            step=self.step,
            triggers=task.triggers,
            path=task.path,
            runtime=self.runtime,
        )

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


def handed_over(checkpoint: Checkpoint) -> Checkpoint:
    """The checkpoint as the saver gets it: a copy of the dicts the loop goes on changing (its versions;
    a node's seen versions are replaced, never changed), so a background save stores this moment."""
    return {
        **checkpoint,
        "channel_versions": dict(checkpoint["channel_versions"]),
        "versions_seen": dict(checkpoint["versions_seen"]),
    }


def cancelled_by_the_caller() -> bool:
    """Was the running task cancelled from outside (``task.cancel()``, a closed stream)? A node
    that raises ``CancelledError`` itself is not cancelled: that is a node failure."""
    running = asyncio.current_task()
    return running is not None and running.cancelling() > 0


def _next_int_version(current: Any, _channel: None) -> int:
    return 1 if current is None else int(current) + 1
