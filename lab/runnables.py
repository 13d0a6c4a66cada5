"""``RunnableConfig``: the type LangChain gives a run config (``langchain_core.runnables``).

LangGraph's docs annotate a config with it (``config: RunnableConfig = {"configurable": {"thread_id":
"1"}}``). In ``lab`` a config is a plain dict (``lab.checkpoint.base.Config``); this ``TypedDict`` names
its keys only so that such a program runs where ``langchain_core`` is not installed: the playground
answers ``from langchain_core.runnables import RunnableConfig`` with this module there
(``lab.playground.langgraph_imports``).
"""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["RunnableConfig"]


class RunnableConfig(TypedDict, total=False):
    """A run config's keys, as LangChain types them (lab reads ``configurable`` and ``metadata``)."""

    configurable: dict[str, Any]
    metadata: dict[str, Any]
    tags: list[str]
    callbacks: Any
    run_name: str
    run_id: Any
    max_concurrency: int | None
    recursion_limit: int
