"""Graph building, as ``langgraph.graph``: ``StateGraph``, ``START``, ``END``, ``MessagesState`` and
``add_messages``."""

from lab.graph.message import MessagesState, add_messages
from lab.graph.state import CompiledStateGraph, StateGraph
from lab.pregel.nodes import END, START

__all__ = ["END", "START", "CompiledStateGraph", "MessagesState", "StateGraph", "add_messages"]
