"""Subgraphs: a compiled graph run inside a node of another graph, as LangGraph's nested Pregel runs.

A graph runs as a *subgraph* when it runs while a task of another graph is running: added as a
node (``builder.add_node("sub", sub_graph)``) or invoked by a node's function (``sub.invoke(...)``
from a ``def`` node, ``await sub.ainvoke(...)`` from an ``async def`` one). It then inherits from
that task what LangGraph passes down through the config (a :class:`Loan`, which ``lend`` makes from
the loop running the task):

- the saver and the thread, unless it was compiled with ``checkpointer=False`` (no checkpoints);
- a namespace, the task's: ``"<node>:<task id>"``, nested with ``|`` (``"outer:<id>|inner:<id>"``);
  the same task running a second graph adds ``|1``, a third ``|2``. Its checkpoints go into the
  same thread under that namespace, numbered from step -1, ``metadata["parents"]`` naming the
  checkpoint each enclosing graph is at. ``compile(checkpointer=True)`` drops the task ids
  (``"outer|inner"``): one history per thread, which the next run continues;
- whether the root run is a resume. A resumed subgraph continues from its own latest checkpoint
  instead of taking its input: that is how the answer to an ``interrupt()`` inside it gets there
  (the parent's node runs again from its first line, and so calls the subgraph again);
- the root's stream, when it streams with ``subgraphs=True`` (chunks tagged with the namespace,
  handed to its caller as they come: ``Relay``, ``as_they_come``).

Going up, an ``interrupt()`` inside is raised through the parent's node, and the parent saves it
as its own task's interrupt; ``Command(graph=Command.PARENT, ...)`` travels up as
``ParentCommand`` and becomes the writes of the parent's task (``addressed_to``).

Reading state: ``get_state(config, subgraphs=True)`` nests a subgraph's snapshot in
``tasks[i].state`` (just a config naming its namespace otherwise), and a config whose
``checkpoint_ns`` names a subgraph's namespace reads that subgraph (``graph_for_namespace``),
``update_state`` writes it (``graph_to_update``), and a run given it travels back in time: the root
from the checkpoint the config's ``checkpoint_map`` names, the subgraph from its own entry there when
its task is the same one (``root_config``, ``nested_config``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from lab.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from lab.config import get_config
from lab.errors import ParentCommand
from lab.pregel.nodes import Node
from lab.pregel.task import Task, running_task, task_namespace
from lab.runtime import Runtime
from lab.types import Command, StateSnapshot

NS_SEP = "|"
"""Separates the namespaces of nested graphs."""
NS_END = ":"
"""Separates a node's name from its task id in a namespace."""
COORDINATES = ("thread_id", "checkpoint_ns", "checkpoint_id", "checkpoint_map")
"""Config keys that address checkpoints: a run given one of them addresses its own."""

Chunk = tuple[tuple[str, ...], str, Any]
"""A stream chunk as the loop emits it: the emitting graph's namespace, the mode, the chunk."""


class Pregel(Protocol):
    """What this module reads from a compiled graph (``lab.pregel.graph.Pregel``)."""

    nodes: dict[str, Node]
    checkpointer_flag: bool | None

    async def state_at(
        self, saver: BaseCheckpointSaver, config: dict[str, Any], *, subgraphs: bool
    ) -> StateSnapshot: ...


# -- namespaces ---------------------------------------------------------------------------------------


def recast(namespace: str) -> str:
    """Which subgraph a namespace belongs to: node names only (``"outer|inner"``), no task ids or
    call numbers (LangGraph's ``recast_checkpoint_ns``)."""
    return NS_SEP.join(part.split(NS_END)[0] for part in namespace.split(NS_SEP) if not part.isdigit())


def without_task_ids(namespace: str) -> str:
    """The namespace of a ``checkpointer=True`` subgraph: one per thread (call numbers kept)."""
    return NS_SEP.join(part.split(NS_END)[0] for part in namespace.split(NS_SEP))


def parent_namespace(namespace: str) -> str:
    """The namespace of the task that ran the graph this task belongs to (``Command.PARENT``)."""
    parts = namespace.split(NS_SEP)
    while parts and parts[-1].isdigit():
        parts.pop()
    if parts:
        parts.pop()
    while parts and parts[-1].isdigit():
        parts.pop()
    return NS_SEP.join(parts)


def as_tuple(namespace: str) -> tuple[str, ...]:
    """A namespace as stream chunks name it: ``("outer:<id>", "inner:<id>")``; ``()`` for the root."""
    return tuple(namespace.split(NS_SEP)) if namespace else ()


# -- what a running task lends to a graph run inside it ---------------------------------------------------


@dataclass(frozen=True)
class Relay:
    """The stream of a run with ``subgraphs=True``: the modes it wants, and where its subgraphs'
    chunks go (in the order they are emitted, between the run's own). ``arrived`` wakes that run
    while its tasks are still running, so the chunks reach its caller live, as LangGraph's do."""

    modes: frozenset[str]
    output: Callable[[Chunk], None]
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, chunk: Chunk) -> None:
        self.output(chunk)
        self.arrived.set()


async def as_they_come(
    running: list[asyncio.Future[None]], arrived: asyncio.Event | None
) -> AsyncIterator[None]:
    """Wake the caller each time one of a step's ``running`` tasks finishes (its exception, if
    any, raised here) and, when chunks are watched (``arrived``: a subgraph's, or one a task made),
    each time a chunk arrived meanwhile."""
    if arrived is None:
        for finished in asyncio.as_completed(running):
            await finished
            yield
        return
    waiting = set(running)
    while waiting:
        arrival = asyncio.ensure_future(arrived.wait())
        try:
            done, waiting = await asyncio.wait([*waiting, arrival], return_when=asyncio.FIRST_COMPLETED)
        finally:
            arrival.cancel()
        waiting.discard(arrival)
        arrived.clear()  # before the caller drains: a chunk put after this wakes it again
        for finished in (task for task in running if task in done):
            finished.result()
        yield


@dataclass
class Replay:
    """A root run replaying from an old checkpoint (LangGraph's ``ReplayState``): the first run
    of each subgraph starts from the last checkpoint its namespace had before ``before_id`` and
    takes its input again; later runs (a loop) load their latest checkpoint as usual."""

    before_id: str
    visited: set[str] = field(default_factory=set)

    def first_visit(self, namespace: str) -> bool:
        stable = namespace.rsplit(NS_END, 1)[0]
        first = stable not in self.visited
        self.visited.add(stable)
        return first

    async def checkpoint(self, saver: BaseCheckpointSaver, config: dict[str, Any]) -> CheckpointTuple | None:
        before = {"configurable": {"checkpoint_id": self.before_id}}
        async for saved in saver.alist(config, before=before, limit=1):
            return saved
        return None


@dataclass
class Loan:
    """What a running task lends a graph run inside it (LangGraph passes it in the config)."""

    task: Task
    """The running task: its namespace, and the answers an ``interrupt()`` inside may take."""
    saver: BaseCheckpointSaver | None
    checkpoint_map: dict[str, str]
    """Each enclosing graph's namespace → the checkpoint it is at (the subgraph's ``parents``)."""
    resuming: bool | None
    """Is the root run a resume? ``None`` once its first step is over (LangGraph then leaves it
    to the subgraph's input: ``None`` or a ``Command`` resumes)."""
    durability: str
    runtime: Runtime
    relay: Relay | None
    resume_map: Mapping[str, Any] | None
    replay: Replay | None
    calls: int = 0
    """Graphs the task has run so far: the second one runs under ``"<namespace>|1"``."""

    def next_namespace(self, graph: Pregel) -> str:
        namespace = self.task.namespace if self.calls == 0 else f"{self.task.namespace}{NS_SEP}{self.calls}"
        self.calls += 1
        return without_task_ids(namespace) if graph.checkpointer_flag is True else namespace


def lend(loop: Any, task: Task) -> Loan:
    """What a graph run inside the task's node inherits from the loop running the task (its
    ``lender``, a ``lab.pregel.loop.SuperStepLoop``)."""
    return Loan(
        task=task,
        saver=loop.saver,
        checkpoint_map={**loop.parents, loop.namespace: loop.checkpoint["id"]},
        resuming=loop.resuming,
        durability=loop.durability,
        runtime=loop.runner.runtime,
        relay=loop.stream.relay_for_subgraphs,
        resume_map=loop.resume_map,
        replay=loop.replay,
    )


def or_from(take_fresh_answer: Callable[[], Any], parent: Task) -> Callable[[], Any]:
    """A subgraph task's fresh answers: its own graph's, else the parent task's (the ``resume``
    the root was given travels down to the interrupt that asked it)."""

    def take() -> Any:
        answer = take_fresh_answer()
        return answer if answer is not None else parent.take_fresh_answer()

    return take


def loan_here(config: dict[str, Any] | None) -> Loan | None:
    """The loan of the running task, if a run given ``config`` happens inside one. A config that
    addresses a thread or a checkpoint of its own makes a run of its own (as in LangGraph), unless
    it is the task's own config (a node passing its ``config`` on)."""
    task = running_task()
    if task is None or task.lender is None:
        return None
    given = (config or {}).get("configurable") or {}
    if any(given.get(key) for key in COORDINATES) and given.get("checkpoint_ns") != task.namespace:
        return None
    if task.loan is None:
        task.loan = lend(task.lender, task)
    return task.loan


def nested_config(graph: Pregel, config: dict[str, Any] | None, loan: Loan) -> dict[str, Any]:
    """The config of a run inside a task: the task's config (its thread, the caller's keys)
    under ``config``, in the subgraph's own namespace."""
    try:
        ambient = get_config()
    except RuntimeError:  # a graph run by a router rather than by the node itself
        ambient = {}
    given = config or {}
    configurable = {**(ambient.get("configurable") or {}), **(given.get("configurable") or {})}
    configurable = {key: value for key, value in configurable.items() if not key.startswith("__pregel_")}
    namespace = loan.next_namespace(graph)
    addressed = loan.checkpoint_map.get(namespace)  # time travel to this very subgraph checkpoint
    return {
        **ambient,
        **given,
        "configurable": {**configurable, "checkpoint_ns": namespace, "checkpoint_id": addressed},
    }


def check_root_saver(graph: Pregel) -> None:
    """``compile(checkpointer=True)`` only means something inside a parent, which lends the saver."""
    if graph.checkpointer_flag is True:
        raise RuntimeError("checkpointer=True cannot be used for root graphs.")


def root_config(graph: Pregel, config: dict[str, Any]) -> dict[str, Any]:
    """The config of a run that is not nested in a task. Given a subgraph's checkpoint config
    (time travel into a subgraph), LangGraph runs the root graph: from the root checkpoint that
    the config's ``checkpoint_map`` names (a replay, whose subgraph finds its own checkpoint in the
    map when its task is the same one), else from the thread's latest."""
    check_root_saver(graph)
    conf = config["configurable"]
    if conf.get("checkpoint_ns"):
        conf = {**conf, "checkpoint_ns": "", "checkpoint_id": None}
    addressed = (conf.get("checkpoint_map") or {}).get(conf.get("checkpoint_ns", ""))
    if addressed:
        conf = {**conf, "checkpoint_id": addressed}
    return config if conf is config["configurable"] else {**config, "configurable": conf}


def parents_of(loan: Loan | None, config: dict[str, Any]) -> dict[str, str]:
    """``metadata["parents"]`` of a run's checkpoints: each enclosing graph's checkpoint; for a
    root run given a ``checkpoint_map`` (a subgraph's config), that map, as LangGraph keeps it."""
    return loan.checkpoint_map if loan else dict(config["configurable"].get("checkpoint_map") or {})


def own_checkpoint_config(graph: Pregel, config: dict[str, Any]) -> dict[str, Any]:
    """Where a ``checkpointer=True`` subgraph's checkpoints are: its namespace without task ids."""
    if graph.checkpointer_flag is not True:
        return config
    conf = config["configurable"]
    namespace = without_task_ids(conf.get("checkpoint_ns", ""))
    return {**config, "configurable": {**conf, "checkpoint_ns": namespace}}


# -- going up: Command(graph=Command.PARENT) ----------------------------------------------------------------


def addressed_to(bubbled: ParentCommand, task: Task) -> Command | None:
    """The command, if ``task`` is the one it is for: the task that ran the graph it came from."""
    command = bubbled.command
    if command.graph in (task.namespace, recast(task.namespace), task.name):
        return replace(command, graph=None)
    return None


def readdress(bubbled: ParentCommand, task: Task) -> None:
    """A ``Command.PARENT`` leaving ``task``'s graph: addressed to the task that ran that graph."""
    if bubbled.command.graph == Command.PARENT:
        bubbled.command = replace(bubbled.command, graph=parent_namespace(task.namespace))


# -- reading a subgraph's state ------------------------------------------------------------------------------


def graph_for_namespace(graph: Pregel, namespace: str) -> Pregel:
    """The graph whose checkpoints ``namespace`` holds: for ``"outer:<id>|inner:<id>"``, the
    subgraph of the node ``inner`` inside the subgraph of ``outer``. ``graph`` itself for the root
    namespace, or for one its nodes do not lead to (as LangGraph reads it then)."""
    if not namespace:
        return graph
    found = subgraphs_of(graph, namespace=recast(namespace), recurse=True)
    return next((subgraph for _, subgraph in found), graph)


def graph_to_update(graph: Pregel, namespace: str) -> Pregel:
    """The graph ``update_state`` writes for a config naming ``namespace``: the subgraph it holds
    (LangGraph refuses a namespace none of its nodes leads to: the wrong nodes and channels would
    write into it)."""
    if not namespace:
        return graph
    for _, found in subgraphs_of(graph, namespace=recast(namespace), recurse=True):
        return found
    raise ValueError(f"Subgraph {recast(namespace)} not found")


def subgraphs_of(
    graph: Pregel, *, namespace: str | None = None, recurse: bool = False
) -> Iterator[tuple[str, Pregel]]:
    """``get_subgraphs()``: ``(namespace, subgraph)`` for each node that runs a subgraph, as
    LangGraph lists them; ``namespace`` (``"outer|inner"``, no task ids) picks one."""
    for name, node in graph.nodes.items():
        if namespace is not None and namespace != name and not namespace.startswith(name + NS_SEP):
            continue
        if node.subgraph is None:
            continue
        if name == namespace:
            yield name, node.subgraph
            return
        if namespace is None:
            yield name, node.subgraph
        if recurse:
            inner = None if namespace is None else namespace[len(name) + 1 :]
            for path, found in subgraphs_of(node.subgraph, namespace=inner, recurse=True):
                yield f"{name}{NS_SEP}{path}", found


def with_checkpoint_map(config: dict[str, Any] | None, metadata: Mapping[str, Any] | None) -> Any:
    """A subgraph checkpoint's config as snapshots show it: with ``checkpoint_map``, the
    ``parents`` in its metadata plus its own namespace and id (LangGraph's ``patch_checkpoint_map``)."""
    parents = (metadata or {}).get("parents")
    if config is None or not parents:
        return config
    conf = config["configurable"]
    checkpoint_map = {**parents, conf["checkpoint_ns"]: conf["checkpoint_id"]}
    return {**config, "configurable": {**conf, "checkpoint_map": checkpoint_map}}


def task_state(graph: Pregel, task: Task, config: dict[str, Any]) -> dict[str, Any] | None:
    """``tasks[i].state`` of a snapshot: for a node that runs a subgraph, a config naming the
    namespace its checkpoints are in (``get_state(..., subgraphs=True)`` reads it)."""
    if graph.nodes[task.name].subgraph is None:
        return None
    conf = config["configurable"]
    namespace = task_namespace(conf.get("checkpoint_ns", ""), task.name, task.id)
    return {"configurable": {"thread_id": conf["thread_id"], "checkpoint_ns": namespace}}


async def with_subgraph_states(
    graph: Pregel, snapshot: StateSnapshot, saver: BaseCheckpointSaver
) -> StateSnapshot:
    """``get_state(config, subgraphs=True)``: each subgraph task's config replaced by that
    subgraph's own snapshot, read the same way (recursively)."""
    tasks = []
    for task in snapshot.tasks:
        if task.state is not None:
            subgraph = graph.nodes[task.name].subgraph
            task = task._replace(state=await subgraph.state_at(saver, task.state, subgraphs=True))
        tasks.append(task)
    return snapshot._replace(tasks=tuple(tasks))
