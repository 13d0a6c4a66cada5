"""The AML investigation compiled by real LangGraph: the same ``build_graph`` code, LangGraph's classes.

``lab.aml.graph`` takes ``StateGraph``, ``START``, ``END``, ``interrupt`` and ``get_config`` from
``lab``. While :func:`aml_graph` lasts, the module takes LangGraph's instead, so ``build_graph``
compiles a LangGraph ``CompiledStateGraph`` over any LangGraph checkpointer, and its nodes call
LangGraph's ``interrupt()`` and read LangGraph's ``get_config()``. That is how a thread exported from
the lab page continues in a Python process with LangGraph (the page's "Export for LangGraph")::

    async with AsyncSqliteSaver.from_conn_string("checkpoints.db") as saver:
        with aml_graph("fixed", saver, "case-1") as graph:
            await graph.ainvoke(Command(resume={"approved": True}), config)

CPython only, with the ``[interop]`` extra; nothing in ``lab`` imports this module.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

import lab.aml.graph as aml
from lab.world import MemoryWorld, World


def langgraph_names() -> dict[str, Any]:
    """What ``lab.aml.graph`` takes from ``lab``, as LangGraph names it."""
    import langgraph.config
    import langgraph.graph
    import langgraph.types

    return {
        "StateGraph": langgraph.graph.StateGraph,
        "START": langgraph.graph.START,
        "END": langgraph.graph.END,
        "interrupt": langgraph.types.interrupt,
        "get_config": langgraph.config.get_config,
    }


@contextlib.contextmanager
def aml_graph(
    variant: aml.Variant,
    checkpointer: Any,
    thread_id: str,
    *,
    world: World | None = None,
    names: Mapping[str, Any] | None = None,
) -> Iterator[Any]:
    """The AML graph of ``variant`` compiled by LangGraph with ``checkpointer``, its nodes knowing
    their thread (``thread_id``) and calling ``world`` (a fresh in-memory one by default). ``names``
    replaces :func:`langgraph_names` (a test's counting ``StateGraph``, say). Use it inside the
    ``with``: ``lab.aml.graph`` gets its own names back on exit."""
    swapped = dict(names or langgraph_names())
    own = {name: getattr(aml, name) for name in swapped}
    token = aml.use_run_context(aml.RunContext(thread_id))
    try:
        for name, value in swapped.items():
            setattr(aml, name, value)
        yield aml.build_graph(world or MemoryWorld(), variant, checkpointer=checkpointer, delay=0)
    finally:
        for name, value in own.items():
            setattr(aml, name, value)
        aml.reset_run_context(token)
