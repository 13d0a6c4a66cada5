"""``StateGraph``: declare nodes and edges over a state schema, then ``compile`` them into
channels and nodes that the Pregel loop runs (LangGraph's ``langgraph.graph.state``).

How the declaration maps to channels (schemas: ``lab.graph.schema``):

- a state key ``x: int`` → ``LastValue`` (one write per step);
- a state key ``log: Annotated[list, operator.add]`` → ``BinaryOperatorAggregate``;
- each node ``n`` → an ephemeral trigger channel ``branch:to:n``;
- ``add_edge(a, b)`` → ``a`` writes ``branch:to:b`` when it finishes;
- ``add_edge([a, b], c)`` → a barrier ``join:a+b:c`` that fires ``c`` once both wrote;
- ``add_node(n, fn, defer=True)`` → ``branch:to:n`` and its joins wait for the run's end
  (``lab.pregel.deferred``);
- ``add_conditional_edges(a, router)`` → ``a`` runs ``router`` on its fresh state (the keys of the
  router's input schema, else ``a``'s, else the state schema's) and writes ``branch:to:<choice>``.

The checks LangGraph makes are made here too, with its messages: reserved node names and state
keys, a reducer that cannot take ``(a, b)``, a checkpointer that is not a saver, an empty sequence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any

from lab.cache.base import BaseCache
from lab.checkpoint.allow_list import allow_in_checkpoints
from lab.checkpoint.base import BaseCheckpointSaver
from lab.graph.drawing import DrawableGraph, draw_graph
from lab.graph.jsonschema import json_schema
from lab.graph.node_calls import (
    bind_node,
    branch_ends,
    command_destinations,
    is_runnable,
    runnable_name,
    runnable_node,
)
from lab.graph.schema import (
    as_schema,
    channels_of,
    first_parameter_schema,
    schema_fields,
)
from lab.graph.subgraphs import as_node, find_subgraph, refuse_sync_calls_over_async_io
from lab.graph.unsupported import NotSupportedError, RefusesLeftOutMethods, refuse_options
from lab.pregel.channels import Channel, EphemeralValue, NamedBarrierValue, Topic
from lab.pregel.deferred import LastValueAfterFinish, NamedBarrierValueAfterFinish
from lab.pregel.graph import Pregel, run_sync
from lab.pregel.node_cache import node_namespace
from lab.pregel.nodes import END, START, TASKS, Branch, Node, branch_channel
from lab.pregel.subgraph import subgraphs_of
from lab.store.base import BaseStore
from lab.types import CachePolicy, StateUpdate

RESERVED = frozenset(
    (
        "__input__",
        "__interrupt__",
        "__resume__",
        "__error__",
        "__error_source_node__",
        "__no_writes__",
        "__snapshot_bumps__",
        "__pregel_pull",
        "__pregel_push",
        "__pregel_send",
        "__pregel_read",
        "__pregel_checkpointer",
        "__pregel_resuming",
        "__pregel_task_id",
        "__pregel_stream",
        "__pregel_resume_map",
        "checkpoint_id",
        "checkpoint_ns",
        "checkpoint_map",
        "configurable",
    )
)
"""Names the runtime uses for its own writes and config keys (LangGraph's ``RESERVED``)."""
RESERVED_CHARACTERS = (":", "|")
"""``:`` separates namespaces and channel parts; ``|`` separates nested graph names."""
NodeSpec = Callable[..., Any] | tuple[str, Callable[..., Any]]
"""A node for ``add_sequence``: a function (named after itself) or a ``(name, function)`` pair."""


class CompiledStateGraph(RefusesLeftOutMethods, Pregel):
    """A runnable graph; ``builder`` keeps the declaration (``get_graph`` draws it)."""

    builder: StateGraph
    name: str
    """``compile(name=...)``; titles the JSON schema of a dataclass state (``<name>Input``)."""

    def get_name(self, suffix: str | None = None) -> str:
        return f"{self.name}{suffix or ''}"

    def get_graph(self, config: dict[str, Any] | None = None, *, xray: bool | int = False) -> DrawableGraph:
        """The graph as nodes and edges, as LangGraph draws it (``.draw_mermaid()`` prints it);
        ``xray`` draws the subgraphs' nodes inside their nodes (``xray=n``: ``n`` levels deep)."""
        return draw_graph(self, xray)

    async def aget_graph(
        self, config: dict[str, Any] | None = None, *, xray: bool | int = False
    ) -> DrawableGraph:
        return self.get_graph(config, xray=xray)

    def get_subgraphs(
        self, *, namespace: str | None = None, recurse: bool = False
    ) -> Iterator[tuple[str, Pregel]]:
        """``(namespace, subgraph)`` of the nodes that run a subgraph (``lab.pregel.subgraph``);
        ``namespace="outer|inner"`` picks one, ``recurse=True`` goes into nested ones."""
        return subgraphs_of(self, namespace=namespace, recurse=recurse)

    async def aget_subgraphs(
        self, *, namespace: str | None = None, recurse: bool = False
    ) -> AsyncIterator[tuple[str, Pregel]]:
        for found in subgraphs_of(self, namespace=namespace, recurse=recurse):
            yield found

    async def abulk_update_state(
        self, config: dict[str, Any], supersteps: Sequence[Sequence[StateUpdate | tuple]]
    ) -> dict[str, Any]:
        """One ``update`` checkpoint per superstep, each on the checkpoint the last one made (a
        thread's history can be rebuilt this way); a superstep's updates apply together."""
        if len(supersteps) == 0:
            raise ValueError("No supersteps provided")
        if any(len(updates) == 0 for updates in supersteps):
            raise ValueError("No updates provided")
        for updates in supersteps:
            steps = [StateUpdate(*update) for update in updates]
            if any(update.task_id is not None for update in steps):
                raise NotSupportedError("StateUpdate(task_id=...) in bulk_update_state")
            config = await self.apply_updates(config, [(update.values, update.as_node) for update in steps])
        return config

    def bulk_update_state(
        self, config: dict[str, Any], supersteps: Sequence[Sequence[StateUpdate | tuple]]
    ) -> dict[str, Any]:
        return run_sync(self.abulk_update_state(config, supersteps))

    def get_input_jsonschema(self, config: dict[str, Any] | None = None) -> dict[str, Any]:
        return json_schema(self.builder.input_schema, f"{self.name}Input")

    def get_output_jsonschema(self, config: dict[str, Any] | None = None) -> dict[str, Any]:
        return json_schema(self.builder.output_schema, f"{self.name}Output")


class StateGraph:
    """The builder: a state schema (plus optional input/output/context schemas), nodes and edges."""

    def __init__(
        self,
        state_schema: Any,
        context_schema: type | None = None,
        *,
        input_schema: Any = None,
        output_schema: Any = None,
        **unsupported: Any,
    ) -> None:
        refuse_options("StateGraph", unsupported)
        self.state_schema = state_schema
        self.context_schema = context_schema
        self.input_schema = input_schema or state_schema
        self.output_schema = output_schema or state_schema
        self.channels: dict[str, Channel] = {}
        for schema in (state_schema, self.input_schema, self.output_schema):
            self._add_schema(schema)
        self.nodes: dict[str, Callable[..., Any]] = {}
        self.node_schemas: dict[str, Any] = {}
        self.node_ends: dict[str, dict[str, str | None]] = {}
        self.node_metadata: dict[str, dict[str, Any] | None] = {}
        self.node_cache_policies: dict[str, CachePolicy | None] = {}
        self.deferred: set[str] = set()
        """The nodes added with ``defer=True``."""
        self.edges: list[tuple[str, str]] = []
        self.waiting_edges: list[tuple[tuple[str, ...], str]] = []
        self.branches: list[tuple[str, Branch]] = []

    def _add_schema(self, schema: Any) -> None:
        allow_in_checkpoints(schema)
        for key, channel in channels_of(schema).items():
            self.channels.setdefault(key, channel)

    def add_node(
        self,
        node: str | Callable[..., Any],
        action: Callable[..., Any] | None = None,
        *,
        input_schema: Any = None,
        destinations: Mapping[str, str] | Sequence[str] | None = None,
        metadata: dict[str, Any] | None = None,
        cache_policy: CachePolicy | None = None,
        defer: bool = False,
        **unsupported: Any,
    ) -> StateGraph:
        """``cache_policy``: reuse the node's results from ``compile(cache=...)``'s cache
        (``lab.pregel.node_cache``); ``defer``: run it only when no other node is pending, once
        the run is about to end (``lab.pregel.deferred``)."""
        refuse_options("add_node", unsupported)
        if action is None:
            if isinstance(node, str):
                raise ValueError(f"Node '{node}' needs a function: add_node('{node}', fn)")
            node, action = node_name(node), node
        if isinstance(action, Pregel):  # a compiled graph as the node: it runs as a subgraph
            action = as_node(action)
        elif is_runnable(action):  # a LangChain Runnable (a ``@tool``...): run with invoke/ainvoke
            action = runnable_node(action)
        if node in self.nodes:
            raise ValueError(f"Node `{node}` already present.")
        if node in (START, END):
            raise ValueError(f"Node `{node}` is reserved.")
        for character in RESERVED_CHARACTERS:
            if character in node:
                raise ValueError(
                    f"'{character}' is a reserved character and is not allowed in the node names."
                )
        schema = input_schema or first_parameter_schema(action)
        if schema is not None:
            self._add_schema(schema)
        self.nodes[node] = action
        self.node_schemas[node] = schema or self.state_schema
        ends = destinations if destinations is not None else command_destinations(action)
        self.node_ends[node] = dict(ends) if isinstance(ends, Mapping) else dict.fromkeys(ends)
        self.node_metadata[node] = metadata
        self.node_cache_policies[node] = cache_policy
        if defer:
            self.deferred.add(node)
        return self

    def add_edge(self, start_key: str | Sequence[str], end_key: str) -> StateGraph:
        if isinstance(start_key, str):
            if start_key == END:
                raise ValueError("END cannot be a start node")
            if end_key == START:
                raise ValueError("START cannot be an end node")
            self.edges.append((start_key, end_key))
            return self
        for start in start_key:
            if start == END:
                raise ValueError("END cannot be a start node")
            if start not in self.nodes:
                raise ValueError(f"Need to add_node `{start}` first")
        if end_key == START:
            raise ValueError("START cannot be an end node")
        self.waiting_edges.append((tuple(start_key), end_key))
        return self

    def add_conditional_edges(
        self,
        source: str,
        path: Callable[..., Any],
        path_map: Mapping[Hashable, str] | Sequence[str] | None = None,
    ) -> StateGraph:
        branch = Branch(path, branch_ends(path, path_map), input_schema=first_parameter_schema(path))
        if branch.input_schema is not None:
            self._add_schema(branch.input_schema)
        if any(s == source and b.name == branch.name for s, b in self.branches):
            raise ValueError(f"Branch with name `{branch.router_name}` already exists for node `{source}`")
        self.branches.append((source, branch))
        return self

    def set_entry_point(self, key: str) -> StateGraph:
        return self.add_edge(START, key)

    def set_conditional_entry_point(
        self,
        path: Callable[..., Any],
        path_map: Mapping[Hashable, str] | Sequence[str] | None = None,
    ) -> StateGraph:
        return self.add_conditional_edges(START, path, path_map)

    def set_finish_point(self, key: str) -> StateGraph:
        return self.add_edge(key, END)

    def add_sequence(self, nodes: Sequence[NodeSpec]) -> StateGraph:
        """Add the nodes and an edge from each to the next; ``(name, fn)`` pairs name them."""
        if not nodes:
            raise ValueError("Sequence requires at least one node.")
        previous = None
        for item in nodes:
            name, fn = item if isinstance(item, tuple) else (getattr(item, "__name__", None), item)
            if name in self.nodes:
                raise ValueError(
                    f"Node names must be unique: node with the name '{name}' already exists. If you need "
                    "to use two different runnables/callables with the same name (for example, using "
                    "`lambda`), please provide them as tuples (name, runnable/callable)."
                )
            self.add_node(name, fn)
            if previous is not None:
                self.add_edge(previous, name)
            previous = name
        return self

    # -- compile ----------------------------------------------------------------------------------
    def compile(
        self,
        checkpointer: BaseCheckpointSaver | bool | None = None,
        *,
        interrupt_before: list[str] | str | None = None,
        interrupt_after: list[str] | str | None = None,
        store: BaseStore | None = None,
        cache: BaseCache | None = None,
        name: str | None = None,
        debug: bool = False,
        **unsupported: Any,
    ) -> CompiledStateGraph:
        refuse_options("compile", unsupported)
        if not isinstance(checkpointer, bool | None):
            check_checkpointer(checkpointer)
        self._validate(interrupt_before, interrupt_after)
        channels = dict(self.channels)
        state_keys = list(channels)
        channels[START] = EphemeralValue()
        channels[TASKS] = Topic()
        input_keys = tuple(schema_fields(self.input_schema))
        nodes = {START: Node(START, None, [START], input_keys=input_keys)}
        for node, fn in self.nodes.items():
            deferred = node in self.deferred
            trigger = LastValueAfterFinish() if deferred else EphemeralValue(guard=False)
            channels[branch_channel(node)] = trigger
            call = bind_node(fn, self.node_schemas[node])
            policy = self.node_cache_policies[node]
            nodes[node] = Node(
                node,
                call,
                [branch_channel(node)],
                ends=self.node_ends[node],
                metadata=self.node_metadata[node],
                subgraph=find_subgraph(fn),
                cache_policy=policy,
                cache_namespace=node_namespace(node, fn) if policy is not None else None,
            )
        refuse_sync_calls_over_async_io(nodes, checkpointer)
        for start, end in self.edges:
            if end != END:
                nodes[start].edge_writes.append((branch_channel(end), None))
        for starts, end in self.waiting_edges:
            if end == END:  # as in LangGraph: a join into END is no channel at all
                continue
            join = f"join:{'+'.join(starts)}:{end}"
            barrier = NamedBarrierValueAfterFinish if end in self.deferred else NamedBarrierValue
            channels[join] = barrier(set(starts))
            nodes[end].triggers.append(join)
            for start in starts:
                nodes[start].edge_writes.append((join, start))
        for source, branch in self.branches:
            nodes[source].branches.append(self._reading(source, branch))
        graph = CompiledStateGraph(
            nodes=nodes,
            channels=channels,
            state_keys=state_keys,
            checkpointer=None if isinstance(checkpointer, bool) else checkpointer,
            interrupt_before_nodes=interrupt_before,
            interrupt_after_nodes=interrupt_after,
        )
        graph.checkpointer_flag = checkpointer if isinstance(checkpointer, bool) else None
        graph.store = store
        graph.cache = cache
        graph.output_keys = list(schema_fields(self.output_schema))
        graph.name = name or "LangGraph"
        graph.debug = debug
        graph.builder = self
        return graph

    def _reading(self, source: str, branch: Branch) -> Branch:
        """``branch`` with what its router reads: its own input schema's keys, else its node's,
        else the state schema's (a conditional entry point's), as that schema."""
        schema = branch.input_schema or self.node_schemas.get(source, self.state_schema)
        return dataclasses.replace(branch, reads=tuple(schema_fields(schema)), as_input=as_schema(schema))

    def _validate(self, *interrupt_lists: Any) -> None:
        known = set(self.nodes)
        sources = {s for s, _ in self.edges} | {s for s, _ in self.branches}
        sources |= {s for starts, _ in self.waiting_edges for s in starts}
        if START not in sources:
            raise ValueError(
                "Graph must have an entrypoint: add at least one edge from START to another node"
            )
        for name in sources - {START}:
            if name not in known:
                raise ValueError(f"Found edge starting at unknown node '{name}'")
        for target in {e for _, e in self.edges} | {e for _, e in self.waiting_edges}:
            if target != END and target not in known:
                raise ValueError(f"Found edge ending at unknown node `{target}`")
        for source, branch in self.branches:
            for target in (branch.path_map or {}).values():
                if target != END and target not in known:
                    raise ValueError(
                        f"At '{source}' node, '{branch.name}' branch found unknown target '{target}'"
                    )
        for names in interrupt_lists:
            for name in [] if names in (None, "*") else names:
                if name not in known:
                    raise ValueError(f"Interrupt node `{name}` not found")
        for key in self.channels:
            if key in RESERVED:
                raise ValueError(f"Channel name '{key}' is reserved")
            if key == TASKS:
                raise ValueError(f"Channel '{TASKS}' is reserved and cannot be used in the graph.")
        for name in self.nodes:
            if name in RESERVED:
                raise ValueError(f"Node name '{name}' is reserved")


def node_name(action: Any) -> str:
    """The name ``add_node(action)`` gives a node: a compiled graph's name, a function's."""
    if isinstance(action, Pregel):
        return action.name
    if is_runnable(action):
        return runnable_name(action)
    return getattr(action, "__name__", type(action).__name__)


def check_checkpointer(checkpointer: Any) -> None:
    if not isinstance(checkpointer, BaseCheckpointSaver):
        raise TypeError(
            "Invalid checkpointer provided. Expected an instance of `BaseCheckpointSaver`, `True`, "
            f"`False`, or `None`. Received {type(checkpointer).__name__}. Pass a proper saver "
            "(e.g., InMemorySaver, AsyncPostgresSaver)."
        )
