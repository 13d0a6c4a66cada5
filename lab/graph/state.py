"""``StateGraph``: declare nodes and edges over a TypedDict state, then ``compile`` them into
channels and nodes that the Pregel loop runs (LangGraph's ``langgraph.graph.state``).

How the declaration maps to channels:

- a state key ``x: int`` → ``LastValue`` (one write per step);
- a state key ``log: Annotated[list, operator.add]`` → ``BinaryOperatorAggregate``;
- each node ``n`` → an ephemeral trigger channel ``branch:to:n``;
- ``add_edge(a, b)`` → ``a`` writes ``branch:to:b`` when it finishes;
- ``add_edge([a, b], c)`` → a barrier ``join:a+b:c`` that fires ``c`` once both wrote;
- ``add_conditional_edges(a, router)`` → ``a`` runs ``router`` on its fresh state and writes
  ``branch:to:<choice>``.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from lab.checkpoint.base import BaseCheckpointSaver
from lab.pregel.channels import (
    MISSING,
    BinaryOperatorAggregate,
    Channel,
    EphemeralValue,
    LastValue,
    NamedBarrierValue,
    Topic,
)
from lab.pregel.graph import Pregel
from lab.pregel.nodes import END, START, TASKS, Branch, Node, branch_channel


class CompiledStateGraph(Pregel):
    """A runnable graph; ``builder`` keeps the declaration (used to draw the diagram)."""

    builder: StateGraph


class StateGraph:
    def __init__(self, state_schema: type, *_: Any, **__: Any) -> None:
        self.state_schema = state_schema
        self.nodes: dict[str, Callable[..., Any]] = {}
        self.edges: list[tuple[str, str]] = []
        self.waiting_edges: list[tuple[tuple[str, ...], str]] = []
        self.branches: list[tuple[str, Branch]] = []

    def add_node(
        self, node: str | Callable[..., Any], action: Callable[..., Any] | None = None, **_: Any
    ) -> StateGraph:
        if action is None:
            if isinstance(node, str):
                raise ValueError(f"Node '{node}' needs a function: add_node('{node}', fn)")
            node, action = node.__name__, node
        if node in self.nodes:
            raise ValueError(f"Node `{node}` already present.")
        if node in (START, END) or ":" in node:
            raise ValueError(f"'{node}' is a reserved name (START, END, or a name with ':')")
        self.nodes[node] = action
        return self

    def add_edge(self, start_key: str | Sequence[str], end_key: str) -> StateGraph:
        if isinstance(start_key, str):
            if start_key == END:
                raise ValueError("END cannot be a start node")
            if end_key == START:
                raise ValueError("START cannot be an end node")
            self.edges.append((start_key, end_key))
        else:
            self.waiting_edges.append((tuple(start_key), end_key))
        return self

    def add_conditional_edges(
        self,
        source: str,
        path: Callable[[Any], Any],
        path_map: Mapping[Hashable, str] | Sequence[str] | None = None,
    ) -> StateGraph:
        if path_map is not None and not isinstance(path_map, Mapping):
            path_map = {name: name for name in path_map}
        self.branches.append((source, Branch(path, path_map)))
        return self

    def set_entry_point(self, key: str) -> StateGraph:
        return self.add_edge(START, key)

    def set_finish_point(self, key: str) -> StateGraph:
        return self.add_edge(key, END)

    def add_sequence(self, nodes: Sequence[Callable[..., Any]]) -> StateGraph:
        previous = None
        for fn in nodes:
            self.add_node(fn)
            if previous is not None:
                self.add_edge(previous, fn.__name__)
            previous = fn.__name__
        return self

    # -- compile ----------------------------------------------------------------------------------
    def compile(
        self,
        checkpointer: BaseCheckpointSaver | None = None,
        *,
        interrupt_before: list[str] | str | None = None,
        interrupt_after: list[str] | str | None = None,
        **_: Any,
    ) -> CompiledStateGraph:
        self._validate(interrupt_before, interrupt_after)
        channels = self._state_channels()
        state_keys = list(channels)
        channels[START] = EphemeralValue()
        channels[TASKS] = Topic()
        nodes = {START: Node(START, None, [START])}
        for name, fn in self.nodes.items():
            channels[branch_channel(name)] = EphemeralValue()
            nodes[name] = Node(name, fn, [branch_channel(name)])
        for start, end in self.edges:
            if end != END:
                nodes[start].edge_writes.append((branch_channel(end), None))
        for starts, end in self.waiting_edges:
            join = f"join:{'+'.join(starts)}:{end}"
            channels[join] = NamedBarrierValue(set(starts))
            nodes[end].triggers.append(join)
            for start in starts:
                nodes[start].edge_writes.append((join, start))
        for source, branch in self.branches:
            nodes[source].branches.append(branch)
        graph = CompiledStateGraph(
            nodes=nodes,
            channels=channels,
            state_keys=state_keys,
            checkpointer=checkpointer,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
        )
        graph.builder = self
        return graph

    def _state_channels(self) -> dict[str, Channel]:
        channels: dict[str, Channel] = {}
        for key, hint in _type_hints(self.state_schema).items():
            reducer = _reducer(hint)
            if reducer is None:
                channels[key] = LastValue(key)
            else:
                channels[key] = BinaryOperatorAggregate(reducer, _initial(typing.get_args(hint)[0]))
        return channels

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
        for names in interrupt_lists:
            for name in [] if names in (None, "*") else names:
                if name not in known:
                    raise ValueError(f"Interrupt node `{name}` not found")


@functools.cache
def _type_hints(schema: type) -> dict[str, Any]:
    """The schema's keys and annotations, evaluated once per class: ``get_type_hints`` re-evaluates
    every string annotation on each call, and a graph is compiled again for every new process."""
    return typing.get_type_hints(schema, include_extras=True)


def _reducer(hint: Any) -> Callable[[Any, Any], Any] | None:
    if typing.get_origin(hint) is typing.Annotated:
        for meta in reversed(typing.get_args(hint)[1:]):
            if callable(meta):
                return meta
    return None


def _initial(typ: Any) -> Any:
    try:
        return (typing.get_origin(typ) or typ)()
    except Exception:
        return MISSING
