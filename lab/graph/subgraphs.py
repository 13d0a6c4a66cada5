"""Nodes that run a subgraph: which graph a node runs, as LangGraph's ``find_subgraph_pregel``.

A compiled graph added as a node runs as a subgraph (``as_node``). A node *function* may run one
too (``sub.invoke(...)``); LangGraph finds that graph by reading the function: the values it
reaches from outside its body. Either way the graph is remembered on the compiled node
(``Node.subgraph``), so that ``get_state`` can show its state in the node's tasks, and a config
naming its namespace can read it (``lab.pregel.subgraph``).

A plain ``def`` node found to run a subgraph cannot do it over an async-only saver (IndexedDB, in
the browser): that graph is refused when it is compiled (``refuse_sync_calls_over_async_io``).
"""

from __future__ import annotations

import dis
import functools
import types
from collections.abc import Callable, Mapping
from typing import Any

from lab.graph.unsupported import NotSupportedError
from lab.pregel.graph import Pregel
from lab.pregel.nodes import Node, is_async


def find_subgraph(action: Any) -> Pregel | None:
    """The graph a node runs, found as LangGraph finds it (``find_subgraph_pregel``): the node
    itself, or a graph its function reaches through a closure variable, a global or an attribute
    path (``sub.invoke``, ``self.graphs.sub``). A graph compiled with ``checkpointer=False`` keeps
    no state to show, so it is not one."""
    for candidate in (action, *reached_values(action)):
        candidate = getattr(candidate, "__self__", candidate)  # a bound method: its object
        if isinstance(candidate, Pregel) and candidate.checkpointer_flag is not False:
            return candidate
    return None


def reached_values(fn: Any) -> list[Any]:
    """The values a function reaches from outside its own body, nested functions included:
    closure variables, globals, and each value along an attribute path it loads."""
    fn = getattr(fn, "__func__", fn)
    wrapped = getattr(fn, "__wrapped__", None)
    if callable(wrapped):
        fn = getattr(wrapped, "__func__", wrapped)
    if not isinstance(fn, types.FunctionType):
        return []
    cells = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=False):
        try:
            cells[name] = cell.cell_contents
        except ValueError:  # an empty cell: a recursive function not bound yet
            continue
    values = list(cells.values())
    value: Any = None
    for opname, name in _loads(fn.__code__):
        if opname == "LOAD_GLOBAL":
            value = fn.__globals__.get(name)
        elif opname == "LOAD_DEREF":
            value = cells.get(name)
        elif opname == "ATTR":
            value = getattr(value, name, None)
        else:
            value = None  # anything else ends an attribute path
        if value is not None:
            values.append(value)
    return values


@functools.lru_cache(maxsize=1024)
def _loads(code: types.CodeType) -> tuple[tuple[str, Any], ...]:
    """What a function's code (its nested functions' included) loads, read once per code object:
    ``("LOAD_GLOBAL" | "LOAD_DEREF" | "ATTR", name)``, and ``("", None)`` for any other instruction."""
    loads: list[tuple[str, Any]] = []
    codes = [code]
    for each in codes:
        codes.extend(const for const in each.co_consts if isinstance(const, types.CodeType))
        for instruction in dis.get_instructions(each):
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_DEREF"):
                loads.append((instruction.opname, instruction.argval))
            elif instruction.opname in ("LOAD_ATTR", "LOAD_METHOD"):
                loads.append(("ATTR", instruction.argval))
            else:
                loads.append(("", None))
        loads.append(("", None))  # a path never runs from one function's code into the next's
    return tuple(loads)


def as_node(graph: Pregel) -> Callable[[Any], Any]:
    """A compiled graph added as a node: the node runs it on the state it is given."""

    async def run_subgraph(state: Any) -> Any:
        return await graph.ainvoke(state)

    run_subgraph.graph = graph  # type: ignore[attr-defined]  (``get_graph().to_json()`` names its class)
    return run_subgraph


def is_graph_node(action: Any) -> bool:
    """Whether a builder's node is a compiled graph added as the node itself (:func:`as_node`)."""
    return isinstance(getattr(action, "graph", None), Pregel)


class SyncSubgraphCallRefused(NotSupportedError):
    """A plain ``def`` node that runs a subgraph, in a graph compiled over an async-only saver
    (``node``: its name)."""

    def __init__(self, node: str, saver: Any, *, as_node: bool = True) -> None:
        remedy = f", or add the compiled subgraph as the node itself (`add_node({node!r}, sub)`)"
        super().__init__(
            f"a plain `def` node that runs a subgraph (node {node!r}: `sub.invoke(...)`) over "
            f"{type(saver).__name__}, whose storage only has an async API (IndexedDB in the browser): "
            f"make the node `async def` and `await sub.ainvoke(...)`{remedy if as_node else ''}"
        )
        self.node = node


def refuse_sync_calls_over_async_io(nodes: Mapping[str, Node], saver: Any, *, as_node: bool = True) -> None:
    """A plain ``def`` node that runs a subgraph (``sub.invoke(...)``) waits for it without
    yielding to the event loop, and a saver whose storage is async-only (IndexedDB, in the browser)
    answers only through that loop: the call could never finish (it would raise ``WouldBlockError``
    at run time). Refused by name when the graph is compiled over such a saver (``as_node``: say that
    the subgraph may be added as the node itself; not for an ``@entrypoint``)."""
    holder = storage_saver(saver)
    if holder is None or getattr(holder.storage, "supports_sync", True):
        return
    for name, node in nodes.items():
        if node.subgraph is not None and node.func is not None and not is_async(node.func):
            raise SyncSubgraphCallRefused(name, holder, as_node=as_node)


def storage_saver(saver: Any) -> Any:
    """The saver that holds the storage (whose ``supports_sync`` says whether it can answer without
    an event loop; IndexedDB's cannot): ``saver``, or the one it wraps and keeps as ``saver`` (the
    lab controller's ``ProcessSaver``); ``None`` for a saver that is not the lab's."""
    while saver is not None and getattr(saver, "storage", None) is None:
        saver = getattr(saver, "saver", None)
    return saver
