"""A compiled graph as plain data for the page's diagram: nodes (with what each does), edges, state.

LangGraph draws a graph with ``get_graph()`` / ``draw_mermaid()``; the lab's page draws its own SVG
from :func:`describe_graph`: the edges ``lab.graph.drawing`` finds the way ``get_graph()`` does, each
node's docstring's first line, the state's channels, and the traits a graph profile gives a node
(whether it calls the outside world or ``interrupt()``, for the crash picker and the badges). It
works for any compiled graph; what a graph's nodes do beyond LangGraph's surface only its profile
knows (``lab.controller.profile``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from lab.func import EntrypointGraph
from lab.graph import END, START, CompiledStateGraph
from lab.graph.drawing import diagram_edges

NodeTraits = Callable[[str, Callable[..., Any]], dict[str, Any]]
"""A node's traits from its name and function: at least ``calls_out`` and ``interrupts`` (bools)."""


def no_traits(name: str, fn: Callable[..., Any]) -> dict[str, Any]:
    """A node that neither calls the outside world nor ``interrupt()``."""
    return {"calls_out": False, "interrupts": False}


AnyGraph = CompiledStateGraph | EntrypointGraph
"""A graph a program builds: a compiled ``StateGraph`` or an ``@entrypoint`` (the Functional API)."""


def node_functions(graph: AnyGraph) -> dict[str, Callable[..., Any]]:
    """Each node's function as the program wrote it: a ``StateGraph``'s nodes as added, an
    ``@entrypoint``'s one node (named after it) its decorated function."""
    if isinstance(graph, EntrypointGraph):
        return dict.fromkeys(graph.nodes, graph.function)
    return dict(graph.builder.nodes)


def describe_graph(graph: AnyGraph, node_traits: NodeTraits = no_traits) -> dict[str, Any]:
    """``{"nodes", "edges", "joins", "conditional_edges", "state"}`` for the page's SVG diagram."""
    nodes = [{"id": START, "kind": "start"}]
    for name, fn in node_functions(graph).items():
        doc = inspect.getdoc(fn) or ""
        summary = doc.splitlines()[0] if doc else ""
        nodes.append({"id": name, "kind": "node", "summary": summary, **node_traits(name, fn)})
    nodes.append({"id": END, "kind": "end"})
    return {
        "nodes": nodes,
        **diagram_edges(graph),
        "state": [{"key": key, "channel": type(graph.channels[key]).__name__} for key in graph.state_keys],
    }
