"""The super-step loop: LangGraph's ``PregelLoop`` + ``PregelRunner``, in one readable file.

One run of a graph on one thread, read top to bottom:

1. ``load``   the thread's latest checkpoint (or the one the config addresses);
2. ``first``  decides what kind of run this is: new input (an *input* checkpoint), a resume
              (answers to interrupts, saved writes reused), or time travel (a *fork*);
3. ``tick``   prepares the next step's tasks from the checkpoint: every node whose trigger
              channel moved past what it last saw. Tasks that already finished before a crash
              or an interrupt get their saved writes back instead of running again;
4. ``run_step`` runs the remaining tasks concurrently. As each one finishes, its writes are
              saved as *pending writes* on the checkpoint the step started from;
5. ``finish_step`` applies all writes at once (in node-name order), bumps channel versions and
              saves a new *loop* checkpoint; back to 3 until no node is triggered.

Every seam (step start, task start/finish, each ``put_writes``, each ``put``, step end,
interrupt, error) is reported to an optional async hook, so the lab can draw it, pause there,
or kill the process right there. With no hook attached a seam costs one ``if``.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lab.checkpoint.base import (
    ERROR,
    INTERRUPT,
    NO_WRITES,
    NULL_TASK_ID,
    RESUME,
    WRITES_IDX_MAP,
    Checkpoint,
    copy_checkpoint,
    empty_checkpoint,
)
from lab.config import task_config
from lab.errors import EmptyInputError, GraphInterrupt, GraphRecursionError, with_troubleshooting
from lab.pregel import algo
from lab.pregel.algo import INTERRUPT_SEEN, StepWrites
from lab.pregel.ids import is_interrupt_id
from lab.pregel.nodes import START, branch_channel, routed_writes, state_update, state_writes_view
from lab.pregel.task import Task
from lab.runtime import Runtime
from lab.types import Command, Durability

if TYPE_CHECKING:
    from lab.pregel.graph import Pregel

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
        graph: Pregel,
        input: Any,
        config: dict[str, Any],
        *,
        durability: Durability = "async",
        on_seam: SeamHook | None = None,
        stream_modes: frozenset[str] = frozenset(("values",)),
        interrupt_before: list[str] | str = (),
        interrupt_after: list[str] | str = (),
        context: Any = None,
    ) -> None:
        self.graph = graph
        self.runtime = Runtime(context=context)
        self.saver = graph.checkpointer
        self.input = input
        self.config = config
        self.durability = durability
        self.on_seam = on_seam
        self.stream_modes = stream_modes
        self.interrupt_before = interrupt_before
        self.interrupt_after = interrupt_after
        self.output: list[tuple[str, Any]] = []  # stream chunks, drained by the caller
        self.status = "pending"
        self._saving: asyncio.Future[None] | None = None  # background saves (durability="async")

    # -- 1. load ---------------------------------------------------------------------------------
    async def load(self) -> None:
        conf = self.config["configurable"]
        saved = await self.saver.aget_tuple(self.config) if self.saver else None
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
        self.channels = algo.channels_from_checkpoint(self.graph.channels, self.checkpoint)
        self.stored_versions = dict(self.checkpoint["channel_versions"])
        self.step = self.metadata["step"] + 1
        self.stop = self.step + self.config.get("recursion_limit", 25) + 1
        self.updated: set[str] | None = set(self.checkpoint.get("updated_channels") or []) or None
        self.written_task_ids: set[str] = set()
        self.resume_map: dict[str, Any] | None = None

    # -- 2. first: input, resume or time travel ---------------------------------------------------
    async def first(self) -> None:
        is_command = isinstance(self.input, Command)
        addressed = bool(self.config["configurable"].get("checkpoint_id"))
        resuming = bool(self.checkpoint["channel_versions"]) and (self.input is None or is_command)
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
            for tid, channel, value in self._command_writes(self.input):
                if forks:
                    carried.append((tid, channel, value))
                else:
                    await self.save_writes(tid, [(channel, value)])
        if null_writes := [w[1:] for w in (*self.pending, *carried) if w[0] == NULL_TASK_ID]:
            updated = self.apply([StepWrites("__input__", null_writes)])
            if self.updated is not None:
                self.updated |= updated

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
        else:
            raise EmptyInputError(f"Received no input for {START}")

    def _command_writes(self, command: Command) -> list[algo.PendingWrite]:
        writes: list[algo.PendingWrite] = []
        goto = [command.goto] if isinstance(command.goto, str) else list(command.goto)
        writes += [(NULL_TASK_ID, branch_channel(node), START) for node in goto]
        if command.resume is not None:
            if not self.saver:
                raise RuntimeError("Cannot use Command(resume=...) without checkpointer")
            answers = command.resume
            if isinstance(answers, dict) and all(is_interrupt_id(k) for k in answers):
                self.resume_map = answers
            elif len(self.pending_interrupts()) > 1:
                raise RuntimeError(MULTIPLE_INTERRUPTS)
            else:
                writes.append((NULL_TASK_ID, RESUME, answers))
        writes += [(NULL_TASK_ID, k, v) for k, v in (command.update or {}).items()]
        if not writes and self.resume_map is None:
            raise EmptyInputError("Received empty Command input (give resume=, update= or goto=)")
        return writes

    def pending_interrupts(self) -> set[str]:
        statuses = algo.task_statuses(self.pending)
        return {i.id for status in statuses.values() for i in status.pending_interrupts}

    # -- 3. tick: which tasks run next? -----------------------------------------------------------
    async def tick(self) -> bool:
        self.tasks = self.prepare(self.updated)
        if "checkpoints" in self.stream_modes:
            self.emit("checkpoints", self.graph.checkpoint_event(self))
        if self.step > self.stop:
            self.status = "out_of_steps"
            return False
        if not self.tasks:
            self.status = "done"
            return False
        if not self.replaying and self.pending:  # finished before the crash/interrupt: reuse
            for tid, status in algo.task_statuses(self.pending).items():
                if tid in self.tasks and status.finished:
                    task = self.tasks[tid]
                    task.writes.extend(status.output)
                    self.emit_update(task)
        if self.interrupt_before and self.should_interrupt(self.interrupt_before):
            self.status = "interrupt_before"
            raise GraphInterrupt()
        return True

    def prepare(self, updated: set[str] | None = None) -> dict[str, Task]:
        candidates = None
        if updated:
            candidates = sorted({n for chan in updated for n in self.graph.trigger_to_nodes.get(chan, ())})
        return algo.prepare_tasks(
            self.graph.nodes,
            self.checkpoint,
            self.channels,
            self.pending,
            self.step,
            self.graph.state_keys,
            candidates=candidates,
            resume_map=self.resume_map,
        )

    def should_interrupt(self, nodes: list[str] | str) -> bool:
        versions = self.checkpoint["channel_versions"]
        seen = self.checkpoint["versions_seen"].get(INTERRUPT_SEEN, {})
        never = algo.null_version(self.checkpoint)
        changed = any(v > seen.get(chan, never) for chan, v in versions.items())
        hit = any(nodes == "*" or t.name in nodes for t in self.tasks.values() if t.name != START)
        return changed and hit

    # -- 4. run the step's tasks -------------------------------------------------------------------
    async def run_step(self) -> None:
        todo = [t for t in self.tasks.values() if not t.writes]
        restored = [t.name for t in self.tasks.values() if t.writes]  # saved writes reused, not re-run
        await self.seam("step_start", detail={"tasks": [t.name for t in todo], "restored": restored})
        self.finish_order: list[BaseException] = []
        if len(todo) == 1:
            await self.execute(todo[0])
        else:  # siblings run concurrently; a failure does not cancel the others
            await asyncio.gather(*(self.execute(t) for t in todo))
        if failures := [o for o in self.finish_order if not isinstance(o, GraphInterrupt)]:
            raise failures[0]
        if asked := [i for o in self.finish_order if isinstance(o, GraphInterrupt) for i in o.interrupts]:
            raise GraphInterrupt(tuple(asked))

    async def execute(self, task: Task) -> None:
        node = self.graph.nodes[task.name]
        await self.seam("task_start", task)
        token = task.activate()
        try:
            result = task.input if node.func is None else node.call(task.input, self.task_config(task))
            if inspect.isawaitable(result):
                result = await result
            writes = state_update(result, node.input_keys or self.graph.state_keys) + node.edge_writes
            if node.branches:
                writes += routed_writes(node, self.graph.fresh_state(task.input, writes), self.graph.nodes)
        except GraphInterrupt as interrupt:
            task.deactivate(token)
            self.finish_order.append(interrupt)
            answers = [w for w in task.writes if w[0] == RESUME]
            await self.save_writes(task.id, [(INTERRUPT, list(interrupt.interrupts)), *answers], task)
            self.emit("updates", {INTERRUPT: interrupt.interrupts})
            if "values" in self.stream_modes:
                state = algo.read_state(self.channels, self.graph.state_keys)
                shown = state if isinstance(state, dict) else {}  # a whole-value state is not shown
                self.emit("values", {**shown, INTERRUPT: interrupt.interrupts})
            await self.seam("interrupt", task, detail={"interrupts": list(interrupt.interrupts)})
            return
        except Exception as exc:
            task.deactivate(token)
            exc.add_note(f"During task with name '{task.name}' and id '{task.id}'")
            self.finish_order.append(exc)
            await self.save_writes(task.id, [*task.writes, (ERROR, repr(exc))], task)
            await self.seam("error", task, detail={"error": repr(exc)})
            return
        task.deactivate(token)
        task.writes.extend(writes)
        if all(w[0] in algo.CONTROL_WRITES for w in task.writes):
            task.writes.append((NO_WRITES, None))  # record that it finished, even with no output
        await self.seam("task_finish", task)
        await self.save_writes(task.id, task.writes, task)
        self.emit_update(task)

    async def save_writes(
        self, task_id: str, writes: list[tuple[str, Any]], task: Task | None = None
    ) -> None:
        """Record a task's writes on the checkpoint this step started from (``put_writes``)."""
        if not writes:
            return
        self.written_task_ids.add(task_id)
        if all(w[0] in WRITES_IDX_MAP for w in writes):
            writes = list({w[0]: w for w in writes}.values())
        if task_id == NULL_TASK_ID:
            self.pending[:] = [w for w in self.pending if w[0] != task_id or w[1] not in WRITES_IDX_MAP]
            writes = sorted(writes, key=lambda w: w[0] in WRITES_IDX_MAP)
            to_save = [w[1:] for w in self.pending if w[0] == task_id] + writes
        else:
            self.pending[:] = [w for w in self.pending if w[0] != task_id]
            to_save = writes
        self.pending.extend((task_id, c, v) for c, v in writes)
        if self.saver and self.durability != "exit":
            await self.persist_writes(task_id, to_save, task)

    async def persist_writes(self, task_id: str, writes: list[tuple[str, Any]], task: Task | None) -> None:
        config = self._config_at(self.checkpoint["id"])
        path = algo.task_path_str(task.path) if task else ""
        saved = self.saver.aput_writes(config, writes, task_id, path)
        channels = [c for c, _ in writes]
        await self.persist(saved, "put_writes", task, {"channels": channels})

    # -- 5. finish the step: apply writes, save the next checkpoint --------------------------------
    async def finish_step(self) -> None:
        await self.seam("step_end")
        self.updated = self.apply(self.tasks.values())
        self.emit_values(self.updated)
        self.pending.clear()
        self.replaying = False
        await self.put_checkpoint({"source": "loop"})
        if self.interrupt_after and self.should_interrupt(self.interrupt_after):
            self.status = "interrupt_after"
            raise GraphInterrupt()

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
        if not exiting:
            self.metadata = {**metadata, "step": self.step, "parents": {}}
            self.checkpoint = algo.create_checkpoint(self.checkpoint, self.channels, self.step, updated)
        elif self.saver:
            self.checkpoint = {
                **algo.create_checkpoint(self.checkpoint, self.channels, self.step, updated),
                "id": self.checkpoint["id"],
                "ts": self.checkpoint["ts"],
            }
        if self.saver and (exiting or self.durability != "exit"):
            versions = self.checkpoint["channel_versions"]
            new_versions = {
                k: v
                for k, v in versions.items()
                if k not in self.stored_versions or v > self.stored_versions[k]
            }
            self.stored_versions = dict(versions)
            parent_id = self.checkpoint_config["configurable"].get("checkpoint_id")
            self.parent_config = self._config_at(parent_id) if parent_id else None
            saved = self.saver.aput(
                self.checkpoint_config, copy_checkpoint(self.checkpoint), self.metadata, new_versions
            )
            self.saved_id = self.checkpoint["id"]
            self.checkpoint_config = self._config_at(self.checkpoint["id"])
            await self.persist(saved, "put", None, {"source": self.metadata.get("source")})
        if not exiting:
            self.step += 1

    # -- saving in the foreground ("sync") or background ("async") ----------------------------------
    async def persist(
        self, saving: Coroutine[Any, Any, Any], seam: str, task: Task | None, detail: dict
    ) -> None:
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
                await self.seam(seam, task, detail=detail, step=step, checkpoint_id=checkpoint_id)

            self._saving = asyncio.ensure_future(in_order())
        else:
            await saving
            await self.seam(seam, task, detail=detail)

    async def settle(self, error: BaseException | None) -> None:
        """End of run: with ``durability="exit"`` save now; wait for background saves."""
        if self.saver and self.durability == "exit":
            await self.put_checkpoint(None)
            by_task: dict[str, list[tuple[str, Any]]] = {}
            for tid, channel, value in self.pending:
                if tid in self.written_task_ids:
                    by_task.setdefault(tid, []).append((channel, value))
            for tid, writes in by_task.items():
                await self.persist_writes(tid, writes, getattr(self, "tasks", {}).get(tid))
        if self._saving is not None:
            await self._saving

    # -- the run, as the caller sees it ------------------------------------------------------------
    async def run(self) -> AsyncIterator[tuple[str, Any]]:
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
                await self.run_step()
                for chunk in self.drain():
                    yield chunk
                await self.finish_step()
        except GraphInterrupt:
            self.status = "interrupted"
            self.emit_values_with_finished_tasks()
        except (GeneratorExit, asyncio.CancelledError):
            raise  # the caller went away or the process is being killed: save nothing more
        except BaseException as exc:
            error = exc
        await self.settle(error)
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
        if mode in self.stream_modes:
            self.output.append((mode, chunk))

    def drain(self) -> list[tuple[str, Any]]:
        chunks, self.output = self.output, []
        return chunks

    def emit_values(self, updated: set[str] | None = None) -> None:
        if "values" not in self.stream_modes:
            return
        if updated is None or not updated.isdisjoint(self.graph.state_keys):
            self.emit("values", algo.read_state(self.channels, self.graph.state_keys))

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
            task_id=task.id,
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
        conf = {**self.checkpoint_config["configurable"], "checkpoint_id": checkpoint_id}
        return {**self.checkpoint_config, "configurable": conf}


def _next_int_version(current: Any, _channel: None) -> int:
    return 1 if current is None else int(current) + 1
