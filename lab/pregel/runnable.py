"""A compiled graph as a LangChain ``Runnable``: what ``graph | other`` composes (LangGraph's ``Pregel``
is a ``Runnable``, so ``graph | RunnablePassthrough()`` is a ``RunnableSequence``).

The lab's graphs are not ``Runnable`` subclasses (``langchain_core`` is not in the browser); where it
is installed, ``Pregel.__or__``/``__ror__`` wrap the graph in the class :func:`graph_runnable_class`
makes, whose ``invoke``, ``stream`` and their async twins are the graph's own (``transform``,
LangChain's default, streams the graph on its whole input). The class is made when a graph is piped,
so that importing this module never needs ``langchain_core`` (the browser's snapshot imports it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any


def graph_runnable_class() -> type:
    """``GraphRunnable``, a LangChain ``Runnable`` running a compiled graph (``ImportError`` where
    ``langchain_core`` is not installed)."""
    from langchain_core.runnables import Runnable

    class GraphRunnable(Runnable[Any, Any]):
        """A compiled graph, run by LangChain as a step of a ``RunnableSequence``."""

        def __init__(self, graph: Any) -> None:
            self.graph = graph
            self.name = getattr(graph, "name", "LangGraph")

        def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
            return self.graph.invoke(input, config, **kwargs)

        async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
            return await self.graph.ainvoke(input, config, **kwargs)

        def stream(self, input: Any, config: Any = None, **kwargs: Any) -> Iterator[Any]:
            yield from self.graph.stream(input, config, **kwargs)

        async def astream(self, input: Any, config: Any = None, **kwargs: Any) -> AsyncIterator[Any]:
            async for chunk in self.graph.astream(input, config, **kwargs):
                yield chunk

    return GraphRunnable
