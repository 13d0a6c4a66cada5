"""Running one super-step's tasks: LangGraph's ``PregelRunner``.

The loop (``lab.pregel.loop``) prepares a step's tasks and, once they are done, applies their
writes; in between its :class:`StepRunner` runs them, in this order:

1. ``start``          tasks of a cached node whose writes the graph's cache holds do not run
                      (``reuse_cached_writes``); the seam ``step_start``; then a lone task runs
                      inline to its end, several start side by side (``running``), at most
                      ``max_concurrency`` of them at once (``execute_in_turn``);
2. ``as_they_finish`` wakes the loop each time one of those finishes (or a chunk arrived while they
                      run), so that the loop hands its chunks out at once; the first task that fails
                      cancels its siblings still running (``cancel_unfinished``);
3. ``raise_what_tasks_raised`` when all are done: the first failure, else every interrupt asked.

Each task (``execute``) reports the seam ``task_start``, runs its node (``run_node``), and commits
what came of it on the loop's checkpoint as it finishes, whatever its siblings still do: its writes
(seam ``task_finish``, then ``put_writes`` once saved), its interrupt (``save_interrupt``, seam
``interrupt``) or its error (``fail``, seam ``error``). While its node runs, the task's ``lender`` is
the loop: a graph run inside the node inherits from it (``lab.pregel.subgraph.lend``), a ``@task``
it calls joins the step (``lab.pregel.task_calls``). The runner also makes what the run's nodes are
given: their ``get_config()`` (``task_config``), ``Runtime`` and ``stream_mode="messages"`` callbacks.

In LangGraph's terms: ``start`` and ``as_they_finish`` are ``PregelRunner.atick`` (the fast path of a
lone task included), and what ``execute`` does once the node is done is ``PregelRunner.commit``.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any, Protocol

from lab.checkpoint.base import ERROR, INTERRUPT, NO_WRITES, RESUME
from lab.config import TaskConfigs
from lab.errors import GraphInterrupt, NodeCancelledError, ParentCommand, is_invalid_resume
from lab.pregel import algo, messages_stream, node_cache, subgraph
from lab.pregel.channels import Channel
from lab.pregel.messages_stream import MessagesRun
from lab.pregel.nodes import Node
from lab.pregel.seams import SeamHook
from lab.pregel.stream_output import StreamOutput
from lab.pregel.subgraph import Loan
from lab.pregel.task import Task
from lab.runtime import Runtime
from lab.types import Durability

NO_CONTEXT: Runtime = Runtime()
"""The ``Runtime`` of every run given no context and no stream writer (frozen: one serves them all)."""


class RunnerGraph(Protocol):
    """What the runner reads from a compiled graph (``lab.pregel.graph.Pregel``)."""

    nodes: dict[str, Node]
    state_keys: list[str]
    cached_nodes: frozenset[str]
    cache: Any
    """The graph's cache (``compile(cache=)``), where a cached node's writes are kept."""


class RunnerLoop(Protocol):
    """What the runner reads from its loop (``lab.pregel.loop.SuperStepLoop``) and does through it."""

    graph: RunnerGraph
    durability: Durability
    on_seam: SeamHook | None
    stream: StreamOutput
    parent: Loan | None
    step: int
    channels: dict[str, Channel]

    async def report(self, name: str, task: Task | None = None, **detail: Any) -> None: ...

    async def save_writes(
        self, task_id: str, writes: list[tuple[str, Any]], task: Task | None = None
    ) -> None: ...

    def read_state(self) -> Any: ...


class StepRunner:
    """Runs the tasks of each super-step of one run, for its loop."""

    # -- the run's (fixed for the whole run) ---------------------------------------------------------
    loop: RunnerLoop
    """The loop whose steps it runs: the tasks' writes are saved, and their chunks made, there."""
    runtime: Runtime
    """What ``get_runtime()`` returns in the run's nodes: its context, its store, its stream writer."""
    task_configs: TaskConfigs
    """What ``get_config()`` returns in each task's node (``lab.config``)."""
    messages: MessagesRun | None
    """The ``stream_mode="messages"`` streams its nodes feed, if any (``lab.pregel.messages_stream``)."""
    concurrency: asyncio.Semaphore | None
    """``config["max_concurrency"]``: how many of a step's tasks run at once (``None``: all)."""

    # -- the step's (moves every super-step) ----------------------------------------------------------
    running: list[asyncio.Future[None]]
    """The step's tasks running side by side (none when a lone task runs inline)."""
    raised: list[BaseException]
    """What the step's tasks raised, in the order they finished."""

    __slots__ = tuple(__annotations__)

    def __init__(
        self,
        loop: RunnerLoop,
        config: dict[str, Any],
        caller_config: dict[str, Any] | None,
        context: Any,
        store: Any,
        stream_modes: frozenset[str],
        *,
        stream_subgraphs: bool,
    ) -> None:
        """What the run's nodes are given, from the run's ``config`` (``caller_config``: as the caller
        gave it, see ``lab.config.TaskConfigs``), ``context`` and ``store``."""
        self.loop = loop
        self.runtime = new_runtime(context, loop.stream, store)
        self.task_configs = TaskConfigs(config, self.runtime, caller_config)
        self.messages = messages_stream.streams_for(
            stream_modes,
            config,
            loop.stream.put_message,
            subgraphs=stream_subgraphs,
            nested=loop.parent is not None,
        )
        if self.messages is not None:
            self.task_configs.with_callbacks(self.messages.callbacks)
        limit = config.get("max_concurrency")
        self.concurrency = asyncio.Semaphore(limit) if limit else None
        self.running = []
        self.raised = []

    # -- 1. start the step's tasks ----------------------------------------------------------------------
    async def start(self, tasks: dict[str, Task]) -> None:
        """Run the step's ``tasks`` (those without saved writes to reuse): a lone task inline (no
        scheduling hop, so a save queued in the background is still in flight), several side by
        side in ``running``, which ``as_they_finish`` waits for (a plain ``def`` task runs to its
        end before any other starts)."""
        if self.loop.graph.cached_nodes:
            await self.reuse_cached_writes(tasks)
        todo = [t for t in tasks.values() if not t.writes]
        if self.loop.on_seam is not None:  # (the lab pauses here for Step)
            restored = [t.name for t in tasks.values() if t.writes]  # saved writes reused, not re-run
            await self.loop.report("step_start", tasks=[t.name for t in todo], restored=restored)
        self.raised = []
        self.running = []
        if len(todo) == 1 and not self.streams_while_running(todo):
            await self.execute(todo[0], alone=True)
        else:
            if self.streams_while_running(todo):
                self.loop.stream.watch()
            self.running = [
                asyncio.ensure_future(self.execute_in_turn(t, alone=len(todo) == 1)) for t in todo
            ]

    async def reuse_cached_writes(self, tasks: dict[str, Task]) -> None:
        """Each task of a cached node gets its cache key; those whose writes the cache holds do not
        run: their writes are saved and streamed, marked cached (``lab.pregel.node_cache``)."""
        graph = self.loop.graph
        node_cache.key_tasks(graph.nodes, tasks.values())
        if graph.cache is None:
            return
        for task in node_cache.cached_tasks(graph.cache, tasks.values()):
            await self.loop.save_writes(task.id, task.writes, task)
            self.loop.stream.task_update(task, cached=True)

    def streams_while_running(self, todo: list[Task]) -> bool:
        """Do the step's chunks reach the caller while its tasks run, not only as each one ends? With
        subgraphs streamed; or, as in LangGraph, when an ``async def`` task (which may write chunks
        between its awaits) runs for a root caller that reads every chunk (``astream``, not
        ``ainvoke``), unless the lab's instruments step the run (``on_seam``)."""
        loop = self.loop
        if loop.stream.live is not None:
            return True
        if loop.parent is not None or loop.on_seam is not None or loop.stream.values_at_end:
            return False
        return any(loop.graph.nodes[task.name].is_async for task in todo)

    async def execute_in_turn(self, task: Task, *, alone: bool) -> None:
        """:meth:`execute`, once fewer than ``max_concurrency`` of the step's tasks run (if set)."""
        if self.concurrency is None:
            return await self.execute(task, alone=alone)
        async with self.concurrency:
            return await self.execute(task, alone=alone)

    # -- 2. wait for the tasks side by side ---------------------------------------------------------------
    async def as_they_finish(self) -> AsyncIterator[None]:
        """Wake the loop each time one of the ``running`` tasks finishes and, with chunks watched
        (a subgraph's, or one a task made), each time a chunk arrived; a task that failed cancels
        those still running, as LangGraph's runner does."""
        async with aclosing(subgraph.as_they_come(self.running, self.loop.stream.arrived)) as woken:
            async for _ in woken:
                yield
                if self.a_task_failed():
                    await self.cancel_unfinished()
                    return

    def a_task_failed(self) -> bool:
        """Did one of the step's tasks fail (an interrupt, a ``Command.PARENT`` or an answer a resume
        refused is no failure: LangGraph's runner lets the others finish then)?"""
        return any(
            not isinstance(raised, GraphInterrupt | ParentCommand) and not is_invalid_resume(raised)
            for raised in self.raised
        )

    async def cancel_unfinished(self) -> None:
        """Cancel the step's tasks still running and wait until they have stopped (``execute`` saves
        what ``saves_cancellation`` says; they run again on resume)."""
        unfinished = [running for running in self.running if not running.done()]
        for running in unfinished:
            running.cancel()
        await asyncio.gather(*unfinished, return_exceptions=True)

    # -- 3. after the step's tasks --------------------------------------------------------------------
    def raise_what_tasks_raised(self) -> None:
        """After the step's tasks: the first failure, else every interrupt asked, else nothing."""
        if not self.raised:
            return
        if failures := [o for o in self.raised if not isinstance(o, GraphInterrupt)]:
            raise failures[0]
        if paused := [o for o in self.raised if isinstance(o, GraphInterrupt)]:
            raise GraphInterrupt(tuple(i for o in paused for i in o.interrupts))

    # -- one task -------------------------------------------------------------------------------------------
    async def execute(self, task: Task, *, alone: bool = False) -> None:
        """Run one task's node and save what came of it: its writes, its interrupt or its error."""
        loop = self.loop
        if loop.on_seam is not None:
            await loop.report("task_start", task)
        task.lender = loop
        token = task.activate()
        try:
            writes = await self.run_node(task, loop.graph.nodes[task.name])
        except ParentCommand as bubbled:  # for the graph that ran this one: no writes here
            task.deactivate(token)
            subgraph.readdress(bubbled, task)
            self.raised.append(bubbled)
            return
        except GraphInterrupt as interrupt:
            task.deactivate(token)
            self.raised.append(interrupt)
            if interrupt.interrupts:  # (a subgraph's static breakpoint asks nothing: nothing to save)
                await self.save_interrupt(task, interrupt)
            return
        except asyncio.CancelledError as cancelled:
            task.deactivate(token)
            if not cancelled_by_the_caller():
                await self.fail(task, NodeCancelledError(task.name))
                return
            if self.saves_cancellation(alone):
                await loop.save_writes(task.id, [*task.writes, (ERROR, repr(cancelled))], task)
            raise  # the caller stopped the run: the task re-runs on resume
        except Exception as exc:
            task.deactivate(token)
            exc.add_note(f"During task with name '{task.name}' and id '{task.id}'")
            await self.fail(task, exc)
            return
        task.deactivate(token)
        task.writes.extend(writes)
        if algo.only_control_writes(task.writes):
            task.writes.append((NO_WRITES, None))  # record that it finished, even with no output
        if loop.on_seam is not None:
            await loop.report("task_finish", task)
        await loop.save_writes(task.id, task.writes, task)  # (seam put_writes, once saved)
        if task.cache_key is not None:  # (a cached node's result to keep)
            node_cache.cache_writes(loop.graph.cache, loop.graph.nodes[task.name].cache_policy, task)
        loop.stream.task_update(task)
        if loop.stream.streams_tasks:  # (checked here: this runs for every task)
            loop.stream.task_result(task, task.writes, loop.step)

    async def run_node(self, task: Task, node: Node) -> list[tuple[str, Any]]:
        """Call the task's node; what it returned, as writes. A ``Command.PARENT`` a subgraph of
        this node returned is this node's result."""
        loop = self.loop
        try:
            if node.func is None:
                result = task.input
            elif self.messages is None:
                result = node.call(task.input, self.task_config(task))
            else:
                result = self.messages.run(node.call, task.input, self.task_config(task))
            if type(result) is not dict and inspect.isawaitable(result):  # an ``async def`` node
                result = await result
        except ParentCommand as bubbled:
            result = subgraph.addressed_to(bubbled, task)
            if result is None:
                raise
        finally:
            if task.calls is not None:  # the node called @task functions: their saves end with it
                await task.calls.settle()
        keys = node.input_keys or loop.graph.state_keys  # START keeps only the input schema's keys
        if not node.branches:  # no router to await
            return algo.static_writes(node, result, keys)
        return await algo.node_writes(node, result, loop.channels, keys, loop.graph.nodes)

    def task_config(self, task: Task) -> dict[str, Any]:
        """What ``get_config()`` returns inside the task's node (see ``lab.config``)."""
        return self.task_configs.of(
            node=task.name,
            namespace=task.namespace,
            step=self.loop.step,
            triggers=task.triggers,
            path=task.path,
        )

    async def save_interrupt(self, task: Task, interrupt: GraphInterrupt) -> None:
        """The node called ``interrupt()``: save the question (with the answers it already took)."""
        loop = self.loop
        answers = [w for w in task.writes if w[0] == RESUME]
        writes = [(INTERRUPT, list(interrupt.interrupts)), *answers]
        await loop.save_writes(task.id, writes, task)
        loop.stream.emit("updates", {INTERRUPT: interrupt.interrupts})
        loop.stream.task_result(task, writes, loop.step)
        if "values" in loop.stream.modes:
            state = loop.read_state()
            shown = state if isinstance(state, dict) else {}  # a whole-value state is not shown
            loop.stream.emit("values", {**shown, INTERRUPT: interrupt.interrupts})
        if loop.on_seam is not None:
            await loop.report("interrupt", task, interrupts=list(interrupt.interrupts))

    async def fail(self, task: Task, exc: Exception) -> None:
        """A node raised: save its ``__error__`` (kept with what it wrote so far); ``as_they_finish``
        then cancels the siblings still running (``cancel_unfinished``)."""
        self.raised.append(exc)
        await self.loop.save_writes(task.id, [*task.writes, (ERROR, repr(exc))], task)
        self.loop.stream.task_result(task, task.writes, self.loop.step, exc)
        if self.loop.on_seam is not None:
            await self.loop.report("error", task, error=repr(exc), error_type=type(exc).__name__)

    def saves_cancellation(self, alone: bool) -> bool:
        """Does a task the caller cancelled leave ``__error__: CancelledError()``? As in LangGraph:
        yes beside siblings (its runner commits the cancelled task); not for a task run alone
        (run inline, nothing is committed); not under "exit" (the run's last save came first)."""
        return not alone and self.loop.durability != "exit"


def new_runtime(context: Any, stream: StreamOutput, store: Any = None) -> Runtime:
    """The run's ``Runtime``: its context, its graph's store, and a stream writer if anyone streams
    ``"custom"``."""
    if "custom" in stream.modes:
        return Runtime(context=context, store=store, stream_writer=stream.write_custom)
    return NO_CONTEXT if context is None and store is None else Runtime(context=context, store=store)


def cancelled_by_the_caller() -> bool:
    """Was the running task cancelled from outside (``task.cancel()``, a closed stream)? A node
    that raises ``CancelledError`` itself is not cancelled: that is a node failure."""
    running = asyncio.current_task()
    return running is not None and running.cancelling() > 0
