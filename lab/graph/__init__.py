"""Graph building, as ``langgraph.graph``: ``StateGraph``, ``START`` and ``END``."""

from lab.graph.state import CompiledStateGraph, StateGraph
from lab.pregel.nodes import END, START

__all__ = ["END", "START", "CompiledStateGraph", "StateGraph"]
