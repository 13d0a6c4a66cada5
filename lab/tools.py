"""The tool classes a LangGraph agent calls: ``langchain_core.tools``, or the lab's own twins.

LangGraph's ``ToolNode`` runs LangChain tools (``@tool``, ``StructuredTool``). Where
``langchain_core`` is importable (CPython, where it comes with LangGraph) this module gives those
very classes, so a lab graph and a LangGraph graph call the same tools; in the browser it gives the
pure-Python twins of ``lab.plain_tools`` (same names, ``args``, ``invoke`` and argument errors).
Import them from here::

    from lab.tools import tool

``ARGUMENT_ERRORS`` are the exceptions a tool raises for arguments that do not fit its signature
(Pydantic's ``ValidationError``, or the twin's), which ``ToolNode`` answers with an error message.
"""

from __future__ import annotations

from typing import Any

from lab import plain_tools
from lab.messages import USES_LANGCHAIN, langchain_or_twin

if USES_LANGCHAIN:
    from pydantic import ValidationError as _ValidationError

_source: Any = langchain_or_twin("tools", plain_tools)

BaseTool: Any = _source.BaseTool
StructuredTool: Any = _source.StructuredTool
ToolException: Any = _source.ToolException
tool: Any = _source.tool

TOOL_CLASSES: tuple[type, ...] = (BaseTool, plain_tools.BaseTool) if USES_LANGCHAIN else (BaseTool,)
"""What counts as a tool already (a function given to ``ToolNode`` is made one with ``tool``)."""

ARGUMENT_ERRORS: tuple[type[Exception], ...] = (
    (_ValidationError, plain_tools.ToolArgumentsError)
    if USES_LANGCHAIN
    else (plain_tools.ToolArgumentsError,)
)

__all__ = [
    "ARGUMENT_ERRORS",
    "TOOL_CLASSES",
    "USES_LANGCHAIN",
    "BaseTool",
    "StructuredTool",
    "ToolException",
    "tool",
]
