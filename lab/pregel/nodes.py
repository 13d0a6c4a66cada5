"""The compiled form of a graph's nodes and edges (LangGraph's ``PregelNode`` and writers).

A node is plain data: the function to call, the channels that trigger it, and what it writes
after the function returns. ``StateGraph.compile`` produces these; the loop only reads them.

What a task writes, in order (the order pending writes are saved in):
1. the state update the function returned (a dict, filtered to state keys, or a ``Command``);
2. its static edges: ``branch:to:<next>`` for ``add_edge(a, next)``, and the join channel
   ``join:<a>+<b>:<next>`` for ``add_edge([a, b], next)``;
3. its conditional edges: the router runs on the state *plus this task's own writes* and
   each destination it names becomes a ``branch:to:<dest>`` write (``END`` writes nothing).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lab.errors import InvalidUpdateError, with_troubleshooting
from lab.types import Command, Send

START = "__start__"
END = "__end__"
TASKS = "__pregel_tasks"
PULL = "__pregel_pull"
PUSH = "__pregel_push"


def branch_channel(node: str) -> str:
    return f"branch:to:{node}"


def goto_writes(goto: str | Send | Sequence[str | Send], trigger: Any) -> list[tuple[str, Any]]:
    """``Command(goto=...)`` as writes: a node name gets ``trigger`` on its branch channel (LangGraph
    writes ``None`` from a node, ``START`` from the caller's input), a ``Send`` becomes a push task,
    ``END`` goes nowhere."""
    targets = [goto] if isinstance(goto, str | Send) else list(goto)
    return [(TASKS, g) if isinstance(g, Send) else (branch_channel(g), trigger) for g in targets if g != END]


@dataclass
class Branch:
    """A conditional edge: ``router(state)`` names the next node(s)."""

    router: Callable[[Any], Any]
    path_map: Mapping[Hashable, str] | None = None

    async def destinations(self, state: dict[str, Any]) -> list[str]:
        chosen = self.router(state)
        if inspect.isawaitable(chosen):  # an ``async def`` router
            chosen = await chosen
        chosen = list(chosen) if isinstance(chosen, list | tuple) else [chosen]
        if self.path_map is not None:
            chosen = [c if isinstance(c, Send) else self.path_map[c] for c in chosen]
        return chosen


@dataclass
class Node:
    name: str
    func: Callable[..., Any] | None
    """``None`` only for the hidden ``__start__`` node, which passes the input through."""
    triggers: list[str]
    edge_writes: list[tuple[str, Any]] = field(default_factory=list)
    branches: list[Branch] = field(default_factory=list)


def state_update(result: Any, state_keys: Sequence[str]) -> list[tuple[str, Any]]:
    """Turn what a node returned into channel writes."""
    if result is None:
        return []
    if isinstance(result, Command):
        writes = [(k, v) for k, v in (result.update or {}).items() if k in state_keys]
        return writes + goto_writes(result.goto, None)
    if isinstance(result, dict):
        return [(k, v) for k, v in result.items() if k in state_keys]
    raise InvalidUpdateError(
        with_troubleshooting(f"Expected dict, got {result}", "INVALID_GRAPH_NODE_RETURN_VALUE")
    )


async def routed_writes(node: Node, fresh_state: dict[str, Any], known_nodes: Mapping[str, Node]) -> list:
    writes: list[tuple[str, Any]] = []
    for branch in node.branches:
        for dest in await branch.destinations(fresh_state):
            if dest == END:
                continue
            if isinstance(dest, Send):
                writes.append((TASKS, dest))
            elif dest in known_nodes:
                writes.append((branch_channel(dest), None))
            else:
                raise ValueError(f"The router of '{node.name}' returned '{dest}', which is not a node")
    return writes
