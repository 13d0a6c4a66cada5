"""A run's stream output: LangGraph's ``stream_mode`` chunks, made as a run goes and handed out.

In LangGraph, ``PregelLoop`` puts each chunk on a ``StreamProtocol`` as a ``(namespace, mode,
chunk)`` triple, only for the modes someone asked for, and ``Pregel.stream`` yields them between
super-steps, or as tasks finish. :class:`StreamOutput` is that for one run of
:class:`~lab.pregel.loop.SuperStepLoop`: the modes the caller wants, the chunks made and not yet
handed out (``drain``), and, for a subgraph, the root stream's ``Relay`` when the root asked for
``subgraphs=True`` (``lab.pregel.subgraph``). It shapes a task's own chunks too, for the loop, its runner
(``lab.pregel.runner``) and the ``@task`` calls (``lab.pregel.task_calls``): ``task_update`` its
``updates`` chunk, ``task_start`` and ``task_result`` its ``tasks`` chunks (and ``debug``'s).

Two things it knows so that a chunk nobody reads is never made:

- ``task_updates``: does a task's ``updates`` chunk go anywhere? ``invoke`` reads only the
  interrupts among its ``updates``, so without a stream of subgraphs wanting them it makes none;
- ``values_at_end``: is only the run's last ``values`` chunk read (``invoke``)? Then a step's chunk
  is only noted as due (``values_due``); a later one replaces it, and the one still due when the
  run ends is made then, from the same channels.

``print_mode`` (and ``debug=True``, which prints ``updates`` and ``values``) prints chunks as they come,
as LangGraph's ``Pregel.stream`` does: ``[mode] repr(chunk)``, the mode in bold, a subgraph's namespace in
yellow when subgraphs are streamed (``print_chunk``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from lab.config import get_config
from lab.pregel import algo, debug, subgraph
from lab.pregel.nodes import START, state_writes_view, task_result
from lab.pregel.subgraph import Chunk, Relay
from lab.pregel.task import Task


class Graph(subgraph.Pregel, Protocol):
    """What the ``checkpoints`` chunk reads from a compiled graph (``lab.pregel.graph.Pregel``)."""

    state_keys: list[str]


class StreamOutput:
    """The chunks of one run, for its caller and for the root's stream of subgraphs."""

    own_modes: frozenset[str]
    """The modes the caller of this run asked for."""
    modes: frozenset[str]
    """The modes chunks are made for: the caller's, and the root stream's (``relay``)."""
    namespace: tuple[str, ...]
    """How this run's chunks name their graph (``()`` for the root)."""
    state_keys: Sequence[str]
    """The graph's state keys: what a task's ``updates`` and ``tasks`` chunks show of its writes."""
    relay: Relay | None
    """The root's stream with ``subgraphs=True``, if this run is a subgraph of one."""
    live: Relay | None
    """This run's own stream of its subgraphs' chunks (``stream(..., subgraphs=True)``), handed over live."""
    debug: bool
    """Is ``"debug"`` streamed (``"checkpoints"`` and ``"tasks"`` chunks, wrapped: ``lab.pregel.debug``)?"""
    streams_tasks: bool
    """Are task starts and results streamed (``"tasks"`` or ``"debug"``)?"""
    task_updates: bool
    """Does each task's ``updates`` chunk go anywhere (see the module's docstring)?"""
    values_at_end: bool
    """Is only the run's last ``values`` chunk read (see the module's docstring)?"""
    values_due: bool
    """A ``values`` chunk is due and not made yet (only with ``values_at_end``)."""
    chunks: list[Chunk]
    """Chunks made and not yet handed to the caller (``drain``)."""
    arrived: asyncio.Event | None
    """Set by each chunk made, when chunks are watched (``watch``): the run hands them over while its
    tasks still run (``subgraph.as_they_come``)."""

    __slots__ = tuple(__annotations__)

    def __init__(
        self,
        modes: frozenset[str],
        namespace: str,
        relay: Relay | None,
        state_keys: Sequence[str],
        *,
        stream_subgraphs: bool,
        task_updates: bool,
        last_values_only: bool,
    ) -> None:
        self.own_modes = modes
        self.modes = modes | (relay.modes if relay else frozenset())
        self.namespace = subgraph.as_tuple(namespace)
        self.state_keys = state_keys
        self.relay = relay
        self.live = Relay(modes, self.take_subgraph_chunk) if stream_subgraphs else None
        self.debug = "debug" in self.modes
        self.streams_tasks = self.debug or "tasks" in self.modes
        self.task_updates = ("updates" in modes and task_updates) or (
            relay is not None and "updates" in relay.modes
        )
        self.values_at_end = (
            last_values_only and self.live is None and not (relay is not None and "values" in relay.modes)
        )
        self.values_due = False
        self.chunks = []
        self.arrived = self.live.arrived if self.live else None

    @property
    def relay_for_subgraphs(self) -> Relay | None:
        """Where the chunks of a graph run inside one of this run's tasks go: this run's own stream
        of subgraphs, else the root's."""
        return self.live or self.relay

    def emit(self, mode: str, chunk: Any) -> None:
        """A chunk for the caller, and for the root's stream with ``subgraphs=True``."""
        if mode == "values":  # (this one replaces a step's chunk still due: see ``values_at_end``)
            self.values_due = False
        self.put(self.namespace, mode, chunk)

    def write_custom(self, chunk: Any) -> None:
        """``stream_mode="custom"``: a chunk a node, or a task it called, gave its stream writer, named
        by the graph that runs it: its task's namespace less the task itself, as LangGraph names it."""
        self.put(subgraph.as_tuple(get_config()["configurable"]["checkpoint_ns"])[:-1], "custom", chunk)

    def watch(self) -> None:
        """From now on, each chunk made wakes the run (``arrived``), so it reaches the caller at once."""
        if self.arrived is None:
            self.arrived = asyncio.Event()

    def put(self, namespace: tuple[str, ...], mode: str, chunk: Any) -> None:
        if mode in self.own_modes:
            self.chunks.append((namespace, mode, chunk))
            if self.arrived is not None:
                self.arrived.set()
        if self.relay is not None and mode in self.relay.modes:
            self.relay.put((namespace, mode, chunk))

    def put_message(self, namespace: tuple[str, ...], chunk: Any) -> None:
        """A ``messages`` chunk, for this run's caller only (``lab.pregel.messages_stream``: the chunks
        of its subgraphs come from its own stream, which they inherit)."""
        self.chunks.append((namespace, "messages", chunk))

    def take_subgraph_chunk(self, chunk: Chunk) -> None:
        """A subgraph's chunk for this (root) run's stream, between this run's own."""
        self.chunks.append(chunk)

    def step_event(self, mode: str, chunk: dict[str, Any], step: int) -> None:
        """A ``"checkpoints"`` or ``"tasks"`` chunk, and with ``"debug"`` streamed, the same wrapped with
        the number of the ``step`` it belongs to (``lab.pregel.debug``)."""
        self.emit(mode, chunk)
        if self.debug:
            self.emit("debug", debug.debug_event(mode, chunk, step))

    def task_start(self, task: Task, step: int) -> None:
        """``stream_mode="tasks"``: a task starts (the hidden ``__start__`` task is not shown)."""
        if self.streams_tasks and task.name != START:
            self.step_event("tasks", debug.task_payload(task), step)

    def task_result(
        self, task: Task, writes: list[tuple[str, Any]], step: int, error: BaseException | None = None
    ) -> None:
        """``stream_mode="tasks"``: a task ended with ``writes`` (or raised ``error``)."""
        if self.streams_tasks and task.name != START:  # (checked again: a caller may not have)
            payload = debug.task_result_payload(task, writes, self.state_keys, error)
            self.step_event("tasks", payload, step)

    def task_update(self, task: Task, *, cached: bool = False) -> None:
        """The task's ``updates`` chunk; ``cached``: its writes were saved by an earlier run and reused
        (LangGraph marks the chunk ``"__metadata__": {"cached": True}``)."""
        if task.name == START or not self.task_updates:
            return
        chunk = {task.name: state_writes_view(task.writes, self.state_keys)}
        self.emit("updates", {**chunk, "__metadata__": {"cached": True}} if cached else chunk)

    def values_changed(self, read_state: Callable[[], Any], updated: set[str] | None = None) -> None:
        """The channels ``updated`` changed (``None``: any may have). If the state is among them, its
        ``values`` chunk now, or (``values_at_end``) a note that one is due."""
        if "values" not in self.modes or (updated is not None and updated.isdisjoint(self.state_keys)):
            return
        if self.values_at_end:
            self.values_due = True
        else:
            self.emit("values", read_state())

    def emit_due_values(self, read_state: Callable[[], Any]) -> None:
        """The run ends: the ``values`` chunk still due, if any."""
        if self.values_due:
            self.emit("values", read_state())

    def drain(self) -> list[Chunk]:
        """The chunks made since the last drain, for the caller."""
        chunks = self.chunks
        if chunks:
            self.chunks = []
        return chunks


def checkpoint_chunk(
    graph: Graph,
    config: dict[str, Any],
    parent_config: dict[str, Any] | None,
    metadata: dict[str, Any],
    values: Any,
    tasks: dict[str, Task],
    pending: list[algo.PendingWrite],
) -> dict[str, Any]:
    """The ``stream_mode="checkpoints"`` chunk: the checkpoint a step starts from (the one ``config``
    addresses: its state's ``values``, its ``pending`` writes) and the step's ``tasks``, as LangGraph
    shapes it."""
    statuses = algo.task_statuses(pending)

    def task_entry(task: Task) -> dict[str, Any]:
        status = statuses.get(task.id, algo.TaskStatus())
        entry: dict[str, Any] = {"id": task.id, "name": task.name}
        state = subgraph.task_state(graph, task, config)
        if status.error:
            return {**entry, "error": status.error, "state": state}
        if status.finished:
            entry["result"] = task_result(status.output, graph.state_keys)
        interrupts = tuple(dict(vars(i)) for i in status.interrupts)
        return {**entry, "interrupts": interrupts, "state": state}

    def plain(config: dict[str, Any] | None) -> dict[str, Any] | None:
        config = subgraph.with_checkpoint_map(config, metadata)
        return {"configurable": dict(config["configurable"])} if config else None

    return {
        "config": plain(config),
        "parent_config": plain(parent_config),
        "values": values,
        "metadata": metadata,
        "next": [t.name for t in tasks.values()],
        "tasks": [task_entry(t) for t in tasks.values()],
    }


def printed_modes(print_mode: str | Sequence[str], debug: bool | None) -> frozenset[str]:
    """The modes whose chunks a run prints: ``print_mode``'s, or with ``debug`` ``updates`` and
    ``values``, as LangGraph chooses them."""
    if debug:
        return frozenset(("updates", "values"))
    return frozenset((print_mode,) if isinstance(print_mode, str) else print_mode)


def print_chunk(namespace: tuple[str, ...], mode: str, chunk: Any, subgraphs: bool) -> None:
    """A chunk of a printed mode, on standard output, as LangGraph prints it (ANSI bold and yellow)."""
    parts = [f"\033[1m[{mode}]\033[0m"]
    if subgraphs and namespace:
        parts.append(f"\033[1;30;33m[graph={namespace}]\033[0m")
    print(" ".join([*parts, repr(chunk)]))
